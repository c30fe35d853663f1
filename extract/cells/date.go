package cells

import (
	"math/bits"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// dateOrder is how a document writes numeric dates.
type DateOrder int

// Numeric date orders. The zero value means the document gave no evidence
// (no numeric dates); resolve then reads day first.
const (
	OrderUnknown DateOrder = iota
	OrderDMY
	OrderMDY
	OrderYMD
)

// String names the order for test and debug output.
func (o DateOrder) String() string {
	switch o {
	case OrderDMY:
		return "DMY"
	case OrderMDY:
		return "MDY"
	case OrderYMD:
		return "YMD"
	}
	return "unknown"
}

// dateToken is a date as printed, before document-wide decisions: numeric
// parts in printed order, or day/month-name/year. The order of numeric parts
// is decided once per document (guessDateOrder) because "03/04" alone cannot
// say which is the month.
type DateToken struct {
	// Text is the date as matched.
	Text string
	// Named is true when the month is written as a word; Day and Month are
	// then known.
	Named      bool
	Day, Month int
	// Parts are the numeric parts in printed order (N of them, 2 or 3);
	// YearFirst says the first part is the year: four digits, or two
	// before a day of one digit ("22/1/7", CLDR's yy/M/d), which no year
	// is printed as.
	Parts     [3]int
	N         int
	Sep       byte
	YearFirst bool
	// Year is the year as printed and YearDigits how many digits it had
	// (0: no year printed, 2: a two-digit year, 4: full).
	Year       int
	YearDigits int
	// Months, on a named date whose Month is 0, are the months its name
	// may mean (bit m for month m): a name languages share that the
	// date's shape does not decide ("31 srp": July in Croatian, August in
	// Czech). The statement's period decides (see Resolve).
	Months uint16
}

// foldWord lower-cases a word and drops its accents ("Févr" -> "fevr",
// "März" -> "marz", "října" -> "rijna").
func FoldWord(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }) < 0 {
		return strings.ToLower(s) // ASCII: nothing to decompose, no accent to drop
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lexDate recognises a date at the start of s; rest is what follows it
// (trimmed). It accepts numeric dates with / . - separators (D/M/Y, M/D/Y,
// Y-M-D, D/M or M/D without a year, two- or four-digit years) and dates with
// a month name in seven languages, with or without a year, with ordinal days.
// Amounts ("12.50", "1.234,56") and reference numbers are not dates.
func LexDate(s string) (d DateToken, rest string, ok bool) {
	d, rest, ok = lexDateOnly(s)
	if !ok || d.YearDigits == 0 {
		return d, rest, ok
	}
	// The word some languages print after the year ("3.03.25 г.").
	word, after, _ := strings.Cut(rest, " ")
	if dateSuffixes()[FoldWord(word)] {
		d.Text = strings.TrimSpace(s)[:len(strings.TrimSpace(s))-len(rest)] + word
		return d, strings.TrimSpace(after), true
	}
	return d, rest, ok
}

// lexDateOnly is lexDate without the word after the year.
func lexDateOnly(s string) (d DateToken, rest string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DateToken{}, "", false
	}
	if d, n, ok := LexNumericDate(s); ok {
		d.Text = s[:n]
		return d, strings.TrimSpace(s[n:]), true
	}
	if d, n, ok := lexCJKDate(s); ok {
		d.Text = s[:n]
		return d, strings.TrimSpace(s[n:]), true
	}
	for _, lex := range []func(string) (DateToken, int, bool){lexDayMonthName, lexMonthNameDay, lexYearMonthNameDay} {
		d, n, ok := lex(s)
		if !ok {
			continue
		}
		if d.Month == 0 {
			// A month name languages share: the languages whose
			// patterns print this shape of date decide, or else the
			// period the date falls in.
			months := sharedMonthsIn(s[:n], d.YearDigits == 0)
			switch bits.OnesCount16(months) {
			case 0:
				return DateToken{}, "", false
			case 1:
				d.Month = bits.TrailingZeros16(months)
			default:
				d.Months = months
			}
		}
		d.Text = s[:n]
		return d, strings.TrimSpace(s[n:]), true
	}
	return DateToken{}, "", false
}

// sharedMonthsIn is the months the shared month name in date may mean
// (see sharedMonths), none when it has none. A date with no year, which
// no language's pattern prints, may mean any month the name has.
func sharedMonthsIn(date string, yearless bool) uint16 {
	for _, w := range strings.FieldsFunc(date, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) }) {
		if f := FoldWord(w); len(allMonthNames()[f]) > 1 && MonthNames()[f] == 0 {
			if months := sharedMonths(f, date); months != 0 || !yearless {
				return months
			}
			var months uint16
			for _, lm := range allMonthNames()[f] {
				months |= 1 << lm.month
			}
			return months
		}
	}
	return 0
}

// digitsAt returns the value and length of the run of ASCII digits at i.
func digitsAt(s string, i int) (v, n int) {
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' && n < 9 {
		v = v*10 + int(s[i+n]-'0')
		n++
	}
	return v, n
}

func IsDigitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

// endsCleanly reports whether a token ending at i is not glued to more of a
// number: no digit follows, and no separator followed by a digit.
func endsCleanly(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	if IsDigitAt(s, i) {
		return false
	}
	if strings.IndexByte(".,/-:'", s[i]) >= 0 && IsDigitAt(s, i+1) {
		return false
	}
	return true
}

// spacedPart reports the last part of a spaced dotted date at s[i:]: a
// year of four digits, or a part ending in its dot ("2025", "12.").
func spacedPart(s string, i int) bool {
	_, n := digitsAt(s, i)
	return n == 4 && endsCleanly(s, i+n) || n >= 1 && n <= 2 && i+n < len(s) && s[i+n] == '.' && (i+n+1 == len(s) || s[i+n+1] == ' ')
}

// lexNumericDate reads "12/02/2024", "2024-02-12", "12.02.24", "02/12",
// "12.02." at the start of s, and the dotted forms of CLDR's patterns that
// put a space after each dot and may end with one ("2025. 03. 03.",
// "3. 3. 2025", "03. 03. 2025.").
func LexNumericDate(s string) (DateToken, int, bool) {
	var d DateToken
	p0, n0 := digitsAt(s, 0)
	if n0 == 0 || n0 == 3 || n0 > 4 || n0 >= len(s) {
		return d, 0, false
	}
	sep := s[n0]
	if sep != '/' && sep != '.' && sep != '-' {
		return d, 0, false
	}
	i := n0 + 1
	// A dot followed by a space: the parts are spaced ("3. 3. 2025").
	spaced := sep == '.' && i+1 < len(s) && s[i] == ' ' && IsDigitAt(s, i+1)
	if spaced {
		i++
	}
	p1, n1 := digitsAt(s, i)
	if n1 == 0 || n1 > 2 {
		return d, 0, false
	}
	i += n1
	next := i + 1 // where a third part would start
	if spaced && next < len(s) && s[next] == ' ' {
		next++
	} else if !spaced && sep == '.' && next+1 < len(s) && s[next] == ' ' && spacedPart(s, next+1) {
		// A space after the second dot though none after the first
		// ("23.10. 12.", "3.3. 2025"): a spaced date whose first two
		// parts recognition read as one word.
		next++
	}
	d.Sep, d.Parts[0], d.Parts[1], d.N = sep, p0, p1, 2
	if i < len(s) && s[i] == sep && IsDigitAt(s, next) && (!spaced || next > i+1) {
		p2, n2 := digitsAt(s, next)
		end := next + n2
		if sep == '.' && end < len(s) && s[end] == '.' && (end+1 == len(s) || s[end+1] == ' ') {
			end++ // "2025. 03. 03.", "03.03.2025." and "1.1.22." end with a dot
		}
		if n0 == 2 && n2 == 1 && endsCleanly(s, end) && p1 >= 1 && p1 <= 12 && p2 >= 1 {
			// A day of one digit last: the year is the first part.
			d.Parts[2], d.N = p2, 3
			d.YearFirst, d.Year, d.YearDigits = true, p0, 2
			return d, end, true
		}
		if n0 == 4 && n2 > 2 || n0 != 4 && n2 != 2 && n2 != 4 || !endsCleanly(s, end) {
			return d, 0, false
		}
		d.Parts[2], d.N = p2, 3
		i = end
		if n0 == 4 {
			d.YearFirst, d.Year, d.YearDigits = true, p0, 4
			if p1 < 1 || p1 > 12 || p2 < 1 || p2 > 31 {
				return d, 0, false
			}
			return d, i, true
		}
		d.Year, d.YearDigits = p2, n2
	} else {
		if n0 == 4 || spaced && (i >= len(s) || s[i] != '.') {
			return d, 0, false // "2024-02" is a month, "1234.56" an amount; "12. 6." is Korean's month and day
		}
		if sep == '.' {
			// "12.02" is more likely an amount; German day-month dates
			// without a year end with a dot: "12.02.".
			if i >= len(s) || s[i] != '.' {
				return d, 0, false
			}
			i++
		}
		if !endsCleanly(s, i) {
			return d, 0, false
		}
	}
	if n0 > 2 {
		return d, 0, false
	}
	// One of the first two parts must be a month, both a plausible day.
	if p0 < 1 || p1 < 1 || p0 > 31 || p1 > 31 || p0 > 12 && p1 > 12 {
		return d, 0, false
	}
	return d, i, true
}

// lexDay reads a day number with an optional ordinal suffix ("12", "1st",
// "2nd", "3rd", "12th", "1er", "1º", "12.") at i; n is how much it took.
func lexDay(s string, i int) (day, n int, ok bool) {
	day, nd := digitsAt(s, i)
	if nd == 0 || nd > 2 || day < 1 || day > 31 {
		return 0, 0, false
	}
	j := i + nd
	low := strings.ToLower(s[j:min(len(s), j+3)])
	switch {
	case hasWordPrefix(low, "st"), hasWordPrefix(low, "nd"), hasWordPrefix(low, "rd"), hasWordPrefix(low, "th"):
		j += 2
	case hasWordPrefix(low, "er"):
		j += 2
	case strings.HasPrefix(s[j:], "º"), strings.HasPrefix(s[j:], "°"):
		j += len("º")
	case strings.HasPrefix(s[j:], "ª"):
		j += len("ª")
	case j < len(s) && s[j] == '.' && !IsDigitAt(s, j+1):
		j++
	default:
		j += gluedAffix(s[j:]) // Basque "17(a)"
	}
	return day, j - i, true
}

// hasWordPrefix reports whether s starts with p not followed by a letter.
func hasWordPrefix(s, p string) bool {
	if !strings.HasPrefix(s, p) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[len(p):])
	return len(s) == len(p) || !unicode.IsLetter(r)
}

// lexMonth reads a month name at i, with an optional trailing dot, or a
// language's word for month and the month's number ("thg 4").
func lexMonth(s string, i int) (month, n int, ok bool) {
	j := wordEnd(s, i)
	if j == i {
		return 0, 0, false
	}
	word := FoldWord(s[i:j])
	m, found := MonthOf(word)
	if !found && len(allMonthNames()[word]) > 1 {
		found = true // a name languages share: its date decides (see lexDateOnly)
	}
	if !found && monthWords()[word] && j < len(s) && s[j] == ' ' {
		if v, nd := digitsAt(s, j+1); nd > 0 && nd <= 2 && v >= 1 && v <= 12 {
			return v, j + 1 + nd - i, true
		}
	}
	if !found {
		return 0, 0, false
	}
	if j < len(s) && s[j] == '.' {
		j++
	}
	return m, j - i, true
}

// wordEnd is where the word of letters (and their marks) at i ends.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) {
			break
		}
		i += size
	}
	return i
}

// abbreviatedOnly reports that the word at i reads as a month only as a
// shortening of a name (see MonthOf: "rue" of Lithuanian "rugsėjo"): too
// weak to make a date with no year ("14 rue de la Paix" is an address).
func abbreviatedOnly(s string, i int) bool {
	word := FoldWord(s[i:wordEnd(s, i)])
	_, named := MonthNames()[word]
	return !named && len(allMonthNames()[word]) == 0 && !monthWords()[word]
}

// skipSeps skips the characters that may separate the parts of a named date
// (spaces, "-", "/", ".", ",") and the Spanish/Portuguese "de"/"del".
func skipSeps(s string, i int, allowDe bool) int {
	for {
		start := i
		for i < len(s) && strings.IndexByte(" -/.,\t", s[i]) >= 0 {
			i++
		}
		if allowDe {
			low := strings.ToLower(s[i:min(len(s), i+4)])
			if strings.HasPrefix(low, "del ") {
				i += 3
			}
			for _, p := range monthParticles() {
				if len(s)-i > len(p) && strings.EqualFold(s[i:i+len(p)], p) {
					i += len(p)
					break
				}
			}
		}
		if i == start {
			return i
		}
	}
}

// lexYear reads an optional two- or four-digit year at i that is not glued
// to more of a number ("12 Feb 12.50" has no year: 12.50 is an amount).
func lexYear(s string, i int) (year, digits, n int) {
	y, ny := digitsAt(s, i)
	if ny != 2 && ny != 4 || !endsCleanly(s, i+ny) {
		return 0, 0, 0
	}
	if i+ny < len(s) {
		// A year is followed by a space or punctuation, not a letter.
		r, _ := utf8.DecodeRuneInString(s[i+ny:])
		if unicode.IsLetter(r) {
			return 0, 0, 0
		}
	}
	if ny == 2 && i+6 < len(s) && s[i+2] == ' ' {
		// "12 500,00" is a space-grouped amount, not a year and more.
		if _, n := digitsAt(s, i+3); n == 3 && (s[i+6] == ',' || s[i+6] == '.') && IsDigitAt(s, i+7) {
			return 0, 0, 0
		}
	}
	return y, ny, ny
}

// lexDayMonthName reads "12 Feb 24", "12. März 2024", "12-Feb-2024",
// "12FEB24", "1er janvier", "12 de febrero de 2024", "12th Feb".
func lexDayMonthName(s string) (DateToken, int, bool) {
	var d DateToken
	day, n, ok := lexDay(s, 0)
	if !ok {
		return d, 0, false
	}
	i := skipSeps(s, n, true)
	m, nm, ok := lexMonth(s, i)
	if !ok {
		return d, 0, false
	}
	at := i
	i += nm
	end := i
	j := skipSeps(s, i, true)
	if y, digits, ny := lexYear(s, j); ny > 0 {
		d.Year, d.YearDigits = y, digits
		end = j + ny
		if end < len(s) && s[end] == '.' && (end+1 == len(s) || s[end+1] == ' ') {
			end++ // Croatian "1. stu 2025." ends with a dot
		}
	} else if abbreviatedOnly(s, at) {
		return d, 0, false
	}
	d.Named, d.Day, d.Month = true, day, m
	return d, end, true
}

// lexMonthNameDay reads "Feb 12, 2024", "February 12th 2024", "Feb 12".
func lexMonthNameDay(s string) (DateToken, int, bool) {
	var d DateToken
	m, nm, ok := lexMonth(s, 0)
	if !ok {
		return d, 0, false
	}
	i := skipSeps(s, nm, false)
	day, nd, ok := lexDay(s, i)
	if !ok {
		return d, 0, false
	}
	// A four-digit number after the month is a year, not a day ("Feb 2024").
	if _, digits := digitsAt(s, i); digits > 2 {
		return d, 0, false
	}
	i += nd
	end := i
	j := skipSeps(s, i, false)
	glued := !endsCleanly(s, i) // "Feb 12,2024" or "Feb 12.50"
	if y, digits, ny := lexYear(s, j); ny > 0 && j > i && (!glued || digits == 4 && s[i] == ',') {
		d.Year, d.YearDigits = y, digits
		end = j + ny
	} else if glued || abbreviatedOnly(s, 0) {
		return d, 0, false
	}
	d.Named, d.Day, d.Month = true, day, m
	return d, end, true
}

// lexYearMonthNameDay reads the year-first named dates of CLDR's patterns:
// "2025. márc. 3.", "2025 mar 3".
func lexYearMonthNameDay(s string) (DateToken, int, bool) {
	var d DateToken
	y, ny := digitsAt(s, 0)
	if ny != 4 {
		return d, 0, false
	}
	ny += gluedAffix(s[ny:]) // Basque "2025(e)ko"
	i := skipSeps(s, ny, false)
	if i == ny {
		return d, 0, false
	}
	if word, _, _ := strings.Cut(s[i:], " "); dateSuffixes()[FoldWord(word)] {
		i = skipSeps(s, i+len(word), false) // "2022 ж. 03 мам."
	}
	if m, nm, ok := lexMonth(s, i); ok {
		j := skipSeps(s, i+nm, false)
		if day, nd, ok := lexDay(s, j); ok && endsCleanly(s, j+nd) {
			d.Named, d.Day, d.Month, d.Year, d.YearDigits = true, day, m, y, 4
			return d, j + nd, true
		}
	}
	if day, nd, ok := lexDay(s, i); ok {
		j := skipSeps(s, i+nd, false)
		if m, nm, ok := lexMonth(s, j); ok && j > i+nd && endsCleanly(s, j+nm) {
			d.Named, d.Day, d.Month, d.Year, d.YearDigits = true, day, m, y, 4
			return d, j + nm, true
		}
	}
	return d, 0, false
}

// yearFirstShorter reports whether reading a document's numeric dates
// year first (as its "22/1/7" must be) keeps them closer together than
// day first does: "22/1/12" to "22/1/30" are a month year first and twenty
// years day first; a recognition slip ("15/03/2" among "15/03/24") is the
// other way round.
func yearFirstShorter(toks, numeric []DateToken) bool {
	if slices.ContainsFunc(numeric, func(t DateToken) bool { return t.N != 3 || t.YearDigits != 2 }) {
		return false
	}
	span := func(toks []DateToken, order DateOrder) time.Duration {
		var lo, hi time.Time
		for _, t := range toks {
			if d, ok := t.Resolve(order, nil, nil); ok {
				if lo.IsZero() || d.Before(lo) {
					lo = d
				}
				if d.After(hi) {
					hi = d
				}
			}
		}
		return hi.Sub(lo)
	}
	var all []DateToken
	for _, t := range toks {
		if !t.Named {
			all = append(all, t)
		}
	}
	return span(all, OrderYMD) < span(numeric, OrderDMY)
}

// dayMonth returns the token's day, month and printed year under order.
func (d DateToken) DayMonth(order DateOrder) (day, month, year, yearDigits int) {
	if d.Named {
		return d.Day, d.Month, d.Year, d.YearDigits
	}
	switch {
	case d.YearFirst && d.YearDigits == 2 && order != OrderYMD:
		return 0, 0, 0, 0 // "22/1/7" in a document whose dates read another way
	case d.YearFirst:
		return d.Parts[2], d.Parts[1], d.Parts[0], d.YearDigits
	case order == OrderYMD && d.N == 3 && d.YearDigits == 2:
		return d.Parts[2], d.Parts[1], d.Parts[0], 2
	case order == OrderMDY, order == OrderYMD && d.N == 2:
		return d.Parts[1], d.Parts[0], d.Year, d.YearDigits
	}
	return d.Parts[0], d.Parts[1], d.Year, d.YearDigits
}

// guessDateOrder decides D/M/Y vs M/D/Y vs Y/M/D for the whole document from
// all its date tokens: a part greater than 12 settles it; otherwise the
// order under which the dates run monotonically (up or down) wins; ties go
// to D/M/Y.
func GuessDateOrder(toks []DateToken) DateOrder {
	var numeric []DateToken
	yearFirst, shortYearFirst := 0, 0
	for _, t := range toks {
		if t.Named {
			continue
		}
		if t.YearFirst {
			yearFirst++
			if t.YearDigits == 2 {
				shortYearFirst++
			}
			continue
		}
		numeric = append(numeric, t)
	}
	if len(numeric) == 0 || shortYearFirst > 0 && yearFirstShorter(toks, numeric) {
		// Dates that print a two-digit year first ("22/1/7") say how the
		// document's others read ("22/1/12" is the 12th).
		if yearFirst > 0 {
			return OrderYMD
		}
		return OrderUnknown
	}
	dmy, mdy := 0, 0
	for _, t := range numeric {
		if t.Parts[0] > 12 {
			dmy++
		}
		if t.Parts[1] > 12 {
			mdy++
		}
	}
	switch {
	case dmy > mdy:
		return OrderDMY
	case mdy > dmy:
		return OrderMDY
	}
	if Disorder(numeric, OrderMDY) < Disorder(numeric, OrderDMY) {
		return OrderMDY
	}
	return OrderDMY
}

// disorder counts how badly the tokens, read under order, fail to run in
// one direction; impossible dates count heavily.
func Disorder(toks []DateToken, order DateOrder) int {
	keys := make([]int, 0, len(toks))
	bad := 0
	for _, t := range toks {
		day, month, year, digits := t.DayMonth(order)
		if month < 1 || month > 12 || day < 1 || day > daysIn(month, 2000) {
			bad++
			continue
		}
		if digits == 2 {
			year += 2000
		}
		keys = append(keys, year*10000+month*100+day)
	}
	up, down := 0, 0
	for i := 1; i < len(keys); i++ {
		if keys[i] < keys[i-1] {
			up++
		}
		if keys[i] > keys[i-1] {
			down++
		}
	}
	return 10*bad + min(up, down)
}

// daysIn is the length of a month (year decides February).
func daysIn(month, year int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// resolve turns a token into a date given the document's order and the
// statement period: a missing year comes from the period (the year that puts
// the date in or nearest the period, so a period running Dec -> Jan works),
// a two-digit year is put in the century nearest the period (or 20xx for
// years below 70 when there is no period). It fails on impossible dates and
// on a missing year with no period.
func (d DateToken) Resolve(order DateOrder, periodStart, periodEnd *time.Time) (time.Time, bool) {
	if d.Named && d.Month == 0 {
		return d.resolveShared(order, periodStart, periodEnd)
	}
	day, month, year, digits := d.DayMonth(order)
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return time.Time{}, false
	}
	if periodStart == nil {
		periodStart = periodEnd
	}
	if periodEnd == nil {
		periodEnd = periodStart
	}
	switch digits {
	case 0:
		if periodStart == nil {
			return time.Time{}, false
		}
		best, bestDist, found := time.Time{}, time.Duration(0), false
		for y := periodStart.Year() - 1; y <= periodEnd.Year()+1; y++ {
			if day > daysIn(month, y) {
				continue
			}
			t := time.Date(y, time.Month(month), day, 0, 0, 0, 0, time.UTC)
			var dist time.Duration
			switch {
			case t.Before(*periodStart):
				dist = periodStart.Sub(t)
			case t.After(*periodEnd):
				dist = t.Sub(*periodEnd)
			}
			if !found || dist < bestDist {
				best, bestDist, found = t, dist, true
			}
		}
		return best, found
	case 2:
		century := 2000
		if year >= 70 {
			century = 1900
		}
		if periodStart != nil {
			ref := periodStart.Year()
			century = ref - ref%100
			if y := century + year; y-ref > 50 {
				century -= 100
			} else if ref-y > 50 {
				century += 100
			}
		}
		year += century
	case 4:
		if year >= buddhistEraFrom {
			// The Thai solar calendar counts from 543 BC: its 2568 is
			// the common era's 2025.
			year -= buddhistEraOffset
		}
	}
	if year < 1 || day > daysIn(month, year) {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), true
}

// resolveShared resolves a date whose shared month name may mean several
// months (Months) to the one month that puts it in the period, or else
// the one that puts it within PeriodSlack of it; it fails with no period,
// or where none or several do.
func (d DateToken) resolveShared(order DateOrder, periodStart, periodEnd *time.Time) (time.Time, bool) {
	if periodStart == nil || periodEnd == nil {
		return time.Time{}, false
	}
	var inside, near []time.Time
	for m := 1; m <= 12; m++ {
		if d.Months&(1<<m) == 0 {
			continue
		}
		c := d
		c.Month = m
		t, ok := c.Resolve(order, periodStart, periodEnd)
		switch {
		case !ok:
		case !t.Before(*periodStart) && !t.After(*periodEnd):
			inside = append(inside, t)
		case !t.Before(periodStart.Add(-PeriodSlack)) && !t.After(periodEnd.Add(PeriodSlack)):
			near = append(near, t)
		}
	}
	if len(inside) == 0 {
		inside = near
	}
	if len(inside) != 1 {
		return time.Time{}, false
	}
	return inside[0], true
}

// A four-digit year from buddhistEraFrom on is the Buddhist era's, which
// Thai statements print: no statement prints a common-era year that late,
// and the era's years since 1857 CE are all past it.
const (
	buddhistEraFrom   = 2400
	buddhistEraOffset = 543
)

// PeriodSlack is how far outside the printed period a row's date may fall
// and still be taken as printed: a card purchase booked on the first day
// may be dated the day before. A month or a year misread lands further out.
const PeriodSlack = 5 * 24 * time.Hour

// lexCJKDate reads the dates CLDR's Chinese, Japanese and Korean patterns
// print with the year, month and day named by their characters
// ("2024年3月5日", "3月5日", "2024년 3월 5일").
func lexCJKDate(s string) (DateToken, int, bool) {
	var d DateToken
	i := 0
	field := func(marks ...string) (int, bool) {
		v, n := digitsAt(s, i)
		if n == 0 || n > 4 {
			return 0, false
		}
		j := i + n
		for j < len(s) && s[j] == ' ' {
			j++
		}
		for _, m := range marks {
			if strings.HasPrefix(s[j:], m) {
				i = j + len(m)
				for i < len(s) && s[i] == ' ' {
					i++
				}
				return v, true
			}
		}
		return 0, false
	}
	start := i
	if y, ok := field("年", "년"); ok {
		d.Year, d.YearDigits = y, 4
		if y < 100 {
			d.YearDigits = 2
		}
	} else {
		i = start
	}
	m, ok := field("月", "월")
	if !ok {
		return DateToken{}, 0, false
	}
	day, ok := field("日", "일")
	if !ok || m < 1 || m > 12 || day < 1 || day > 31 {
		return DateToken{}, 0, false
	}
	d.Named, d.Month, d.Day = true, m, day
	return d, len(strings.TrimRight(s[:i], " ")), true
}

// NormalizeDigits writes the digits statements print in other scripts
// (full-width, Arabic-Indic, Eastern Arabic-Indic) as ASCII digits.
func NormalizeDigits(s string) string {
	if strings.IndexFunc(s, otherDigit) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '０' && r <= '９':
			return '0' + r - '０'
		case r >= '٠' && r <= '٩':
			return '0' + r - '٠'
		case r >= '۰' && r <= '۹':
			return '0' + r - '۰'
		case r == '／':
			return '/'
		}
		return r
	}, s)
}

func otherDigit(r rune) bool {
	return r >= '０' && r <= '９' || r >= '٠' && r <= '٩' || r >= '۰' && r <= '۹'
}
