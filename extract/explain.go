package extract

import (
	"fmt"
	"io"
	"slices"

	"passbook/extract/cells"
	"passbook/extract/explain"
	"passbook/extract/layout"
	"passbook/extract/ledger"
	"passbook/extract/source"
)

// Explain is Analyze that also writes to w, for a person, how the
// document was read.
func Explain(pages []source.Page, w io.Writer) *ledger.Result {
	return AnalyzeDocument(Document{Pages: pages}, w)
}

// stoppedAt names, for a document that gave no rows, the stage of the
// reading that found nothing to pass on, and why (issue 39): its pages
// hold no words; no word reads as a date; none as an amount; no line
// holds a date and an amount, which a row's line does; or dated lines
// with amounts were there and no table took them as rows (the lines
// left out above say why of each).
func stoppedAt(pages []source.Page) string {
	var texts []string
	for _, pg := range pages {
		for _, w := range pg.Words {
			texts = append(texts, w.Text)
		}
	}
	if len(texts) == 0 {
		return fmt.Sprintf("stopped at the words: the %d page(s) hold no text to read (an empty page, or an image recognition read nothing on)", len(pages))
	}
	decimalComma := cells.GuessDecimalComma(texts)
	var dates, amounts, dated int
	var example string
	for i, pg := range pages {
		for _, l := range layout.GroupLines(pg, i) {
			layout.Tokenize(l, decimalComma)
			d := slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind == layout.TokDate })
			a := slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind == layout.TokAmount })
			for _, t := range l.Toks {
				switch t.Kind {
				case layout.TokDate:
					dates++
				case layout.TokAmount:
					amounts++
				}
			}
			if d && a {
				dated++
			} else if example == "" && a {
				example = explain.LineRef(l) // a row's line, perhaps, whose date did not read
			}
		}
	}
	switch {
	case dates == 0:
		return fmt.Sprintf("stopped at the dates: %d word(s), none reads as a date in a form the lexer knows (a line with an amount: %s)", len(texts), example)
	case amounts == 0:
		return fmt.Sprintf("stopped at the amounts: %d date(s), but no word reads as an amount of money", dates)
	case dated == 0:
		return fmt.Sprintf("stopped at the table: %d date(s) and %d amount(s), but no line holds both, as a row's line does (a line with an amount: %s)", dates, amounts, example)
	}
	return fmt.Sprintf("stopped at the rows: %d line(s) hold a date and an amount, and no table read them as rows (the lines left out above say why)", dated)
}
