package layout

import (
	"math"
	"sort"
	"unicode"

	"passbook/extract/source"
)

// SplitSideBlocks cuts a page's lines where a block of prose stands beside
// the rows, in a flow of its own: a bank's noticeboard down the side of
// the transactions, notes beside a summary. Lines are grouped by height
// across the whole page, so each row that happened to share its height
// with a line of the notes took the notes' words as its own, and each
// note's line between two rows sat among them.
//
// The block is found by its edge: a left margin, right of the page's
// left edge, where most of its lines start alone and that no word of the
// lines beside it crosses, a few ems clear of them. Its lines must be
// text (few figures), and each side must print lines the other does not:
// the two sides keep lines of their own, where a table's columns share
// the rows' lines (a description's wrapped lines stand beside no other
// column's, but every other column's lines stand beside a description's).
// A line holding words of both sides becomes two, left then right.
func SplitSideBlocks(lines []*Line) []*Line {
	if len(lines) < 8 {
		return lines
	}
	minX := math.Inf(1)
	for _, l := range lines {
		minX = min(minX, l.Words[0].X0)
	}
	// Candidate edges: where a line starts right of the page's margin.
	seen := map[int]bool{}
	var edges []float64
	for _, l := range lines {
		x := l.Words[0].X0
		if x-minX < 8*l.Em || seen[int(x)] {
			continue
		}
		seen[int(x)] = true
		edges = append(edges, x)
	}
	sort.Float64s(edges)
	best, bestFrom, bestTo, bestRight := -1.0, 0, 0, 0
	for _, x := range edges {
		from, to, right := sideBlock(lines, x)
		if right > bestRight {
			best, bestFrom, bestTo, bestRight = x, from, to, right
		}
	}
	if best < 0 {
		return lines
	}
	out := make([]*Line, 0, len(lines)+bestTo-bestFrom)
	out = append(out, lines[:bestFrom]...)
	for _, l := range lines[bestFrom:bestTo] {
		k := cut(l, best)
		if k == 0 || k == len(l.Words) {
			l.Side = k == 0
			out = append(out, l)
			continue
		}
		out = append(out, l.part(l.Words[:k:k]), l.part(l.Words[k:]))
		out[len(out)-1].Side = true
	}
	return append(out, lines[bestTo:]...)
}

// sideBlock finds the longest run of lines that no word crosses at x and
// in which the words right of x are a side block (see SplitSideBlocks):
// the run's bounds and the number of lines only the block prints, 0 when
// there is none.
func sideBlock(lines []*Line, x float64) (from, to, right int) {
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && !crosses(lines[j], x) {
			j++
		}
		if j == i {
			i++
			continue
		}
		// The left side's lines count within the block's height: a
		// page's address above a table is no flow beside it.
		top, bottom := -1, -1
		for m := i; m < j; m++ {
			if cut(lines[m], x) < len(lines[m].Words) {
				if top < 0 {
					top = m
				}
				bottom = m + 1
			}
		}
		if top < 0 {
			i = j
			continue
		}
		var onlyLeft, onlyRight, both, starts, prose int
		leftEdge := math.Inf(-1)
		ems := make([]float64, 0, j-i)
		for _, l := range lines[top:bottom] {
			k := cut(l, x)
			if k > 0 {
				leftEdge = max(leftEdge, l.Words[k-1].X1)
			}
			ems = append(ems, l.Em)
			switch {
			case k == len(l.Words):
				onlyLeft++
				continue
			case k == 0:
				onlyRight++
			default:
				both++
			}
			if math.Abs(l.Words[k].X0-x) < 1.5 {
				starts++
			}
			if !figures(l.Words[k:]) {
				prose++
			}
		}
		n := onlyRight + both
		sort.Float64s(ems)
		em := ems[len(ems)/2]
		// A gutter of a few ems: a table's columns stand closer.
		if onlyRight >= 4 && onlyLeft >= 4 && both <= onlyLeft+onlyRight && x-leftEdge >= 3*em && starts*3 >= n*2 && prose*3 >= n*2 && onlyRight > right {
			from, to, right = i, j, onlyRight
		}
		i = j
	}
	return from, to, right
}

// crosses reports a word of l that spans x.
func crosses(l *Line, x float64) bool {
	for _, w := range l.Words {
		if w.X0 < x-0.5 && w.X1 > x+0.5 {
			return true
		}
	}
	return false
}

// cut is the index of l's first word right of x.
func cut(l *Line, x float64) int {
	return sort.Search(len(l.Words), func(i int) bool { return l.Words[i].X0 >= x-0.5 })
}

// figures reports words most of whose characters are digits: a line of
// amounts or dates rather than prose.
func figures(ws []source.Word) bool {
	var digits, letters int
	for _, w := range ws {
		for _, r := range w.Text {
			switch {
			case unicode.IsDigit(r):
				digits++
			case unicode.IsLetter(r):
				letters++
			}
		}
	}
	return digits > 0 && digits*2 >= letters
}

// part is a line of some of l's words, its band and em taken again.
func (l *Line) part(ws []source.Word) *Line {
	p := &Line{Page: l.Page, Words: ws, Y0: ws[0].Y0, Y1: ws[0].Y1, Em: l.Em, TypeEm: l.TypeEm, OCR: l.OCR}
	for _, w := range ws {
		p.Y0, p.Y1 = min(p.Y0, w.Y0), max(p.Y1, w.Y1)
	}
	return p
}
