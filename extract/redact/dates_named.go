package redact

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"passbook/extract/cells"
	"passbook/extract/layout"
)

// A date that names its month ("4 March 2025", "4 mars", "Mar 4") moves
// as a numeric one does: its day and year are written again, and its
// month's name becomes the new month's in the same language and form
// (CLDR's wide or abbreviated name, through extract/cells), with the
// case it was printed in. The new letters must be ones the date's font
// draws; where they are not, or the name is no form CLDR gives, the copy
// is refused.

// seg is a piece of a date's printed characters, old[a:b], and what it
// becomes.
type seg struct {
	a, b int
	n    []rune
}

// dateSegs are a date's printed characters moved by the shift, piece
// by piece (a run of digits, of letters, or another character).
func (ds *dateShift) dateSegs(d *cells.DateToken, old []rune) ([]seg, error) {
	if !d.Named {
		text, err := ds.shiftedText(d, string(old))
		if err != nil {
			return nil, err
		}
		// Only digit runs change: pair them up in order.
		nr := []rune(text)
		var segs []seg
		for i, k := 0, 0; i < len(old); {
			j, l := i+1, k+1
			if unicode.IsDigit(old[i]) {
				for j < len(old) && unicode.IsDigit(old[j]) {
					j++
				}
				for l < len(nr) && unicode.IsDigit(nr[l]) {
					l++
				}
			}
			if l > len(nr) {
				return nil, fmt.Errorf("the date %q cannot be redrawn", string(old))
			}
			segs = append(segs, seg{a: i, b: j, n: nr[k:l:l]})
			i, k = j, l
		}
		return segs, nil
	}
	return ds.namedShift(d, old)
}

// namedShift is dateSegs for a date that names its month.
func (ds *dateShift) namedShift(d *cells.DateToken, old []rune) ([]seg, error) {
	t, ok := d.Resolve(ds.order, ds.period[0], ds.period[1])
	if !ok {
		return nil, fmt.Errorf("the date %q cannot be read to be moved", string(old))
	}
	nt := t.AddDate(0, 0, ds.days)
	var out []rune
	var segs []seg
	dayDone, yearDone, monthDone := false, false, false
	for i := 0; i < len(old); {
		j := i
		from := len(out)
		switch r := old[i]; {
		case unicode.IsDigit(r):
			for j < len(old) && unicode.IsDigit(old[j]) {
				j++
			}
			run := string(old[i:j])
			v, _ := strconv.Atoi(run)
			mod := 10000
			if len(run) == 2 {
				mod = 100
			}
			switch {
			case !dayDone && len(run) <= 2 && v == t.Day():
				s := strconv.Itoa(nt.Day())
				for len(s) < len(run) {
					s = "0" + s
				}
				out = append(out, []rune(s)...)
				dayDone = true
				// An English ordinal's suffix follows the new day.
				if k := j + 2; k <= len(old) && isOrdinal(string(old[j:k])) && (k == len(old) || !unicode.IsLetter(old[k])) {
					out = append(out, matchCase([]rune(ordinal(nt.Day())), old[j:k])...)
					j = k
				}
			case !yearDone && d.YearDigits > 0 && len(run) == d.YearDigits && v == t.Year()%mod:
				out = append(out, []rune(fmt.Sprintf("%0*d", len(run), nt.Year()%mod))...)
				yearDone = true
			default:
				out = append(out, old[i:j]...)
			}
		case unicode.IsLetter(r):
			for j < len(old) && unicode.IsLetter(old[j]) {
				j++
			}
			word := old[i:j]
			if !monthDone {
				if nw, found, err := ds.newMonthName(word, t.Month(), nt.Month()); err != nil {
					return nil, fmt.Errorf("the date %q: %v", string(old), err)
				} else if found {
					out = append(out, nw...)
					monthDone = true
					break
				}
			}
			out = append(out, word...)
		default:
			j++
			out = append(out, old[i:j]...)
		}
		segs = append(segs, seg{a: i, b: j, n: out[from:len(out):len(out)]})
		i = j
	}
	if !monthDone {
		return nil, fmt.Errorf("the date %q names its month in a form CLDR does not give, which the copy cannot write for another month", string(old))
	}
	if !dayDone && d.Day != 0 {
		return nil, fmt.Errorf("the date %q cannot be read to be moved", string(old))
	}
	return segs, nil
}

func isOrdinal(s string) bool {
	switch strings.ToLower(s) {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// ordinal is the English suffix of a day: 1st, 2nd, 3rd, 4th, 11th.
func ordinal(d int) string {
	if d%100 >= 11 && d%100 <= 13 {
		return "th"
	}
	switch d % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// newMonthName is the name of month to in the language and form (wide
// or abbreviated) word names month from in, printed in word's case; found
// is false when word is no name of month from.
func (ds *dateShift) newMonthName(word []rune, from, to time.Month) ([]rune, bool, error) {
	low := strings.ToLower(string(word))
	all := cells.MonthLanguages()
	for _, li := range ds.languages() {
		lang := all[li]
		for _, form := range []func(time.Month) string{lang.MonthWide, lang.MonthAbbreviated} {
			op, name := monthWord(form(from))
			if name == "" || strings.ToLower(name) != low {
				continue
			}
			if from == to {
				return word, true, nil
			}
			np, nn := monthWord(form(to))
			if np != op || nn == "" {
				return nil, false, fmt.Errorf("the month %q is printed after a particle that the new month's name (%q) does not take", string(word), form(to))
			}
			return matchCase([]rune(nn), word), true, nil
		}
	}
	return nil, false, nil
}

// monthWord is a CLDR month name's particle ("de " of Catalan "de
// gener") and its word, without a dot; "" when the name is not letters.
func monthWord(name string) (particle, word string) {
	name = strings.TrimSuffix(name, ".")
	if i := strings.LastIndexAny(name, " ’'"); i >= 0 {
		_, size := utf8.DecodeRuneInString(name[i:])
		particle, name = strings.ToLower(name[:i+size]), name[i+size:]
	}
	if name == "" || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return "", ""
	}
	return particle, name
}

// matchCase prints s in the case like is printed in: all upper, all
// lower, or its first letter upper.
func matchCase(s, like []rune) []rune {
	upper, lower := 0, 0
	for _, r := range like {
		if unicode.IsUpper(r) {
			upper++
		} else if unicode.IsLower(r) {
			lower++
		}
	}
	out := []rune(strings.ToLower(string(s)))
	switch {
	case lower == 0 && upper > 1:
		out = []rune(strings.ToUpper(string(s)))
	case len(like) > 0 && unicode.IsUpper(like[0]) && len(out) > 0:
		out[0] = unicode.ToUpper(out[0])
	}
	return out
}

// shiftDate redraws a date moved by the shift. Each run of its glyphs drawn by one string (a word, or the
// whole date, or a glyph) is drawn again as its new characters,
// starting where it started plus what the runs before it grew, so that
// words keep their spacing when a month's name is longer or shorter;
// what follows the date in its string stays where it was.
func (p *planner) shiftDate(pi int, t layout.Token, gl []*glyph) error {
	if len(gl) == 0 {
		return refuse("page %d: the date %q cannot be redrawn", pi+1, t.Text)
	}
	span := p.glyphs[gl[0].idx : gl[len(gl)-1].idx+1]
	var old []rune
	for _, g := range span {
		old = append(old, g.r)
	}
	segs, err := p.shift.dateSegs(t.Date, old)
	if err != nil {
		return refuse("page %d: %v", pi+1, err)
	}
	var nt []rune
	for _, sg := range segs {
		nt = append(nt, sg.n...)
	}
	if string(nt) == string(old) {
		p.markKept(gl)
		return nil
	}
	lacks := func(f *font, r rune) error {
		if _, ok := p.byRune[f][r]; ok {
			return nil
		}
		return refuse("page %d: the font %s has no %q to draw the moved date %q (from %q): the copy draws only the letters its fonts hold", pi+1, f.name, r, string(nt), string(old))
	}
	same := func(a, b *glyph) bool { return a.s == b.s && a.op == b.op && a.item == b.item && a.f == b.f }
	// The runs, [start, end) in span, each drawn by one string.
	var runs [][2]int
	for i := range span {
		if i == 0 || !same(span[i-1], span[i]) {
			runs = append(runs, [2]int{i, i})
		}
		runs[len(runs)-1][1] = i + 1
	}
	// Each run's new characters: the pieces it holds, and of a piece
	// drawn by several strings (a glyph at a time), as many characters
	// as it drew, the last of them the rest.
	news := make([][]rune, len(runs))
	for _, sg := range segs {
		rest := sg.n
		var touched []int
		for q, rn := range runs {
			if rn[0] < sg.b && rn[1] > sg.a {
				touched = append(touched, q)
			}
		}
		for x, q := range touched {
			take := len(rest)
			if x < len(touched)-1 {
				take = min(take, min(runs[q][1], sg.b)-max(runs[q][0], sg.a))
			}
			news[q] = append(news[q], rest[:take]...)
			rest = rest[take:]
		}
	}
	carry := 0.0 // how far the runs before have grown, in page points
	for k, rn := range runs {
		g0 := span[rn[0]]
		f := g0.f
		var with []byte
		var newW, oldW float64
		for _, c := range news[k] {
			if err := lacks(f, c); err != nil {
				return err
			}
			v := p.byRune[f][c]
			with = append(with, f.encode(g0.c, v)...)
			newW += f.width(v) + p.tcUnits(g0)
		}
		for _, g := range span[rn[0]:rn[1]] {
			oldW += g.w + p.tcUnits(g)
		}
		ppu := 0.0 // page points per thousandth of the run's text space
		if g0.w > 0 && g0.x1 > g0.x0 {
			ppu = (g0.x1 - g0.x0) / g0.w
		}
		before := 0.0
		if ppu > 0 {
			before = -carry / ppu
		}
		for i, g := range span[rn[0]:rn[1]] {
			switch {
			case i == 0 && len(with) == 0:
				p.edits[keyOf(g)] = edit{drop: true, before: before, after: newW - oldW - before}
			case i == 0:
				p.edits[keyOf(g)] = edit{with: with, before: before, after: newW - oldW - before}
			default:
				p.edits[keyOf(g)] = edit{drop: true}
			}
		}
		carry += (newW - oldW) * ppu
	}
	for _, g := range span {
		p.figures[g] = true
	}
	return nil
}

// languages are the CLDR languages (indexes into cells.MonthLanguages)
// in the order a month's name is looked for: those that name more of
// the document's months first ("MAR" and "APR" are English before
// Portuguese, where April is "ABR"), English first among equals.
func (ds *dateShift) languages() []int {
	if ds.langs != nil {
		return ds.langs
	}
	all := cells.MonthLanguages()
	score := make([]int, len(all))
	for i, lang := range all {
		for _, w := range ds.monthWords {
			for m := time.January; m <= time.December; m++ {
				_, a := monthWord(lang.MonthWide(m))
				_, b := monthWord(lang.MonthAbbreviated(m))
				if strings.EqualFold(a, w) || strings.EqualFold(b, w) {
					score[i]++
					break
				}
			}
		}
	}
	ds.langs = make([]int, len(all))
	for i := range ds.langs {
		ds.langs[i] = i
	}
	slices.SortStableFunc(ds.langs, func(a, b int) int {
		if score[a] != score[b] {
			return score[b] - score[a]
		}
		ea, eb := all[a].Locale() == "en", all[b].Locale() == "en"
		switch {
		case ea && !eb:
			return -1
		case eb && !ea:
			return 1
		}
		return 0
	})
	return ds.langs
}

// noteMonthWords keeps a named date's words of letters, for languages.
func (ds *dateShift) noteMonthWords(text string) {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		ds.monthWords = append(ds.monthWords, w)
	}
}
