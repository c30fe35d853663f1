package tables

import (
	"slices"
	"strings"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"
)

// Records side by side (issue 39): a wallet export prints its blocks of
// label and value two or three across the page, so that one line of the
// page holds the same label of each block:
//
//	Date      02.12.23  Date      02.12.23  Date      02.12.23
//	Libellé   Lidl      Libellé   Tesco     Libellé   Shell
//	Montant   -12.43    Montant   -7.91     Montant   -4.00
//
// Read as lines, no block was ever one label after another. The columns
// are found where a line's first label stands again further along it, on
// two lines or more at the same places; each band of blocks (from a line
// that starts with the first label down) is then cut there and given
// column by column, each block's lines in order, with a cell's wrapped
// line (a label's or a value's second line) joined to its own line. The
// record reader then reads the blocks as it reads one column of them.

// splitRecordColumns gives each page's bands of records side by side as
// one column of records after another; pages without are as they were.
func splitRecordColumns(pages [][]*layout.Line, em float64, decimalComma bool) [][]*layout.Line {
	g, ok := findGrid(slices.Concat(pages...))
	if !ok {
		return pages
	}
	out := slices.Clone(pages)
	merged := 0
	for p, ls := range pages {
		out[p] = splitPageColumns(ls, g, em, decimalComma, &merged)
	}
	if merged == 0 {
		return pages // no block read as one: no records side by side
	}
	return out
}

// recordGrid is where a document's records stand side by side: the left
// edges of the blocks after the first, and the label that opens a block
// at the left edge of the first.
type recordGrid struct {
	edges []float64
	first string
	left  float64
}

// labelAgain is where a line's first word, a label, stands again along
// the line, past a value: the left edges of the blocks after the first.
// A word that starts a date ("Mayo 31, 2025  Mayo 31, 2025") or a
// figure is no label.
func labelAgain(l *layout.Line) []float64 {
	if len(l.Words) < 3 || layout.HasDigit(l.Words[0].Text) || !textAt(l, l.Words[0]) {
		return nil
	}
	first := lexicon.FoldLabel(l.Words[0].Text)
	if first == "" {
		return nil
	}
	var at []float64
	for j := 2; j < len(l.Words); j++ {
		if lexicon.FoldLabel(l.Words[j].Text) == first && l.Words[j].X0-l.Words[j-1].X1 > 0 && textAt(l, l.Words[j]) {
			at = append(at, l.Words[j].X0)
		}
	}
	return at
}

// textAt reports whether the line reads the word w as text: no date or
// figure takes it in (nor drops it as a date's weekday).
func textAt(l *layout.Line, w source.Word) bool {
	for _, t := range l.Toks {
		if t.X0 <= w.X0 && w.X1 <= t.X1 {
			return t.Kind == layout.TokText
		}
	}
	return false
}

// findGrid finds the blocks' left edges: places where a label stands
// again along a line, on two lines or more, each with its own label.
func findGrid(ls []*layout.Line) (recordGrid, bool) {
	var cuts []float64
	seen := map[int]map[string]bool{}
	var start *layout.Line
	for _, l := range ls {
		for _, x := range labelAgain(l) {
			k := slices.IndexFunc(cuts, func(c float64) bool { return c-l.Em < x && x < c+l.Em })
			if k < 0 {
				k = len(cuts)
				cuts = append(cuts, x)
			}
			if seen[k] == nil {
				seen[k] = map[string]bool{}
			}
			seen[k][lexicon.FoldLabel(l.Words[0].Text)] = true
			cuts[k] = min(cuts[k], x)
			if start == nil {
				start = l
			}
		}
	}
	var g recordGrid
	for k, x := range cuts {
		if len(seen[k]) >= 2 {
			g.edges = append(g.edges, x)
		}
	}
	if len(g.edges) == 0 {
		return g, false
	}
	slices.Sort(g.edges)
	g.first, g.left = lexicon.FoldLabel(start.Words[0].Text), start.Words[0].X0
	return g, true
}

// splitPageColumns is splitRecordColumns for one page's lines.
func splitPageColumns(ls []*layout.Line, g recordGrid, em float64, decimalComma bool, merged *int) []*layout.Line {
	edges := g.edges
	opens := func(l *layout.Line) bool {
		return len(l.Words) > 0 && lexicon.FoldLabel(l.Words[0].Text) == g.first && l.Words[0].X0 < g.left+l.Em
	}
	// fits reports a line whose every word stands inside one column.
	fits := func(l *layout.Line) bool {
		for _, w := range l.Words {
			for _, e := range edges {
				if w.X0 < e-0.5*l.Em && w.X1 > e+0.5*l.Em {
					return false
				}
			}
		}
		return true
	}
	column := func(w source.Word, em float64) int {
		c := 0
		for c < len(edges) && w.X0 >= edges[c]-0.5*em {
			c++
		}
		return c
	}
	var out []*layout.Line
	for i := 0; i < len(ls); {
		if !opens(ls[i]) {
			out = append(out, ls[i])
			i++
			continue
		}
		// The band: down to the next line that opens one, a line across
		// the columns, or a wider step down than between its first two
		// lines (the summary under the last band).
		j := i + 1
		step := 0.0
		for j < len(ls) && !opens(ls[j]) && fits(ls[j]) && ls[j].Page == ls[i].Page {
			d := ls[j].Y0 - ls[j-1].Y0
			if step == 0 {
				step = d
			}
			if d > 1.25*step || d > 3*ls[j].Em {
				break
			}
			j++
		}
		band := ls[i:j]
		for c := 0; c <= len(edges); c++ {
			var seg [][]source.Word
			var from []*layout.Line
			for _, l := range band {
				var ws []source.Word
				for _, w := range l.Words {
					if column(w, l.Em) == c {
						ws = append(ws, w)
					}
				}
				if len(ws) > 0 {
					seg, from = append(seg, ws), append(from, l)
				}
			}
			ls, ok := blockLines(seg, from, em, decimalComma)
			if ok {
				*merged++
			}
			out = append(out, ls...)
		}
		i = j
	}
	return out
}

// blockLines makes one column of a band into lines of label and value: a
// line that starts at the column's left edge starts a line, and one that
// does not, or holds only a label's words, is the line above's wrapped
// cell, joined to it. The values stand three ems or more after the
// labels, as the record reader splits them. A column that reads as one
// block (one date, a figure or more) is its one merged line.
func blockLines(seg [][]source.Word, from []*layout.Line, em float64, decimalComma bool) ([]*layout.Line, bool) {
	if len(seg) == 0 {
		return nil, false
	}
	edge := seg[0][0].X0
	for _, ws := range seg {
		edge = min(edge, ws[0].X0)
	}
	// Where the values start: after the first gap wider than a space on
	// a line at the edge, the nearest such place. A label's words start
	// before it (a long one may run past it), a value's at it or after.
	valueX := -1.0
	for k, ws := range seg {
		if ws[0].X0 > edge+from[k].Em {
			continue
		}
		for i := 1; i < len(ws); i++ {
			if ws[i].X0-ws[i-1].X1 > from[k].Em {
				if valueX < 0 || ws[i].X0 < valueX {
					valueX = ws[i].X0
				}
				break
			}
		}
	}
	type cell struct {
		label, value []source.Word
		src          *layout.Line
		y1           float64
	}
	var cells []*cell
	for k, ws := range seg {
		em := from[k].Em
		var label, value []source.Word
		for _, w := range ws {
			if valueX < 0 || w.X0 < valueX-0.5*em {
				label = append(label, w)
			} else {
				value = append(value, w)
			}
		}
		var last *cell
		if len(cells) > 0 {
			last = cells[len(cells)-1]
		}
		switch {
		case last != nil && (len(label) == 0 || len(value) == 0):
			// A wrapped line: a value's words after the value's, a
			// label's after the label's.
			last.label = appendAfter(last.label, label, em)
			last.value = appendAfter(last.value, value, em)
			last.y1 = max(last.y1, from[k].Y1)
		default:
			cells = append(cells, &cell{label: label, value: value, src: from[k], y1: from[k].Y1})
		}
	}
	var out, block []*layout.Line
	var recs []recordLine
	for _, c := range cells {
		var value []source.Word
		if len(c.label) > 0 && len(c.value) > 0 {
			// Three ems or more between the label and its value.
			shift := max(0, c.label[len(c.label)-1].X1+3.5*c.src.Em-c.value[0].X0)
			for _, w := range c.value {
				w.X0, w.X1 = w.X0+shift, w.X1+shift
				value = append(value, w)
			}
		} else {
			value = c.value
		}
		l := cutLine(c.src, slices.Concat(c.label, value), decimalComma)
		l.Y1 = max(l.Y1, c.y1)
		out = append(out, l)
		if len(value) > 0 {
			block = append(block, l)
			recs = append(recs, recordLine{label: strings.TrimSpace(lexicon.FoldLabel(layout.JoinWords(c.label))), value: value, ocr: l.OCR})
		}
	}
	// The column of a band is one block: read as the record reader reads
	// a block it found, its date, its words and its figures one line.
	if m := mergeBlock(block, recs, em, nil, decimalComma); m != nil {
		return []*layout.Line{m}, true
	}
	return out, false
}

// appendAfter appends ws to a cell's words, set after its last word on
// its line (a wrapped line's words read on from where the cell's first
// line ends).
func appendAfter(cell, ws []source.Word, em float64) []source.Word {
	if len(cell) == 0 {
		return append(cell, ws...)
	}
	x := cell[len(cell)-1].X1
	y0, y1 := cell[len(cell)-1].Y0, cell[len(cell)-1].Y1
	for _, w := range ws {
		width := w.X1 - w.X0
		w.X0, w.X1, w.Y0, w.Y1 = x+0.3*em, x+0.3*em+width, y0, y1
		x = w.X1
		cell = append(cell, w)
	}
	return cell
}

// cutLine is a line of src's made of ws, read again.
func cutLine(src *layout.Line, ws []source.Word, decimalComma bool) *layout.Line {
	l := &layout.Line{Page: src.Page, Words: ws, Y0: src.Y0, Y1: src.Y1, Em: src.Em, TypeEm: src.TypeEm, OCR: src.OCR}
	layout.Tokenize(l, decimalComma)
	return l
}
