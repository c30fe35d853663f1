package source

// Word is a run of characters read from a page, with its box in PDF points
// (1/72 inch), origin at the top-left of the page, y growing downwards.
// Text PDFs give words from MuPDF's structured text; scans give them from OCR.
type Word struct {
	Text           string
	X0, Y0, X1, Y1 float64
	// Conf is recognition's confidence in the word, 1–100; 0 for a word
	// of a text layer, which nothing had to recognise.
	Conf float64
}

// Page is one page's words, in reading order as the source gave them.
type Page struct {
	Number        int // 1-based
	Width, Height float64
	Words         []Word
	// OCR is true when the words came from recognition rather than a text layer.
	OCR bool
	// Warnings are notes on how the page could be read (an image too dark
	// or out of focus to trust); the statement carries them.
	Warnings []string
}

// LowConf is the recognition confidence below which a word of a row's
// line makes the row one a person should check first. Tesseract gives the
// words of clean scans 85–96; misread digits and letters mostly fall
// under 60.
const LowConf = 60
