package extract

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-playground/locales"
	"github.com/go-playground/locales/af"
	"github.com/go-playground/locales/az_Latn"
	"github.com/go-playground/locales/be"
	"github.com/go-playground/locales/bg"
	"github.com/go-playground/locales/ca"
	"github.com/go-playground/locales/cs"
	"github.com/go-playground/locales/cy"
	"github.com/go-playground/locales/da"
	"github.com/go-playground/locales/de"
	"github.com/go-playground/locales/el"
	"github.com/go-playground/locales/en"
	"github.com/go-playground/locales/es"
	"github.com/go-playground/locales/es_PE"
	"github.com/go-playground/locales/et"
	"github.com/go-playground/locales/eu"
	"github.com/go-playground/locales/fi"
	"github.com/go-playground/locales/fil"
	"github.com/go-playground/locales/fr"
	"github.com/go-playground/locales/ga"
	"github.com/go-playground/locales/gl"
	"github.com/go-playground/locales/hr"
	"github.com/go-playground/locales/hu"
	"github.com/go-playground/locales/id"
	"github.com/go-playground/locales/is"
	"github.com/go-playground/locales/it"
	"github.com/go-playground/locales/kk"
	"github.com/go-playground/locales/lt"
	"github.com/go-playground/locales/lv"
	"github.com/go-playground/locales/mk"
	"github.com/go-playground/locales/ms"
	"github.com/go-playground/locales/mt"
	"github.com/go-playground/locales/nb"
	"github.com/go-playground/locales/nl"
	"github.com/go-playground/locales/pl"
	"github.com/go-playground/locales/pt"
	"github.com/go-playground/locales/ro"
	"github.com/go-playground/locales/ru"
	"github.com/go-playground/locales/sk"
	"github.com/go-playground/locales/sl"
	"github.com/go-playground/locales/sq"
	"github.com/go-playground/locales/sr_Latn"
	"github.com/go-playground/locales/sv"
	"github.com/go-playground/locales/sw"
	"github.com/go-playground/locales/tr"
	"github.com/go-playground/locales/uk"
	"github.com/go-playground/locales/uz_Latn"
	"github.com/go-playground/locales/vi"
)

// Month names come from CLDR, through github.com/go-playground/locales
// v0.14.1 (MIT, generated from CLDR): the wide and abbreviated names of
// every language below, which are the languages whose statements print
// months in letters (Latin, Greek, Cyrillic) rather than numbers. The
// engine holds no month name of its own.

// monthLanguages are the CLDR languages whose month names dates may print.
func monthLanguages() []locales.Translator {
	return []locales.Translator{af.New(), az_Latn.New(), be.New(), bg.New(), ca.New(), cs.New(), cy.New(), da.New(), de.New(),
		el.New(), en.New(), es.New(), es_PE.New(), et.New(), eu.New(), fi.New(), fil.New(), fr.New(), ga.New(), gl.New(), hr.New(), hu.New(),
		id.New(), is.New(), it.New(), kk.New(), lt.New(), lv.New(), mk.New(), ms.New(), mt.New(), nb.New(), nl.New(), pl.New(),
		pt.New(), ro.New(), ru.New(), sk.New(), sl.New(), sq.New(), sr_Latn.New(), sv.New(), sw.New(), tr.New(), uk.New(), uz_Latn.New(), vi.New()}
}

// monthsOf lists a language's month names, folded, January first: the
// wide and the abbreviated name of each (without its dot), where they
// are words.
func monthsOf(t locales.Translator) [12][]string {
	var out [12][]string
	for m := range 12 {
		for _, n := range []string{t.MonthWide(time.Month(m + 1)), t.MonthAbbreviated(time.Month(m + 1))} {
			n = strings.TrimSuffix(strings.ToLower(n), ".")
			// The name, and its umlauts written out ("märz", "maerz").
			for _, v := range []string{n, umlauts.Replace(n)} {
				f := foldWord(v)
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

// monthWords are the words CLDR prints before a month's number where a
// language names months by number ("thg" in Vietnamese "6 thg 4, 2022"),
// built on first use.
var monthWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range monthLanguages() {
		for m := range 12 {
			word, num, ok := strings.Cut(foldWord(t.MonthAbbreviated(time.Month(m+1))), " ")
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
// Croatian, November in Polish) names none.
var monthNames = sync.OnceValue(func() map[string]int {
	names := map[string]int{}
	ambiguous := map[string]bool{}
	for _, t := range monthLanguages() {
		for m, ns := range monthsOf(t) {
			for _, n := range ns {
				if prev, ok := names[n]; ok && prev != m+1 {
					ambiguous[n] = true
				}
				names[n] = m + 1
			}
		}
	}
	for n := range ambiguous {
		delete(names, n)
	}
	return names
})

// namesByInitial lists the month names by their first byte, for monthOf.
var namesByInitial = sync.OnceValue(func() map[byte][]string {
	out := map[byte][]string{}
	for name := range monthNames() {
		out[name[0]] = append(out[name[0]], name)
	}
	return out
})

// monthOf gives the month a folded word names: a month name, or an
// abbreviation of one that keeps its first letter and drops others
// ("mrz" of "märz", "sept" of "september", "dcbre" of "décembre"), of
// three to five ASCII letters, that abbreviates the names of one month
// only.
func monthOf(f string) (int, bool) {
	names := monthNames()
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

// dateSuffixes are the words CLDR's date patterns print after a date's
// year ("г." in Bulgarian and Russian "3.03.25 г.", "р." in Ukrainian,
// "ж." in Kazakh "2025 ж. 17 нау."), folded, built on first use from the
// patterns themselves: a short word of letters (four at most) set after
// the year that names no month.
var dateSuffixes = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	probe := time.Date(2025, 3, 17, 0, 0, 0, 0, time.UTC)
	for _, t := range monthLanguages() {
		for _, d := range []string{t.FmtDateShort(probe), t.FmtDateMedium(probe), t.FmtDateLong(probe)} {
			f := strings.Fields(d)
			for i := 0; i+1 < len(f); i++ {
				if !strings.Contains(f[i], "25") {
					continue // not the year
				}
				w := foldWord(f[i+1])
				if _, _, month := lexMonth(w, 0); !month && utf8.RuneCountInString(w) <= 4 && strings.IndexFunc(w, unicode.IsLetter) >= 0 && strings.IndexFunc(w, unicode.IsDigit) < 0 {
					out[w] = true
				}
			}
		}
	}
	return out
})
