package cells

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Month names come from CLDR, through github.com/go-playground/locales
// v0.14.1 (MIT, generated from CLDR): the wide and abbreviated names of
// every language in extract/cells/internal/cldrmonths, which are the languages
// whose statements print months in letters (Latin, Greek, Cyrillic)
// rather than numbers. The engine holds no month name of its own. They
// are written into months_cldr.go at compile time (go generate), not
// built from the locales in each process; TestCLDRMonthsGenerated checks
// that the file is what CLDR gives.

//go:generate go run ./internal/cldrmonths/gen

// cldrLanguage is one language's month names, January first, and a date
// (cldrmonths.DateProbe) in its short, medium and long date patterns.
type cldrLanguage struct {
	locale            string
	wide, abbreviated [12]string
	weekdays          [14]string // wide, then abbreviated, Sunday first
	dates             [3]string
	times             [2]string // a morning's and an afternoon's time
}

// Locale is the language's CLDR locale ("de", "sr_Latn").
func (t cldrLanguage) Locale() string { return t.locale }

// MonthWide is the month's full name.
func (t cldrLanguage) MonthWide(m time.Month) string { return t.wide[m-1] }

// MonthAbbreviated is the month's abbreviated name.
func (t cldrLanguage) MonthAbbreviated(m time.Month) string { return t.abbreviated[m-1] }

// monthLanguages are the CLDR languages whose month names dates may print.
func MonthLanguages() []cldrLanguage { return cldrLanguages }

// monthsOf lists a language's month names, folded, January first: the
// wide and the abbreviated name of each (without its dot), where they
// are words.
func MonthsOf(t cldrLanguage) [12][]string {
	var out [12][]string
	for m := range 12 {
		for _, n := range []string{t.MonthWide(time.Month(m + 1)), t.MonthAbbreviated(time.Month(m + 1))} {
			_, n = cutParticle(strings.TrimSuffix(strings.ToLower(n), "."))
			// The name, and its umlauts written out ("märz", "maerz").
			for _, v := range []string{n, umlauts.Replace(n)} {
				f := FoldWord(v)
				if f == "" || strings.IndexFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
					continue // "thg 3", "3月": a number (see monthWords), not a name
				}
				if !slices.Contains(out[m], f) {
					out[m] = append(out[m], f)
				}
			}
		}
	}
	return out
}

// cutParticle cuts the short word some languages print their month names
// after, lower case: Catalan's "de gener" and "d’abril" are "gener" and
// "abril" after "de " and "d’".
func cutParticle(name string) (particle, month string) {
	for i, r := range name {
		if r == ' ' || r == '’' || r == '\'' {
			end := i + utf8.RuneLen(r)
			if i > 0 && utf8.RuneCountInString(name[:i]) <= 3 && strings.IndexFunc(name[:i], func(r rune) bool { return !unicode.IsLetter(r) }) < 0 && end < len(name) {
				return name[:end], name[end:]
			}
			break
		}
	}
	return "", name
}

// monthParticles are the particles CLDR's month names are printed after
// (see cutParticle), with the apostrophe also as typed ("d'"), built on
// first use.
var monthParticles = sync.OnceValue(func() []string {
	var out []string
	for _, t := range MonthLanguages() {
		for m := range 12 {
			for _, n := range []string{t.MonthWide(time.Month(m + 1)), t.MonthAbbreviated(time.Month(m + 1))} {
				p, name := cutParticle(strings.ToLower(n))
				if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) {
					continue // Vietnamese "thg 3" names the month by number (see monthWords)
				}
				for _, v := range []string{p, strings.ReplaceAll(p, "’", "'")} {
					if v != "" && !slices.Contains(out, v) {
						out = append(out, v)
					}
				}
			}
		}
		// A particle the date pattern puts between the day and the
		// month's name (Maltese "17 ta’ Marzu 2025").
		march := []string{FoldWord(t.MonthWide(time.March)), FoldWord(t.MonthAbbreviated(time.March))}
		for _, d := range t.dates {
			f := strings.Fields(strings.ToLower(d))
			for i := 0; i+2 < len(f); i++ {
				if strings.TrimRight(f[i], ".") == "17" && slices.Contains(march, FoldWord(f[i+2])) && strings.IndexFunc(f[i+1], unicode.IsDigit) < 0 {
					for _, v := range []string{f[i+1] + " ", strings.ReplaceAll(f[i+1], "’", "'") + " "} {
						if !slices.Contains(out, v) {
							out = append(out, v)
						}
					}
				}
			}
		}
	}
	return out
})

// DayPeriod reports a word CLDR's short time patterns print after the
// time for the period of the day ("pm", "p.m.", "μ.μ."), dots aside.
func DayPeriod(word string) bool {
	return dayPeriods()[strings.ReplaceAll(FoldWord(word), ".", "")]
}

var dayPeriods = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range MonthLanguages() {
		for _, tm := range t.times {
			for _, f := range strings.Fields(tm) {
				if strings.IndexFunc(f, unicode.IsLetter) >= 0 {
					out[strings.ReplaceAll(FoldWord(f), ".", "")] = true
				}
			}
		}
	}
	return out
})

// DateLiteral reports a short word CLDR's date patterns print after the
// day or the year ("d." in Lithuanian "2025 m. kovo 17 d.", "r." in
// Polish "17 marca 2025 r."), with its comma: part of the date.
func DateLiteral(word string) bool {
	return dateLiterals()[strings.TrimRight(FoldWord(word), ",")]
}

var dateLiterals = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range MonthLanguages() {
		for _, d := range t.dates {
			f := strings.Fields(d)
			for i := 0; i+1 < len(f); i++ {
				if !strings.Contains(f[i], "25") && strings.TrimRight(f[i], ".,") != "17" {
					continue // neither the year nor the day
				}
				w := strings.TrimRight(FoldWord(f[i+1]), ",")
				if _, _, month := lexMonth(w, 0); !month && utf8.RuneCountInString(w) <= 4 && strings.IndexFunc(w, unicode.IsLetter) >= 0 && strings.IndexFunc(w, unicode.IsDigit) < 0 {
					out[w] = true
				}
			}
		}
	}
	return out
})

// monthWords are the words CLDR prints before a month's number where a
// language names months by number ("thg" in Vietnamese "6 thg 4, 2022"),
// built on first use.
var monthWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range MonthLanguages() {
		for m := range 12 {
			word, num, ok := strings.Cut(FoldWord(t.MonthAbbreviated(time.Month(m+1))), " ")
			if ok && num == strconv.Itoa(m+1) && strings.IndexFunc(word, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
				out[word] = true
			}
		}
	}
	return out
})

// umlauts writes umlauts out as the keyboards without them do.
var umlauts = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue")

// monthNames maps every folded month name to its month, built on first
// use. A name two languages give different months ("listopad": October in
// Croatian, November in Polish) names none by itself: see sharedMonths.
var MonthNames = sync.OnceValue(func() map[string]int {
	names := map[string]int{}
	for n, ms := range allMonthNames() {
		if !slices.ContainsFunc(ms, func(lm langMonth) bool { return lm.month != ms[0].month }) {
			names[n] = ms[0].month
		}
	}
	return names
})

// langMonth is a month as one language names it.
type langMonth struct {
	lang  int // index in MonthLanguages
	month int
}

// allMonthNames maps every folded month name to the months the languages
// give it, built on first use.
var allMonthNames = sync.OnceValue(func() map[string][]langMonth {
	out := map[string][]langMonth{}
	for li, t := range MonthLanguages() {
		for m, ns := range MonthsOf(t) {
			for _, n := range ns {
				out[n] = append(out[n], langMonth{li, m + 1})
			}
		}
	}
	return out
})

// sharedMonths is the months a name that languages share with different
// months may mean in the date it stands in ("lis": October in Croatian,
// November in Polish): the months of the languages whose date patterns
// print a date of that shape ("1 lis 2023" is Polish "d MMM y"; Croatian
// prints "1. lis 2023."), bit m for month m.
func sharedMonths(name, date string) uint16 {
	var months uint16
	for _, lm := range allMonthNames()[name] {
		if slices.ContainsFunc(MonthLanguages()[lm.lang].dates[:], func(p string) bool { return DateShape(p) == DateShape(date) }) {
			months |= 1 << lm.month
		}
	}
	return months
}

// DateShape is a date's text with each run of digits written "9" and each
// run of letters "a": "17. ožu 2025." is "9. a 9.".
func DateShape(s string) string {
	var b strings.Builder
	last := rune(0)
	for _, r := range s {
		c := r
		switch {
		case unicode.IsDigit(r):
			c = '9'
		case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
			c = 'a'
		}
		if (c == '9' || c == 'a') && c == last {
			continue
		}
		b.WriteRune(c)
		last = c
	}
	return b.String()
}

// namesByInitial lists the month names by their first byte, for monthOf.
var namesByInitial = sync.OnceValue(func() map[byte][]string {
	out := map[byte][]string{}
	for name := range MonthNames() {
		out[name[0]] = append(out[name[0]], name)
	}
	return out
})

// monthOf gives the month a folded word names: a month name, or an
// abbreviation of one that keeps its first letter and drops others
// ("mrz" of "märz", "sept" of "september", "dcbre" of "décembre"), of
// three to five ASCII letters, that abbreviates the names of one month
// only.
func MonthOf(f string) (int, bool) {
	names := MonthNames()
	if m, ok := names[f]; ok {
		return m, true
	}
	if len(f) < 3 || len(f) > 5 || strings.IndexFunc(f, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return 0, false
	}
	month := 0
	for _, name := range namesByInitial()[f[0]] {
		if len(name) <= len(f) || !subsequence(f, name) {
			continue
		}
		if m := names[name]; month != 0 && month != m {
			return 0, false
		} else {
			month = m
		}
	}
	return month, month != 0
}

// subsequence reports whether the letters of a appear in b in order.
func subsequence(a, b string) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// gluedAffixes are what CLDR's date patterns glue to a year's or a day's
// digits, lower case: Basque's "(e)ko" and "(a)" in "2025(e)ko mar.
// 17(a)". Built on first use from the patterns: the rest of a field that
// starts with the example's year or day, holding a letter and no digit,
// and not the example's month (Uzbek's "17-mar, 2025" glues the month).
var gluedAffixes = sync.OnceValue(func() []string {
	var out []string
	for _, t := range MonthLanguages() {
		march := []string{strings.ToLower(strings.TrimSuffix(t.abbreviated[2], ".")), strings.ToLower(t.wide[2])}
		for _, d := range t.dates {
			for _, f := range strings.Fields(d) {
				for _, p := range []string{"2025", "17"} {
					rest, ok := strings.CutPrefix(strings.ToLower(f), p)
					names := slices.ContainsFunc(march, func(m string) bool { return strings.Contains(rest, m) })
					if ok && !names && strings.IndexFunc(rest, unicode.IsLetter) >= 0 && strings.IndexFunc(rest, unicode.IsDigit) < 0 && !slices.Contains(out, rest) {
						out = append(out, rest)
					}
				}
			}
		}
	}
	return out
})

// gluedAffix gives the length of one of gluedAffixes at the start of s, 0
// when none is there.
func gluedAffix(s string) int {
	for _, a := range gluedAffixes() {
		if len(s) >= len(a) && strings.EqualFold(s[:len(a)], a) {
			return len(a)
		}
	}
	return 0
}

// dateSuffixes are the words CLDR's date patterns print after a date's
// year ("г." in Bulgarian and Russian "3.03.25 г.", "р." in Ukrainian,
// "ж." in Kazakh "2025 ж. 17 нау."), folded, built on first use from the
// patterns themselves: a short word of letters (four at most) set after
// the year that names no month.
var dateSuffixes = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range MonthLanguages() {
		for _, d := range t.dates {
			f := strings.Fields(d)
			for i := 0; i+1 < len(f); i++ {
				if !strings.Contains(f[i], "25") {
					continue // not the year
				}
				w := FoldWord(f[i+1])
				if _, _, month := lexMonth(w, 0); !month && utf8.RuneCountInString(w) <= 4 && strings.IndexFunc(w, unicode.IsLetter) >= 0 && strings.IndexFunc(w, unicode.IsDigit) < 0 {
					out[w] = true
				}
			}
		}
	}
	return out
})

// weekdayNames maps every folded weekday name CLDR gives to whether it is
// a wide name (true) or only an abbreviation (false), built on first use.
var weekdayNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range MonthLanguages() {
		for k, d := range t.weekdays {
			f := strings.TrimRight(FoldWord(d), ".")
			if f == "" {
				continue
			}
			out[f] = out[f] || k < 7
		}
	}
	return out
})

// Weekday reports a word that names a day of the week in a CLDR language
// ("quinta-feira", "wtorek,", "Mon."), and whether it is the name in
// full; a full date pattern prints one beside the date.
func Weekday(word string) (ok, wide bool) {
	wide, ok = weekdayNames()[strings.TrimLeft(strings.TrimRight(FoldWord(word), ".,;)"), "(")]
	return ok, wide
}
