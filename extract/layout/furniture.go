package layout

import (
	"math"
	"slices"
)

// MarkFurniture marks the words of a text layer that the pages repeat at
// one place: a running header or footer, a page's legal text, a
// watermark's letters, which no row's description holds. A word counts
// when it stands, to within a point or two, on at least half the pages
// (two at least), beside another such word, and on some page outside the
// band of its rows (more than two lines above the first line with an
// amount, or below the last): a row's words may repeat in its slot on the
// next page, but never where no row is. Recognised pages are left alone.
func MarkFurniture(pages [][]*Line) {
	if len(pages) < 2 {
		return
	}
	type key struct {
		text string
		x, y int
	}
	at := func(t Token) key { return key{t.Text, int(math.Round(t.X0 / 2)), int(math.Round(t.Y0 / 2))} }
	onPages, outside := map[key]int{}, map[key]bool{}
	for _, lines := range pages {
		top, bottom := math.Inf(1), math.Inf(-1)
		for _, l := range lines {
			if l.OCR {
				return
			}
			if slices.ContainsFunc(l.Toks, func(t Token) bool { return t.Kind == TokAmount }) {
				// Rows print amounts; a day's rows may print no date.
				top, bottom = min(top, l.Y0-2*l.Height()), max(bottom, l.Y1+2*l.Height())
			}
		}
		seen := map[key]bool{}
		for _, l := range lines {
			for _, t := range l.Toks {
				if t.Kind != TokText {
					continue
				}
				k := at(t)
				if !seen[k] {
					seen[k] = true
					onPages[k]++
				}
				if t.Y1 < top || t.Y0 > bottom {
					outside[k] = true
				}
			}
		}
	}
	need := max(2, (len(pages)+1)/2)
	for _, lines := range pages {
		for _, l := range lines {
			rep := func(i int) bool {
				t := l.Toks[i]
				k := at(t)
				return t.Kind == TokText && onPages[k] >= need && outside[k]
			}
			for i := range l.Toks {
				if !rep(i) {
					continue
				}
				// Beside another such word, a few word spaces away at most.
				for j := max(0, i-1); j <= min(len(l.Toks)-1, i+1); j++ {
					if j != i && rep(j) && math.Min(math.Abs(l.Toks[j].X0-l.Toks[i].X1), math.Abs(l.Toks[i].X0-l.Toks[j].X1)) < 3*l.Height() {
						l.Toks[i].Furniture = true
						break
					}
				}
			}
		}
	}
}
