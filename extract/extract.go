// Package extract turns the bytes of a bank statement (a PDF or an image)
// into its list of transactions and a summary of the statement, proved where
// possible by the statement's own arithmetic.
//
// It knows nothing of HTTP or SQL, and links no C. It is the entry of the
// analysis (Analyze: pages of words in, a Result out; Explain; Recheck);
// the stages are packages below it, each with typed outputs, and each
// imports only the stages beneath it, so a document's calls go down:
//
//   - source: words and pages with their boxes and confidence, a file's
//     metadata, type and sentinel errors; filled by extract/pdf (MuPDF's
//     text layer) and extract/ocr (Tesseract), which extract/engine joins;
//   - lexicon: each language's words for headings, balances and totals,
//     and the column roles they name; language guesses a page's language
//     from them;
//   - cells: a text's shape as an amount or a date (CLDR's month names and
//     patterns), decided per document;
//   - repair: OCR repairs, run on recognised pages only;
//   - layout: words grouped into lines of typed tokens;
//   - tables: headings, segments and rows found from geometry and cell
//     types, across pages, with the accounts and parties a page names;
//   - reading: the readings tried for each table, scored by the proofs, and
//     the statement's summary facts; a row whose direction nothing printed
//     on it proves takes it from the balances around it, else from the
//     statement's sums, else from the proven rows whose description begins
//     alike (reading/direction.go), and says so;
//   - ledger: the statement's types, its proofs, the one status function
//     and the stored form.
//
// Because the C code below reads hostile files, callers that serve other
// people run the engine in child processes through extract/worker.
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
