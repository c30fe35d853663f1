package extract

import (
	"bytes"
	"fmt"
	"image"
	"slices"
)

// maxPages bounds the pages of one document.
const maxPages = 2000

// ocrDPI is the resolution at which PDF pages without a text layer are
// rendered for recognition (NOTES.md: 200 DPI reads as well as 300 and is cheaper).
const ocrDPI = 200

// Info is what Probe learns about a document without converting it.
type Info struct {
	// Kind is "pdf", "png", "jpeg", "tiff" or "webp".
	Kind string `json:"kind"`
	// PageCount is the number of pages (frames for images).
	PageCount int `json:"page_count"`
}

// sniff names the type of data from its first bytes, "" when unknown.
func sniff(data []byte) string {
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return "tiff"
	case len(data) >= 12 && bytes.Equal(data[:4], []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP")):
		return "webp"
	case bytes.Contains(head, []byte("%PDF-")):
		// Some writers put junk before the header; readers accept it within the first KiB.
		return "pdf"
	}
	return ""
}

// Probe reads the type and page count of data. A PDF that needs a password
// it was not given fails with ErrPassword.
func Probe(data []byte, password string) (Info, error) {
	kind := sniff(data)
	switch kind {
	case "":
		return Info{}, ErrUnsupported
	case "pdf":
		doc, err := openPDF(data, password)
		if err != nil {
			return Info{}, err
		}
		defer doc.Close()
		if doc.PageCount() == 0 {
			return Info{}, fmt.Errorf("pdf has no pages: %w", ErrCorrupt)
		}
		return Info{Kind: kind, PageCount: doc.PageCount()}, nil
	default:
		n, err := imagePageCount(data)
		if err != nil {
			return Info{}, err
		}
		return Info{Kind: kind, PageCount: n}, nil
	}
}

// Convert reads every page of a PDF or image and returns its transactions
// and statement summary.
func Convert(data []byte, opts Options) (*Result, error) {
	var pages []Page
	var warnings []string
	var err error
	switch sniff(data) {
	case "":
		return nil, ErrUnsupported
	case "pdf":
		pages, warnings, err = pdfPages(data, opts)
	default:
		pages, err = imagePages(data, opts)
	}
	if err != nil {
		return nil, err
	}
	res := analyze(pages)
	res.PageCount = len(pages)
	if slices.ContainsFunc(pages, func(p Page) bool { return p.OCR }) {
		// The running balance catches what recognition commonly gets
		// wrong: a lost minus, a misread digit.
		applyOCRRepairs(res)
	}
	res.Statement.Warnings = append(res.Statement.Warnings, warnings...)
	return res, nil
}

// ocrPage recognises a rendered page; a variable so tests can make it fail.
var ocrPage = ocrImage

// nearlyBlank reports a rendered page with almost no ink: a separator page,
// or one that holds only a page number or a stamp.
func nearlyBlank(g *image.Gray) bool {
	b := g.Bounds()
	if b.Empty() {
		return true
	}
	dark := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := g.Pix[(y-b.Min.Y)*g.Stride : (y-b.Min.Y)*g.Stride+b.Dx()]
		for _, p := range row {
			if p < 128 {
				dark++
			}
		}
	}
	return float64(dark) < 0.005*float64(b.Dx()*b.Dy())
}

// pdfPages reads the words of each page, recognising pages that have no
// text layer. A nearly blank page that recognition fails on keeps what its
// text layer holds, with a warning, rather than failing the document.
func pdfPages(data []byte, opts Options) ([]Page, []string, error) {
	doc, err := openPDF(data, opts.Password)
	if err != nil {
		return nil, nil, err
	}
	defer doc.Close()
	n := doc.PageCount()
	if n == 0 {
		return nil, nil, fmt.Errorf("pdf has no pages: %w", ErrCorrupt)
	}
	if n > maxPages {
		return nil, nil, fmt.Errorf("%d pages: %w", n, ErrTooLarge)
	}
	pages := make([]Page, 0, n)
	var warnings []string
	for i := 0; i < n; i++ {
		pg, err := doc.words(i)
		if err != nil {
			return nil, nil, err
		}
		if !hasTextLayer(pg) {
			img, err := doc.renderGray(i, ocrDPI)
			if err != nil {
				return nil, nil, err
			}
			opg, err := ocrPage(img, ocrDPI, i+1)
			switch {
			case err != nil && nearlyBlank(img):
				warnings = append(warnings, fmt.Sprintf("page %d: text recognition failed on a nearly blank page; only its text layer was read (%v)", i+1, err))
			case err != nil:
				return nil, nil, fmt.Errorf("ocr page %d: %w", i+1, err)
			default:
				opg.Number = i + 1
				pg = opg
			}
		}
		pages = append(pages, pg)
		if opts.Progress != nil {
			opts.Progress(i+1, n)
		}
	}
	return pages, warnings, nil
}

// hasTextLayer reports whether a page carries enough real text to read
// without OCR; a scan with an invisible page number or stamp does not.
func hasTextLayer(pg Page) bool {
	chars := 0
	for _, w := range pg.Words {
		for _, r := range w.Text {
			if r != 0xFFFD {
				chars++
			}
		}
	}
	return chars >= 20
}

// imagePages recognises every frame of an image file.
func imagePages(data []byte, opts Options) ([]Page, error) {
	imgs, err := decodeImage(data)
	if err != nil {
		return nil, err
	}
	if len(imgs) > maxPages {
		return nil, fmt.Errorf("%d frames: %w", len(imgs), ErrTooLarge)
	}
	pages := make([]Page, 0, len(imgs))
	for i, img := range imgs {
		pg, err := ocrImage(img, 0, i+1)
		if err != nil {
			return nil, fmt.Errorf("ocr page %d: %w", i+1, err)
		}
		pg.Number = i + 1
		pages = append(pages, pg)
		imgs[i] = nil // let the pixels go once read
		if opts.Progress != nil {
			opts.Progress(i+1, len(imgs))
		}
	}
	return pages, nil
}
