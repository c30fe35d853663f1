package layout

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"passbook/extract/cells"
	"passbook/extract/source"
)

// Dates glued to the text after them (issue 39). A statement set in a
// script that does not space its words prints a row's date and its
// description as one run ("２０２３年１１月２８日Tilisiirto", "2024年3月4日振込"),
// and a text layer gives them as one word, which never read as a date:
// the row had no date, and the statement no rows. splitGluedDates cuts
// such a word in two where the date ends, each part with its share of
// the word's box.

// splitGluedDates returns ws with every word that starts with a glued
// date cut in two, or ws itself when none does (no copy).
func splitGluedDates(ws []source.Word) []source.Word {
	var out []source.Word
	for i, w := range ws {
		date, rest, ok := gluedDate(w.Text)
		if !ok {
			date, rest, ok = gluedFigure(w.Text)
		}
		if !ok {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]source.Word, 0, len(ws)+2), ws[:i]...)
		}
		// The rest may start with a date of its own (a value date glued
		// to the booking date).
		for ok {
			x := w.X0 + (w.X1-w.X0)*textWidth(date)/textWidth(w.Text)
			a := w
			a.Text, a.X1 = date, x
			out = append(out, a)
			w.Text, w.X0 = rest, x
			date, rest, ok = gluedDate(w.Text)
		}
		out = append(out, w)
	}
	if out == nil {
		return ws
	}
	return out
}

// gluedFigure splits a word where a figure in brackets, money out as
// accountants print it, follows a number with no space: a reference that
// filled its column ("26023600040673(563.36").
func gluedFigure(word string) (number, rest string, ok bool) {
	i := strings.IndexByte(word, '(')
	if i < 4 || !AllDigits(word[:i]) || !cells.IsDigitAt(word, i+1) {
		return "", "", false
	}
	return word[:i], word[i:], true
}

// gluedDate splits a word into the date it starts with and the text
// glued after it: a date printed the CJK way (年/月/日, 년/월/일) or in
// full-width digits, or any date a letter of a script without spaces
// follows; the text after it starts with a letter, or the date ends in
// its day's sign (日, 일). Digits after another date are a reference or
// a time, read elsewhere.
func gluedDate(word string) (date, rest string, ok bool) {
	first, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsDigit(first) {
		return "", "", false
	}
	s := cells.NormalizeDigits(word)
	d, after, ok := cells.LexDate(s)
	if !ok || after == "" || d.Text == "" || !strings.HasPrefix(s, d.Text) || len(d.Text)+len(after) != len(s) {
		return "", "", false
	}
	// After a date that ends in its day's sign nothing belongs to it;
	// after another, only a letter is sure not to.
	next, _ := utf8.DecodeRuneInString(after)
	last, _ := utf8.DecodeLastRuneInString(d.Text)
	if !unicode.IsLetter(next) && last != '日' && last != '일' {
		return "", "", false
	}
	// NormalizeDigits maps rune to rune: the date is as many runes of
	// the word as of its normalised text.
	n := utf8.RuneCountInString(d.Text)
	rs := []rune(word)
	date, rest = string(rs[:n]), string(rs[n:])
	cjk := strings.ContainsFunc(date, func(r rune) bool { return wide(r) })
	if !cjk && !spaceless(next) {
		return "", "", false
	}
	return date, rest, true
}

// spaceless reports a letter of a script that does not space its words.
func spaceless(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// wide reports a character set two columns wide (a CJK letter, a
// full-width digit), from golang.org/x/text/width (BSD-3-Clause, the
// module's dependency already): East Asian Width's wide and full-width.
func wide(r rune) bool {
	k := width.LookupRune(r).Kind()
	return k == width.EastAsianWide || k == width.EastAsianFullwidth
}

// textWidth is how wide s prints, in columns: a wide character two.
func textWidth(s string) float64 {
	n := 0.0
	for _, r := range s {
		n++
		if wide(r) {
			n++
		}
	}
	return n
}
