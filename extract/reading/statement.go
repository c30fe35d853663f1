package reading

import (
	"slices"
	"strings"
	"time"

	"passbook/extract/cells"
	"passbook/extract/layout"
	"passbook/extract/ledger"
	"passbook/extract/lexicon"
	"passbook/extract/tables"
)

// currencyBySymbol names currencies whose symbol is not shared.
var currencyBySymbol = map[string]string{"£": "GBP", "€": "EUR", "₹": "INR", "¥": "JPY", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₦": "NGN", "₱": "PHP", "฿": "THB", "₫": "VND"}

// readStatement reads what the document says about itself: account number,
// period, currency and the summary's opening and closing balances. headerLines
// are the lines outside transaction tables (page tops, summary boxes).
func ReadStatement(lines []*layout.Line, order cells.DateOrder, labels []tables.Label) ledger.Statement {
	var st ledger.Statement
	bundled := false
	for i, l := range lines {
		folded := lexicon.FoldLabel(l.Text())
		if st.AccountNumber == "" {
			if end := lexicon.PhraseEnd(l.Words, lexicon.Vocab().Account); end >= 0 {
				st.AccountNumber = tables.AccountValue(l.Words[end:])
			}
		}
		if st.Currency == "" {
			if end := lexicon.PhraseEnd(l.Words, lexicon.Vocab().Currency); end >= 0 && end < len(l.Words) {
				if c := strings.ToUpper(strings.Trim(l.Words[end].Text, ":.")); cells.CurrencyCode(c) {
					st.Currency = c
				}
			}
		}
		if lexicon.HasPhrase(folded, lexicon.Vocab().Period) {
			if a, b, ok := periodOf(l, order); ok {
				switch {
				case st.PeriodStart == nil:
					st.PeriodStart, st.PeriodEnd = &a, &b
				case a.After(*st.PeriodEnd):
					// A later period: statements bundled in one file. The
					// document runs to the end of the last one.
					st.PeriodEnd = &b
					bundled = true
				}
			}
		}
		if st.OpeningBalance == nil {
			if v, ok := tables.LabelAmount(lines, i, lexicon.Vocab().Opening); ok {
				st.OpeningBalance = &v
			}
		}
		if st.TotalIn == nil {
			if v, ok := tables.LabelAmount(lines, i, lexicon.Vocab().TotalIn); ok {
				v = v.Abs()
				st.TotalIn = &v
			}
		}
		if st.TotalOut == nil {
			if v, ok := tables.LabelAmount(lines, i, lexicon.Vocab().TotalOut); ok {
				v = v.Abs()
				st.TotalOut = &v
			}
		}
		if st.ClosingBalance == nil || bundled {
			if v, ok := tables.LabelAmount(lines, i, lexicon.Vocab().Closing); ok {
				st.ClosingBalance = &v
			}
		}
	}
	if st.Currency == "" {
		for _, lb := range labels {
			for _, f := range strings.Fields(strings.ToUpper(strings.Trim(lb.Text, "()[]"))) {
				f = strings.Trim(f, "()[].:")
				if cells.CurrencyCode(f) {
					st.Currency = f
				}
				if c, ok := currencyBySymbol[f]; ok {
					st.Currency = c
				}
			}
		}
	}
	if st.Currency == "" {
	scan:
		for _, l := range lines {
			for _, t := range l.Toks {
				if t.Kind != layout.TokAmount {
					continue
				}
				for sym, code := range currencyBySymbol {
					if strings.Contains(t.Text, sym) {
						st.Currency = code
						break scan
					}
				}
			}
		}
	}
	return st
}

// periodByShape is the period of a statement whose lines name none in
// words the lexicon knows: the first line that prints two dates as a
// range. Lines of a table count too: a table read with no heading may
// start at the top of the page.
func PeriodByShape(lines []*layout.Line, order cells.DateOrder) (*time.Time, *time.Time) {
	for _, l := range lines {
		if a, b, ok := periodOf(l, order); ok && dateRange(l) {
			return &a, &b
		}
	}
	return nil, nil
}

// dateRange reports a line that ends in two dates printed as a range:
// no figure on it, and at most one word or dash between them ("1 may 2024
// – 31 may 2024", "1.3.2025 bis 31.3.2025"). Two dates with words between
// them are two facts ("Statement date 31/05 Payment due 15/06").
func dateRange(l *layout.Line) bool {
	n := len(l.Toks)
	if n < 2 || l.Toks[n-1].Kind != layout.TokDate || slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind == layout.TokAmount || t.Bare }) {
		return false
	}
	return l.Toks[n-2].Kind == layout.TokDate || n >= 3 && l.Toks[n-2].Kind == layout.TokText && !strings.Contains(l.Toks[n-2].Text, " ") && l.Toks[n-3].Kind == layout.TokDate
}

// periodOf reads a statement period from a line that holds two dates. The
// first may print no year when it shares the last one's ("1 February to
// 1 March, 2019").
func periodOf(l *layout.Line, order cells.DateOrder) (time.Time, time.Time, bool) {
	var ds []cells.DateToken
	for _, t := range l.Toks {
		if t.Kind == layout.TokDate {
			ds = append(ds, *t.Date)
		}
	}
	if len(ds) < 2 {
		return time.Time{}, time.Time{}, false
	}
	b, okB := ds[len(ds)-1].Resolve(order, nil, nil)
	if !okB {
		return time.Time{}, time.Time{}, false
	}
	a, okA := ds[0].Resolve(order, nil, nil)
	if !okA {
		a, okA = ds[0].Resolve(order, nil, &b)
		for okA && a.After(b) {
			a = a.AddDate(-1, 0, 0)
		}
	}
	if !okA || b.Before(a) || b.Sub(a) >= 2*366*24*time.Hour {
		return time.Time{}, time.Time{}, false
	}
	return a, b, true
}
