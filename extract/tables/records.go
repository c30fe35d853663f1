package tables

import (
	"slices"
	"strings"
	"unicode/utf8"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"
)

// Records: statements that print one transaction as a block of label and
// value lines, as mobile wallets and some web banks do:
//
//	Date          03.03.2025
//	Description   Card payment Lidl
//	Amount        -12.50
//	Balance       1,234.50
//
// No word says which label is which: the blocks are found by their labels
// repeating in the same order, and each block becomes one line of a table
// with no heading (its date first, its words, then its figures in the
// order printed), which the table readers read like any other. The
// arithmetic then decides what the figures are.

// recordLine is a line split into its label and its value.
type recordLine struct {
	label string // folded
	value []source.Word
	ocr   bool // recognised: its label may come back misread
}

// sameLabel reports two record lines under one label: the same words,
// or, where recognition read either, words an edit apart in every four
// letters ("Könyvelés napja" read "K6nyvelés napja" and "Koényvelés
// napja" on the blocks of one page).
func sameLabel(a, b recordLine) bool {
	if a.label == b.label {
		return true
	}
	if !a.ocr && !b.ocr {
		return false
	}
	reach := max(utf8.RuneCountInString(a.label), utf8.RuneCountInString(b.label)) / 4
	return lexicon.EditDistance(a.label, b.label, reach) <= reach
}

// splitRecordLine reads a line as a label (one to four words of text at
// its left) and a value (what stands after a gap of three ems or more, or
// after the colon that ends the label: "Amount: $-17,550.00").
func splitRecordLine(l *layout.Line) (recordLine, bool) {
	for i := 1; i < len(l.Words) && i <= 4; i++ {
		if l.Words[i].X0-l.Words[i-1].X1 < 3*l.Em && !strings.HasSuffix(l.Words[i-1].Text, ":") {
			continue
		}
		label := l.Words[:i]
		for _, t := range l.Toks {
			if t.Kind != layout.TokText && t.X0 < l.Words[i].X0 {
				return recordLine{}, false // a date or a figure in the label
			}
		}
		return recordLine{label: strings.TrimSpace(lexicon.FoldLabel(layout.JoinWords(label))), value: l.Words[i:], ocr: l.OCR}, true
	}
	return recordLine{}, false
}

// mergeRecords replaces each run of record blocks in a document by one
// line per block, on the page of the block's first line. The runs go on
// across pages: a line that is no label and value (a page's footer, its
// next heading) stands between two lines of a run, outside its blocks.
func MergeRecords(pages [][]*layout.Line, decimalComma bool) [][]*layout.Line {
	em := recordEm(pages)
	pages = splitRecordColumns(pages, em, decimalComma)
	type at struct{ page, i int }
	var idx []at
	var recs []recordLine
	for p, ls := range pages {
		for i, l := range ls {
			if r, ok := splitRecordLine(l); ok {
				idx = append(idx, at{p, i})
				recs = append(recs, r)
			}
		}
	}
	drop := map[*layout.Line]bool{}
	repl := map[*layout.Line]*layout.Line{}
	dated := func(b int) bool {
		l := pages[idx[b].page][idx[b].i]
		return slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind == layout.TokDate && t.X0 >= recs[b].value[0].X0 })
	}
	for k := 0; k < len(recs); {
		p, n := recordRun(recs, k)
		if p == 0 {
			k++
			continue
		}
		if !dated(k) {
			// A record opens with its date: a run found from a later
			// label (an opening block without an amount put the runs
			// out of step) starts again at the first date.
			for j := k + 1; j < k+p; j++ {
				if dated(j) {
					if p2, n2 := recordRun(recs, j); p2 > 0 {
						k, p, n = j, p2, n2
					}
					break
				}
			}
		}
		figureAt := figureLabels(recs[k:k+n], p, func(b int) *layout.Line { return pages[idx[k+b].page][idx[k+b].i] })
		var merged []*layout.Line
		for b := k; b+p <= k+n; b += p {
			block := make([]*layout.Line, p)
			for j := range p {
				block[j] = pages[idx[b+j].page][idx[b+j].i]
			}
			m := mergeBlock(block, recs[b:b+p], em, figureAt, decimalComma)
			if m == nil {
				merged = nil
				break
			}
			merged = append(merged, m)
		}
		if merged == nil {
			k++
			continue
		}
		for b := k; b < k+n; b++ {
			drop[pages[idx[b].page][idx[b].i]] = true
		}
		for j, m := range merged {
			repl[pages[idx[k+j*p].page][idx[k+j*p].i]] = m
		}
		k += n
	}
	if len(drop) == 0 {
		return pages
	}
	out := make([][]*layout.Line, len(pages))
	for p, ls := range pages {
		for _, l := range ls {
			switch {
			case repl[l] != nil:
				out[p] = append(out[p], repl[l])
			case !drop[l]:
				out[p] = append(out[p], l)
			}
		}
	}
	return out
}

// recordRun finds blocks starting at line i: the shortest period p of two
// to six labels that repeats at least twice, and how many lines the run of
// whole blocks spans. 0, 0 when none starts there.
func recordRun(recs []recordLine, i int) (p, n int) {
	for p = 2; p <= 6; p++ {
		if i+2*p > len(recs) {
			break
		}
		n = 0
		for i+n < len(recs) && (n < p || sameLabel(recs[i+n], recs[i+n-p])) {
			n++
		}
		n -= n % p
		if n < 2*p {
			continue
		}
		distinct := true
		for a := i; a < i+p; a++ {
			for b := a + 1; b < i+p; b++ {
				distinct = distinct && !sameLabel(recs[a], recs[b])
			}
		}
		if distinct {
			return p, n
		}
	}
	return 0, 0
}

// recordEm is the em the lines merged from records are laid out in: the
// median of the document's lines' ems, one for every block, so that a
// figure stands in the same column on every block's line. Recognition
// measures each line's em from its own glyphs, a little differently on
// each (a text layer's font size is the same on every line), and the
// first line's em had set the k-th figure of one block under the next
// figure of another.
func recordEm(pages [][]*layout.Line) float64 {
	var ems []float64
	for _, ls := range pages {
		for _, l := range ls {
			if l.Em > 0 {
				ems = append(ems, l.Em)
			}
		}
	}
	if len(ems) == 0 {
		return 0
	}
	slices.Sort(ems)
	return ems[len(ems)/2]
}

// figureLabels reports, for each of a run's p labels, whether its value
// is a figure in most of the run's blocks: under such a label a whole
// number without a sign is a figure too ("Kwota 2356", where the text
// printed "2 356" and recognition lost the thin space, or a locale that
// groups no four-digit number).
func figureLabels(recs []recordLine, p int, lineOf func(int) *layout.Line) []bool {
	out := make([]bool, p)
	for j := range p {
		figures, blocks := 0, 0
		for b := j; b < len(recs); b += p {
			blocks++
			var kinds []layout.TokKind
			for _, t := range lineOf(b).Toks {
				if t.X0 >= recs[b].value[0].X0 {
					kinds = append(kinds, figureKind(t))
				}
			}
			if len(kinds) == 1 && kinds[0] == layout.TokAmount {
				figures++
			}
		}
		out[j] = 2*figures > blocks
	}
	return out
}

// mergeBlock makes one block's lines into one line: its date, its text,
// then its figures, each figure a column of its own in the order printed,
// at places measured in em (recordEm; the first line's when 0). figureAt,
// when not nil, says which of the block's labels print figures
// (figureLabels). nil when the block holds no single date or no figure.
func mergeBlock(lines []*layout.Line, recs []recordLine, em float64, figureAt []bool, decimalComma bool) *layout.Line {
	var date, text, figures [][]source.Word
	for k, l := range lines {
		var kinds []layout.TokKind
		bare := false
		for _, t := range l.Toks {
			if t.X0 >= recs[k].value[0].X0 {
				kinds = append(kinds, figureKind(t))
				bare = t.Bare
			}
		}
		switch {
		case len(kinds) == 1 && kinds[0] == layout.TokDate:
			date = append(date, recs[k].value)
		case len(kinds) == 1 && (kinds[0] == layout.TokAmount || bare && k < len(figureAt) && figureAt[k]):
			figures = append(figures, recs[k].value)
		case !slices.Contains(kinds, layout.TokDate) && !slices.Contains(kinds, layout.TokAmount):
			text = append(text, recs[k].value)
		default:
			return nil
		}
	}
	if len(date) != 1 || len(figures) == 0 {
		return nil
	}
	first := lines[0]
	if em <= 0 {
		em = first.Em
	}
	m := &layout.Line{Page: first.Page, Y0: first.Y0, Y1: first.Y1, Em: em, OCR: first.OCR}
	x := 0.0
	place := func(ws []source.Word, at float64) {
		x = max(x, at)
		for _, w := range ws {
			width := w.X1 - w.X0
			m.Words = append(m.Words, source.Word{Text: w.Text, X0: x, Y0: first.Y0, X1: x + width, Y1: first.Y1, Conf: w.Conf})
			x += width + 0.3*em
		}
	}
	// The figures stand in columns of their own, the same on every
	// block's line: the k-th at 60 + 12k ems, past any description.
	place(date[0], 0)
	for _, ws := range text {
		place(ws, x+em)
	}
	for k, ws := range figures {
		place(ws, max(x+3*em, float64(60+12*k)*em))
	}
	layout.Tokenize(m, decimalComma)
	for i := range m.Toks {
		m.Toks[i].Kind = figureKind(m.Toks[i])
	}
	return m
}

// figureKind is a token's kind in a record, where a whole number with a
// sign ("202-", "-476") is a figure: it stands on a value line of its own.
func figureKind(t layout.Token) layout.TokKind {
	if t.Bare && t.Marked {
		return layout.TokAmount
	}
	return t.Kind
}
