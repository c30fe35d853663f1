package source

import (
	"bytes"
	"errors"
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
	// ErrTooManyPages means a document has more pages than the server
	// takes (its page limit): a definite answer, not a reason to retry.
	ErrTooManyPages = errors.New("the document has more pages than the server takes")
	// ErrLimit means the conversion ran out of its time or memory allowance.
	ErrLimit = errors.New("the conversion ran out of time or memory")
	// ErrCPU, ErrMemory and ErrStalled are the ErrLimit a worker met, each
	// saying what happened in words a client can act on, and no advice
	// that may not apply (splitting a one-page photo helps nothing).
	ErrCPU     error = limitError("reading this file took more processor time than the server allows for its pages")
	ErrMemory  error = limitError("this file needs more memory than the server allows")
	ErrStalled error = limitError("the converter stopped making progress on this file")
	// ErrBusy means a conversion ran out of wall-clock time while the
	// machine was too busy to give it the processor time it was allowed:
	// not the document's fault, so its job is queued again, not failed.
	ErrBusy = errors.New("the server was busy: the conversion did not get the processor time it needed in time")
	// ErrNoPage means a page render asked for a page or width the document
	// cannot give: the caller's mistake, not the file's.
	ErrNoPage = errors.New("no such page, or a width out of range")
	// ErrCrashed means the converter process died on the document (a crash in
	// the C libraries, or a resource limit the kernel enforced).
	ErrCrashed = errors.New("the converter stopped on this file: it may be damaged or hostile")
)

// limitError is one kind of ErrLimit, with its own words.
type limitError string

func (e limitError) Error() string { return string(e) }
func (e limitError) Unwrap() error { return ErrLimit }

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
