// Package extract turns the bytes of a bank statement (a PDF or an image)
// into its list of transactions and a summary of the statement, proved where
// possible by the statement's own running balance.
//
// It knows nothing of HTTP or SQL, and links no C: this package holds the
// domain types and the analysis (Analyze: pages of words in, a Result out).
// Reading the bytes is below it, in C: extract/pdf (MuPDF) and extract/ocr
// (Tesseract), put together by extract/engine. Because that C code reads
// hostile files, callers that serve other people run the engine in child
// processes through extract/worker.
package extract

import (
	"io"
)

// Options tune one conversion.
type Options struct {
	// Password opens an encrypted PDF.
	Password string
	// Progress, when set, is called after each page with the pages done so far.
	Progress func(done, total int)
	// Explain, when set, receives for a person how the document was read:
	// the tables on each page, each column's role and why, the readings
	// tried with their arithmetic scores and the lines left out.
	Explain io.Writer
}
