package repair

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"passbook/extract/cells"
	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"
)

// headingWords are the words of every heading phrase, folded: what a
// heading line is made of.
var headingWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, rp := range lexicon.Vocab().Headings {
		for _, p := range rp.Phrases {
			for _, w := range strings.Fields(p) {
				m[w] = true
			}
		}
	}
	return m
})

// joinedHeadings maps each heading phrase of several words, written with
// no spaces, to the phrase: recognition may run its words together
// ("Datecomptable").
var joinedHeadings = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, rp := range lexicon.Vocab().Headings {
		for _, p := range rp.Phrases {
			if strings.Contains(p, " ") {
				m[strings.ReplaceAll(p, " ", "")] = p
			}
		}
	}
	return m
})

// repairHeadingWords puts back, on a line read by OCR that is mostly column
// headings, the heading words recognition misread by a letter or two
// ("Descricaéo" for "Descrição", "Importancia" is read right beside it),
// and splits the words of a heading it ran together ("Datecomptable").
// Such a word takes the one heading word within reach (see nearHeadingWord).
// Only a line that two or more heading words, read or put back, make
// mostly of headings is touched: a description's words stay as read.
func RepairHeadingWords(l *layout.Line) {
	if !l.OCR {
		return
	}
	fixed := make([]string, len(l.Words))
	known := 0
	for i, w := range l.Words {
		// A word may join heading words with a dot ("F.Operacién").
		parts := strings.Fields(lexicon.FoldLabel(w.Text))
		whole, changed := len(parts) > 0, false
		for k, p := range parts {
			if headingWords()[p] {
				continue
			}
			if h := nearHeadingWord(p); h != "" {
				parts[k], changed = h, true
				continue
			}
			whole = false
		}
		if !whole {
			if p, ok := joinedHeadings()[strings.Join(strings.Fields(lexicon.FoldLabel(w.Text)), "")]; ok {
				fixed[i] = p
				known++
			}
			continue
		}
		known++
		if changed {
			fixed[i] = strings.Join(parts, " ")
		}
	}
	if known < 2 || 2*known < len(l.Words) {
		return
	}
	for i, h := range fixed {
		if h != "" {
			l.Words[i].Text = h
		}
	}
}

// nearHeadingWord is the heading word f is a misreading of: the only one
// within one edit of it, or two for words of eight letters or more; "" when
// there is none or more than one. Short words are never guessed: "data" and
// "date" are both headings.
func nearHeadingWord(f string) string { return nearWord(f, headingWords()) }

// summaryWords are the words of the summary's phrases (opening and closing
// balances, totals in and out), folded.
var summaryWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, ps := range [][]string{lexicon.Vocab().Opening, lexicon.Vocab().Closing, lexicon.Vocab().TotalIn, lexicon.Vocab().TotalOut} {
		for _, p := range ps {
			for _, w := range strings.Fields(p) {
				m[w] = true
			}
		}
	}
	return m
})

// repairSummaryWords puts back, on a line read by OCR, a word of a
// summary's phrase recognition misread by a letter or two ("Solde inital"
// for Solde initial), when the line then holds the whole phrase and did
// not before.
func RepairSummaryWords(l *layout.Line) {
	if !l.OCR || isSummaryLine(l) {
		return
	}
	for i, w := range l.Words {
		f := lexicon.FoldLabel(w.Text)
		if strings.Contains(strings.TrimSpace(f), " ") || summaryWords()[strings.TrimSpace(f)] {
			continue
		}
		h := nearWord(strings.TrimSpace(f), summaryWords())
		if h == "" {
			continue
		}
		l.Words[i].Text = h
		if isSummaryLine(l) {
			return
		}
		l.Words[i].Text = w.Text
	}
}

func isSummaryLine(l *layout.Line) bool {
	f := lexicon.FoldLabel(l.Text())
	return lexicon.HasPhrase(f, lexicon.Vocab().Opening) || lexicon.HasPhrase(f, lexicon.Vocab().Closing) || lexicon.HasPhrase(f, lexicon.Vocab().TotalIn) || lexicon.HasPhrase(f, lexicon.Vocab().TotalOut)
}

// nearWord is the word of set that f is a misreading of (see
// nearHeadingWord).
func nearWord(f string, set map[string]bool) string {
	n := utf8.RuneCountInString(f)
	if n < 6 {
		return ""
	}
	reach := 1
	if n >= 8 {
		reach = 2
	}
	best, bestD, ties := "", reach+1, 0
	for h := range set {
		if math.Abs(float64(utf8.RuneCountInString(h)-n)) > float64(reach) {
			continue
		}
		d := lexicon.EditDistance(f, h, reach)
		switch {
		case d < bestD:
			best, bestD, ties = h, d, 1
		case d == bestD:
			ties++
		}
	}
	if bestD > reach || ties > 1 {
		return ""
	}
	return best
}

// lostPoint matches a whole number as recognition gives the part of an
// amount before a decimal point it lost ("351", "2,749", "-263", "(1,469";
// not "0130", a group of an account number);
// cents are the two digits of the next word ("20", "58)", "20Dr", or
// "-85" where the point was read as a dash).
var (
	lostPoint = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[-+(]?(0|[1-9][0-9]{0,2}([,.' ][0-9]{3})*|[1-9][0-9]{0,6})$`)
	})
	yearWord  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{2}([0-9]{2})?[,.]?$`) })
	centsWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-.,]?[0-9]{2}(\)|-|[CcDd][Rr]\.?)?$`) })
)

// joinLostDecimals puts back the decimal point recognition drops from a
// small font ("351 20" for "351.20"): on a recognised page, a whole number
// followed within a word space, on its baseline, by a word of two digits
// is one amount (not before a third word that makes it a date). It runs
// on the page's words before they are chained into lines: the two halves'
// boxes may sit at heights that would put them on lines of their own.
func JoinLostDecimals(ws []source.Word, decimalComma bool) []source.Word {
	point := "."
	if decimalComma {
		point = ","
	}
	return joinPairs(ws, func(ws []source.Word, used []bool, i int) (int, string) {
		if !lostPoint().MatchString(ws[i].Text) {
			return -1, ""
		}
		j := centsAfter(ws, used, i)
		if j < 0 {
			return -1, ""
		}
		return j, ws[i].Text + point + strings.TrimLeft(centsDigits(ws[j].Text), "-.,")
	})
}

// joinPairs joins each word to the one partner gives it (its index and the
// joined text; -1 for none), in the order the words come, each word used
// once: the joined word spans both boxes and keeps the lower confidence.
func joinPairs(ws []source.Word, partner func(ws []source.Word, used []bool, i int) (int, string)) []source.Word {
	out := make([]source.Word, 0, len(ws))
	used := make([]bool, len(ws))
	for i, a := range ws {
		if used[i] {
			continue
		}
		if j, text := partner(ws, used, i); j >= 0 {
			b := ws[j]
			used[j] = true
			a = source.Word{Text: text, X0: a.X0, Y0: min(a.Y0, b.Y0), X1: b.X1, Y1: max(a.Y1, b.Y1), Conf: min(a.Conf, b.Conf)}
		}
		out = append(out, a)
	}
	return out
}

// centsAfter finds the word of two digits just after ws[i] on its
// baseline, -1 for none (or when a year-like word follows it: a date).
func centsAfter(ws []source.Word, used []bool, i int) int {
	a := ws[i]
	h := a.Y1 - a.Y0
	best := nextOnLine(ws, used, i)
	if best < 0 || !centsWord().MatchString(centsDigits(ws[best].Text)) {
		return -1
	}
	b := ws[best]
	for j, c := range ws {
		if j != i && j != best && !used[j] && c.X0 >= b.X1-1 && c.X0-b.X1 < 0.6*h && math.Abs(c.Y1-b.Y1) < 0.35*h && yearWord().MatchString(c.Text) {
			return -1 // "12 03 2024": a date
		}
	}
	return best
}

// nextOnLine is the word just right of ws[i] on its baseline, within a
// word space and a bit: -1 when there is none (or it is used), or when
// another word starts between the two. Recognition's box may run on
// over a small word after it ("2022" over the dash of "2022 – 17 Jan"):
// that word still stands between.
func nextOnLine(ws []source.Word, used []bool, i int) int {
	a := ws[i]
	h := a.Y1 - a.Y0
	best := -1
	for j, b := range ws {
		if used[j] || j == i || b.X0 < a.X1-1 || b.X0-a.X1 > 1.3*h || math.Abs(b.Y1-a.Y1) > 0.35*h {
			continue
		}
		if best < 0 || b.X0 < ws[best].X0 {
			best = j
		}
	}
	if best >= 0 && slices.ContainsFunc(ws, func(c source.Word) bool {
		return c != a && c.X0 > a.X0 && c.X0 < ws[best].X0 && math.Abs(c.Y1-a.Y1) <= 0.35*h
	}) {
		return -1
	}
	return best
}

// joinSplitDates joins a numeric date recognition split at a separator
// ("21 /07", "21/ 07/2023"): a day of one or two digits and the rest of the
// date starting or ending with the separator, on one baseline within a word
// space, are one word.
func JoinSplitDates(ws []source.Word) []source.Word {
	return joinPairs(ws, func(ws []source.Word, used []bool, i int) (int, string) {
		a := ws[i].Text
		if !splitDayWord().MatchString(a) {
			return -1, ""
		}
		j := nextOnLine(ws, used, i)
		if j < 0 {
			return -1, ""
		}
		b := ws[j].Text
		if !splitDateRest().MatchString(b) || strings.ContainsAny(a, "/.-") == strings.ContainsAny(b[:1], "/.-") {
			return -1, ""
		}
		if _, rest, ok := cells.LexDate(a + b); !ok || rest != "" {
			return -1, ""
		}
		return j, a + b
	})
}

var (
	splitDayWord  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-3]?[0-9][/.-]?$`) })
	splitDateRest = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[/.-]?[01]?[0-9]([/.-][0-9]{2}([0-9]{2})?)?$`) })
)

// centsDigits reads the two cents of a word after a lost decimal point
// with the letters recognition takes for digits as those digits ("-ol"
// for -01); the rest of the word stays as read.
func centsDigits(s string) string {
	lead := len(s) - len(strings.TrimLeft(s, "-.,"))
	if len(s) < lead+2 {
		return s
	}
	return s[:lead] + digitLike.Replace(s[lead:lead+2]) + s[lead+2:]
}

// digitLike maps letters recognition reads for digits back to them.
var digitLike = strings.NewReplacer("o", "0", "O", "0", "s", "5", "S", "5", "l", "1", "I", "1", "B", "8", "Z", "2")

// fixDateWords puts back the digits of a compact date recognition read as
// letters ("2SJAN24" for 25JAN24, "O8FEB24" for 08FEB24): a word that is
// no date as read, and that a day, a month's name and a year make once
// the letters about the name that look like digits are read as them.
// A month's name misread by a letter between a day and a year ("1 aodt
// 2025" for 1 août 2025) takes the one month name within an edit of it.
func FixDateWords(ws []source.Word) {
	for i, w := range ws {
		if i > 0 && i+1 < len(ws) && dayWord().MatchString(ws[i-1].Text) && yearWord4().MatchString(ws[i+1].Text) {
			if m, ok := nearMonth(w.Text); ok {
				ws[i].Text = m
			}
			continue
		}
		if _, rest, ok := cells.LexDate(w.Text); ok && rest == "" || len(w.Text) < 6 || len(w.Text) > 14 {
			continue
		}
		if fixed, ok := compactDate(w.Text); ok {
			ws[i].Text = fixed
		}
	}
}

var (
	dayWord   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(0?[1-9]|[12][0-9]|3[01])\.?$`) })
	yearWord4 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(19|20)[0-9]{2},?$`) })
)

// nearMonth is the month name s is a misreading of: s is no month name as
// read, and the names of four letters or more nearest it, within an edit
// (two for a word of five letters or more), all name one month.
func nearMonth(s string) (string, bool) {
	f := cells.FoldWord(strings.TrimSuffix(s, "."))
	n := utf8.RuneCountInString(f)
	if _, ok := cells.MonthNames()[f]; ok || n < 4 {
		return "", false
	}
	reach := 1
	if n >= 5 {
		reach = 2
	}
	best, bestD, month, tied := "", reach+1, 0, false
	for name, m := range cells.MonthNames() {
		if utf8.RuneCountInString(name) < 4 {
			continue
		}
		d := lexicon.EditDistance(f, name, reach)
		switch {
		case d > reach || d > bestD:
		case d < bestD:
			best, bestD, month, tied = name, d, m, false
		case m != month:
			tied = true
		}
	}
	return best, month != 0 && !tied
}

func compactDate(s string) (string, bool) {
	for d := 1; d <= 2 && d < len(s); d++ {
		day := digitLike.Replace(s[:d])
		if !layout.AllDigits(day) {
			continue
		}
		for y := len(s) - 2; y >= d+3; y-- {
			year := digitLike.Replace(s[y:])
			if !layout.AllDigits(year) || len(year) != 2 && len(year) != 4 {
				continue
			}
			if _, ok := cells.MonthNames()[strings.ToLower(s[d:y])]; !ok {
				continue
			}
			cand := day + s[d:y] + year
			if _, rest, ok := cells.LexDate(cand); ok && rest == "" {
				return cand, true
			}
		}
	}
	return "", false
}
