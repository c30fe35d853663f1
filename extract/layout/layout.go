package layout

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"passbook/extract/cells"
	"passbook/extract/source"

	"github.com/shopspring/decimal"
)

// line is one visual row of a page: words sharing a baseline, left to right.
type Line struct {
	Page   int // index into the document's pages
	Words  []source.Word
	Y0, Y1 float64
	// em is the height of the line's typical word (the median): the font's
	// size, near enough. OCR boxes hug the glyphs, so "nov" is shorter than
	// "23" beside it and both are shorter than the font; there em is scaled
	// from the typical glyph height up to the font's. Gaps between words are
	// measured against em, not against the one word's box.
	Em float64
	// ocr is true when the line's words came from recognition.
	OCR bool
	// toks are the words read as dates, amounts and text (see tokenize).
	Toks []Token
	// wrapBottom is the bottom of a word a wrapped cell printed on the
	// line below and that was joined into this line ("2024" under
	// "1 de dec. de"): the row's cell reaches down to it. 0 when none.
	WrapBottom float64
	// Side marks a line of a block of text beside the rows (see
	// SplitSideBlocks), never joined to a line of the rows.
	Side bool
	// TypeEm is the em of the type the line is set in, where the words'
	// boxes say it only roughly: the page's typical em, for a line whose
	// own em is near it (typeEms). 0: Em is the type's.
	TypeEm float64
}

func (l *Line) Height() float64 { return l.Y1 - l.Y0 }

// Band is the line's top and bottom as a text layer draws them, for
// measuring the gaps between lines. A recognised line's boxes hug its
// glyphs (ocrGlyphShare of the font's size, less for a line of small
// letters), so the gap between two lines of one cell measured between
// its boxes was as wide as a text layer's gap between two rows; its band
// is its em about its middle.
//
// Its height is the type's em (TypeEm) where the line's own em is a
// measure of its glyphs: a line with a descender or an accented capital
// measured a fifth taller than the line of capitals and digits beside it,
// and the gaps between the lines of one table's rows, all alike as
// printed, came out unlike enough to read as the table's habit of
// hanging its descriptions above their rows.
func (l *Line) Band() (top, bottom float64) {
	em := l.Em
	if l.TypeEm > 0 {
		em = l.TypeEm
	}
	if !l.OCR || l.Height() >= em {
		return l.Y0, l.Y1
	}
	mid := (l.Y0 + l.Y1) / 2
	return mid - em/2, mid + em/2
}

// ReachesInto reports a line whose band reaches into that of b, the next
// line down on its page: a row's cell centred on b's line.
func (l *Line) ReachesInto(b *Line) bool { return l.Page == b.Page && l.Y1 > b.Y0 }

func (l *Line) Text() string {
	parts := make([]string, len(l.Words))
	for i, w := range l.Words {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// tokKind says how a run of words on a line reads.
type TokKind int

const (
	TokText TokKind = iota
	TokDate
	TokAmount
)

// token is one or more adjacent words of a line read as a unit.
// Has reports that the line holds a token of kind k.
func (l *Line) Has(k TokKind) bool {
	return slices.ContainsFunc(l.Toks, func(t Token) bool { return t.Kind == k })
}

type Token struct {
	Kind           TokKind
	Text           string
	X0, Y0, X1, Y1 float64
	// Date is what a TokDate token reads as, nil for any other kind: a
	// long statement holds ~100,000 tokens, few of them dates, and a date
	// held in each would be more than half of every token's size.
	Date   *cells.DateToken
	Amount decimal.Decimal
	Marked bool // the amount carried an explicit sign or Dr/Cr
	// Furniture: the word repeats at its place on other pages, where it
	// stands outside the rows (MarkFurniture).
	Furniture bool
	// bare marks text that reads as a whole number with no separators
	// ("100", "-1000", "¥ 800"): money only where it stands in a money
	// column, a reference or a year anywhere else. amount holds its value.
	Bare bool
}

// isAmount reports a token that is money in a money column.
func (t Token) isAmount() bool { return t.Kind == TokAmount || t.Bare }

func (t Token) Center() float64 { return (t.X0 + t.X1) / 2 }

// ocrGlyphShare is how much of the font's size an OCR'd word's box
// typically spans: digits and capitals stand about 0.7 of it, and the box
// holds neither the ascent above them nor the descent below.
const ocrGlyphShare = 0.75

// groupLines sorts a page's words into visual lines. A word joins a line when
// its vertical middle falls inside the line's band; the band is the line's
// first word's, so superscripts and mixed font sizes stay on their line.
func GroupLines(pg source.Page, pageIdx int) []*Line {
	ws := make([]source.Word, 0, len(pg.Words))
	for _, w := range pg.Words {
		if strings.TrimSpace(w.Text) != "" && w.Y1 > w.Y0 {
			ws = append(ws, w)
		}
	}
	sort.SliceStable(ws, func(i, j int) bool {
		ci, cj := (ws[i].Y0+ws[i].Y1)/2, (ws[j].Y0+ws[j].Y1)/2
		if ci != cj {
			return ci < cj
		}
		return ws[i].X0 < ws[j].X0
	})
	var lines []*Line
	if pg.OCR {
		lines = chainLines(ws, pageIdx)
	} else {
		// A line's words are consecutive in ws, so each line holds a
		// piece of it (capped: an append copies), not a slice of its own
		// grown word by word: the words of a 500-page statement's lines
		// were 9 MB, half of it spare capacity.
		var cur *Line
		start := 0
		for i, w := range ws {
			mid := (w.Y0 + w.Y1) / 2
			if cur != nil {
				h := cur.Y1 - cur.Y0
				cmid := (cur.Y0 + cur.Y1) / 2
				if mid-cmid < 0.35*h {
					continue
				}
				cur.Words = ws[start:i:i]
			}
			cur = &Line{Page: pageIdx, Y0: w.Y0, Y1: w.Y1}
			start = i
			lines = append(lines, cur)
		}
		if cur != nil {
			cur.Words = ws[start:len(ws):len(ws)]
		}
	}
	for _, l := range lines {
		sort.SliceStable(l.Words, func(i, j int) bool { return l.Words[i].X0 < l.Words[j].X0 })
		if pg.OCR {
			// Recognition sometimes gives a word a box that runs on over
			// the words after it (across a shaded heading band): it ends
			// where the next word starts.
			for i := 0; i+1 < len(l.Words); i++ {
				if w, next := &l.Words[i], l.Words[i+1]; w.X1 > next.X0 {
					w.X1 = max(next.X0-1, w.X0+1)
				}
			}
		}
		hs := make([]float64, len(l.Words))
		for i, w := range l.Words {
			l.Y0, l.Y1 = min(l.Y0, w.Y0), max(l.Y1, w.Y1)
			hs[i] = w.Y1 - w.Y0
		}
		sort.Float64s(hs)
		l.Em = hs[len(hs)/2]
		if pg.OCR {
			l.Em /= ocrGlyphShare
			l.OCR = true
		}
	}
	if pg.OCR {
		typeEms(lines)
	}
	return lines
}

// typeEms gives the lines of a page whose ems are measured from their
// glyphs (recognised words) the em of the type they are set in: the
// median of the page's lines' ems, for every line whose own em is within
// a third of it (body type measured with or without descenders and
// accents); a heading set larger, or small print, keeps its own.
func typeEms(lines []*Line) {
	if len(lines) == 0 {
		return
	}
	ems := make([]float64, len(lines))
	for i, l := range lines {
		ems[i] = l.Em
	}
	sort.Float64s(ems)
	m := ems[len(ems)/2]
	for _, l := range lines {
		if l.Em > 0.75*m && l.Em < 1.33*m {
			l.TypeEm = m
		}
	}
}

// joinWrappedDates puts back together a date its narrow cell wrapped
// onto the next line ("06-02-" over "2023", "15 thg 7," over "2025"): the
// word set close below, at the cell's left edge, that completes the
// words above it into a date, when they print none with a year, and that
// does not start a date of its own; in every date cell of the line.
func JoinWrappedDates(lines []*Line) []*Line {
	starts := cellStarts(lines)
	for i := 0; i < len(lines); i++ {
		a := lines[i]
		h := a.Y1 - a.Y0
		// The lines set close below: a row's line centred on a cell of
		// two lines sits between them.
		for m := i + 1; m < len(lines) && lines[m].Page == a.Page && lines[m].Y0-a.Y1 <= 0.6*h; m++ {
			b := lines[m]
			joined := false
			for joinWrappedDate(a, b, h, starts[a.Page]) || joinWrappedWeekday(a, b, h) { // each date cell of the row: a posting and a value date
				joined = true
			}
			joined = dropTimesBelow(a, b, h) || joined
			if !joined {
				continue
			}
			if len(b.Words) == 0 {
				lines = slices.Delete(lines, m, m+1)
			}
			break
		}
	}
	return lines
}

// joinWrappedMarks moves back onto its line the Dr/Cr word or currency
// that a narrow, right-aligned money cell wrapped onto the line below
// ("3,173.93 INR" over "Dr"): a word alone in its cell there, whose right
// edge is the right edge of a figure's cell above. The figure's last word
// takes it into its text, so the amount reads whole and the cell keeps
// its edges.
func JoinWrappedMarks(lines []*Line) []*Line {
	for m := 1; m < len(lines); m++ {
		b := lines[m]
		// The figure's line: the nearest above that ends just over b, past
		// a row's line centred between the two lines of the cell.
		for i := m - 1; i >= max(0, m-2) && len(b.Words) > 0; i-- {
			a := lines[i]
			h := a.Y1 - a.Y0
			if a.Page != b.Page || b.Y0-a.Y1 > 0.6*h {
				break
			}
			if b.Y0 >= a.Y1-0.2*h {
				joinWrappedMark(a, b, h)
			}
		}
		if len(b.Words) == 0 {
			lines = slices.Delete(lines, m, m+1)
			m--
		}
	}
	return lines
}

// joinWrappedMark moves into a's figures the marks of b that a's cells
// wrapped (see joinWrappedMarks).
func joinWrappedMark(a, b *Line, h float64) {
	for k := 0; k < len(b.Words); k++ {
		v := b.Words[k]
		// A bracket closing the figure's bracket above, with its
		// currency ("(754,00" over "BYN)").
		mark, closes := strings.CutSuffix(v.Text, ")")
		if !cells.IsDrCrMark(v.Text) && !currencyWord(v.Text) && !(closes && (mark == "" || currencyWord(mark))) || k > 0 && !Apart(v.X0-b.Words[k-1].X1, h) || k+1 < len(b.Words) && !Apart(b.Words[k+1].X0-v.X1, h) {
			continue
		}
		j := slices.IndexFunc(a.Words, func(u source.Word) bool { return math.Abs(u.X1-v.X1) < 1.5 })
		if j < 0 || j+1 < len(a.Words) && !Apart(a.Words[j+1].X0-a.Words[j].X1, h) || !HasDigit(a.Words[j].Text) && !currencyWord(a.Words[j].Text) {
			continue
		}
		if closes && strings.Count(a.Words[j].Text, "(") <= strings.Count(a.Words[j].Text, ")") {
			continue // no bracket open above
		}
		// The figure's word takes the mark into its text: the cell
		// keeps its edges, and the amount reads whole.
		a.Words[j].Text += " " + v.Text
		b.Words = slices.Delete(b.Words, k, k+1)
		k--
	}
}

// joinWrappedDate moves the word of b that completes a date of a (see
// joinWrappedDates) into it, and reports whether it found one.
func joinWrappedDate(a, b *Line, h float64, starts []float64) bool {
	space := wordSpace(a)
	for j := 0; j < len(a.Words); j++ {
		// A cell starts past a gap of a line's height, or of two of its
		// word spaces, or where other lines' cells start: the cell
		// before may have filled its column, its date wrapped below.
		if gap := a.Words[j].X0 - a.Words[j-min(j, 1)].X1; j > 0 && gap < h && gap <= 2*space && !slices.ContainsFunc(starts, func(x float64) bool { return math.Abs(x-a.Words[j].X0) < 1.5 }) {
			continue // not where a cell starts
		}
		// The word below, at the cell's left edge; a row's line may
		// overlap the date's own (it is centred on the cell), the word
		// itself may not.
		k := slices.IndexFunc(b.Words, func(v source.Word) bool { return math.Abs(v.X0-a.Words[j].X0) < 1.5 && v.Y0 >= a.Y1-0.2*h })
		if k < 0 {
			continue
		}
		// The words below that complete the date: one, or a date with no
		// year under a cell that holds only its year ("2024. gada" over
		// "11. okt."); a date of its own below starts the next row, and
		// so does a figure printed like the cell's above ("31.1" over
		// "2.2": two rows' dates with no year).
		end := j + 1
		for end < len(a.Words) && end-j < 4 && a.Words[end].X0-a.Words[end-1].X1 < h {
			end++
		}
		if cells.DateShape(b.Words[k].Text) == cells.DateShape(JoinWords(a.Words[j:end])) {
			continue
		}
		// The words below that may end the date: the cell's words there
		// ("августа 2024 г." under "понедельник, 26"), as many as read
		// on as one date, or a date of its own under a cell that holds
		// only its year.
		run := k + 1
		for run < len(b.Words) && run-k < 4 && !Apart(b.Words[run].X0-b.Words[run-1].X1, h) {
			run++
		}
		belows := make([]int, 0, 4)
		for n := run - k; n >= 1; n-- {
			belows = append(belows, n)
		}
		if t, n := weekdayDate(b.Words[k:], h); n > 0 {
			if t.Date.YearDigits > 0 || !yearAlone(a.Words[j:end]) {
				continue
			}
			belows = []int{n}
		}
		if t, n := weekdayDate(a.Words[j:end], h); n > 0 && t.Date.YearDigits > 0 {
			// A whole date already (see dropTimesBelow).
			continue
		}
		for _, below := range belows {
			if joinDateBelow(a, b, j, end, k, below, h) {
				return true
			}
		}
	}
	return false
}

// cellStarts lists, by page, where lines' cells start beyond doubt: a
// line's first word, and a word past a gap of the line's height.
func cellStarts(lines []*Line) map[int][]float64 {
	out := map[int][]float64{}
	for _, l := range lines {
		for j, w := range l.Words {
			if j == 0 || w.X0-l.Words[j-1].X1 >= l.Y1-l.Y0 {
				out[l.Page] = append(out[l.Page], w.X0)
			}
		}
	}
	return out
}

// wordSpace is the narrowest gap between two words of l: a word space.
func wordSpace(l *Line) float64 {
	space := math.Inf(1)
	for i := 1; i < len(l.Words); i++ {
		if gap := l.Words[i].X0 - l.Words[i-1].X1; gap > 0 {
			space = min(space, gap)
		}
	}
	return space
}

// joinDateBelow joins b's words k..k+below to the date cell a.Words[j:end]
// when the two read as one date, and reports whether they did: the
// cell's words up to some e, with the words below joined to the last of
// them, must read as one date (the date may be followed closely by the
// description: "07/07/202 Transfer to").
func joinDateBelow(a, b *Line, j, end, k, below int, h float64) bool {
	v := b.Words[k]
	if below > 1 {
		v = source.Word{Text: JoinWords(b.Words[k : k+below]), X0: v.X0, Y0: v.Y0, X1: b.Words[k+below-1].X1, Y1: v.Y1}
	}
	for e := end; e > j; e-- { // the whole cell first: "2 de set. de" over "2023"
		last := a.Words[e-1]
		// Glued where the cell broke inside a number ("06-02-" over
		// "2023", "01/07/202" over "4"), else a word space ("17. 2."
		// over "2024").
		texts := []string{last.Text + " " + v.Text}
		if strings.ContainsAny(last.Text[len(last.Text)-1:], "-./0123456789") && cells.IsDigitAt(v.Text, 0) {
			texts = []string{last.Text + v.Text, last.Text + " " + v.Text}
		}
		for _, text := range texts {
			joined := source.Word{Text: text, X0: last.X0, Y0: last.Y0, X1: max(last.X1, v.X1), Y1: last.Y1}
			if !wholeDate(append(slices.Clone(a.Words[j:e-1]), joined), h) {
				continue
			}
			a.Words[e-1] = joined
			a.WrapBottom = max(a.WrapBottom, v.Y1)
			b.Words = slices.Delete(b.Words, k, k+below)
			return true
		}
	}
	return false
}

// joinWrappedWeekday moves back onto its line the weekday's name that a
// narrow cell of a full date wrapped onto the line below ("9 noyabr
// 2022," over "çərşənbə"): a weekday alone in its cell there, at the left
// edge of a cell above that holds a whole date, or the end of a weekday
// the cell began. It stands after the
// date, where the date's tail reads it (see dateTail), and reports
// whether it found one.
func joinWrappedWeekday(a, b *Line, h float64) bool {
	for j := 0; j < len(a.Words); j++ {
		if j > 0 && a.Words[j].X0-a.Words[j-1].X1 < h {
			continue // not where a cell starts
		}
		t, n := lexDateWords(a.Words[j:], h)
		if n == 0 || t.Date.YearDigits == 0 {
			continue
		}
		k := slices.IndexFunc(b.Words, func(v source.Word) bool { return math.Abs(v.X0-a.Words[j].X0) < 1.5 && v.Y0 >= a.Y1-0.2*h })
		if k < 0 {
			continue
		}
		// The cell's words below: one or two ("çərşənbə axşamı").
		kEnd := k + 1
		for kEnd < len(b.Words) && kEnd-k < 2 && !Apart(b.Words[kEnd].X0-b.Words[kEnd-1].X1, h) {
			kEnd++
		}
		if kEnd < len(b.Words) && !Apart(b.Words[kEnd].X0-b.Words[kEnd-1].X1, h) {
			continue // more than a weekday
		}
		below := JoinWords(b.Words[k:kEnd])
		// The weekday below, alone or the end of one the cell began
		// ("14 noyabr 2022, bazar" over "ertəsi").
		e := j + n
		for e < len(a.Words) && e-j-n < 1 && a.Words[e].X0-a.Words[e-1].X1 < h {
			e++
		}
		ok, _ := cells.Weekday(below)
		if e > j+n {
			two, _ := cells.Weekday(a.Words[e-1].Text + " " + below)
			ok = ok || two
		}
		if !ok {
			continue
		}
		// The words stand after the cell's, where the date's tail reads
		// them (see dateTail); the next cell keeps its gap.
		x := a.Words[e-1].X1
		limit := math.Inf(1)
		if e < len(a.Words) {
			limit = a.Words[e].X0 - 1.2*h
		}
		var moved []source.Word
		for _, v := range b.Words[k:kEnd] {
			x0 := max(x, min(x+0.25*h, limit-0.2))
			w := source.Word{Text: v.Text, X0: x0, Y0: a.Words[e-1].Y0, X1: max(x0+0.1, min(x0+v.X1-v.X0, limit)), Y1: a.Words[e-1].Y1, Conf: v.Conf}
			x = w.X1
			moved = append(moved, w)
			a.WrapBottom = max(a.WrapBottom, v.Y1)
		}
		a.Words = slices.Insert(slices.Clip(a.Words), e, moved...)
		b.Words = slices.Delete(b.Words, k, kEnd)
		return true
	}
	return false
}

// weekdayDate is lexDateWords after the date's weekday where one is
// printed first ("понедельник, 26 августа 2024 г."): the date, and how
// many words it takes with its weekday.
func weekdayDate(ws []source.Word, h float64) (Token, int) {
	if t, n := lexDateWords(ws, h); n > 0 {
		return t, n
	}
	for skip := 1; skip <= 2 && skip < len(ws); skip++ {
		if weekdayBefore(JoinWords(ws[:skip])) {
			if t, n := lexDateWords(ws[skip:], h); n > 0 {
				return t, skip + n
			}
			break
		}
	}
	return Token{}, 0
}

// wholeDate reports words that read as one date, with its weekday.
func wholeDate(ws []source.Word, h float64) bool {
	_, n := weekdayDate(ws, h)
	return n == len(ws)
}

// dropTimesBelow drops from b the times of day that a's date cells
// wrapped below their dates ("29/09/2024" over "07:21"): the date's, as
// dateTail reads one beside it, no description's. It reports whether it
// dropped one.
func dropTimesBelow(a, b *Line, h float64) bool {
	dropped := false
	for j := 0; j < len(a.Words); j++ {
		t, n := weekdayDate(a.Words[j:], h)
		if n == 0 || t.Date.YearDigits == 0 {
			continue
		}
		x0, x1 := a.Words[j].X0, a.Words[j+n-1].X1
		for k := 0; k < len(b.Words); k++ {
			if w := b.Words[k]; timeOfDay(w.Text) && w.X0 >= x0-1 && w.X1 <= x1+h && w.Y0 >= a.Y1-0.2*h {
				a.WrapBottom = max(a.WrapBottom, w.Y1)
				b.Words = slices.Delete(b.Words, k, k+1)
				dropped = true
				k--
			}
		}
		j += n - 1
	}
	return dropped
}

// yearAlone reports a cell whose one number is a year: with the word
// some languages print after it and the weekday's name ("2024.", "2024.
// gada", "sestdiena, 2022. gada"), no day, no month's number.
func yearAlone(ws []source.Word) bool {
	years := 0
	for _, w := range ws {
		if !HasDigit(w.Text) {
			continue
		}
		if y := strings.TrimRight(w.Text, ".,"); len(y) != 4 || !AllDigits(y) {
			return false
		}
		years++
	}
	return years == 1
}

// chainLines groups recognised words into lines the way the eye follows
// a line across a page photographed at a slant: left to right, each word
// joins the line whose last word sits beside it, at the height the slant
// of nearby lines predicts, so a line may climb or fall across the page. A
// band fixed by the line's first word would cut a tilted row in two (its
// date on one line, its amounts on the next).
func chainLines(ws []source.Word, pageIdx int) []*Line {
	byX := slices.Clone(ws)
	sort.SliceStable(byX, func(i, j int) bool { return byX[i].X0 < byX[j].X0 })
	// A first pass takes the slant as level; the lines it finds give the
	// slant for the second.
	lines := chainPass(byX, pageIdx, nil)
	var slants []slant
	for _, l := range lines {
		a, b := l.Words[0], l.Words[len(l.Words)-1]
		if len(l.Words) >= 3 && b.X0-a.X1 > 80 {
			slants = append(slants, slant{y: (a.Y0 + a.Y1) / 2, dy: ((b.Y0 + b.Y1) - (a.Y0 + a.Y1)) / 2 / ((b.X0+b.X1)/2 - (a.X0+a.X1)/2)})
		}
	}
	if len(slants) > 0 {
		lines = chainPass(byX, pageIdx, slants)
	}
	// Top to bottom by where each line starts.
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := lines[i].Words[0], lines[j].Words[0]
		return a.Y0+a.Y1 < b.Y0+b.Y1
	})
	return lines
}

// slant is how much a line found at height y climbs (negative) or falls
// per point to the right.
type slant struct{ y, dy float64 }

// slantAt is the median slant of the lines within 150 points of y, else of
// all of them.
func slantAt(slants []slant, y float64) float64 {
	var near, all []float64
	for _, s := range slants {
		all = append(all, s.dy)
		if math.Abs(s.y-y) < 150 {
			near = append(near, s.dy)
		}
	}
	if len(near) == 0 {
		near = all
	}
	if len(near) == 0 {
		return 0
	}
	sort.Float64s(near)
	return near[len(near)/2]
}

// chainPass is one left-to-right pass of chainLines over words sorted by
// their left edge; slants (nil for level) predict the next word's height.
func chainPass(byX []source.Word, pageIdx int, slants []slant) []*Line {
	var lines []*Line
	for _, w := range byX {
		mid, h := (w.Y0+w.Y1)/2, w.Y1-w.Y0
		best, bestD := -1, 0.0
		for i, l := range lines {
			last := l.Words[len(l.Words)-1]
			if last.X0 >= w.X0 {
				// Words join a line left to right. A box that runs over
				// the next word's is recognition's error, cut back once
				// the line is whole.
				continue
			}
			lmid, lh := (last.Y0+last.Y1)/2, last.Y1-last.Y0
			gap := (w.X0+w.X1)/2 - (last.X0+last.X1)/2
			d := math.Abs(mid - (lmid + slantAt(slants, lmid)*gap))
			if d < 0.4*max(h, lh) && (best < 0 || d < bestD) {
				best, bestD = i, d
			}
		}
		if best < 0 {
			lines = append(lines, &Line{Page: pageIdx, Y0: w.Y0, Y1: w.Y1, Words: []source.Word{w}})
			continue
		}
		lines[best].Words = append(lines[best].Words, w)
	}
	return lines
}

// drCrWord reports a Dr/Cr marker printed as its own word after an amount.
func drCrWord(s string) bool {
	return s == "-" || s == "+" || cells.IsDrCrMark(s)
}

// currencyWord reports a currency symbol or ISO code printed apart from its amount.
func currencyWord(s string) bool {
	if cells.CurrencyCode(s) {
		return true
	}
	for _, sym := range cells.CurrencySymbols {
		if s == sym {
			return true
		}
	}
	return false
}

// tokenize reads a line's words as dates, amounts and text. Dates may span
// words ("14 Dec 2023"); an amount takes a Dr/Cr word after it and a
// currency word before it.
func Tokenize(l *Line, decimalComma bool) {
	l.Toks = l.Toks[:0]
	l.Words = splitGluedDates(l.Words)
	ws := l.Words
	if cap(l.Toks) < len(ws) {
		// A token takes one word or more: room for one a word, once,
		// not a slice grown by doubling (tokens were the largest part of
		// a long statement's heap, a third of them spare capacity).
		l.Toks = make([]Token, 0, len(ws))
	}
	for i := 0; i < len(ws); {
		w := ws[i]
		h := max(w.Y1-w.Y0, l.Em)
		// Date: try the words from here on, at most four of them.
		if tok, n := lexDateWords(ws[i:], h); n > 0 {
			// "wtorek, 4 marca 2025": the weekday is the date's, of one
			// word or two ("Dydd Llun, 7 Tachwedd 2022").
			if k := len(l.Toks) - 1; k >= 1 && l.Toks[k].Kind == TokText && l.Toks[k-1].Kind == TokText && weekdayBefore(l.Toks[k-1].Text+" "+l.Toks[k].Text) {
				l.Toks = l.Toks[:k-1]
			} else if k >= 0 && l.Toks[k].Kind == TokText && weekdayBefore(l.Toks[k].Text) {
				l.Toks = l.Toks[:k]
			}
			l.Toks = append(l.Toks, tok)
			i += n + dateTail(ws[i+n-1:], h)
			continue
		}
		// Amount: the longest run of up to four close words that reads as one
		// ("1,234.56", "- 92.26", "3 120,50 €", "EUR 12,00", "995.88 CR").
		if decimalComma {
			// In a document that groups thousands with dots, "1.8" is no
			// amount (a group has three digits): a day and a month.
			if d, n, ok := cells.LexNumericDate(w.Text + "."); ok && n == len(w.Text)+1 && d.N == 2 && d.Sep == '.' && dotted(w.Text) {
				d.Text = w.Text
				l.Toks = append(l.Toks, Token{Kind: TokDate, Text: w.Text, X0: w.X0, Y0: w.Y0, X1: w.X1, Y1: w.Y1, Date: &d})
				i++
				continue
			}
		}
		if n, v, marked, bare := LexAmountWords(ws[i:], h, decimalComma); n > 0 && !percent(ws[i+n:], ws[i+n-1], h) {
			kind := TokAmount
			if bare {
				kind = TokText
				// A whole number inside a run of words is part of a
				// sentence ("within 30 days"), never a cell of its own.
				gapL := i == 0 || Apart(ws[i].X0-ws[i-1].X1, h)
				gapR := i+n == len(ws) || Apart(ws[i+n].X0-ws[i+n-1].X1, h)
				bare = gapL && gapR
			}
			l.Toks = append(l.Toks, Token{Kind: kind, Text: JoinWords(ws[i : i+n]), Bare: bare,
				X0: ws[i].X0, Y0: ws[i].Y0, X1: ws[i+n-1].X1, Y1: ws[i+n-1].Y1, Amount: v, Marked: marked})
			i += n
			continue
		}
		l.Toks = append(l.Toks, Token{Kind: TokText, Text: w.Text, X0: w.X0, Y0: w.Y0, X1: w.X1, Y1: w.Y1})
		i++
	}
}

// dayMonthColumn retypes as dates the figures that start a document's
// rows when every one of them reads as a day and a month ("27.12",
// "3.1"): in a currency printed in whole units a table's dates print
// like amounts, and "12.02" alone would be read as one. The column
// decides, not one cell: at least three lines start at one edge with
// such a figure followed by money (or a whole number apart, "708"),
// and none of that column's figures could not be a date (an amount
// column soon prints a ".50").
// On a recognised line the dot may have come back a comma ("24,12", as
// recognition reads a point, or as a page of decimal commas takes a
// figure to be one of its amounts), and the edge is the column's within
// a few points, as recognition draws its boxes.
func DayMonthColumn(lines []*Line) {
	dayMonthColumnAt(lines, 0)
	// A second column of them after the first date (a value date).
	dayMonthColumnAt(lines, 1)
}

// dayMonthColumnAt is dayMonthColumn for the lines' k-th tokens, after a
// date when k > 0.
func dayMonthColumnAt(lines []*Line, k int) {
	var cand []*Line
	for _, l := range lines {
		if len(l.Toks) >= k+2 && (k == 0 || l.Toks[k-1].Kind == TokDate) && (l.Toks[k].Kind == TokAmount || dotted(dayMonthText(l, k))) &&
			slices.ContainsFunc(l.Toks[k+1:], func(t Token) bool { return t.Kind == TokAmount || t.Bare }) {
			cand = append(cand, l)
		}
	}
	sort.SliceStable(cand, func(i, j int) bool { return cand[i].Toks[k].X0 < cand[j].Toks[k].X0 })
	for start := 0; start < len(cand); {
		end := start + 1
		for end < len(cand) && sameEdge(cand[end-1], cand[end], k) {
			end++
		}
		ls := cand[start:end]
		start = end
		if len(ls) < 3 {
			continue
		}
		var ds []cells.DateToken
		for _, l := range ls {
			text := dayMonthText(l, k)
			d, n, ok := cells.LexNumericDate(text + ".")
			if !ok || n != len(text)+1 || d.N != 2 || d.Sep != '.' {
				ds = nil
				break
			}
			ds = append(ds, d)
		}
		for i, l := range ls[:len(ds)] {
			ds[i].Text = dayMonthText(l, k)
			l.Toks[k].Kind, l.Toks[k].Date, l.Toks[k].Amount, l.Toks[k].Bare = TokDate, &ds[i], decimal.Decimal{}, false
		}
	}
}

// dayMonthText is the text of a line's k-th token as a day and month
// would print it: a recognised line's one comma between digits read as
// the dot it may have been.
func dayMonthText(l *Line, k int) string {
	t := l.Toks[k].Text
	if a, b, ok := strings.Cut(t, ","); ok && l.OCR && AllDigits(a) && AllDigits(b) {
		return a + "." + b
	}
	return t
}

// sameEdge reports two lines whose k-th tokens start at one edge: to
// the point on a text layer, within a third of an em as recognition
// draws its boxes.
func sameEdge(a, b *Line, k int) bool {
	d := math.Abs(a.Toks[k].X0 - b.Toks[k].X0)
	if a.OCR || b.OCR {
		return d <= max(a.Em, b.Em)/3
	}
	return math.Round(a.Toks[k].X0) == math.Round(b.Toks[k].X0)
}

// joinDatedHalves merges into a row's dated line the line that overlaps
// its band holding another date and no money, or money and no date: a row
// whose cells are centred on it prints a second date column, or a money
// cell of two lines, half a line above or below ("06-02-2023 Outgoing
// transfer" over "04-02-2023 ... 1.567 135.835"). Their words must not
// collide. Lines are tokenized; the merged line is tokenized again.
func JoinDatedHalves(lines []*Line, decimalComma bool) []*Line {
	has := func(l *Line, k TokKind) bool {
		return slices.ContainsFunc(l.Toks, func(t Token) bool { return t.Kind == k })
	}
	for i := 0; i+1 < len(lines); i++ {
		a, b := lines[i], lines[i+1]
		if a.Page != b.Page || a.OCR || a.Side != b.Side || min(a.Y1, b.Y1)-max(a.Y0, b.Y0) < 0.3*min(a.Height(), b.Height()) {
			continue
		}
		// The row's line prints its date (and money, if either does);
		// the half holds the row's other date or some of its money,
		// never both (that is another row).
		full := func(l *Line) bool { return has(l, TokDate) && has(l, TokAmount) }
		row, half := a, b
		if full(b) || !has(a, TokDate) {
			row, half = b, a
		}
		if !has(row, TokDate) || !full(row) && !has(half, TokAmount) || has(half, TokDate) == has(half, TokAmount) || collide(row.Words, half.Words) {
			continue
		}
		row.Words = append(row.Words, half.Words...)
		sort.SliceStable(row.Words, func(i, j int) bool { return row.Words[i].X0 < row.Words[j].X0 })
		Tokenize(row, decimalComma)
		lines = slices.Delete(lines, slices.Index(lines, half), slices.Index(lines, half)+1)
		i--
	}
	return lines
}

// collide reports a word of a overlapping a word of b across.
func collide(a, b []source.Word) bool {
	for _, u := range a {
		for _, v := range b {
			if u.X0 < v.X1 && v.X0 < u.X1 {
				return true
			}
		}
	}
	return false
}

// dotted reports two runs of digits joined by one dot ("05.01"), which a
// document's amounts may not read as one (a comma-decimal document, or a
// leading zero).
func dotted(s string) bool {
	a, b, ok := strings.Cut(s, ".")
	return ok && AllDigits(a) && AllDigits(b)
}

// hasDigit reports a digit in s; allDigits, s all digits (and not empty).
func HasDigit(s string) bool  { return strings.ContainsAny(s, "0123456789") }
func AllDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// apart reports words a gap apart that is wider than a word space on a
// line of height h (four fifths of it): two cells, not one phrase.
func Apart(gap, h float64) bool { return gap > 0.8*h }

// percent reports a "%" set just after a number (last): a rate, never an
// amount of money.
func percent(rest []source.Word, last source.Word, h float64) bool {
	return strings.HasSuffix(last.Text, "%") || len(rest) > 0 && strings.HasPrefix(rest[0].Text, "%") && !Apart(rest[0].X0-last.X1, h)
}

func JoinWords(ws []source.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// lexAmountWords reads an amount from the start of ws, returning how many
// words it took (0 for none), its value, whether it carried a sign or marker,
// and whether it is bare: a whole number with no separators, which is money
// only in a money column (see token.bare).
func LexAmountWords(ws []source.Word, h float64, decimalComma bool) (int, decimal.Decimal, bool, bool) {
	if !HasDigit(ws[0].Text) && !currencyWord(strings.TrimLeft(ws[0].Text, "+-")) && !drCrWord(ws[0].Text) {
		return 0, decimal.Decimal{}, false, false
	}
	n := 1
	for n < len(ws) && n < 4 && !Apart(ws[n].X0-ws[n-1].X1, h) {
		n++
	}
	bareN, bareV, bareMarked := 0, decimal.Decimal{}, false
	for k := n; k >= 1; k-- {
		text := JoinWords(ws[:k])
		// The last word (a word may hold a mark a cell wrapped: "INR Dr").
		fs := strings.Fields(ws[k-1].Text)
		if last := strings.TrimRight(fs[len(fs)-1], ")"); !HasDigit(last) && !currencyWord(strings.Trim(last, "+-")) && !drCrWord(last) {
			continue // an amount ends in a digit, a currency ("EUR-", "EUR)") or a Dr/Cr mark
		}
		v, marked, bare, _, ok := cells.ParseNumber(text, decimalComma)
		if !ok {
			continue
		}
		if !bare {
			return k, v, marked, false
		}
		if bareN == 0 {
			bareN, bareV, bareMarked = k, v, marked
		}
	}
	if bareN > 0 {
		return bareN, bareV, bareMarked, true
	}
	return 0, decimal.Decimal{}, false, false
}

// lexDateWords reads a date from the start of ws, returning the token and how
// many words it took (0 for none). Words must be close together to form one date.
func lexDateWords(ws []source.Word, h float64) (Token, int) {
	if len(ws) == 0 || !HasDigit(cells.NormalizeDigits(ws[0].Text)) && !startsWithMonthName(ws[0].Text) {
		return Token{}, 0
	}
	n := 1
	for n < len(ws) && n < 6 && ws[n].X0-ws[n-1].X1 < 1.0*h {
		n++
	}
	s := cells.NormalizeDigits(JoinWords(ws[:n]))
	d, rest, ok := cells.LexDate(s)
	if !ok {
		return Token{}, 0
	}
	consumed := strings.TrimRight(strings.TrimSpace(s[:len(s)-len(rest)]), ",;")
	k := 0
	for j := 1; j <= n; j++ {
		// The last word may carry the comma before a weekday ("27
		// наурыз, бейсенбі"), which the date does not take.
		if strings.TrimRight(cells.NormalizeDigits(JoinWords(ws[:j])), ",;") == consumed {
			k = j
			break
		}
	}
	if k == 0 {
		return Token{}, 0
	}
	return Token{Kind: TokDate, Text: consumed, Date: &d,
		X0: ws[0].X0, Y0: ws[0].Y0, X1: ws[k-1].X1, Y1: ws[k-1].Y1}, k
}

// weekdayBefore reports a word before a date that is its weekday, as a
// full date pattern prints it: a full name, or an abbreviation with its
// comma ("Tuesday, 4 March 2025", "Di., 04.03.2025").
func weekdayBefore(word string) bool {
	ok, wide := cells.Weekday(word)
	return ok && (wide || strings.HasSuffix(word, ","))
}

// dateTail counts the words after a date (ws[0] is the date's last word)
// that belong to it: its weekday ("01/05/2025 · quinta-feira",
// "04.03.2025 (Di)"), a time of day printed right after it ("17.03.2025
// 14:32", "2025-02-01 2:44 p.m.") and the word a CLDR pattern prints after the day or year ("d."
// in "2023 m. sausio 3 d."). A separator may stand between; an
// abbreviated weekday needs one, or its brackets.
func dateTail(ws []source.Word, h float64) int {
	n, sep := 0, false
	for j := 1; j < len(ws) && ws[j].X0-ws[j-1].X1 < 1.5*h; j++ {
		w := ws[j].Text
		if j+1 < len(ws) && ws[j+1].X0-ws[j].X1 < 1.5*h {
			if ok, wide := cells.Weekday(w + " " + ws[j+1].Text); ok && wide {
				n, j = j+1, j+1 // a weekday of two words ("Dydd Llun")
				continue
			}
		}
		switch ok, wide := cells.Weekday(w); {
		case strings.Trim(w, "·-–—,|") == "" && !sep:
			sep = true
			continue
		case ok && (wide || sep || strings.HasPrefix(w, "(")):
		case timeOfDay(w), n == j-1 && cells.DateLiteral(w), n == j-1 && timeOfDay(ws[j-1].Text) && cells.DayPeriod(w):
		default:
			return n
		}
		n, sep = j, false
	}
	return n
}

// timeOfDay reports "20:00", "14:32:05".
// DateWord reports a word that a date cell prints beside or under its
// date when the cell wraps: a weekday (named in full, or with its
// comma), a time of day, a year, a month's name, a day's number, a
// pattern's literal ("gada", "г.").
func DateWord(w string) bool {
	if weekdayBefore(w) {
		return true
	}
	w = strings.TrimRight(w, ",")
	if timeOfDay(w) || cells.DateLiteral(w) || cells.DayPeriod(w) {
		return true
	}
	if d := strings.TrimSuffix(w, "."); AllDigits(d) && (len(d) == 4 || len(d) <= 2) {
		return true
	}
	_, month := cells.MonthNames()[cells.FoldWord(strings.TrimSuffix(w, "."))]
	return month
}

func timeOfDay(w string) bool {
	parts := strings.Split(w, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for k, p := range parts {
		if !AllDigits(p) || len(p) > 2 || k > 0 && len(p) != 2 {
			return false
		}
	}
	return true
}

// startsWithMonthName reports a word that may begin a "Mar 3" style date.
func startsWithMonthName(s string) bool {
	r := []rune(s)
	return len(r) >= 3 && unicode.IsLetter(r[0])
}
