package ocr

import (
	"image"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Recognition's sparse reading, the one the analysis is built on, leaves
// out thin marks that stand apart from letters: a minus sign set a
// little before its figure ("-38.06" came back "38.06", its box starting
// after the sign), and a dash standing alone between two numbers (a
// period's "14 Dec 2023 – 13 Jan 2024" came back without it, and its end
// was no longer read as one). A text layer has them, so the reading
// stages rely on them. lostDashes puts them back from the page's ink.
//
// A dash is ink in the middle of the figure's height and nowhere above or
// below it, a quarter to a whole of that height long and no thicker than
// a third of it, with clear paper on either side: no letter, digit or
// rule has that shape.

// dashShape measures a horizontal stretch of g for dashes in the height
// band of a figure whose glyph box is y0–y0+h.
type dashShape struct {
	g      *image.Gray
	y0, h  int
	thr    uint8
	others []image.Rectangle // the words' boxes: no dash inside one
	self   [2]int            // but these words' own: a dash in their box
}

// column classes of dashShape.col.
const (
	colBlank = iota // paper only
	colDash         // ink in the middle band only
	colInk          // ink above or below the middle: a glyph or a rule
)

// col classifies the pixel column x over the figure's height.
func (d dashShape) col(x int) (class, top, bottom int) {
	b := d.g.Rect
	if x < b.Min.X || x >= b.Max.X {
		return colInk, 0, 0
	}
	midTop, midBot := d.y0+d.h/4, d.y0+d.h*4/5
	top, bottom = -1, -1
	for y := d.y0 - d.h/8; y <= d.y0+d.h+d.h/8; y++ {
		if y < b.Min.Y || y >= b.Max.Y {
			continue
		}
		if d.g.Pix[d.g.PixOffset(x, y)] >= d.thr {
			continue
		}
		if y < midTop || y > midBot {
			return colInk, 0, 0
		}
		if top < 0 {
			top = y
		}
		bottom = y
	}
	if top < 0 {
		return colBlank, 0, 0
	}
	return colDash, top, bottom
}

// glyphEdge is the outer column of the first glyph met going from start
// in direction dir (1: rightwards) before stop, with the glyph's edge,
// thin as a dash at its middle, taken in; back at start when the glyph
// reaches it. A word's box may hold a dash beside its print: the dash
// is looked for beyond this edge.
func (d dashShape) glyphEdge(start, dir, stop int) int {
	e := start
	for (e-stop)*dir < 0 {
		if c, _, _ := d.col(e); c == colInk {
			break
		}
		e += dir
	}
	for e != start {
		if c, _, _ := d.col(e - dir); c == colBlank {
			break
		}
		e -= dir
	}
	return e
}

// dashAt finds a dash whose columns run from x (inclusive) in direction
// dir (-1: leftwards), after at most maxGap blank columns, ending before
// limit. It returns the dash's span [x0, x1) and its rows, ok false when
// there is none. The dash must end in blank paper (at least minClear
// columns, or limit).
func (d dashShape) dashAt(x, dir, maxGap, limit, minClear int) (x0, x1, top, bottom int, ok bool) {
	in := func(x int) bool { return dir < 0 && x > limit || dir > 0 && x < limit }
	gap := 0
	for ; in(x); x += dir {
		c, _, _ := d.col(x)
		if c == colInk {
			return 0, 0, 0, 0, false
		}
		if c == colDash {
			break
		}
		if gap++; gap > maxGap {
			return 0, 0, 0, 0, false
		}
	}
	start, run := x, 0
	top, bottom = 1<<30, -1
	for ; in(x); x += dir {
		c, t, b := d.col(x)
		if c == colInk {
			return 0, 0, 0, 0, false // the mark runs into a glyph
		}
		if c == colBlank {
			break
		}
		run++
		top, bottom = min(top, t), max(bottom, b)
	}
	if run < max(2, d.h/5) || run > d.h*11/10 || bottom-top+1 > max(2, d.h/3) {
		return 0, 0, 0, 0, false
	}
	end := x
	for clear := 0; clear < minClear && in(x); x += dir {
		if c, _, _ := d.col(x); c != colBlank {
			return 0, 0, 0, 0, false
		}
		clear++
	}
	x0, x1 = min(start, end-dir), max(start, end-dir)+1
	r := image.Rect(x0, top, x1, bottom+1)
	for i, o := range d.others {
		if i != d.self[0] && i != d.self[1] && o.Overlaps(r) {
			return 0, 0, 0, 0, false // recognition read it, as part of a word
		}
	}
	return x0, x1, top, bottom, true
}

// inkThreshold is the grey level halfway between the darkest ink of box
// and the paper around it; ok false for a box with no ink to tell.
func inkThreshold(g *image.Gray, box image.Rectangle) (uint8, bool) {
	r := box.Inset(-box.Dy() / 2).Intersect(g.Rect)
	if r.Empty() {
		return 0, false
	}
	var hist [256]int
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			hist[g.Pix[g.PixOffset(x, y)]]++
			n++
		}
	}
	ink, paper := percentileOf(&hist, n, 0.01), percentileOf(&hist, n, 0.7)
	if paper-ink < 60 {
		return 0, false
	}
	return uint8((ink + paper) / 2), true
}

func percentileOf(hist *[256]int, n int, q float64) int {
	want, seen := int(q*float64(n)), 0
	for v, c := range hist {
		if seen += c; seen > want {
			return v
		}
	}
	return 255
}

// unsignedFigure reports a word that is a figure printed with no sign
// before or after it: it starts and ends with a digit and holds a
// decimal mark.
func unsignedFigure(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if !unicode.IsDigit(first) || !unicode.IsDigit(last) {
		return false
	}
	for _, r := range s {
		if r == '.' || r == ',' {
			return true
		}
	}
	return false
}

// signJunk are marks recognition prints for a minus sign it misread.
const signJunk = "°*·•^"

// hasDigit reports a word with a digit in it.
func hasDigit(s string) bool {
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// lostDashes puts back the minus signs and lone dashes recognition left
// out of words (see above). A figure with its sign back says so by its
// text ("-38.06"), as printed; a lone dash is a word "-" of its own, with
// the confidence of the less certain of its neighbours.
func lostDashes(g *image.Gray, words []ocrWord) []ocrWord {
	boxes := make([]image.Rectangle, len(words))
	for i, w := range words {
		boxes[i] = w.box
	}
	var added []ocrWord
	for i := range words {
		w := &words[i]
		h := w.box.Dy()
		if h < 6 || !hasDigit(w.text) {
			continue
		}
		thr, ok := inkThreshold(g, w.box)
		if !ok {
			continue
		}
		d := dashShape{g: g, y0: w.box.Min.Y, h: h, thr: thr, others: boxes, self: [2]int{-1, -1}}
		// A mark recognition made of a minus ("°10,28") is no part of
		// the figure: the ink decides whether it was a minus.
		figure := strings.TrimLeft(w.text, signJunk)
		if unsignedFigure(figure) {
			// A minus sign before the figure's first digit: inside its
			// box (recognition took it in but did not print it), across
			// the box's edge, or just before it.
			d.self = [2]int{i, -1}
			gx := d.glyphEdge(w.box.Min.X, 1, w.box.Min.X+h)
			if x0, _, top, bottom, ok := d.dashAt(gx-1, -1, h/2, gx-2*h, h/3); ok {
				w.text = "-" + figure
				w.box.Min.X = min(w.box.Min.X, x0)
				w.box.Min.Y, w.box.Max.Y = min(w.box.Min.Y, top), max(w.box.Max.Y, bottom+1)
				boxes[i] = w.box
				continue
			}
		}
		// A dash alone between this word and the next one on its line
		// that also holds a digit (a range of dates or numbers).
		next := -1
		for j, o := range words {
			if j == i || o.box.Min.X <= w.box.Max.X || !hasDigit(o.text) {
				continue
			}
			if mid := (o.box.Min.Y + o.box.Max.Y) / 2; mid < w.box.Min.Y || mid > w.box.Max.Y {
				continue
			}
			if next < 0 || o.box.Min.X < words[next].box.Min.X {
				next = j
			}
		}
		if next < 0 {
			continue
		}
		o := words[next]
		if o.box.Min.X-w.box.Max.X > 4*h {
			continue
		}
		// The shorter box of the two measures the line: recognition
		// sometimes gives a word a box taller than its print.
		if o.box.Dy() < h {
			d.y0, d.h = o.box.Min.Y, o.box.Dy()
		}
		h = d.h
		// Clear paper after this word's last glyph (recognition may
		// have taken the dash into its box), a dash, clear paper before
		// the next word's first: spaces on both sides, where a minus
		// printed after its figure ("38.06-") has none before it.
		last := d.glyphEdge(w.box.Max.X-1, -1, max(w.box.Min.X, w.box.Max.X-h))
		first := d.glyphEdge(o.box.Min.X, 1, min(o.box.Max.X, o.box.Min.X+h))
		d.self = [2]int{i, next}
		if x0, x1, top, bottom, ok := d.dashAt(last+1, 1, first-last, first, h/4); ok && x0-last >= h/4 {
			box := image.Rect(x0, top, x1, bottom+1)
			added = append(added, ocrWord{text: "-", box: box, conf: min(w.conf, o.conf), line: w.line})
			boxes = append(boxes, box)
			if w.box.Max.X > x0 {
				w.box.Max.X = last + 1
				boxes[i] = w.box
			}
		}
	}
	return append(words, added...)
}
