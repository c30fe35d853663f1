package extract

import (
	"io"
	"slices"
	"time"

	"passbook/extract/explain"
	"passbook/extract/ledger"
	"passbook/extract/source"
)

// Document is a document's pages with what the file says of itself.
type Document struct {
	Pages []source.Page
	// Created is when the file says it was made (a PDF's creation date,
	// its day); zero when it does not say. A statement that prints no
	// year takes its dates in the year up to it.
	Created time.Time
	// Meta is what the file's metadata names (see extract/tables/parties.go).
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
	var pages []source.Page
	if x.On() {
		pages = doc.Pages // explained: kept to say why no row came of them
	}
	res := analyze(doc, x)
	res.PageCount = n
	if x.On() && len(res.Transactions) == 0 {
		x.Printf("%s", stoppedAt(pages))
	}
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
