package extract

import (
	"bytes"
	"io"
	"slices"
	"time"

	"passbook/extract/explain"
	"passbook/extract/ledger"
	"passbook/extract/source"
)

// MaxPages bounds the pages (or image frames) of one document.
const MaxPages = 2000

// Info is what a probe learns about a document without converting it.
type Info struct {
	// Kind is "pdf", "png", "jpeg", "tiff" or "webp".
	Kind string `json:"kind"`
	// PageCount is the number of pages (frames for images).
	PageCount int `json:"page_count"`
}

// Rendered is a page drawn for a person to look at.
type Rendered struct {
	// PNG is the image, grey.
	PNG []byte `json:"png"`
	// Width and Height are the page's size in PDF points, the unit of
	// Transaction.Box, so a viewer can place boxes on the image.
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Width bounds of a rendered page, in pixels; 0 asks for the default.
const (
	MinRenderWidth     = 100
	MaxRenderWidth     = 3000
	DefaultRenderWidth = 1200
)

// Sniff names the type of data from its first bytes: "pdf", "png", "jpeg",
// "tiff", "webp", or "" when it is none of them.
func Sniff(data []byte) string {
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

// Document is a document's pages with what the file says of itself.
type Document struct {
	Pages []source.Page
	// Created is when the file says it was made (a PDF's creation date,
	// its day); zero when it does not say. A statement that prints no
	// year takes its dates in the year up to it.
	Created time.Time
	// Meta is what the file's metadata names (see parties.go).
	Meta source.Meta
}

// Analyze reads the words of a document's pages (from a text layer or from
// recognition) into its transactions and statement summary. It is the whole
// analysis, pure Go: extract/engine feeds it the pages MuPDF and Tesseract read.
func Analyze(pages []source.Page) *ledger.Result {
	return AnalyzeDocument(Document{Pages: pages}, nil)
}

// AnalyzeDocument is Analyze of a document with what its file says of
// itself; when w is set it also writes there, for a person, how the
// document was read (see Explain).
func AnalyzeDocument(doc Document, w io.Writer) *ledger.Result {
	var x *explain.Writer
	if w != nil {
		x = &explain.Writer{W: w}
	}
	n := len(doc.Pages) // not doc itself: it would keep every page's words alive to the end
	res := analyze(doc, x)
	res.PageCount = n
	return res
}

// withoutWords is a copy of pages without their words. Once a document's
// words are grouped into lines, the analysis needs of its pages only
// their numbers, warnings and kind; their words, a second copy of every
// word the lines hold, were ~9 MB of a 500-page statement's heap for the
// whole analysis. The caller's pages are not changed.
func withoutWords(pages []source.Page) []source.Page {
	out := slices.Clone(pages)
	for i := range out {
		out[i].Words = nil
	}
	return out
}
