package extract

import (
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

var (
	periodRe   = regexp.MustCompile(`(?i)(period|statement|from|between|\bto\b|through|thru|zeitraum|von|vom|bis|du\b|\bau\b|p[ée]riode|periodo|per[ií]odo|desde|hasta|\bdal\b|\bal\b|\bvan\b|\btot\b|\bde\b|\ba\b|\bat[ée]\b)`)
	accountRe  = regexp.MustCompile(`(?i)(account\s*(number|no\b\.?|nr\b\.?|#)|acct\.?\s*(number|no\b\.?|#)?|a/c\s*(no\b\.?)?|kontonummer|konto(\s*nr\.?)?|\biban\b|num[ée]ro\s+de\s+compte|n[°º]\s*de\s*compte|compte\s*n[°º]?|n[úu]mero\s+de\s+cuenta|cuenta|numero\s+di\s+conto|conto\s*n\.?|rekeningnummer|rekening|n[úu]mero\s+da\s+conta|conta\s*n[°º.]?)\s*[:.]?\s*`)
	currencyRe = regexp.MustCompile(`(?i)(currency|w[äa]hrung|devise|moneda|divisa|valuta|munt|moeda)\s*[:.]?\s*([A-Z]{3})\b`)
	// summary lines carry the statement's own opening and closing balances.
	openSumRe  = regexp.MustCompile(`(?i)\b(opening\s+balance|previous\s+balance|balance\s+brought\s+forward|brought\s+forward|starting\s+balance|beginning\s+balance|alter\s+saldo|anfangssaldo|saldo\s+vortrag|solde\s+(pr[ée]c[ée]dent|initial|d[ée]but)|ancien\s+solde|saldo\s+(anterior|inicial|iniziale|precedente)|beginsaldo|vorig\s+saldo)\b`)
	closeSumRe = regexp.MustCompile(`(?i)\b(closing\s+balance|new\s+balance|ending\s+balance|neuer\s+saldo|endsaldo|schlusssaldo|nouveau\s+solde|solde\s+(final|nouveau)|saldo\s+(final|finale|nuevo|attuale|atual)|eindsaldo|nieuw\s+saldo)\b`)
)

// currencyBySymbol names currencies whose symbol is not shared.
var currencyBySymbol = map[string]string{"£": "GBP", "€": "EUR", "₹": "INR", "¥": "JPY", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₦": "NGN", "₱": "PHP", "฿": "THB", "₫": "VND"}

// readStatement reads what the document says about itself: account number,
// period, currency and the summary's opening and closing balances. headerLines
// are the lines outside transaction tables (page tops, summary boxes).
func readStatement(lines []*line, order dateOrder, labels []label) Statement {
	var st Statement
	bundled := false
	for _, l := range lines {
		full := l.text()
		if st.AccountNumber == "" {
			if loc := accountRe.FindStringIndex(full); loc != nil {
				st.AccountNumber = accountValue(full[loc[1]:])
			}
		}
		if st.Currency == "" {
			if m := currencyRe.FindStringSubmatch(full); m != nil && currencyCodes[strings.ToUpper(m[2])] {
				st.Currency = strings.ToUpper(m[2])
			}
		}
		if periodRe.MatchString(full) {
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
		if st.OpeningBalance == nil && openSumRe.MatchString(full) {
			if v, ok := amountAfter(l, openSumRe); ok {
				st.OpeningBalance = &v
			}
		}
		if (st.ClosingBalance == nil || bundled) && closeSumRe.MatchString(full) {
			if v, ok := amountAfter(l, closeSumRe); ok {
				st.ClosingBalance = &v
			}
		}
	}
	if st.Currency == "" {
		for _, lb := range labels {
			for _, f := range strings.Fields(strings.ToUpper(strings.Trim(lb.text, "()[]"))) {
				f = strings.Trim(f, "()[].:")
				if currencyCodes[f] {
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
			for _, t := range l.toks {
				if t.kind != tokAmount {
					continue
				}
				for sym, code := range currencyBySymbol {
					if strings.Contains(t.text, sym) {
						st.Currency = code
						break scan
					}
				}
			}
		}
	}
	return st
}

// accountValue takes an account number as printed from the text after its
// label: the words that hold digits or masking characters.
func accountValue(s string) string {
	var parts []string
	for _, f := range strings.Fields(s) {
		f = strings.TrimRight(f, ",;")
		if !strings.ContainsAny(f, "0123456789*•xX") || len(parts) > 0 && !strings.ContainsAny(f, "0123456789*•") {
			break
		}
		if strings.ContainsAny(f, "0123456789*•") || strings.Trim(f, "xX-") == "" {
			parts = append(parts, f)
			continue
		}
		break
	}
	return strings.Join(parts, " ")
}

// amountAfter returns the first amount on l to the right of the match of re.
func amountAfter(l *line, re *regexp.Regexp) (decimal.Decimal, bool) {
	// Find the x where the matched words end.
	full := l.text()
	loc := re.FindStringIndex(full)
	if loc == nil {
		return decimal.Decimal{}, false
	}
	pos, endX := 0, -1e9
	for _, w := range l.words {
		if pos >= loc[1] {
			break
		}
		endX = w.X1
		pos += len(w.Text) + 1
	}
	for _, t := range l.toks {
		if t.isAmount() && t.x0 >= endX {
			return t.amount, true
		}
	}
	return decimal.Decimal{}, false
}

// periodOf reads a statement period from a line that holds two dates. The
// first may print no year when it shares the last one's ("1 February to
// 1 March, 2019").
func periodOf(l *line, order dateOrder) (time.Time, time.Time, bool) {
	var ds []dateToken
	for _, t := range l.toks {
		if t.kind == tokDate {
			ds = append(ds, t.date)
		}
	}
	if len(ds) < 2 {
		return time.Time{}, time.Time{}, false
	}
	b, okB := ds[len(ds)-1].resolve(order, nil, nil)
	if !okB {
		return time.Time{}, time.Time{}, false
	}
	a, okA := ds[0].resolve(order, nil, nil)
	if !okA {
		a, okA = ds[0].resolve(order, nil, &b)
		for okA && a.After(b) {
			a = a.AddDate(-1, 0, 0)
		}
	}
	if !okA || b.Before(a) || b.Sub(a) >= 2*366*24*time.Hour {
		return time.Time{}, time.Time{}, false
	}
	return a, b, true
}
