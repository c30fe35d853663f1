// Package engine converts documents: it reads a PDF's text layer with MuPDF
// (extract/pdf), recognises pages without one and image files with
// Tesseract (extract/ocr), and hands the pages to extract.Analyze. It links
// C that reads hostile files, so a server runs it only in worker processes
// (extract/worker), which serve an Engine over a pipe.
package engine

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"

	"passbook/extract"
	"passbook/extract/integrity"
	"passbook/extract/ledger"
	"passbook/extract/ocr"
	"passbook/extract/pdf"
	"passbook/extract/redact"
	"passbook/extract/source"

	"golang.org/x/image/draw"
)

// ocrDPI is the resolution at which PDF pages without a text layer are
// rendered for recognition (NOTES.md: 200 DPI reads as well as 300 and is cheaper).
const ocrDPI = 200

// Engine converts documents in the calling process. Tesseract and its model
// are loaded on the first page that needs recognition, and kept for the
// process's life.
type Engine struct {
	// ocrPage recognises a rendered page; tests replace it to make it fail.
	ocrPage func(img image.Image, dpi float64, pageNo int) (source.Page, error)
}

// New returns an Engine.
func New() *Engine {
	return &Engine{ocrPage: ocr.Read}
}

// Probe reads the type and page count of data. A PDF that needs a password
// it was not given fails with source.ErrPassword.
func (e *Engine) Probe(data []byte, password string) (source.Info, error) {
	kind := source.Sniff(data)
	switch kind {
	case "":
		return source.Info{}, source.ErrUnsupported
	case "pdf":
		doc, err := pdf.Open(data, password)
		if err != nil {
			return source.Info{}, err
		}
		defer doc.Close()
		if doc.PageCount() == 0 {
			return source.Info{}, fmt.Errorf("pdf has no pages: %w", source.ErrCorrupt)
		}
		return source.Info{Kind: kind, PageCount: doc.PageCount()}, nil
	default:
		n, err := ocr.PageCount(data)
		if err != nil {
			return source.Info{}, err
		}
		return source.Info{Kind: kind, PageCount: n}, nil
	}
}

// Convert reads every page of a PDF or image and returns its transactions
// and statement summary.
func (e *Engine) Convert(data []byte, opts extract.Options) (*ledger.Result, error) {
	scan := scanning(data, opts)
	doc, warnings, err := e.pages(data, opts)
	if err != nil {
		return nil, err
	}
	return analyzed(data, doc, warnings, opts, scan()), nil
}

// Read is Convert that also returns the words it read, page by page:
// what extract/redact matches a document's glyphs to.
func (e *Engine) Read(data []byte, opts extract.Options) (extract.Document, *ledger.Result, error) {
	scan := scanning(data, opts)
	doc, warnings, err := e.pages(data, opts)
	if err != nil {
		return doc, nil, err
	}
	return doc, analyzed(data, doc, warnings, opts, scan()), nil
}

// scanning starts the integrity report's reading of a PDF's file
// (integrity.ScanFile), which needs no words and no rows, beside the
// reading of its words and rows; the function it returns waits for it.
func scanning(data []byte, opts extract.Options) func() *integrity.Scan {
	if source.Sniff(data) != "pdf" {
		return func() *integrity.Scan { return nil }
	}
	ch := make(chan *integrity.Scan, 1)
	go func() { ch <- integrity.ScanFile(data, opts.Password) }()
	return func() *integrity.Scan { return <-ch }
}

// pages reads a PDF's or an image's pages.
func (e *Engine) pages(data []byte, opts extract.Options) (extract.Document, []string, error) {
	switch source.Sniff(data) {
	case "":
		return extract.Document{}, nil, source.ErrUnsupported
	case "pdf":
		return e.pdfPages(data, opts)
	default:
		pages, err := e.imagePages(data, opts)
		return extract.Document{Pages: pages}, nil, err
	}
}

// analyzed is the analysis of a document's pages, with the warnings of
// reading them and the integrity report of its file.
func analyzed(data []byte, doc extract.Document, warnings []string, opts extract.Options, scan *integrity.Scan) *ledger.Result {
	res := extract.AnalyzeDocument(doc, opts.Explain)
	res.Statement.Warnings = append(res.Statement.Warnings, warnings...)
	// The integrity report reads the file again, with the words read and
	// the rows: it keeps the pages' words alive through the analysis
	// (about 9 MB on a 500-page statement).
	res.Integrity = integrity.Check(integrity.Input{Data: data, Password: opts.Password, Pages: doc.Pages, Result: res, Scan: scan})
	if opts.Explain != nil {
		integrity.Explain(opts.Explain, res.Integrity)
	}
	return res
}

// Redact makes a copy of a text statement that reads as it does with
// nothing of its client (extract/redact), reading it and its copy here.
func (e *Engine) Redact(data []byte, password string) ([]byte, redact.Sidecar, error) {
	return redact.Copy(data, e.RedactReader(), redact.Options{Password: password})
}

// RedactReader is the engine's reading as extract/redact needs it: the
// words with the result and, for each page recognised, the image its
// words' boxes stand in (ocr.ReadPrepared), which a scan's copy is
// painted on.
func (e *Engine) RedactReader() redact.Reader {
	return func(data []byte, password string) (redact.Reading, error) {
		read := map[int]*image.Gray{} // by page number
		rd := &Engine{ocrPage: func(img image.Image, dpi float64, pageNo int) (source.Page, error) {
			pg, g, err := ocr.ReadPrepared(img, dpi, pageNo)
			read[pageNo] = g
			return pg, err
		}}
		doc, res, err := rd.Read(data, extract.Options{Password: password})
		var imgs []*image.Gray
		if len(read) > 0 {
			imgs = make([]*image.Gray, len(doc.Pages))
			for i := range imgs {
				imgs[i] = read[i+1]
			}
		}
		return redact.Reading{Doc: doc, Result: res, Images: imgs}, err
	}
}

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
func (e *Engine) pdfPages(data []byte, opts extract.Options) (extract.Document, []string, error) {
	doc, err := pdf.Open(data, opts.Password)
	if err != nil {
		return extract.Document{}, nil, err
	}
	defer doc.Close()
	n := doc.PageCount()
	if n == 0 {
		return extract.Document{}, nil, fmt.Errorf("pdf has no pages: %w", source.ErrCorrupt)
	}
	if n > source.MaxPages {
		return extract.Document{}, nil, fmt.Errorf("%d pages: %w", n, source.ErrTooLarge)
	}
	if opts.Progress != nil {
		// The page count first: a worker's time budget grows with it.
		opts.Progress(0, n)
	}
	pages := make([]source.Page, 0, n)
	var warnings []string
	// A text layer recognition software laid over a scan is read as
	// recognised text: its misreadings are repaired as ours are.
	recognised := doc.MadeByOCR()
	for i := 0; i < n; i++ {
		pg, err := doc.Words(i)
		if err != nil {
			return extract.Document{}, nil, err
		}
		pg.OCR = recognised
		if !hasTextLayer(pg) && !onlyItsText(doc, i, pg) {
			img, err := doc.RenderGray(i, ocrDPI)
			if err != nil {
				return extract.Document{}, nil, err
			}
			opg, err := e.ocrPage(img, ocrDPI, i+1)
			switch {
			case err != nil && nearlyBlank(img):
				warnings = append(warnings, fmt.Sprintf("page %d: text recognition failed on a nearly blank page; only its text layer was read (%v)", i+1, err))
			case err != nil:
				return extract.Document{}, nil, fmt.Errorf("ocr page %d: %w", i+1, err)
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
	return extract.Document{Pages: pages, Created: doc.Created(), Meta: doc.Meta()}, warnings, nil
}

// onlyItsText reports a page with a little real text whose ink is that
// text and nothing else (a statement's last page with its closing line):
// read from its text layer, as its document's other pages are. A scan
// stamped with an invisible page number has ink everywhere else.
func onlyItsText(doc *pdf.Doc, i int, pg source.Page) bool {
	if len(pg.Words) == 0 || slices.ContainsFunc(pg.Words, func(w source.Word) bool { return strings.ContainsRune(w.Text, 0xFFFD) }) {
		return false
	}
	const dpi = 36
	g, err := doc.RenderGray(i, dpi)
	if err != nil {
		return false
	}
	inText := func(x, y int) bool {
		px, py := (float64(x)+0.5)*72/dpi, (float64(y)+0.5)*72/dpi
		return slices.ContainsFunc(pg.Words, func(w source.Word) bool {
			return px > w.X0-4 && px < w.X1+4 && py > w.Y0-4 && py < w.Y1+4
		})
	}
	b, stray := g.Bounds(), 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if g.GrayAt(x, y).Y < 160 && !inText(x-b.Min.X, y-b.Min.Y) {
				stray++
			}
		}
	}
	return float64(stray) < 0.002*float64(b.Dx()*b.Dy())
}

// hasTextLayer reports whether a page carries enough real text to read
// without OCR; a scan with an invisible page number or stamp does not.
func hasTextLayer(pg source.Page) bool {
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
func (e *Engine) imagePages(data []byte, opts extract.Options) ([]source.Page, error) {
	imgs, err := ocr.Decode(data)
	if err != nil {
		return nil, err
	}
	if len(imgs) > source.MaxPages {
		return nil, fmt.Errorf("%d frames: %w", len(imgs), source.ErrTooLarge)
	}
	if opts.Progress != nil {
		opts.Progress(0, len(imgs))
	}
	pages := make([]source.Page, 0, len(imgs))
	for i, img := range imgs {
		pg, err := e.ocrPage(img, 0, i+1)
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

// RenderPage draws page (1-based) of a PDF or image file as a grey PNG
// width pixels wide (source.DefaultRenderWidth when 0), for a person to
// review what was read, with the page's size in points (the unit of
// Transaction.Box). A page or width outside the document's is
// source.ErrNoPage.
func (e *Engine) RenderPage(data []byte, password string, page, width int) (source.Rendered, error) {
	if width == 0 {
		width = source.DefaultRenderWidth
	}
	if width < source.MinRenderWidth || width > source.MaxRenderWidth {
		return source.Rendered{}, fmt.Errorf("width %d is outside %d–%d: %w", width, source.MinRenderWidth, source.MaxRenderWidth, source.ErrNoPage)
	}
	var r source.Rendered
	var g *image.Gray
	switch source.Sniff(data) {
	case "":
		return source.Rendered{}, source.ErrUnsupported
	case "pdf":
		doc, err := pdf.Open(data, password)
		if err != nil {
			return source.Rendered{}, err
		}
		defer doc.Close()
		if page < 1 || page > doc.PageCount() {
			return source.Rendered{}, fmt.Errorf("page %d of %d: %w", page, doc.PageCount(), source.ErrNoPage)
		}
		w, h, err := doc.PageSize(page - 1)
		if err != nil {
			return source.Rendered{}, err
		}
		if w <= 0 {
			return source.Rendered{}, fmt.Errorf("page %d has no width: %w", page, source.ErrCorrupt)
		}
		if g, err = doc.RenderGray(page-1, float64(width)*72/w); err != nil {
			return source.Rendered{}, err
		}
		r.Width, r.Height = w, h
	default:
		imgs, err := ocr.Decode(data)
		if err != nil {
			return source.Rendered{}, err
		}
		if page < 1 || page > len(imgs) {
			return source.Rendered{}, fmt.Errorf("page %d of %d: %w", page, len(imgs), source.ErrNoPage)
		}
		src := imgs[page-1]
		b := src.Bounds()
		if b.Dx() <= 0 || b.Dy() <= 0 {
			return source.Rendered{}, fmt.Errorf("page %d is empty: %w", page, source.ErrCorrupt)
		}
		h := max(1, b.Dy()*width/b.Dx())
		g = image.NewGray(image.Rect(0, 0, width, h))
		draw.ApproxBiLinear.Scale(g, g.Rect, src, b, draw.Src, nil)
		r.Width, r.Height = ocr.PageSize(b.Dx(), b.Dy())
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, g); err != nil {
		return source.Rendered{}, fmt.Errorf("encode png: %w", err)
	}
	r.PNG = buf.Bytes()
	return r, nil
}
