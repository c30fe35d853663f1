package pdf

import (
	"cmp"
	"slices"
	"unicode"

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

// visualOrder is the n characters in the order to read them so that
// every run MuPDF gave right to left stands left to right: nil when there
// is none (no copy, the common case). A run is characters without a
// space on one baseline, side by side, that are right-to-left characters
// or joiners between them, one of them right-to-left at least. MuPDF
// gives one reversed whole, or its groups of digits reversed, each a
// line of its own ("١١.٠١.٢٠٢٢" from LibreOffice as ".", ".٢٠٢٢", "٠١",
// "١١"): the run is put in the order of its characters' places, as one
// line. Latin text drawn in a scrambled order is left as it was.
func visualOrder(n int, char func(i int) rawChar) []rawChar {
	found := false
	for i := 0; i < n && !found; i++ {
		found = rtlClass(char(i).r)
	}
	if !found {
		return nil
	}
	// next reports whether d goes on the run of run[0..]: one of its
	// characters, on its baseline, beside it.
	next := func(run []rawChar, d rawChar) bool {
		c := run[0]
		h := max(c.y1-c.y0, d.y1-d.y0)
		lo, hi := c.x0, c.x1
		for _, e := range run {
			lo, hi = min(lo, e.x0), max(hi, e.x1)
		}
		if unicode.IsSpace(d.r) {
			// A space MuPDF put where a separator of the run stands.
			return abs(d.y1-c.y1) < 0.2*h && d.x0 >= lo-0.1*h && d.x1 <= hi+0.1*h
		}
		if !rtlClass(d.r) && !rtlJoiner(d.r) {
			return false
		}
		return d.line == c.line || abs(d.y1-c.y1) < 0.2*h && d.x1 > lo-1.5*h && d.x0 < hi+1.5*h
	}
	// overlaid reports a space of the run over another of its characters.
	overlaid := func(run []rawChar, d rawChar) bool {
		return unicode.IsSpace(d.r) && slices.ContainsFunc(run, func(e rawChar) bool {
			return !unicode.IsSpace(e.r) && min(e.x1, d.x1)-max(e.x0, d.x0) > 0.5*(d.x1-d.x0)
		})
	}
	var out []rawChar
	reordered := false
	for i := 0; i < n; {
		run := []rawChar{char(i)}
		j := i + 1
		if rtlClass(run[0].r) || rtlJoiner(run[0].r) {
			for j < n && next(run, char(j)) {
				run = append(run, char(j))
				j++
			}
		}
		rtl := slices.ContainsFunc(run, func(c rawChar) bool { return rtlClass(c.r) })
		if rtl && !slices.IsSortedFunc(run, byX) {
			run = slices.DeleteFunc(run, func(d rawChar) bool { return overlaid(run, d) })
			slices.SortStableFunc(run, byX)
			for k := range run {
				run[k].line = run[0].line
			}
			reordered = true
		}
		out = append(out, run...)
		i = j
	}
	if !reordered {
		return nil
	}
	return out
}

func byX(a, b rawChar) int { return cmp.Compare(a.x0, b.x0) }

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
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
