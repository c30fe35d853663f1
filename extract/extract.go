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
	"errors"
	"io"
)

// Sentinel errors a conversion can end with. The worker protocol carries
// them across the process boundary by Code.
var (
	// ErrPassword means the PDF is encrypted and no (or a wrong) password was given.
	ErrPassword = errors.New("the PDF is password-protected and no correct password was given")
	// ErrCorrupt means the file claims a known type but cannot be read as one.
	ErrCorrupt = errors.New("the file is damaged or not a readable document")
	// ErrUnsupported means the bytes are of no type Passbook reads.
	ErrUnsupported = errors.New("unsupported file type: upload a PDF, PNG, JPEG, TIFF or WebP")
	// ErrTooLarge means the document exceeds a page or pixel limit.
	ErrTooLarge = errors.New("the document is too large to convert")
	// ErrLimit means the conversion ran out of its time or memory allowance.
	ErrLimit = errors.New("the conversion ran out of time or memory")
	// ErrNoPage means a page render asked for a page or width the document
	// cannot give: the caller's mistake, not the file's.
	ErrNoPage = errors.New("no such page, or a width out of range")
	// ErrCrashed means the converter process died on the document (a crash in
	// the C libraries, or a resource limit the kernel enforced).
	ErrCrashed = errors.New("the converter stopped on this file: it may be damaged or hostile")
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
