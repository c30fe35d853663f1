package extract

import (
	"bytes"
	"fmt"
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
	var err error
	switch sniff(data) {
	case "":
		return nil, ErrUnsupported
	case "pdf":
		pages, err = pdfPages(data, opts)
	default:
		pages, err = imagePages(data, opts)
	}
	if err != nil {
		return nil, err
	}
	res := analyze(pages)
	res.PageCount = len(pages)
	return res, nil
}

// pdfPages reads the words of each page, recognising pages that have no text layer.
func pdfPages(data []byte, opts Options) ([]Page, error) {
	doc, err := openPDF(data, opts.Password)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	n := doc.PageCount()
	if n == 0 {
		return nil, fmt.Errorf("pdf has no pages: %w", ErrCorrupt)
	}
	if n > maxPages {
		return nil, fmt.Errorf("%d pages: %w", n, ErrTooLarge)
	}
	pages := make([]Page, 0, n)
	for i := 0; i < n; i++ {
		pg, err := doc.words(i)
		if err != nil {
			return nil, err
		}
		if !hasTextLayer(pg) {
			img, err := doc.renderGray(i, ocrDPI)
			if err != nil {
				return nil, err
			}
			opg, err := ocrImage(img, ocrDPI, i+1)
			if err != nil {
				return nil, fmt.Errorf("ocr page %d: %w", i+1, err)
			}
			opg.Number = i + 1
			pg = opg
		}
		pages = append(pages, pg)
		if opts.Progress != nil {
			opts.Progress(i+1, n)
		}
	}
	return pages, nil
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
