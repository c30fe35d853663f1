package tables

import (
	"math"
	"slices"
	"sort"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
)

// Descriptions: which row each wrapped line of text belongs to.

// descLine is a line of description text with no date or amount.
type descLine struct {
	l    *layout.Line
	text string
	// headGap is, for the line just under a heading the lexicon does not
	// know, the gap to the heading above it (0 for other lines): the line
	// is the first row's only when nearer to that row than to the heading.
	headGap float64
}

// assignDescriptions gives each wrapped description line to its row.
// A description may wrap below its row's line, above it, or both (the
// row's line in the middle of the block). Between two rows' lines, the
// widest vertical gap separates one row's block from the next; when the
// gaps are all alike, the table's own habit decides, read from the lines
// above its first row and below its last one. Lines that no row reaches
// through line-sized gaps (a footer, a note) belong to none. The lines of
// balances and totals (stops) stand among the rows as rows whose words are
// no row's: a totals line's label centred over two lines is its own.
func assignDescriptions(real []Row, texts []descLine, stops []*layout.Line) {
	rows := slices.Grow(slices.Clone(real), len(stops))
	for _, l := range stops {
		rows = append(rows, Row{Line: l})
	}
	defer copy(real, rows)
	above := make([][]string, len(rows))
	below := make([][]string, len(rows))
	before := make([]int, len(rows)) // how many of below[i] stand above rows[i].tail
	// Items in reading order: rows (by their line) and text lines.
	var items []runItem
	for i := range rows {
		if rows[i].Line != nil {
			items = append(items, runItem{row: i, l: rows[i].Line})
		}
	}
	for i, t := range texts {
		items = append(items, runItem{row: -1, text: i, l: t.l})
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].l.Page != items[b].l.Page {
			return items[a].l.Page < items[b].l.Page
		}
		return items[a].l.Y0 < items[b].l.Y0
	})
	gap := func(a, b *layout.Line) float64 {
		if a.Page != b.Page {
			return 1e9
		}
		_, aBottom := a.Band()
		bTop, _ := b.Band()
		return bTop - max(aBottom, a.WrapBottom)
	}
	small := func(a, b *layout.Line) bool { return closeBelow(gap(a, b), bandHeight(b)) }
	// The table's habit, counted on each page: text hanging above its first
	// row, or below its last. With no sign of either, descriptions wrap
	// below their row's line, the commonest layout.
	nAbove, nBelow := 0, 0
	firstRow, lastRow := map[int]int{}, map[int]int{} // page -> item index
	for k, it := range items {
		if it.row < 0 || it.row >= len(real) {
			continue // a text line, or a balance or totals line: no row's habit
		}
		if _, ok := firstRow[it.l.Page]; !ok {
			firstRow[it.l.Page] = k
		}
		lastRow[it.l.Page] = k
	}
	for _, k := range firstRow {
		// A heading's own second line above the first row is no
		// description hanging above it, nor is the text that opens a page
		// after a row of the page before: it may be that row's.
		if k > 0 && items[k-1].row < 0 && texts[items[k-1].text].headGap == 0 && small(items[k-1].l, items[k].l) && !afterPageBreak(items, k) {
			nAbove++
		}
	}
	for _, k := range lastRow {
		if k+1 < len(items) && items[k+1].row < 0 && small(items[k].l, items[k+1].l) {
			nBelow++
		}
	}
	// A run of text lines between two rows, with the gap before each of
	// its lines and the one after it.
	type textRun struct {
		run              []runItem
		prevRow, nextRow int
		gaps             []float64
	}
	var runs []textRun
	for k := 0; k < len(items); {
		if items[k].row >= 0 {
			k++
			continue
		}
		j := k
		for j < len(items) && items[j].row < 0 {
			j++
		}
		tr := textRun{run: items[k:j], prevRow: -1, nextRow: -1}
		if k > 0 {
			tr.prevRow = items[k-1].row
		}
		if j < len(items) {
			tr.nextRow = items[j].row
		}
		// gaps[c] is the gap before run[c]; gaps[len(run)] the one after.
		tr.gaps = make([]float64, len(tr.run)+1)
		for c := range tr.gaps {
			var a, b *layout.Line
			if c == 0 {
				if tr.prevRow >= 0 {
					a = rows[tr.prevRow].Line
					if rows[tr.prevRow].last != nil {
						a = rows[tr.prevRow].last
					}
				}
			} else {
				a = tr.run[c-1].l
			}
			if c == len(tr.run) {
				if tr.nextRow >= 0 {
					b = rows[tr.nextRow].Line
				}
			} else {
				b = tr.run[c].l
			}
			tr.gaps[c] = 1e9
			if a != nil && b != nil {
				tr.gaps[c] = gap(a, b)
			}
		}
		// Between two rows, the wider of the gaps at the run's ends is
		// where one row's cell ends: more evidence of the habit.
		// Above a balance or totals line, only text that keeps to the
		// row above says so: the line's own label may be centred on it.
		if g0, g1 := tr.gaps[0], tr.gaps[len(tr.run)]; g0 < 1e9 && g1 < 1e9 && tr.prevRow < len(real) {
			switch h := bandHeight(tr.run[0].l); {
			case g1 > g0+0.1*h:
				nBelow++
			case g0 > g1+0.1*h && tr.nextRow < len(real):
				nAbove++
			}
		}
		runs = append(runs, tr)
		k = j
	}
	hangsAbove, hangsBelow := nAbove > 2*nBelow, nBelow > 2*nAbove || nAbove == 0
	for _, tr := range runs {
		run, prevRow, nextRow, gaps := tr.run, tr.prevRow, tr.nextRow, tr.gaps
		// Reach: how far down the run the row above reaches, and how far
		// up the row below reaches, through line-sized gaps.
		down := 0
		for down < len(run) && closeBelow(gaps[down], bandHeight(run[down].l)) {
			down++
		}
		up := len(run)
		for up > 0 && closeBelow(gaps[up], bandHeight(run[up-1].l)) {
			up--
		}
		if prevRow < 0 {
			down = 0
			// Above a table's first row, its description hangs in its
			// own column: lines that start left of it (a page's address
			// at the margin) are none of its.
			if x, ok := descStart(rows, nextRow); ok {
				for i := len(run) - 1; i >= up; i-- {
					if run[i].l.Words[0].X0 < x-2 {
						up = i + 1
						break
					}
				}
			}
		}
		if nextRow < 0 {
			up = len(run)
		}
		cut := down // run[:cut] goes to the row above, run[cut:] below
		if f := splitOverPage(run, rows, prevRow, nextRow); f > 0 {
			// A row split by the page break: its last lines open the
			// page, above the lines of the next row's centred cell.
			down, up, cut = f, f, f
		} else if hangsBelow && !hangsAbove && opensPage(run, rows, prevRow, nextRow) {
			// In a table whose descriptions wrap below their row's line,
			// the lines that open the page above the next row end the
			// description of the page before's last row.
			down, up, cut = len(run), len(run), len(run)
		}
		if down > up {
			// Both rows reach the whole stretch: split at the widest gap,
			// or by the table's habit when the gaps are alike.
			lo, hi := up, down
			widest, second := lo, math.Inf(-1)
			for c := lo; c <= hi; c++ {
				if gaps[c] > gaps[widest] {
					widest = c
				}
			}
			for c := lo; c <= hi; c++ {
				if c != widest && gaps[c] > second {
					second = gaps[c]
				}
			}
			switch {
			case gaps[widest]-second > 0.25*run[0].l.Height():
				cut = widest
			case hangsAbove && !hangsBelow:
				cut = lo
			case hangsBelow && !hangsAbove:
				cut = hi
			default:
				cut = (lo + hi + 1) / 2
			}
			if gaps[widest]-second <= 0.25*run[0].l.Height() && (nAbove == 0 && nBelow == 0 || !hangsAbove && !hangsBelow) {
				// No gap and no habit the table shows tells whose the
				// lines are: the commonest layout's guess, said on both.
				for _, r := range []int{prevRow, nextRow} {
					if r >= 0 && r < len(real) {
						rows[r].DescShared = true
					}
				}
			}
		}
		for c, it := range run {
			switch {
			case texts[it.text].headGap > 0 && gaps[c+1] >= texts[it.text].headGap:
				// The heading's own second line.
			case c < cut && c < down && prevRow >= 0:
				below[prevRow] = append(below[prevRow], texts[it.text].text)
				if tail := rows[prevRow].tail; tail != nil && tail.Page == it.l.Page && it.l.Y0 < tail.Y0 {
					before[prevRow]++
				}
				growBox(&rows[prevRow], it.l)
			case c >= cut && c >= up && nextRow >= 0:
				above[nextRow] = append(above[nextRow], texts[it.text].text)
				growBox(&rows[nextRow], it.l)
			}
		}
	}
	for i := range rows {
		if rows[i].Line != nil {
			growBox(&rows[i], rows[i].Line)
		}
		// The row's own parts, with the lines that stand between its
		// line and its last wrapped line in their place.
		own, n := rows[i].Desc, len(rows[i].Desc)-rows[i].tailParts
		rows[i].Desc = slices.Concat(above[i], own[:n], below[i][:before[i]], own[n:], below[i][before[i]:])
	}
}

// descStart is where the description of rows[i] starts on its line: its
// first word that reads as no date and no amount.
func descStart(rows []Row, i int) (float64, bool) {
	if i < 0 || i >= len(rows) || rows[i].Line == nil {
		return 0, false
	}
	for _, t := range rows[i].Line.Toks {
		if t.Kind == layout.TokText && !t.Bare {
			return t.X0, true
		}
	}
	return 0, false
}

// runItem is a row (by its line) or a text line (row -1), in reading
// order, for assignDescriptions.
type runItem struct {
	row  int // -1 for a text line
	text int
	l    *layout.Line
}

// afterPageBreak reports a row item k whose nearest row above, past text
// lines, is on an earlier page.
func afterPageBreak(items []runItem, k int) bool {
	j := k - 1
	for j >= 0 && items[j].row < 0 {
		j--
	}
	return j >= 0 && items[j].l.Page < items[k].l.Page
}

// opensPage reports a run of text lines that opens a page, between the
// previous page's last row and the first row of its own page.
func opensPage(run []runItem, rows []Row, prevRow, nextRow int) bool {
	return prevRow >= 0 && nextRow >= 0 && rows[prevRow].Line != nil && rows[nextRow].Line != nil &&
		rows[prevRow].Line.Page < run[0].l.Page && rows[nextRow].Line.Page == run[len(run)-1].l.Page
}

// splitOverPage finds, in a run of text lines that opens a page after
// the previous page's last row, where the next row's own lines start: a
// row whose cells are centred on its line has the lines of its cell
// overlap that line's band. The lines before them, when some do, are the
// end of the previous page's row, split by the page break. 0 when the run
// is not so.
func splitOverPage(run []runItem, rows []Row, prevRow, nextRow int) int {
	if !opensPage(run, rows, prevRow, nextRow) {
		return 0
	}
	r := rows[nextRow].Line
	overlaps := func(l *layout.Line) bool { return min(l.Y1, r.Y1)-max(l.Y0, r.Y0) > 0 }
	f := slices.IndexFunc(run, func(it runItem) bool { return overlaps(it.l) })
	if f <= 0 || slices.ContainsFunc(run[f:], func(it runItem) bool { return !overlaps(it.l) }) {
		return 0
	}
	return f
}

// closeBelow reports a line set a gap below the one above it that is less
// than nine tenths of its height: the next line of one cell or paragraph,
// not of the next.
func closeBelow(gap, h float64) bool { return gap < 0.9*h }

// bandHeight is the height of a line's band (layout.Line.Band).
func bandHeight(l *layout.Line) float64 {
	top, bottom := l.Band()
	return bottom - top
}

// allHeadings reports a line of two or more words that are all column
// headings: a heading's second line, not a description.
func allHeadings(l *layout.Line) bool {
	if len(l.Words) < 2 {
		return false
	}
	for _, w := range l.Words {
		if lexicon.ClassifyLabel(w.Text) == lexicon.RoleNone {
			return false
		}
	}
	return true
}

// growBox widens a row's box to take in line l, on the row's page: the
// part of a description a page break carried over is not boxed.
func growBox(r *Row, l *layout.Line) {
	if len(l.Words) == 0 || l.Page != r.Page {
		return
	}
	x0, x1 := l.Words[0].X0, l.Words[len(l.Words)-1].X1
	if r.Box == [4]float64{} {
		r.Box = [4]float64{x0, l.Y0, x1, l.Y1}
		return
	}
	r.Box = [4]float64{min(r.Box[0], x0), min(r.Box[1], l.Y0), max(r.Box[2], x1), max(r.Box[3], l.Y1)}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
