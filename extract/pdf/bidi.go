package pdf

import (
	"slices"

	"golang.org/x/text/unicode/bidi"
)

// Right-to-left runs (issue 39). MuPDF gives the characters of a run it
// takes for right-to-left (Arabic or Hebrew letters, and Arabic-Indic
// digits, which the Unicode Bidirectional Algorithm classes as Arabic
// numbers) in the order it reads them, right to left across the page. A
// word is joined from characters that follow each other left to right, so
// such a run came apart into one word per character, and "٢٠٢٥" never
// read as a year. visualOrder puts each such run back in the order its
// characters stand on the page; logicalText then gives a word that holds
// right-to-left letters its text in reading order. The classes come from
// golang.org/x/text/unicode/bidi (BSD-3-Clause, already the module's
// dependency for its collation and width tables), the Unicode
// Bidirectional Algorithm's data.

// rtlClass reports whether r is a character MuPDF reads right to left
// when it runs into another: a right-to-left letter or an Arabic number
// (both Arabic-Indic digit sets: the extended one is classed as a
// European number, but is only ever printed among Arabic script).
func rtlClass(r rune) bool {
	switch p, _ := bidi.LookupRune(r); p.Class() {
	case bidi.R, bidi.AL, bidi.AN:
		return true
	}
	return r >= '۰' && r <= '۹'
}

// rtlJoiner reports whether r may stand inside a right-to-left run
// between two of its characters: a separator or mark of a number ("/",
// ".", ",", "-", "%"), a combining mark, or other neutral punctuation.
func rtlJoiner(r rune) bool {
	switch p, _ := bidi.LookupRune(r); p.Class() {
	case bidi.CS, bidi.ES, bidi.ET, bidi.NSM, bidi.ON:
		return true
	}
	return false
}

// visualOrder is the order in which to read the n characters so that
// every run MuPDF gave right to left stands left to right: nil when there
// is none (no copy, the common case). A run is two or more characters of
// one line, each wholly left of the one before it, all of them
// right-to-left characters or joiners between them. Latin text drawn in a
// scrambled order is left as it was.
func visualOrder(n int, char func(i int) rawChar) []int {
	found := false
	for i := 0; i < n && !found; i++ {
		found = rtlClass(char(i).r)
	}
	if !found {
		return nil
	}
	var order []int
	for i := 0; i < n; {
		j := i + 1
		if c := char(i); rtlClass(c.r) {
			for j < n {
				d, prev := char(j), char(j-1)
				h := max(prev.y1-prev.y0, d.y1-d.y0)
				if d.line != c.line || d.x1 > prev.x0+0.25*h || !rtlClass(d.r) && !rtlJoiner(d.r) {
					break
				}
				j++
			}
			// A joiner ends no run: "٣١ –" hands the dash back.
			for j > i+1 && !rtlClass(char(j-1).r) {
				j--
			}
		}
		if j > i+1 {
			if order == nil {
				order = make([]int, 0, n)
				for k := 0; k < i; k++ {
					order = append(order, k)
				}
			}
			for k := j - 1; k >= i; k-- {
				order = append(order, k)
			}
		} else if order != nil {
			order = append(order, i)
		}
		i = j
	}
	return order
}

// logicalText is a word's text in reading order, from its characters in
// the order they stand on the page: a word with right-to-left letters
// reads right to left, its numbers (and Latin letters) left to right
// within it, as the Bidirectional Algorithm lays out one word of a
// right-to-left paragraph. A word without such letters is as it stands.
func logicalText(visual []rune) []rune {
	strong := slices.ContainsFunc(visual, func(r rune) bool {
		p, _ := bidi.LookupRune(r)
		return p.Class() == bidi.R || p.Class() == bidi.AL
	})
	if !strong {
		return visual
	}
	// Runs that keep their order (numbers, Latin), the rest one by one,
	// then the whole sequence of runs reversed.
	var runs [][]rune
	for i := 0; i < len(visual); {
		j := i + 1
		if ltrKept(visual[i]) {
			for j < len(visual) && (ltrKept(visual[j]) || rtlJoiner(visual[j]) && j+1 < len(visual) && ltrKept(visual[j+1])) {
				j++
			}
		}
		runs = append(runs, visual[i:j])
		i = j
	}
	out := make([]rune, 0, len(visual))
	for k := len(runs) - 1; k >= 0; k-- {
		out = append(out, runs[k]...)
	}
	return out
}

// ltrKept reports whether r keeps left-to-right order inside a
// right-to-left word: a digit of any set, or a left-to-right letter.
func ltrKept(r rune) bool {
	switch p, _ := bidi.LookupRune(r); p.Class() {
	case bidi.L, bidi.EN, bidi.AN:
		return true
	}
	return false
}
