package extract

import (
	"io"

	"passbook/extract/ledger"
	"passbook/extract/source"
)

// Explain is Analyze that also writes to w, for a person, how the
// document was read.
func Explain(pages []source.Page, w io.Writer) *ledger.Result {
	return AnalyzeDocument(Document{Pages: pages}, w)
}
