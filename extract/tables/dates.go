package tables

import (
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"passbook/extract/cells"
	"passbook/extract/explain"
	"passbook/extract/layout"
	"passbook/extract/lexicon"
)

// The dates of a table: which column is the booking date, where a
// headless table's dates line up, and the lines whose date is lost.

// dateLabel picks the label whose dates are the posting date: of two date
// headings, the one that names the booking ("Data contabile" beside "Data
// operazione").
func DateLabel(labels []Label) int {
	for _, want := range []lexicon.ColRole{lexicon.RoleDate, lexicon.RoleTransDate, lexicon.RoleValueDate} {
		first := -1
		for i, lb := range labels {
			if lb.Role != want {
				continue
			}
			if first < 0 {
				first = i
			}
			if lexicon.HasPhrase(lexicon.FoldLabel(lb.Text), lexicon.Vocab().Posting) {
				return i
			}
		}
		if first >= 0 {
			return first
		}
	}
	return -1
}

// postingColumn picks, for rows that print two dates under no heading,
// the booking date, decided for the document in this order: the column
// whose dates run in order (value dates run out of it); the one whose
// dates stay inside the period [ps, pe] when the statement prints it; the
// second when it is never earlier than the first and differs from it on
// most rows (a card's purchase and booking dates). Rows keep the first
// date otherwise: a booking date is printed before its value date. It
// reports a guess: columns that differ, decided by neither order nor
// period.
func PostingColumn(rows []Row, order cells.DateOrder, ps, pe *time.Time, printed bool, x *explain.Writer) (guessed bool) {
	var first, second []cells.DateToken
	for _, r := range rows {
		if r.alt != nil {
			first, second = append(first, r.Date), append(second, *r.alt)
		}
	}
	if len(second) < 2 || 2*len(second) < len(rows) {
		// Too few rows print two dates to tell which column is the
		// booking date: where they differ, it is a guess.
		return differing(first, second) > 0
	}
	out := func(toks []cells.DateToken) int {
		return min(cells.Disorder(toks, cells.OrderDMY), cells.Disorder(toks, cells.OrderMDY), cells.Disorder(toks, cells.OrderYMD))
	}
	outside := func(toks []cells.DateToken) int {
		n := 0
		for _, t := range toks {
			if d, ok := t.Resolve(order, ps, pe); ok && (d.Before(*ps) || d.After(*pe)) {
				n++
			}
		}
		return n
	}
	later := func(a, b []cells.DateToken) bool { // a never before b, after it at least once
		after := false
		for i := range a {
			da, oka := a[i].Resolve(order, ps, pe)
			db, okb := b[i].Resolve(order, ps, pe)
			if !oka || !okb || da.Before(db) {
				return false
			}
			after = after || da.After(db)
		}
		return after
	}
	differ := differing(first, second) > 0
	var why string
	switch o1, o2 := out(first), out(second); {
	case o1 != o2:
		if o1 < o2 {
			return false
		}
		why = "runs in order, the first does not"
	case printed && ps != nil && pe != nil && outside(first) != outside(second):
		if outside(first) < outside(second) {
			return false
		}
		why = "stays inside the statement's period, the first does not"
	case later(second, first) && 2*differing(first, second) > len(first):
		// A card prints when a purchase was made and, days later, when it
		// was booked: the dates differ on most rows. A value date mostly
		// equals its booking date, which is printed first.
		why, guessed = "is never earlier than the first and differs from it on most rows, as a card's booking dates differ from its purchase dates", true
	default:
		return differ
	}
	x.Printf("  the second date column %s: it is the booking date", why)
	for i := range rows {
		if rows[i].alt != nil {
			rows[i].Date, *rows[i].alt = *rows[i].alt, rows[i].Date
		}
	}
	return guessed
}

// differing counts the rows whose two dates differ.
func differing(first, second []cells.DateToken) int {
	n := 0
	for i := range first {
		if first[i] != second[i] {
			n++
		}
	}
	return n
}

func inDateColumn(seg *Segment, l *layout.Line, dl int) bool {
	if dl < 0 || len(l.Words) == 0 {
		return false
	}
	lo, _ := regionOf(seg.Labels, dl)
	lb := seg.Labels[dl]
	x := l.Words[0].X0
	return x >= lo && x < lb.X1+2 && labelAt(seg.Labels, x) == dl
}

// unreadDate reports a line left out of the rows that starts where the
// table's dates stand with a number and a word in one cell ("12 дец"),
// which no pattern reads as a date, and prints a movement in its money
// columns: a row whose date no pattern reads.
func unreadDate(seg *Segment, l *layout.Line, dl int, amounts []Cell) bool {
	if len(l.Toks) == 0 || l.Toks[0].Kind == layout.TokDate || !cells.IsDigitAt(l.Words[0].Text, 0) {
		return false
	}
	letters := func(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
	if !letters(l.Words[0].Text) && (len(l.Words) < 2 || layout.Apart(l.Words[1].X0-l.Words[0].X1, l.Height()) || !letters(l.Words[1].Text)) {
		return false
	}
	atDates := inDateColumn(seg, l, dl) || seg.dateX > 0 && atDateColumn(&l.Toks[0], seg.dateX)
	return atDates && slices.ContainsFunc(amounts, func(c Cell) bool { return c.Role.IsMoney() && c.Role != lexicon.RoleBalance })
}

// underDateHeading reports a line that starts under one of the segment's
// date headings (the booking date's or another).
func underDateHeading(seg *Segment, l *layout.Line) bool {
	for i, lb := range seg.Labels {
		if lb.Role.IsDate() && inDateColumn(seg, l, i) {
			return true
		}
	}
	return false
}

// dateColumn finds, among lines with no heading above them, the dates that
// open a table's rows: a date that starts a line with figures after it, or
// follows one word printed left of it (a reference or a row number). It
// returns where most such dates start, where the furthest of them ends, and
// how many lines have one there.
func dateColumn(lines []*layout.Line, anywhere bool) (x0, x1 float64, n int) {
	var xs []float64
	for i := range lines {
		if t := leadingDate(lines, i, anywhere); t != nil {
			xs = append(xs, t.X0)
		}
	}
	if len(xs) == 0 {
		return 0, 0, 0
	}
	slices.Sort(xs)
	x0 = xs[len(xs)/2]
	for i := range lines {
		if t := leadingDate(lines, i, anywhere); t != nil && atDateColumn(t, x0) {
			n++
			x1 = max(x1, t.X1)
		}
	}
	return x0, x1, n
}

// leadingDate is the date that leads the figures of line i: its opening
// date (openingDate), or, for a day's heading (a date alone on its line)
// over a line of figures with no date (one of the next three), the
// heading's date.
func leadingDate(lines []*layout.Line, i int, anywhere bool) *layout.Token {
	if t := openingDate(lines[i], anywhere); t != nil {
		return t
	}
	// The figures may stand on the row's second or third line, its
	// description wrapped around them.
	if t := dayHeading(lines[i]); t != nil {
		for _, next := range lines[i+1 : min(len(lines), i+4)] {
			if next.Has(layout.TokDate) {
				break
			}
			if next.Has(layout.TokAmount) {
				return t
			}
		}
	}
	return nil
}

// dayHeading is the date of a line that prints a date first and no
// figure, with at most a few words beside it ("Monday"): the heading of
// the rows of one day. nil for any other line.
func dayHeading(l *layout.Line) *layout.Token {
	if len(l.Toks) == 0 || l.Toks[0].Kind != layout.TokDate || len(l.Toks) > 4 {
		return nil
	}
	for _, t := range l.Toks[1:] {
		if t.Kind != layout.TokText || t.Bare {
			return nil // a figure: a row's ("417 KRW" in a currency of whole units)
		}
	}
	return &l.Toks[0]
}

// openingDate is the date that opens a line with figures after it: its
// first token, or its second after one word; anywhere, its first date
// with no figure before it, wherever the line's columns put it (a
// description may come first). nil when there is none.
func openingDate(l *layout.Line, anywhere bool) *layout.Token {
	for ti := range l.Toks {
		t := &l.Toks[ti]
		switch {
		case t.Kind == layout.TokAmount:
			return nil
		case t.Kind == layout.TokDate:
			if slices.ContainsFunc(l.Toks[ti+1:], func(t layout.Token) bool { return t.Kind == layout.TokAmount }) {
				return t
			}
			return nil
		case !anywhere && (ti >= 1 || strings.Contains(t.Text, " ")):
			return nil
		}
	}
	return nil
}

// ledByDate reports a line of a table with no heading that opens with a
// date where the table's dates line up.
func ledByDate(seg *Segment, l *layout.Line) bool {
	t := openingDate(l, seg.datesAnywhere)
	return t != nil && atDateColumn(t, seg.dateX)
}

// atDateColumn reports a date that starts within its own height of x, where
// a headless table's dates line up.
func atDateColumn(t *layout.Token, x float64) bool {
	return math.Abs(t.X0-x) <= max(t.Y1-t.Y0, 4)
}

// rowsUnder reads lines with no heading of their own as a table under
// labels, from the first line whose date stands under their date heading
// with figures after it, when least lines or more do.
func rowsUnder(lines []*layout.Line, labels []Label, least int) (Segment, bool) {
	dl := DateLabel(labels)
	if dl < 0 {
		return Segment{}, false
	}
	first, n := -1, 0
	for i, l := range lines {
		for ti, t := range l.Toks {
			if t.Kind == layout.TokDate && (labelAt(labels, t.X0) == dl || labelAt(labels, t.Center()) == dl) &&
				slices.ContainsFunc(l.Toks[ti+1:], func(t layout.Token) bool { return t.Kind == layout.TokAmount }) {
				if first < 0 {
					first = i
				}
				n++
				break
			}
		}
	}
	if n < least {
		return Segment{}, false
	}
	return Segment{Lines: lines[first:], Labels: labels, Cont: true}, true
}
