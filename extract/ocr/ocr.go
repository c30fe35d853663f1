// Package ocr reads the words of page images with Tesseract (C++, through
// cgo and gosseract): it decodes PNG, JPEG, TIFF and WebP files into pages,
// cleans each page up (crop, contrast, orientation, deskew) and recognises
// it. Tesseract reads hostile pixels: run this in a worker process.
package ocr

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/otiai10/gosseract/v2"

	"passbook/extract/language"
	"passbook/extract/source"
)

// models are Tesseract's "fast" LSTM models (Debian's tesseract-ocr-eng,
// -deu, -fra, -spa, -ita, -por and -nld, and for the scripts other than
// Latin -rus, -ell, -ara, -heb, -hin, -tha, -chi-sim, -chi-tra, -jpn and
// -kor; make models copies them here), embedded so a server with no
// tessdata installed still reads scans: English for every page, the
// language of the lexicon a page's words are in beside it, for its
// accents, and the model of the script a page is printed in (script.go).
//
//go:embed tessdata/*.traineddata
var models embed.FS

// OCR resolution bounds: Tesseract reads statement print best with capital
// letters 20–40 pixels tall. Below minOCRDPI an image is enlarged to
// lowOCRDPI; above maxOCRDPI it is reduced to highOCRDPI, which reads as
// well and costs less.
const (
	minOCRDPI  = 170
	lowOCRDPI  = 250
	maxOCRDPI  = 360
	highOCRDPI = 300
)

// minOCRSide is the smallest width or height, in pixels, worth reading.
const minOCRSide = 16

// tess holds the process's Tesseract instances. Loading a model costs
// more than reading a small page, so an instance is made on first use and
// kept. A worker reads one page at a time and so keeps one per language
// set; a process that reads pages in parallel (the corpus evaluations)
// keeps one per page read at once, since an instance reads one image at
// a time.
var tess struct {
	mu sync.Mutex
	// idle holds, per language set ("eng", "eng+fra"), the instances no
	// page is being read with.
	idle map[string][]*gosseract.Client
}

// takeClient takes an idle instance for langs, nil when there is none.
func takeClient(langs string) *gosseract.Client {
	tess.mu.Lock()
	defer tess.mu.Unlock()
	cs := tess.idle[langs]
	if len(cs) == 0 {
		return nil
	}
	c := cs[len(cs)-1]
	tess.idle[langs] = cs[:len(cs)-1]
	return c
}

// putClient gives an instance back for the next page.
func putClient(langs string, c *gosseract.Client) {
	tess.mu.Lock()
	defer tess.mu.Unlock()
	if tess.idle == nil {
		tess.idle = map[string][]*gosseract.Client{}
	}
	tess.idle[langs] = append(tess.idle[langs], c)
}

// dropClients closes the idle instances of langs, to give back the
// memory of their model.
func dropClients(langs string) {
	tess.mu.Lock()
	cs := tess.idle[langs]
	delete(tess.idle, langs)
	tess.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
}

// Read cleans up one page image (orientation, deskew, contrast, crop) and reads its words.
// dpi is the image's resolution when known (rendered PDF pages), 0 to estimate it. Word boxes are returned
// in points (px * 72 / dpi) with top-left origin, Page.OCR = true.
func Read(img image.Image, dpi float64, pageNo int) (source.Page, error) {
	pg, _, err := ReadPrepared(img, dpi, pageNo)
	return pg, err
}

// ReadPrepared is Read that also hands back the page image the words
// were recognised on: cropped, scaled, its contrast flattened, turned and
// deskewed. The words' boxes are in its pixels, at pg.Width/Bounds().Dx()
// points a pixel; extract/redact paints on it. nil for a page too small
// to read.
func ReadPrepared(img image.Image, dpi float64, pageNo int) (source.Page, *image.Gray, error) {
	if b := img.Bounds(); b.Dx() < minOCRSide || b.Dy() < minOCRSide {
		// Too small to hold a line of print; Tesseract would only warn.
		return source.Page{Number: pageNo, OCR: true}, nil, nil
	}
	g, dpi, warnings := preparePage(toGray(img), dpi)
	// Preparing a page leaves several copies of it behind (decoded,
	// grey, cropped or warped, turned, enlarged): the heap they grew is
	// handed back before Tesseract's instances take their share, or a
	// worker's peak holds both.
	debug.FreeOSMemory()
	pg, g, err := readPreparedImage(g, dpi, pageNo, readOptions{blockFigures: true, reread: true, cpu: pageCPU})
	pg.Warnings = append(warnings, pg.Warnings...)
	return pg, g, err
}

// Thresholds of pageQuality below which a page is said to be too dark or
// out of focus to trust. Clean renders measure paper 255 and sharpness
// 0.5–0.65; phone photos 252 and 0.38–0.46; small screenshots enlarged
// for reading 0.22–0.36; a clean page blurred three times over 0.17–0.31,
// twelve times about 0.15.
const (
	darkPaper = 120
	blurSharp = 0.19
)

// readOptions choose the passes readPrepared makes; Read makes them all,
// and make ocr-verbatim measures what each adds.
type readOptions struct {
	// blockFigures reads the page a second time in block mode and takes
	// the figures the sparse reading cut or garbled from it (vote.go).
	blockFigures bool
	// reread reads figures in doubt again on their own crops (reread.go).
	reread bool
	// cpu bounds the CPU of the passes after the first (clock.go); 0
	// for none.
	cpu time.Duration
}

// tooSlow is the warning on a page whose reading ran out of its CPU
// budget before its later passes.
const tooSlow = "the page took too long to read to be read more than once: its figures and accents may be misread; a sharper, smaller scan of the page (200 to 300 dpi) reads better"

// readPrepared recognises a prepared page, with the model of its script
// or language beside English, turning it over or a quarter when it reads
// poorly as it stands. The passes after the first are made while the
// page's CPU budget allows (clock.go).
func readPrepared(g *image.Gray, dpi float64, pageNo int, opt readOptions) (source.Page, error) {
	pg, _, err := readPreparedImage(g, dpi, pageNo, opt)
	return pg, err
}

// readPreparedImage is readPrepared with the image read, turned as it
// was read.
func readPreparedImage(g *image.Gray, dpi float64, pageNo int, opt readOptions) (source.Page, *image.Gray, error) {
	clock := &pageClock{budget: opt.cpu}
	var words []ocrWord
	var conf float64
	if err := clock.run(func() (err error) {
		words, conf, err = recognize(g, dpi, "eng", psmSparse)
		return err
	}); err != nil {
		return source.Page{}, nil, err
	}
	m := ""
	readScript := func() (err error) {
		// A page in another script (script.go) is read with its model
		// beside English.
		var share float64
		if m, share, err = pageScript(g, dpi, words); err != nil || m == "" {
			return err
		}
		eng := words
		if words, conf, err = recognize(g, dpi, scriptLangs(m, share), psmSparse); err != nil {
			return err
		}
		keepEnglish(words, eng)
		return nil
	}
	if clock.affords() {
		if err := clock.run(readScript); err != nil {
			return source.Page{}, nil, err
		}
	}
	if conf < uprightConf && len(words) > 0 && clock.affords() {
		// Poorly read, in its script's model too: the page may be turned
		// (upright.go).
		if err := clock.run(func() error {
			turned, words2, conf2, err := turnUpright(g, dpi, words, conf)
			if err != nil || turned == g {
				return err
			}
			g, words, conf = turned, words2, conf2
			return readScript()
		}); err != nil {
			return source.Page{}, nil, err
		}
	}
	if lang := pageLanguage(words); m == "" && lang != "" && clock.affords() {
		// A page in another language the lexicon knows is read again with
		// that language's model beside English: its accents and letters
		// ("Prélèvement", "Weiß") come out as printed.
		if err := clock.run(func() (err error) {
			words, _, err = recognize(g, dpi, "eng+"+lang, psmSparse)
			return err
		}); err != nil {
			return source.Page{}, nil, err
		}
	}
	if opt.blockFigures && suspectFigures(words) > 0 && clock.affords() {
		// Figures as the block mode reads them where the sparse mode cut
		// or garbled them (vote.go). Figures need no accents: English. A
		// page whose figures all came back whole is read once. The block
		// mode too may cut a figure after its thousands mark.
		if err := clock.run(func() error {
			block, _, err := recognize(g, dpi, "eng", psmBlock)
			words = mergeFigures(words, joinCutThousands(block))
			return err
		}); err != nil {
			return source.Page{}, nil, err
		}
	}
	words = joinCutThousands(words)
	if opt.reread && clock.affords() {
		// Figures the readings disagree on, or that none read whole, are
		// read again on their own crops (reread.go).
		if err := clock.run(func() (err error) {
			words, err = rereadFigures(g, dpi, words, figureDoubts(words))
			return err
		}); err != nil {
			return source.Page{}, nil, err
		}
	}
	words = lostDashes(g, words)
	k := 72 / dpi
	pg := source.Page{
		Number: pageNo,
		Width:  float64(g.Rect.Dx()) * k,
		Height: float64(g.Rect.Dy()) * k,
		OCR:    true,
	}
	if clock.skipped {
		pg.Warnings = append(pg.Warnings, tooSlow)
	}
	repairAmounts(words)
	repairDates(words)
	lineHeights(words)
	for _, w := range words {
		pg.Words = append(pg.Words, source.Word{
			Text: w.text,
			X0:   float64(w.box.Min.X) * k, Y0: float64(w.box.Min.Y) * k,
			X1: float64(w.box.Max.X) * k, Y1: float64(w.box.Max.Y) * k,
			Conf: max(w.conf, 1),
		})
	}
	return pg, g, nil
}

// uprightConf is the mean word confidence below which a page is read again
// upside down. Upright statement pages (dev corpus scans and photos,
// generated statements) read at 91–95; the same pages upside down at 22–30.
const uprightConf = 70

// preparePage turns a page image into what Tesseract reads best: background
// around a photographed page cropped away, resolution brought into range,
// lighting flattened, text turned upright and deskewed, a PDF page's
// print too small for Tesseract enlarged (glyphs.go). It returns the
// image, its resolution and warnings on a page too dark or out of focus
// to trust, or photographed with part of it out of the picture.
func preparePage(g *image.Gray, dpi float64) (*image.Gray, float64, []string) {
	crop := cropBackground(g)
	var warnings []string
	if sides := cutOffSides(g, crop); len(sides) > 0 {
		warnings = append(warnings, "the photo cuts the page off at the "+strings.Join(sides, " and ")+": rows printed beyond it are missing; a photo with the whole page and some of the desk around it in view reads them")
	}
	if q, ok := pageQuad(g); ok {
		// A photo of the page in perspective: straightened
		// (perspective.go), which leaves no desk to crop.
		g = warpQuad(g, q)
	} else {
		g = cropGray(g, crop)
	}
	rendered := dpi > 0 // a PDF's page, drawn at a resolution we chose
	if dpi <= 0 {
		dpi = estimateDPI(g.Rect.Dx(), g.Rect.Dy())
	}
	switch {
	case dpi < minOCRDPI:
		g = upscaleGray(g, lowOCRDPI/dpi)
		dpi = lowOCRDPI
	case dpi > maxOCRDPI:
		g = scaleGray(g, highOCRDPI/dpi)
		dpi = highOCRDPI
	}
	switch paper, sharp := pageQuality(g); {
	case paper < darkPaper:
		warnings = append(warnings, "the image is mostly dark: its figures may be misread; a brighter photo or a scan reads better")
	case sharp < blurSharp:
		warnings = append(warnings, "the image is out of focus: its figures may be misread; a sharper photo or a scan reads better")
	}
	normalizeContrast(g, dpi)
	g = orient(g, dpi)
	if f := glyphScale(glyphHeight(g), g.Rect.Dx(), g.Rect.Dy()); rendered && f > 1 {
		// A PDF's page whose print is too small for its pixels, whatever
		// its resolution says (small type, a scan embedded at low
		// resolution). Measured upright: on its side, a line's characters
		// measure their widths. Not a photo's: its noise measures as
		// small print, and enlarged it read figures worse (eval-world).
		g = upscaleGray(g, f)
		dpi *= f
	}
	return g, dpi, warnings
}

// maxSkew is the largest skew, in degrees, that deskewing looks for; a page
// turned further is a page turned a quarter, handled by orientation.
const maxSkew = 8

// orient turns g so its text lines run left to right, upright and level.
func orient(g *image.Gray, dpi float64) *image.Gray {
	m := newInkMap(g, dpi)
	if len(m.pts) < 200 {
		return g // nothing on the page to go by
	}
	angH, sH := m.bestAngle(maxSkew, false)
	_, sV := m.bestAngle(maxSkew, true)
	if sV > 1.3*sH {
		// Lines run up or down the page: turn it a quarter and look again.
		g = rotateQuarter(g, 1)
		m = newInkMap(g, dpi)
		angH, _ = m.bestAngle(maxSkew, false)
	}
	if math.Abs(angH) >= 0.1 {
		g = rotateSmall(g, angH)
	}
	return g
}

// deskew levels the text lines of g, taking them to run left to right.
func deskew(g *image.Gray, dpi float64) *image.Gray {
	m := newInkMap(g, dpi)
	if len(m.pts) < 200 {
		return g
	}
	if ang, _ := m.bestAngle(maxSkew, false); math.Abs(ang) >= 0.1 {
		g = rotateSmall(g, ang)
	}
	return g
}

// ocrWord is one word as Tesseract read it, its box in image pixels.
type ocrWord struct {
	text string
	box  image.Rectangle
	conf float64
	line [3]int // Tesseract's block, paragraph and line numbers
	// alt is the figure another reading mode printed in this word's
	// place, when its digits differ (mergeFigures), and altBox its box.
	alt    string
	altBox image.Rectangle
}

// segMode is a Tesseract page segmentation mode (tessedit_pageseg_mode).
type segMode string

// The page segmentation modes recognition uses.
const (
	// psmAuto finds blocks, columns and lines on the page.
	psmAuto segMode = "3"
	// psmBlock reads the image as one block of text lines.
	psmBlock segMode = "6"
	// psmSparse finds every word wherever it stands: the reading the
	// analysis is built on. On the dev corpus the automatic mode (3)
	// dropped lone column headings and amounts of tables; 11 read more of
	// both at the same speed. Orientation is orient's job.
	psmSparse segMode = "11"
)

// recognize runs Tesseract once over g in page segmentation mode psm and
// returns its words and their mean confidence (0–100, weighted by length).
func recognize(g *image.Gray, dpi float64, langs string, psm segMode) ([]ocrWord, float64, error) {
	c := takeClient(langs)
	cleanup := func() {}
	if c == nil {
		var err error
		if c, cleanup, err = newTessClient(langs); err != nil {
			return nil, 0, err
		}
	}
	boxes, err := readBoxes(c, g, dpi, psm)
	releasePage(c)
	// The model is in memory now (or failed to load): a private copy of
	// its file is no longer needed.
	cleanup()
	if err != nil {
		// An instance that failed is not trusted with another page.
		c.Close()
		return nil, 0, fmt.Errorf("ocr: %w", err)
	}
	putClient(langs, c)
	words := make([]ocrWord, 0, len(boxes))
	var confSum, weight float64
	for _, b := range boxes {
		t := cleanOCRText(b.Word)
		if t == "" {
			continue
		}
		words = append(words, ocrWord{text: t, box: b.Box, conf: b.Confidence, line: [3]int{b.BlockNum, b.ParNum, b.LineNum}})
		n := float64(len([]rune(t)))
		confSum += b.Confidence * n
		weight += n
	}
	if weight == 0 {
		return words, 0, nil
	}
	return words, confSum / weight, nil
}

// readBoxes has c read g in page segmentation mode psm and returns its words.
func readBoxes(c *gosseract.Client, g *image.Gray, dpi float64, psm segMode) ([]gosseract.BoundingBox, error) {
	if err := c.SetVariable("user_defined_dpi", strconv.Itoa(int(math.Round(dpi)))); err != nil {
		return nil, err
	}
	if err := c.SetVariable("tessedit_pageseg_mode", string(psm)); err != nil {
		return nil, err
	}
	if err := c.SetImageFromBytes(encodePGM(g)); err != nil {
		return nil, err
	}
	return c.GetBoundingBoxesVerbose()
}

// ModelDirEnv names the environment variable that tells a process where
// to keep the embedded recognition models as files (Tesseract loads a
// model only from a file): the server sets it for its workers to a
// directory beside its data file, so the models are written once per data
// directory, not once per worker. Unset, the user's cache directory
// (~/.cache/passbook) serves.
const ModelDirEnv = "PASSBOOK_MODEL_DIR"

// modelDir is the directory the models are kept in: $PASSBOOK_MODEL_DIR,
// else the user's cache directory; "" when neither can be named.
func modelDir() string {
	if d := os.Getenv(ModelDirEnv); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "passbook")
	}
	return ""
}

// installModels makes sure dir/tessdata holds the embedded models of
// names, byte for byte, and returns that directory. A model is written
// only when the file there is missing or differs (another version of the
// binary wrote it): to a temporary file renamed into place, so a process
// that reads it meanwhile, or writes it too, sees a whole model.
func installModels(dir string, names []string) (string, error) {
	dir = filepath.Join(dir, "tessdata")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, l := range names {
		m, err := models.ReadFile("tessdata/" + l + ".traineddata")
		if err != nil {
			return "", err
		}
		path := filepath.Join(dir, l+".traineddata")
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, m) {
			continue
		}
		f, err := os.CreateTemp(dir, l+".traineddata.*")
		if err != nil {
			return "", err
		}
		_, err = f.Write(m)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
			return "", err
		}
	}
	return dir, nil
}

// newTessClient makes a client that loads the embedded models of langs
// ("eng+fra") from the model directory, writing them there first when
// they are not. When no directory is usable it writes them to a private
// temporary one instead; the returned cleanup removes that once the
// client has initialised (on its first recognition), and does nothing
// for the shared directory.
func newTessClient(langs string) (c *gosseract.Client, cleanup func(), err error) {
	names := strings.Split(langs, "+")
	cleanup = func() {}
	prefix := ""
	if d := modelDir(); d != "" {
		prefix, err = installModels(d, names)
	}
	if prefix == "" {
		// No shared directory: a private one, as before.
		tmp, terr := os.MkdirTemp("", "passbook-tessdata-")
		if terr != nil {
			return nil, nil, fmt.Errorf("ocr model: %w", errors.Join(err, terr))
		}
		if prefix, err = installModels(tmp, names); err != nil {
			os.RemoveAll(tmp)
			return nil, nil, fmt.Errorf("ocr model: %w", err)
		}
		cleanup = func() { os.RemoveAll(tmp) }
	}
	fail := func(err error) (*gosseract.Client, func(), error) {
		c.Close()
		cleanup()
		return nil, nil, fmt.Errorf("ocr: %w", err)
	}
	c = gosseract.NewClient()
	if err := c.SetLanguage(names...); err != nil {
		return fail(err)
	}
	// Tesseract writes warnings ("Estimating resolution...") to stderr otherwise.
	if err := c.SetVariable("debug_file", os.DevNull); err != nil {
		return fail(err)
	}
	if err := c.SetTessdataPrefix(prefix); err != nil {
		return fail(err)
	}
	return c, cleanup, nil
}

// encodePGM wraps g's pixels in a binary PGM header: Leptonica reads it by
// copying rows, with none of the compression a PNG round trip costs.
func encodePGM(g *image.Gray) []byte {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	head := fmt.Sprintf("P5\n%d %d\n255\n", w, h)
	out := make([]byte, 0, len(head)+w*h)
	out = append(out, head...)
	for y := 0; y < h; y++ {
		i := g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y)
		out = append(out, g.Pix[i:i+w]...)
	}
	return out
}

// cleanOCRText tidies one recognised word: dashes Tesseract reads for a
// minus sign become '-', and words that are only rule or border debris
// (|, _, =, ~) are dropped.
func cleanOCRText(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = strings.Map(func(r rune) rune {
		switch r {
		case '—', '–', '−', '‒', '―':
			return '-'
		case '‘', '’':
			return '\''
		case '“', '”':
			return '"'
		}
		return r
	}, s)
	s = greekMu(s)
	s = trimRules(s)
	debris := true
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || !strings.ContainsRune("|_=~¦", r) {
			debris = false
			break
		}
	}
	if debris {
		return ""
	}
	return s
}

// ruleMarks are the marks Tesseract reads for a table's ruled border
// where it touches a word: the rules of a grid's cells, or a shaded
// band's edge, stand a hair from the cell's first and last characters.
const ruleMarks = "|¦[]{}"

// trimRules takes off a word's ends the rule marks that belong to no
// pair in it ("[juli" "33,14]" "-96,11|" "1.824,57[" for "juli" "33,14"
// "-96,11" "1.824,57"): a cell's border read with its text, which hid
// the date and amount from every reading stage. A bracket closed within
// the word ("[1]", "{x}") is print and stays.
func trimRules(s string) string {
	paired := func(open, close rune) bool { return strings.ContainsRune(s, open) && strings.ContainsRune(s, close) }
	for {
		r, n := utf8.DecodeRuneInString(s)
		if n == len(s) || !strings.ContainsRune(ruleMarks, r) || r == '[' && paired('[', ']') || r == '{' && paired('{', '}') {
			break
		}
		s = s[n:]
	}
	for {
		r, n := utf8.DecodeLastRuneInString(s)
		if n == len(s) || !strings.ContainsRune(ruleMarks, r) || r == ']' && paired('[', ']') || r == '}' && paired('{', '}') {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// ocrAmount matches a word that is an amount as OCR commonly garbles it:
// junk or a misread minus before it (a minus is often read as a quote), any of .,;: as separators, and two
// decimals at the end. Groups: prefix, integer part with separators,
// decimal separator, decimals, suffix. The group before the decimals
// has three digits (India's lakh groups of two stand before it): a
// date of two-digit year ("4.12.25", "01.11.22") is no amount, and read
// as one it was rewritten to the page's marks ("4.12,25") and lost.
var ocrAmount = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([-~_=("']*)([0-9]{1,3}(?:(?:[.,;:' ][0-9]{2,3})*[.,;:' ][0-9]{3})?)([.,;:])([0-9]{2})([-)]?|CR|DR|Cr|Dr)$`)
})

// repairAmounts rewrites amount words to the page's own number convention:
// Tesseract often reads a decimal comma as a point (or ';', ':') and a minus
// as '~' or a dash run. The convention (1,234.56 or 1.234,56) is the one
// most amounts on the page are printed in; words that fit neither stay as
// read. A sign that may be wrong is left for the running balance to settle.
func repairAmounts(words []ocrWord) {
	comma, point := 0, 0
	for _, w := range words {
		m := ocrAmount().FindStringSubmatch(w.text)
		if m == nil {
			continue
		}
		switch m[3] {
		case ",":
			if !strings.ContainsAny(m[2], ",;:") {
				comma++
			}
		case ".":
			if !strings.ContainsAny(m[2], ".;:") {
				point++
			}
		}
	}
	if comma+point < 3 {
		return // too few amounts to tell the convention
	}
	dec, group := ".", ","
	if comma > point {
		dec, group = ",", "."
	}
	for i, w := range words {
		m := ocrAmount().FindStringSubmatch(w.text)
		if m == nil {
			continue
		}
		sign := ""
		switch {
		case strings.HasSuffix(m[1], "("):
			sign = "("
		case strings.ContainsAny(m[1], "-~\"'"):
			sign = "-"
		}
		intPart := m[2]
		if strings.ContainsAny(intPart, ".,;:' ") {
			intPart = strings.Map(func(r rune) rune {
				if strings.ContainsRune(".,;:", r) {
					return rune(group[0])
				}
				return r
			}, intPart)
		}
		words[i].text = sign + intPart + dec + m[4] + m[5]
	}
}

// ocrDate matches a numeric date as OCR garbles its digits: letters that
// look like digits (o, s, l, I, B) in place of some of them.
var ocrDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9oOsSlIB]{1,4}[/.-][0-9oOsSlIB]{1,2}[/.-][0-9oOsSlIB]{2,4}$`)
})

// digitLike maps the letters OCR reads for digits back to the digits.
var digitLike = strings.NewReplacer("o", "0", "O", "0", "s", "5", "S", "5", "l", "1", "I", "1", "B", "8")

// repairDates rewrites a numeric date read with a letter or two for its
// digits ("os/04/22" for "05/04/22"). A word with fewer than four real
// digits is left alone: it is more likely text than a date.
func repairDates(words []ocrWord) {
	for i, w := range words {
		if !ocrDate().MatchString(w.text) || strings.IndexFunc(w.text, unicode.IsLetter) < 0 {
			continue
		}
		digits := 0
		for _, r := range w.text {
			if unicode.IsDigit(r) {
				digits++
			}
		}
		if digits >= 4 {
			words[i].text = digitLike.Replace(w.text)
		}
	}
}

// lineHeights gives every word the top and bottom of its text line, as a
// text layer's font boxes have: Tesseract's boxes hug the glyphs, so a
// minus sign is a sliver a point tall and "on" is lower than "ON", and
// layout rules that compare a word's height or middle with its
// neighbours' would see them apart.
func lineHeights(words []ocrWord) {
	type span struct{ y0, y1, maxH int }
	lines := map[[3]int]span{}
	for _, w := range words {
		sp, ok := lines[w.line]
		if !ok {
			sp = span{w.box.Min.Y, w.box.Max.Y, 0}
		}
		sp.y0, sp.y1 = min(sp.y0, w.box.Min.Y), max(sp.y1, w.box.Max.Y)
		sp.maxH = max(sp.maxH, w.box.Dy())
		lines[w.line] = sp
	}
	for i, w := range words {
		sp := lines[w.line]
		// A "line" much taller than its tallest word is not one line of
		// text (words on a slant, or two rows taken as one): leave it.
		if sp.y1-sp.y0 > sp.maxH*3/2 {
			continue
		}
		words[i].box.Min.Y, words[i].box.Max.Y = sp.y0, sp.y1
	}
}

// tessLanguages are the Tesseract models of the lexicon's languages other
// than English.
var tessLanguages = map[string]string{"de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld"}

// pageLanguage is the Tesseract model of the language a page read in
// English is in, when the lexicon tells one other than English and its
// model is embedded; "" otherwise.
func pageLanguage(words []ocrWord) string {
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.text
	}
	l := tessLanguages[language.Language(texts)]
	if l == "" {
		return ""
	}
	if _, err := models.Open("tessdata/" + l + ".traineddata"); err != nil {
		return ""
	}
	return l
}
