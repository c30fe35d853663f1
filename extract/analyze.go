package extract

import (
	"time"
)

// analyze finds the transaction tables in a document's words and reads them
// into a reconciled Result.
func analyze(pages []Page) *Result {
	var cells []string
	for _, pg := range pages {
		for _, w := range pg.Words {
			cells = append(cells, w.Text)
		}
	}
	decimalComma := guessDecimalComma(cells)
	var byPage [][]*line
	var all []*line
	for i, pg := range pages {
		ls := groupLines(pg, i)
		for _, l := range ls {
			tokenize(l, decimalComma)
		}
		byPage = append(byPage, ls)
		all = append(all, ls...)
	}
	segs := buildSegments(byPage)
	var rows []row
	var markers []marker
	inTable := map[*line]bool{}
	var labels []label
	for i := range segs {
		rows, markers = readRows(&segs[i], i, rows, markers)
		for _, l := range segs[i].lines {
			inTable[l] = true
		}
		labels = append(labels, segs[i].labels...)
	}
	var toks []dateToken
	for _, r := range rows {
		if r.ownDate {
			toks = append(toks, r.date)
		}
	}
	order := guessDateOrder(toks)
	var outside []*line
	for _, l := range all {
		if !inTable[l] {
			outside = append(outside, l)
		}
	}
	st := readStatement(outside, order, labels)
	// Two readings of numeric dates may both run in order ("03/01, 03/03");
	// then the one that keeps the dates inside the printed period wins.
	if order == orderDMY || order == orderMDY {
		other := orderMDY
		if order == orderMDY {
			other = orderDMY
		}
		st2 := readStatement(outside, other, labels)
		if inPeriod(toks, other, st2) > inPeriod(toks, order, st) {
			order, st = other, st2
		}
	}
	ps, pe := st.PeriodStart, st.PeriodEnd
	if ps == nil {
		ps, pe = fallbackPeriod(all, order)
	}
	res := &Result{Statement: st}
	res.Transactions = reconcile(rows, markers, &res.Statement, order, ps, pe)
	return res
}

// fallbackPeriod gives dates printed without a year something to resolve
// against when the statement names no period: the year of the first full
// date in the document.
func fallbackPeriod(all []*line, order dateOrder) (*time.Time, *time.Time) {
	for _, l := range all {
		for _, t := range l.toks {
			if t.kind == tokDate && t.date.YearDigits == 4 {
				if d, ok := t.date.resolve(order, nil, nil); ok {
					pe := d.AddDate(0, 11, 0)
					return &d, &pe
				}
			}
		}
	}
	return nil, nil
}

// inPeriod counts the dates that, read under order, fall inside the
// statement's period (with a week's grace either side).
func inPeriod(toks []dateToken, order dateOrder, st Statement) int {
	if st.PeriodStart == nil {
		return 0
	}
	lo, hi := st.PeriodStart.AddDate(0, 0, -7), st.PeriodEnd.AddDate(0, 0, 7)
	n := 0
	for _, t := range toks {
		if d, ok := t.resolve(order, st.PeriodStart, st.PeriodEnd); ok && !d.Before(lo) && !d.After(hi) {
			n++
		}
	}
	return n
}
