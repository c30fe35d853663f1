package ocr

import (
	"image"
	"math"
	"slices"
)

// Text size in pixels, measured on the page.
//
// A page's resolution says how many pixels an inch of paper covers, not
// how tall its print is: a statement set in 7 pt at 200 dpi gives digits
// 14 pixels tall, one in 12 pt at 150 dpi 18; and an uploaded image's
// resolution is only guessed from its size. Tesseract reads by the
// pixels, so a page is enlarged by what its characters measure: the
// height of its ink's connected components shaped like characters.

// Glyph heights, in pixels, of a page's digits and capitals (glyphHeight).
// Tesseract read the amounts of statement pages well with digits 20–30
// pixels tall; at 10–14 it lost decimal points and read 5 for 6. A page
// whose print measures under minGlyphPx is enlarged so it measures
// glyphTargetPx.
const (
	minGlyphPx    = 17
	glyphTargetPx = 24
	// maxGlyphScale bounds the enlargement: a page whose components
	// measure a few pixels is noise or a picture, not small print.
	maxGlyphScale = 3
	// maxGlyphPixels bounds the enlarged page: Tesseract holds about
	// 10 MB a megapixel while it reads (an A4 page at 200 dpi enlarged
	// 1.7 times, 11 megapixels, took a worker from 113 to 188 MB), and a
	// worker is to stay within 150 MB.
	maxGlyphPixels = 7_000_000
)

// glyphHeight estimates the height, in pixels, of the digits and capitals
// printed on g, 0 when g holds too few characters to tell. It thresholds g
// halfway between its paper and its ink, labels the ink's connected
// components (runs of ink joined to the runs they touch on the row
// above), keeps those shaped like one character (no wider than two of
// their heights, between 4 pixels and a twentieth of the page tall) and
// takes the 70th percentile of their heights: lower-case letters without
// ascenders, commas and points fall below it, digits and capitals, which
// is what figures are made of, at it.
func glyphHeight(g *image.Gray) int {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w < minOCRSide || h < minOCRSide {
		return 0
	}
	var hist [256]int
	for y := 0; y < h; y += 2 {
		row := g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):][:w]
		for x := 0; x < w; x += 2 {
			hist[row[x]]++
		}
	}
	paper, ink := percentile(&hist, 0.6), percentile(&hist, 0.005)
	if paper-ink < 40 {
		return 0 // a blank or washed-out page
	}
	thr := uint8((paper + ink) / 2)

	// Union-find over runs; box[i] is the bounding box of run i's set,
	// kept at the set's root.
	type run struct{ x0, x1 int32 } // [x0, x1)
	var (
		parent []int32
		box    []image.Rectangle
	)
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int32) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		if ra > rb {
			ra, rb = rb, ra
		}
		parent[rb] = ra
		box[ra] = box[ra].Union(box[rb])
	}
	var prev, cur []run
	var prevID, curID []int32
	for y := 0; y < h; y++ {
		row := g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):][:w]
		cur, curID = cur[:0], curID[:0]
		for x := 0; x < w; {
			if row[x] >= thr {
				x++
				continue
			}
			x0 := x
			for x < w && row[x] < thr {
				x++
			}
			id := int32(len(parent))
			parent = append(parent, id)
			box = append(box, image.Rect(x0, y, x, y+1))
			cur, curID = append(cur, run{int32(x0), int32(x)}), append(curID, id)
		}
		// Join each run to the runs above it that it touches (8-connected).
		j := 0
		for i, r := range cur {
			for j < len(prev) && prev[j].x1 < r.x0 {
				j++
			}
			for k := j; k < len(prev) && prev[k].x0 <= r.x1; k++ {
				union(curID[i], prevID[k])
			}
		}
		prev, cur = cur, prev
		prevID, curID = curID, prevID
	}
	maxH := max(8, min(w, h)/20)
	var heights []int
	for i := range parent {
		if parent[i] != int32(i) {
			continue
		}
		b := box[i]
		if b.Dy() < 4 || b.Dy() > maxH || b.Dx() > 2*b.Dy() {
			continue
		}
		heights = append(heights, b.Dy())
	}
	if len(heights) < 20 {
		return 0
	}
	slices.Sort(heights)
	return heights[len(heights)*7/10]
}

// glyphScale is the factor a page whose print measures px pixels tall is
// enlarged by for recognition (1: read it as it is), bounded so the page
// stays within maxGlyphPixels.
func glyphScale(px, w, h int) float64 {
	if px == 0 || px >= minGlyphPx {
		return 1
	}
	f := math.Min(float64(glyphTargetPx)/float64(px), maxGlyphScale)
	if room := math.Sqrt(float64(maxGlyphPixels) / float64(w*h)); f > room {
		f = room
	}
	if f < 1.1 {
		return 1
	}
	return f
}
