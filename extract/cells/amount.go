package cells

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"passbook/extract/lexicon"

	"github.com/shopspring/decimal"
	"golang.org/x/text/currency"
)

// maxIntegerDigits bounds the integer part of an amount printed without
// thousands separators: a longer run of digits is a reference number, not
// money (a trillion is more than any statement line carries).
const maxIntegerDigits = 13

// currencySymbols are written before or after an amount. Longer entries come
// first so that "R$" is not read as a stray "R" and "$".
var CurrencySymbols = []string{
	"US$", "AU$", "NZ$", "CA$", "HK$", "S$", "A$", "C$", "R$", "Rs.", "Rs", "kr.", "kr", "Fr.", "zł", "Kč",
	"$", "€", "£", "¥", "₹", "₨", "₩", "₽", "₺", "₪", "₦", "₱", "฿", "₫",
}

// currencyCode reports an ISO 4217 code, as CLDR's data in
// golang.org/x/text/currency (BSD-3-Clause) knows them, printed in
// capitals: the codes, not any three capitals, so that "REF 123.00" is
// not read as money.
func CurrencyCode(s string) bool {
	if len(s) != 3 || strings.ToUpper(s) != s {
		return false
	}
	_, err := currency.ParseISO(s)
	return err == nil
}

// parseAmount reads one money cell as printed ("1,234.56", "1.234,56",
// "1 234,56", "1'234.56", "1,23,456.78", "$1,234.56", "EUR 12,00", "12,00 €",
// "-12.00", "12.00-", "(12.00)", "12.00 DR", "12.00 CR", "12.00 D", "12.00 C",
// "+12,00", "- 12.00"). decimalComma says the document writes decimals after a
// comma; it only decides cells that are ambiguous on their own ("1.234").
// v is signed (negative for -, trailing -, (), DR, D); marked reports an
// explicit sign or Dr/Cr marker. Dates, times, percentages, phone and
// reference numbers and misgrouped numbers ("1,2345.00") are not money.
func ParseAmount(s string, decimalComma bool) (v decimal.Decimal, marked bool, ok bool) {
	v, marked, bare, cur, ok := ParseNumber(s, decimalComma)
	if bare && !marked && !cur {
		// A bare integer is a count, a cheque or reference number far more
		// often than money on a statement.
		return decimal.Decimal{}, false, false
	}
	return v, marked, ok
}

// parseNumber is parseAmount that also reads a bare integer ("2000", "-800",
// "¥ 800"), one with no grouping or decimals, reporting it as bare: money
// only where the layout says so. cur reports a currency symbol or code.
func ParseNumber(s string, decimalComma bool) (v decimal.Decimal, marked, bare, cur, ok bool) {
	s = normalizeAmountSpaces(s)
	if s == "" || len(s) > 64 || strings.ContainsAny(s, "%/:") {
		return decimal.Decimal{}, false, false, false, false
	}
	s = cutFullStop(s, decimalComma)
	var (
		minus, plus                   bool
		haveSign, haveParen, haveDrCr bool
	)
	for changed := true; changed; {
		changed = false
		s = strings.TrimSpace(s)
		if s == "" {
			return decimal.Decimal{}, false, false, false, false
		}
		if !haveParen && strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
			s, haveParen, minus, changed = s[1:len(s)-1], true, true, true
			continue
		}
		if !haveDrCr {
			if rest, isDebit, found := CutDrCr(s); found {
				s, haveDrCr, changed = rest, true, true
				minus, plus = minus || isDebit, plus || !isDebit
				continue
			}
		}
		if !cur {
			if rest, found := cutCurrency(s); found {
				s, cur, changed = rest, true, true
				continue
			}
		}
		if !haveSign {
			if rest, isMinus, found := cutSign(s); found {
				s, haveSign, changed = rest, true, true
				minus, plus = minus || isMinus, plus || !isMinus
				continue
			}
		}
	}
	if minus && plus || haveSign && haveParen {
		// "-12.00 CR", "(12.00)-": contradictory or doubled signs.
		return decimal.Decimal{}, false, false, false, false
	}
	neg := minus
	marked = haveSign || haveParen || haveDrCr
	lead := byte('.')
	if decimalComma {
		lead = ','
	}
	if len(s) == 3 && s[0] == lead && IsDigitAt(s, 1) && IsDigitAt(s, 2) {
		s = "0" + s // ".26": cents printed without the zero before them
	}
	num, grouped, hasDecimals, ok := normalizeNumber(s, decimalComma)
	if !ok {
		return decimal.Decimal{}, false, false, false, false
	}
	bare = !grouped && !hasDecimals
	v, err := decimal.NewFromString(num)
	if err != nil {
		return decimal.Decimal{}, false, false, false, false
	}
	if neg {
		v = v.Neg()
	}
	return v, marked, bare, cur, true
}

// cutFullStop drops the full stop that ends a sentence after an amount
// with its cents ("New balance $1,973.05."): a dot after the decimals is
// no separator.
func cutFullStop(s string, decimalComma bool) string {
	mark := byte('.')
	if decimalComma {
		mark = ','
	}
	n := len(s)
	// A grouping mark or a currency before the cents tells an amount
	// from a date's day and month ("12.03.").
	if n >= 5 && s[n-1] == '.' && s[n-4] == mark && IsDigitAt(s, n-3) && IsDigitAt(s, n-2) && IsDigitAt(s, n-5) &&
		strings.IndexFunc(s[:n-4], func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return s[:n-1]
	}
	return s
}

// normalizeAmountSpaces maps the space characters typesetters use as
// thousands separators (no-break, thin, narrow no-break, figure space) and
// the typographic apostrophe and minus to their ASCII forms.
func normalizeAmountSpaces(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u00a0', '\u2009', '\u202f', '\u2007', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2008', '\t':
			return ' '
		case '\u2019', '\u02bc', '`', '\u00b4':
			return '\''
		case '\u2212', '\u2013', '\u2012', '\ufe63', '\uff0d':
			return '-'
		}
		return r
	}, strings.TrimSpace(s))
}

// cutDrCr strips a trailing debit/credit marker, with an optional dot,
// after a space, a digit or a closing parenthesis: a word a Dr/Cr
// indicator prints in any of the lexicon's languages ("DR", "CR", "DB",
// the German Soll/Haben "S", "H", the Dutch "Af", "Bij").
func CutDrCr(s string) (rest string, debit bool, ok bool) {
	u := strings.ToUpper(strings.TrimSuffix(s, "."))
	for _, m := range drCrMarks() {
		if !strings.HasSuffix(u, m.text) {
			continue
		}
		before := u[:len(u)-len(m.text)]
		if before == "" {
			return "", false, false
		}
		last, _ := utf8.DecodeLastRuneInString(before)
		if last == ' ' || last == ')' || unicode.IsDigit(last) || last == '-' {
			return s[:len(before)], m.debit, true
		}
	}
	return "", false, false
}

// drCrMark is a Dr/Cr marker word, upper-cased, and its direction.
type drCrMark struct {
	text  string
	debit bool
}

// drCrMarks are the indicator words of every lexicon of three letters or
// fewer, longest first, so that "DR" is cut before "R" could be.
var drCrMarks = sync.OnceValue(func() []drCrMark {
	var ms []drCrMark
	add := func(words []string, debit bool) {
		for _, w := range words {
			if len(w) <= 3 && !strings.Contains(w, " ") {
				ms = append(ms, drCrMark{strings.ToUpper(w), debit})
			}
		}
	}
	add(lexicon.Vocab().IndicatorOut, true)
	add(lexicon.Vocab().IndicatorIn, false)
	sort.SliceStable(ms, func(i, j int) bool { return len(ms[i].text) > len(ms[j].text) })
	return ms
})

// isDrCrMark reports a word that is a Dr/Cr marker by itself.
func IsDrCrMark(word string) bool {
	u := strings.ToUpper(strings.TrimSuffix(word, "."))
	for _, m := range drCrMarks() {
		if u == m.text {
			return true
		}
	}
	return false
}

// cutCurrency strips one currency symbol or ISO code from either end.
func cutCurrency(s string) (string, bool) {
	for _, sym := range CurrencySymbols {
		if strings.HasPrefix(s, sym) {
			return s[len(sym):], true
		}
		if strings.HasSuffix(s, sym) {
			return s[:len(s)-len(sym)], true
		}
	}
	if len(s) > 3 {
		if code := s[:3]; CurrencyCode(code) && !isLetter(s[3]) {
			return s[3:], true
		}
		if code := s[len(s)-3:]; CurrencyCode(code) && !isLetter(s[len(s)-4]) {
			return s[:len(s)-3], true
		}
	}
	return s, false
}

func isLetter(b byte) bool { return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' }

// cutSign strips one leading or trailing plus or minus.
func cutSign(s string) (rest string, minus bool, ok bool) {
	switch {
	case strings.HasPrefix(s, "-"):
		return s[1:], true, true
	case strings.HasPrefix(s, "+"):
		return s[1:], false, true
	case strings.HasSuffix(s, "-"):
		return s[:len(s)-1], true, true
	case strings.HasSuffix(s, "+"):
		return s[:len(s)-1], false, true
	}
	return s, false, false
}

// normalizeNumber turns the digits-and-separators core of an amount into
// plain decimal text ("1234.56"). grouped reports thousands separators;
// hasDecimals a decimal part.
func normalizeNumber(s string, decimalComma bool) (num string, grouped, hasDecimals, ok bool) {
	if s == "" {
		return "", false, false, false
	}
	// Shape: digits separated by single separators, digits at both ends.
	var seps []int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' || c == ',' || c == ' ' || c == '\'':
			if i == 0 || i == len(s)-1 || len(seps) > 0 && seps[len(seps)-1] == i-1 {
				return "", false, false, false
			}
			seps = append(seps, i)
		default:
			return "", false, false, false
		}
	}
	intPart, frac := s, ""
	if len(seps) > 0 {
		last := seps[len(seps)-1]
		c := s[last]
		after := len(s) - last - 1
		docDecimal := byte('.')
		if decimalComma {
			docDecimal = ','
		}
		isDecimal := false
		if c == '.' || c == ',' {
			other := byte('.')
			if c == '.' {
				other = ','
			}
			switch {
			case strings.Count(s, string(c)) > 1 && after == 2 && c != docDecimal:
				// "2.853.82" in a document of decimal commas: the
				// last group of two is the cents, its comma misprinted
				// as the grouping dot (a bank's own specimen does).
				isDecimal = true
			case strings.Count(s, string(c)) > 1:
				isDecimal = false
			case strings.IndexByte(s, other) >= 0:
				isDecimal = true
				if after > 2 && !(after == 3 && c == docDecimal) {
					return "", false, false, false
				}
			case after <= 2:
				isDecimal = true
			case after == 3:
				isDecimal = c == docDecimal
			default:
				return "", false, false, false
			}
		}
		if isDecimal {
			intPart, frac = s[:last], s[last+1:]
		}
	}
	var groupSep byte
	for i := 0; i < len(intPart); i++ {
		if c := intPart[i]; c < '0' || c > '9' {
			if groupSep != 0 && c != groupSep {
				return "", false, false, false
			}
			groupSep = c
		}
	}
	digits := intPart
	if groupSep != 0 {
		groups := strings.Split(intPart, string(groupSep))
		if !westernGroups(groups) && !indianGroups(groups) {
			return "", false, false, false
		}
		digits = strings.Join(groups, "")
		grouped = true
	} else if len(digits) > maxIntegerDigits {
		return "", false, false, false
	}
	if len(digits) > 1 && digits[0] == '0' {
		return "", false, false, false // "0042" is a reference
	}
	if frac != "" {
		return digits + "." + frac, grouped, true, true
	}
	return digits, grouped, false, true
}

// westernGroups reports 1-3 digits then groups of three: "1,234,567".
func westernGroups(g []string) bool {
	if len(g[0]) < 1 || len(g[0]) > 3 {
		return false
	}
	for _, x := range g[1:] {
		if len(x) != 3 {
			return false
		}
	}
	return true
}

// indianGroups reports lakh/crore grouping: "1,23,45,678".
func indianGroups(g []string) bool {
	if len(g) < 3 || len(g[0]) < 1 || len(g[0]) > 2 || len(g[len(g)-1]) != 3 {
		return false
	}
	for _, x := range g[1 : len(g)-1] {
		if len(x) != 2 {
			return false
		}
	}
	return true
}

// guessDecimalComma decides from a document's amount-like cells whether its
// decimal separator is a comma. Each number votes: both separators present
// settles it ("1.234,56"), a lone separator followed by one or two digits is
// the decimal one, repeated valid groups ("1.234.567") are the thousands
// separator. With no decimals anywhere, a lone separator before three
// digits ("8.766") groups thousands. Dates do not vote, nor figures that
// may be a day and a month ("8.12"). Ties go to the dot.
func GuessDecimalComma(cells []string) bool {
	comma, dot := 0, 0
	groupDot, groupComma := 0, 0
	for _, cell := range cells {
		if _, rest, ok := LexDate(cell); ok && rest == "" {
			continue // "1.6." is a day and a month, no decimal
		}
		if d, n, ok := LexNumericDate(cell + "."); ok && n == len(cell)+1 && d.N == 2 && d.Sep == '.' {
			continue // "8.12" may be a day and a month as well as 8.12: it cannot tell
		}
		for _, run := range numberRuns(normalizeAmountSpaces(cell)) {
			nc, nd := strings.Count(run, ","), strings.Count(run, ".")
			last := strings.LastIndexAny(run, ".,")
			if last < 0 {
				continue
			}
			after := len(run) - last - 1
			switch {
			case nc > 0 && nd > 0:
				if after > 3 {
					continue
				}
				if run[last] == ',' {
					comma += 2
				} else {
					dot += 2
				}
			case nc+nd == 1 && after == 1:
				// "1.8": money prints two decimals; a day and a month
				// printed without a year may print one digit.
			case nc+nd == 1 && after == 2:
				if run[last] == ',' {
					comma++
				} else {
					dot++
				}
			case nc+nd == 1 && after == 3:
				// "8.766": a thousands separator, unless a number with
				// decimals says otherwise.
				if run[last] == '.' {
					groupDot++
				} else {
					groupComma++
				}
			case nc+nd > 1 && westernGroups(strings.FieldsFunc(run, func(r rune) bool { return r == '.' || r == ',' })):
				if nc > 0 {
					dot++
				} else {
					comma++
				}
			}
		}
	}
	switch {
	case comma == 0 && dot == 0:
		// Whole amounts only: the separator they group thousands with.
		return groupDot > groupComma
	case groupDot >= 4 && groupDot > 3*(comma+dot) && groupComma == 0:
		// Whole amounts grouped with dots ("¥2.993") under a summary
		// printed another way ("¥268,998.00"): the table's amounts are
		// most of the document's.
		return true
	case groupComma >= 4 && groupComma > 3*(comma+dot) && groupDot == 0:
		return false
	}
	return comma > dot
}

// numberRuns are the maximal runs of digits joined by single dots or commas.
func numberRuns(s string) []string {
	var runs []string
	start := -1
	for i := 0; i <= len(s); i++ {
		digit := i < len(s) && s[i] >= '0' && s[i] <= '9'
		sep := i < len(s) && (s[i] == '.' || s[i] == ',') && start >= 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && s[i-1] >= '0' && s[i-1] <= '9'
		switch {
		case digit && start < 0:
			start = i
		case digit || sep:
		case start >= 0:
			runs = append(runs, s[start:i])
			start = -1
		}
	}
	return runs
}
