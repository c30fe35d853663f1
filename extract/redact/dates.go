package redact

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
	"unicode"

	"passbook/extract/cells"
	"passbook/extract/layout"
)

// A copy may move every date by a whole number of weeks (Options.
// ShiftWeeks), so that the days of the client's payments are not the
// copy's: the weekdays, and so the layout's weekends, stay. Dates are
// redrawn in their own style, each part as wide as printed; a date
// printed with a month's name is not moved (its font may lack the
// letters of another month's), and the copy is refused.

// dateShift is a plan's moving of dates: by days, in a document whose
// numeric dates read in order.
type dateShift struct {
	days   int
	order  cells.DateOrder
	period [2]*time.Time
}

// shiftedText is a date token's text moved by the shift, or why not.
func (ds *dateShift) shiftedText(d *cells.DateToken, text string) (string, error) {
	if d.Named {
		return "", fmt.Errorf("the date %q names its month: moving it needs another month's letters", text)
	}
	t, ok := d.Resolve(ds.order, ds.period[0], ds.period[1])
	if !ok {
		return "", fmt.Errorf("the date %q cannot be read to be moved", text)
	}
	t = t.AddDate(0, 0, ds.days)
	day, _, _, yearDigits := d.DayMonth(ds.order)
	if day == 0 {
		return "", fmt.Errorf("the date %q cannot be read to be moved", text)
	}
	// The parts in printed order, each the new day, month or year.
	var parts [3]int
	yearAt := 2
	switch {
	case d.YearFirst || ds.order == cells.OrderYMD && d.N == 3:
		parts, yearAt = [3]int{t.Year(), int(t.Month()), t.Day()}, 0
	case ds.order == cells.OrderMDY || ds.order == cells.OrderYMD && d.N == 2:
		parts = [3]int{int(t.Month()), t.Day(), t.Year()}
	default:
		parts = [3]int{t.Day(), int(t.Month()), t.Year()}
	}
	k := 0
	out := digitRuns().ReplaceAllStringFunc(text, func(run string) string {
		if k >= d.N {
			return run
		}
		v := parts[k]
		if k == yearAt && yearDigits == 2 {
			v %= 100
		}
		k++
		s := strconv.Itoa(v)
		for len(s) < len(run) {
			s = "0" + s
		}
		return s
	})
	return out, nil
}

// digitRuns finds a date's numeric parts.
var digitRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]+`) })

// shiftDate redraws a date token moved by the shift, its left edge kept.
func (p *planner) shiftDate(pi int, t layout.Token, gl []*glyph) error {
	text, err := p.shift.shiftedText(t.Date, t.Text)
	if err != nil {
		return refuse("page %d: %v", pi+1, err)
	}
	var old []rune
	for _, g := range gl {
		old = append(old, g.r)
	}
	if string(old) == text {
		p.markKept(gl)
		return nil
	}
	// The glyphs from the first digit to the last, as for a figure.
	first, last := -1, -1
	for i, g := range gl {
		if unicode.IsDigit(g.r) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	nt := []rune(text)
	lead, tail := first, len(gl)-1-last
	if first < 0 || len(nt) < lead+tail {
		return refuse("page %d: the date %q cannot be redrawn", pi+1, t.Text)
	}
	span := p.glyphs[gl[first].idx : gl[last].idx+1]
	newDigits := nt[lead : len(nt)-tail]
	f := span[0].f
	if !p.draws(f, string(newDigits)) {
		return &fontError{fmt.Sprintf("page %d: the font %s cannot draw the moved date %q", pi+1, f.name, text)}
	}
	if len(span) == len(newDigits) {
		// Part for part: each glyph in its place.
		for i, g := range span {
			v := p.byRune[f][newDigits[i]]
			p.edits[keyOf(g)] = edit{with: f.encode(g.c, v), after: f.width(v) - g.w}
		}
	} else {
		for _, g := range span {
			if g.s != span[0].s || g.op != span[0].op || g.item != span[0].item {
				return refuse("page %d: the date %q is drawn in pieces and changes length", pi+1, t.Text)
			}
		}
		var with []byte
		var newW, oldW float64
		for _, r := range newDigits {
			v := p.byRune[f][r]
			with = append(with, f.encode(span[0].c, v)...)
			newW += f.width(v) + p.tcUnits(span[0])
		}
		for _, g := range span {
			oldW += g.w + p.tcUnits(g)
		}
		for i, g := range span {
			if i == 0 {
				p.edits[keyOf(g)] = edit{with: with, after: newW - oldW}
			} else {
				p.edits[keyOf(g)] = edit{drop: true}
			}
		}
	}
	for _, g := range gl {
		p.figures[g] = true
	}
	return nil
}
