package language

import (
	"strings"
	"sync"
	"unicode/utf8"

	"passbook/extract/cells"
	"passbook/extract/lexicon"
)

// languageWords maps each word of four letters or more that the lexicons
// other than English use (headings, summary labels, month names), folded,
// to the languages that use it. English words are left out: English
// headings are printed in statements of every language.
var languageWords = sync.OnceValue(func() map[string][]string {
	words := func(lx lexicon.Lexicon) map[string]bool {
		m := map[string]bool{}
		add := func(ps []string) {
			for _, p := range ps {
				for _, w := range strings.Fields(lexicon.FoldLabel(p)) {
					if utf8.RuneCountInString(w) >= 4 {
						m[w] = true
					}
				}
			}
		}
		for _, ps := range lx.Headings {
			add(ps)
		}
		for _, ps := range [][]string{lx.Opening, lx.Closing, lx.BalanceTitles, lx.Starts, lx.Ends, lx.Totals, lx.Rates, lx.TotalIn, lx.TotalOut, lx.Period, lx.Account, lx.Currency} {
			add(ps)
		}
		for _, t := range cells.MonthLanguages() {
			if t.Locale() == lx.Lang {
				for _, ms := range cells.MonthsOf(t) {
					add(ms)
				}
			}
		}
		return m
	}
	en := words(lexicon.English)
	out := map[string][]string{}
	for _, lx := range lexicon.Lexicons {
		if lx.Lang == lexicon.English.Lang {
			continue
		}
		for w := range words(lx) {
			if !en[w] {
				out[w] = append(out[w], lx.Lang)
			}
		}
	}
	return out
})

// Language is the lexicon language ("de", "fr", ...) that a page's words
// (as read, perhaps without their accents) are mostly in, by the headings,
// labels and month names among them; "" when none stands out, or English.
// A word several languages use counts for each by its share.
func Language(words []string) string {
	score := map[string]float64{}
	for _, w := range words {
		ls := languageWords()[strings.TrimSpace(lexicon.FoldLabel(w))]
		for _, l := range ls {
			score[l] += 1 / float64(len(ls))
		}
	}
	best, second := "", 0.0
	for l, s := range score {
		switch {
		case best == "" || s > score[best]:
			best, second = l, max(second, score[best])
		case s > second:
			second = s
		}
	}
	if best == "" || score[best] < 2 || score[best] < 1.5*second {
		return ""
	}
	return best
}
