// Package pdf reads PDFs with MuPDF (C, through cgo): page count, the words
// of a page with their boxes, and a page rendered to grey pixels. MuPDF's
// headers are vendored under third_party/mupdf; its libraries come from
// go-fitz. MuPDF reads hostile files: run this in a worker process
// (extract/worker), never in the server.
//
// Three things are not left to the file. Pages are counted by walking the
// page tree, not by its /Count. Decoded streams are capped (Caps): the
// link step wraps MuPDF's Flate and LZW decoders and its content-stream
// opener (-Wl,--wrap) with a counting stream, so a few KB that inflate to
// a gigabyte fail with source.ErrTooLarge in a fraction of a second. And
// MuPDF contexts are reused: a worker process builds one and keeps it,
// with a fresh document for each job.
package pdf

/*
#cgo CFLAGS: -I${SRCDIR}/third_party/mupdf/include
#cgo LDFLAGS: -Wl,--wrap=fz_open_flated -Wl,--wrap=fz_open_lzwd -Wl,--wrap=pdf_open_contents_stream
#include <malloc.h>
#include <stdlib.h>
#include "mupdf.h"
*/
import "C"

import (
	"fmt"
	"image"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"passbook/extract/source"

	// go-fitz links the static MuPDF libraries that mupdf.c calls into.
	_ "github.com/gen2brain/go-fitz"
)

// maxRenderPixels bounds one rendered page (about 12,000 x 12,000 grey pixels).
const maxRenderPixels = 150_000_000

// Caps bound what one document may expand to when its compressed streams
// are decoded. Past one of them, the operation under way fails with
// source.ErrTooLarge.
type Caps struct {
	// Stream bounds each Flate or LZW stream's decoded bytes.
	Stream int64
	// Content bounds each content stream a page or form runs (its
	// operators, after decoding).
	Content int64
	// DocBase and DocPerPage bound all of a document's decoded bytes:
	// DocBase before its pages are counted, plus DocPerPage for each page.
	DocBase, DocPerPage int64
}

// DefaultCaps are the caps in force unless SetCaps changed them.
func DefaultCaps() Caps { return defaultCaps }

var defaultCaps = currentCaps()

func currentCaps() Caps {
	c := C.pb_get_caps()
	return Caps{Stream: int64(c.stream), Content: int64(c.content), DocBase: int64(c.doc_base), DocPerPage: int64(c.doc_per_page)}
}

// SetCaps changes the caps for documents opened from now on, process-wide
// (tests lower them).
func SetCaps(c Caps) {
	C.pb_set_caps(C.pb_caps{stream: C.size_t(c.Stream), content: C.size_t(c.Content), doc_base: C.size_t(c.DocBase), doc_per_page: C.size_t(c.DocPerPage)})
}

// SetMaxPages bounds the pages of documents opened from now on,
// process-wide (0: no bound but the page tree's own): Open stops walking
// the page tree at the first page past it and fails with
// source.ErrTooManyPages, so a document of 100,000 pages is refused in
// milliseconds. A worker sets the server's page limit.
func SetMaxPages(n int) { C.pb_set_max_pages(C.int(max(n, 0))) }

// ReleaseMemory gives the C heap's free memory back to the system
// (malloc_trim). A worker calls it when it goes idle: workers run with a
// high trim threshold (see extract/worker), so that MuPDF's allocations
// are reused from one page to the next instead of being returned and
// faulted in again.
func ReleaseMemory() { C.malloc_trim(0) }

// TuneMalloc sets, for a conversion in this process, what the worker pool
// sets in its workers' environment (MALLOC_TRIM_THRESHOLD_,
// MALLOC_ARENA_MAX): the C heap keeps up to 16 MB free in one arena
// instead of returning every 128 KB that MuPDF frees at the end of a page
// and faulting it in again on the next. The command line converts in its
// own process, where it made a 50-page statement ~15% cheaper in CPU
// (perf stat, same run).
func TuneMalloc() {
	C.mallopt(C.M_TRIM_THRESHOLD, 16<<20)
	C.mallopt(C.M_ARENA_MAX, 1)
}

// ContextsMade counts the MuPDF contexts this process has built: one per
// document opened at the same time, not one per document.
func ContextsMade() int { return int(C.pb_contexts_made()) }

// Doc is an open PDF with a MuPDF context of its own while it is open. It
// is not safe for concurrent use: MuPDF contexts are single-threaded.
type Doc struct {
	d     *C.pb_doc
	pages int
}

// Open opens a PDF from memory. A document that needs a password and was
// given none or a wrong one fails with source.ErrPassword; one MuPDF cannot
// read fails with source.ErrCorrupt.
func Open(data []byte, password string) (*Doc, error) {
	if len(data) == 0 {
		return nil, source.ErrCorrupt
	}
	var cerr C.int
	var msg [256]C.char
	cpw := C.CString(password)
	defer C.free(unsafe.Pointer(cpw))
	d := C.pb_open((*C.uchar)(unsafe.Pointer(&data[0])), C.size_t(len(data)), cpw, &cerr, &msg[0], C.size_t(len(msg)))
	if d == nil {
		switch cerr {
		case C.PB_ERR_PASSWORD:
			return nil, source.ErrPassword
		case C.PB_ERR_NOMEM:
			return nil, fmt.Errorf("open pdf: %w", source.ErrLimit)
		case C.PB_ERR_PAGES:
			return nil, fmt.Errorf("open pdf: %s: %w", C.GoString(&msg[0]), source.ErrTooManyPages)
		case C.PB_ERR_BOMB, C.PB_ERR_TOO_LARGE:
			return nil, fmt.Errorf("open pdf: %s: %w", C.GoString(&msg[0]), source.ErrTooLarge)
		default:
			return nil, fmt.Errorf("open pdf: %s: %w", C.GoString(&msg[0]), source.ErrCorrupt)
		}
	}
	return &Doc{d: d, pages: int(C.pb_page_count(d))}, nil
}

// Close releases the document and its context.
func (p *Doc) Close() {
	if p.d != nil {
		C.pb_close(p.d)
		p.d = nil
	}
}

// PageCount is the number of pages found in the page tree, whatever the
// document claims.
func (p *Doc) PageCount() int { return p.pages }

// Inflated is how many bytes the document's streams have decoded to so far.
func (p *Doc) Inflated() int64 { return int64(C.pb_inflated(p.d)) }

// pageError turns a failed page operation's code into an error.
func pageError(what string, page int, rc C.int, msg *C.char) error {
	switch rc {
	case C.PB_ERR_BOMB:
		return fmt.Errorf("%s %d: %s: %w", what, page+1, C.GoString(msg), source.ErrTooLarge)
	case C.PB_ERR_TOO_LARGE:
		return fmt.Errorf("%s %d: %w", what, page+1, source.ErrTooLarge)
	}
	return fmt.Errorf("%s %d: %s: %w", what, page+1, C.GoString(msg), source.ErrCorrupt)
}

// rawChar is one character from MuPDF's structured text.
type rawChar struct {
	r              rune
	line           int
	x0, y0, x1, y1 float64
}

// Words reads page (0-based) as words with boxes in points, top-left origin.
func (p *Doc) Words(page int) (source.Page, error) {
	pg := source.Page{Number: page + 1}
	if page < 0 || page >= p.pages {
		return pg, fmt.Errorf("page %d: %w", page+1, source.ErrCorrupt)
	}
	var out *C.pb_char
	var n C.int
	var w, h C.float
	var msg [256]C.char
	rc := C.pb_page_chars(p.d, C.int(page), &out, &n, &w, &h, &msg[0], C.size_t(len(msg)))
	if rc != C.PB_OK {
		return pg, pageError("page", page, rc, &msg[0])
	}
	defer C.pb_free(unsafe.Pointer(out))
	pg.Width, pg.Height = float64(w), float64(h)
	if n == 0 {
		return pg, nil
	}
	cs := unsafe.Slice(out, int(n))
	pg.Words = groupWords(len(cs), func(i int) rawChar {
		c := &cs[i]
		return rawChar{rune(c.c), int(c.line), float64(c.x0), float64(c.y0), float64(c.x1), float64(c.y1)}
	})
	return pg, nil
}

// groupWords joins the characters of each text line into words, breaking on
// white space and on horizontal gaps wider than a narrow space. It reads
// the n characters through char (from MuPDF's array, not a copy of it) in
// two passes: the first finds the words and the bytes of their text, so
// that the second fills a slice made to size, and every word's text is a
// piece of one string per page. A page's words live as long as the
// conversion, and were its largest allocation: a copy of the characters,
// a slice grown by doubling and a string per word.
func groupWords(n int, char func(i int) rawChar) []source.Word {
	if chars := visualOrder(n, char); chars != nil {
		n, char = len(chars), func(i int) rawChar { return chars[i] }
	}
	var words []source.Word
	var text []byte
	var ends []int // where each word's text ends in text
	for pass := 0; pass < 2; pass++ {
		count, size := 0, 0
		var w source.Word
		open := false
		flush := func() {
			if open {
				if pass == 1 {
					words[count] = w
					ends[count] = size
				}
				count++
			}
			open = false
		}
		var prev rawChar
		for i := 0; i < n; i++ {
			c := char(i)
			if i > 0 && prev.line != c.line {
				flush()
			}
			prev = c
			if unicode.IsSpace(c.r) || c.r == 0 || c.r == 0xFFFD && c.x1-c.x0 <= 0 {
				flush()
				continue
			}
			if open {
				hgt := max(w.Y1-w.Y0, c.y1-c.y0)
				gap := c.x0 - w.X1
				if gap > 0.2*hgt || gap < -0.5*hgt {
					flush()
				}
			}
			if !open {
				w = source.Word{X0: c.x0, Y0: c.y0, X1: c.x1, Y1: c.y1}
				open = true
			} else {
				w.X0, w.Y0 = min(w.X0, c.x0), min(w.Y0, c.y0)
				w.X1, w.Y1 = max(w.X1, c.x1), max(w.Y1, c.y1)
			}
			if pass == 1 {
				text = utf8.AppendRune(text, c.r)
				size = len(text)
			} else {
				size += runeLen(c.r)
			}
		}
		flush()
		if pass == 0 {
			if count == 0 {
				return nil
			}
			words = make([]source.Word, count)
			ends = make([]int, count)
			text = make([]byte, 0, size)
		}
	}
	// One string for the page's text; each word's text is a piece of it.
	all := string(text)
	off := 0
	for i := range words {
		words[i].Text = all[off:ends[i]]
		off = ends[i]
		if rtl := []rune(words[i].Text); rtlClass(rtl[0]) || rtlClass(rtl[len(rtl)-1]) {
			words[i].Text = string(logicalText(rtl))
		}
	}
	return words
}

// runeLen is the length of r in UTF-8 as utf8.AppendRune writes it
// (an invalid rune as U+FFFD).
func runeLen(r rune) int {
	if l := utf8.RuneLen(r); l > 0 {
		return l
	}
	return utf8.RuneLen(utf8.RuneError)
}

// Created is when the document says it was made: its XMP CreateDate,
// else its Info dictionary's CreationDate; zero when it says neither or
// nothing that reads as a date.
func (p *Doc) Created() time.Time {
	var info [128]C.char
	var xmp *C.uchar
	var n C.size_t
	if C.pb_created(p.d, &info[0], C.size_t(len(info)), &xmp, &n) != C.PB_OK {
		return time.Time{}
	}
	var packet []byte
	if xmp != nil {
		packet = C.GoBytes(unsafe.Pointer(xmp), C.int(n))
		C.pb_free(unsafe.Pointer(xmp))
	}
	if t, ok := xmpCreated(packet); ok {
		return t
	}
	t, _ := infoDate(C.GoString(&info[0]))
	return t
}

// MadeByOCR reports a document whose Info dictionary names, as its
// producer or creator, software that recognises scanned pages and lays an
// invisible text layer over them (Acrobat's Paper Capture, OCRmyPDF,
// ABBYY FineReader...): its text is recognition's, with recognition's
// misreadings.
func (p *Doc) MadeByOCR() bool {
	var out [512]C.char
	if C.pb_made_by(p.d, &out[0], C.size_t(len(out))) != C.PB_OK {
		return false
	}
	return ocrSoftware().MatchString(C.GoString(&out[0]))
}

// Meta is what the document's Info dictionary says of its title, author,
// creator and producer (empty where it says nothing). extract reads a
// bank's name from them when the page prints it too.
func (p *Doc) Meta() source.Meta {
	get := func(key string) string {
		var out [512]C.char
		ck := C.CString(key)
		defer C.free(unsafe.Pointer(ck))
		if C.pb_info(p.d, ck, &out[0], C.size_t(len(out))) != C.PB_OK {
			return ""
		}
		return strings.TrimSpace(C.GoString(&out[0]))
	}
	return source.Meta{Title: get("info:Title"), Author: get("info:Author"), Creator: get("info:Creator"), Producer: get("info:Producer")}
}

// ocrSoftware matches the producer or creator names of recognition
// software.
var ocrSoftware = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bocr|paper capture|tesseract|abbyy|finereader|omnipage|readiris|scansnap|clearscan`)
})

// xmpCreateDate finds xmp:CreateDate as an element or an attribute.
var xmpCreateDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`xmp:CreateDate(?:>|\s*=\s*["'])\s*([0-9]{4}-[0-9]{2}-[0-9]{2})`)
})

// xmpCreated reads an XMP packet's xmp:CreateDate (its day).
func xmpCreated(packet []byte) (time.Time, bool) {
	m := xmpCreateDate().FindSubmatch(packet)
	if m == nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, string(m[1]))
	return t, err == nil
}

// infoDate reads a PDF date ("D:20240115103000+01'00'", the "D:" and all
// but the day optional) as its day.
func infoDate(s string) (time.Time, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "D:")
	if len(s) < 8 {
		return time.Time{}, false
	}
	t, err := time.Parse("20060102", s[:8])
	return t, err == nil
}

// PageSize is page's (0-based) width and height in points.
func (p *Doc) PageSize(page int) (w, h float64, err error) {
	if page < 0 || page >= p.pages {
		return 0, 0, fmt.Errorf("page %d: %w", page+1, source.ErrCorrupt)
	}
	var cw, ch C.float
	var msg [256]C.char
	if rc := C.pb_page_size(p.d, C.int(page), &cw, &ch, &msg[0], C.size_t(len(msg))); rc != C.PB_OK {
		return 0, 0, pageError("page", page, rc, &msg[0])
	}
	return float64(cw), float64(ch), nil
}

// RenderGray renders page (0-based) at dpi straight into an 8-bit grey image.
func (p *Doc) RenderGray(page int, dpi float64) (*image.Gray, error) {
	if page < 0 || page >= p.pages {
		return nil, fmt.Errorf("page %d: %w", page+1, source.ErrCorrupt)
	}
	var out *C.uchar
	var w, h, stride C.int
	var msg [256]C.char
	rc := C.pb_render_gray(p.d, C.int(page), C.float(dpi), C.long(maxRenderPixels), &out, &w, &h, &stride, &msg[0], C.size_t(len(msg)))
	if rc != C.PB_OK {
		return nil, pageError("render page", page, rc, &msg[0])
	}
	defer C.pb_free(unsafe.Pointer(out))
	img := image.NewGray(image.Rect(0, 0, int(w), int(h)))
	src := unsafe.Slice((*byte)(unsafe.Pointer(out)), int(stride)*int(h))
	for y := 0; y < int(h); y++ {
		copy(img.Pix[y*img.Stride:y*img.Stride+int(w)], src[y*int(stride):])
	}
	return img, nil
}
