package tables

import (
	"slices"
	"strings"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
)

// Sections of a table: titles that give their rows a direction.

// sectionTitle reports a line that is, whole, a section's title: a
// title of money in or out, or of a kind of rows ("Purchases and
// adjustments", "Fees charged").
func sectionTitle(text string) bool {
	f := strings.TrimSpace(lexicon.FoldLabel(text))
	return f != "" && (slices.Contains(lexicon.Vocab().SectionIn, f) || slices.Contains(lexicon.Vocab().SectionOut, f) || slices.Contains(lexicon.Vocab().SectionTitles, f))
}

// leftOfDescription reports a line that starts left of the description
// heading: not a description's wrapped line.
func leftOfDescription(seg *Segment, l *layout.Line, descLabel int) bool {
	return descLabel >= 0 && len(l.Words) > 0 && l.Words[0].X1 < seg.Labels[descLabel].X0
}

// titleDirection is the direction a section title inside a table gives
// its rows: money in or out as the lexicon's section titles say, or, on a
// card, its payments and refunds in and its purchases, fees and interest
// out; 0 when it says neither.
func TitleDirection(title string, card bool) int {
	f := " " + title + " "
	if card {
		switch {
		case lexicon.HasPhrase(f, lexicon.Vocab().CardSectionIn):
			return 1
		case lexicon.HasPhrase(f, lexicon.Vocab().CardSectionOut):
			return -1
		}
	}
	return SectionDirection(title)
}

// sectionDirection reads a line as a section title: +1 when it names money
// in, -1 money out, 0 when it names neither or both ("Payments and credits").
func SectionDirection(text string) int {
	f := lexicon.FoldLabel(text)
	in, out := lexicon.HasPhrase(f, lexicon.Vocab().SectionIn), lexicon.HasPhrase(f, lexicon.Vocab().SectionOut)
	switch {
	case in && !out:
		return 1
	case out && !in:
		return -1
	}
	return 0
}

// sectionAbove looks at the few plain-text lines just above a table heading
// (at lines[first]) for a section title. titled reports that a title line
// with a direction was found there; balances that the title names a list
// of balances and no movement of money.
func SectionAbove(lines []*layout.Line, first int) (dir int, titled, balances bool) {
	h := lines[first].Height()
	for i := first - 1; i >= 0 && i >= first-3; i-- {
		l := lines[i]
		if !isPlainText(l) || lines[first].Y0-l.Y1 > 6*h {
			break
		}
		text := l.Text()
		if end := lexicon.PhraseEnd(l.Words, lexicon.Vocab().Account); end >= 0 && accountLike(AccountValue(l.Words[end:])) {
			// A page's running header that names the account ("Relevé de
			// carte de crédit - Numéro de compte: ****5725"): its "credit"
			// titles no section.
			continue
		}
		if d := SectionDirection(text); d != 0 {
			return d, true, false
		}
		if f := lexicon.FoldLabel(text); lexicon.HasPhrase(f, lexicon.Vocab().BalanceTitles) && !strings.Contains(f, " transaction") {
			return 0, false, true
		}
	}
	return 0, false, false
}

// hangsOver reports that lines[i], words with no date and no figure, hangs
// over the dated line below it, nearer to it than to the lines above and
// below, and starts right of that line's first word: the first line of that row's
// description, printed above its date as a cell centred on its row prints
// it.
func hangsOver(lines []*layout.Line, i int) bool {
	l := lines[i]
	if i+1 >= len(lines) || l.Has(layout.TokDate) || l.Has(layout.TokAmount) {
		return false
	}
	next := lines[i+1]
	if next.Page != l.Page || !next.Has(layout.TokDate) || len(l.Words) == 0 || len(next.Words) == 0 || l.Words[0].X0 <= next.Words[0].X1 {
		return false // a title at the dates' margin heads a section
	}
	// Nearer the dated line than the line above it, and than the line
	// below the dated line is to it: rows part wider than a cell's lines.
	below := next.Y0 - l.Y1
	if i+2 < len(lines) && lines[i+2].Page == l.Page && below >= lines[i+2].Y0-next.Y1 {
		return false
	}
	return i == 0 || lines[i-1].Page != l.Page || below < l.Y0-lines[i-1].Y1
}

// hangingDescriptions reports a table whose rows print their
// descriptions' first line above their dates (see hangsOver), two of
// them at least: there a section title's words over a dated line are its
// description's.
func hangingDescriptions(lines []*layout.Line) bool {
	n := 0
	for i := range lines {
		if hangsOver(lines, i) {
			n++
		}
	}
	return n >= 2
}
