package layout

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"passbook/extract/source"
)

// straightenColumns undoes, on a recognised page's words, the keystone of
// a photo taken at an angle: the page is wider at one end than the other,
// so a column's left or right edge drifts across the page from top to
// bottom and figures of two columns overlap. The lines' left ends (a
// margin, a date column) and the right ends of lines that end in figures
// (a right-aligned balance column) each lie on a straight edge; when an
// edge leans, every word is moved and stretched along its line so that
// both edges stand upright where they are at the middle of the page.
// Deskewing has already turned the page as a whole.
func StraightenColumns(pg source.Page) source.Page {
	lines := GroupLines(pg, 0)
	var left, right []edgePoint
	for _, l := range lines {
		if len(l.Words) < 2 {
			continue
		}
		y := (l.Y0 + l.Y1) / 2
		left = append(left, edgePoint{y, l.Words[0].X0})
		// The line's last figure: a Dr/Cr word may follow it.
		for k := len(l.Words) - 1; k >= max(0, len(l.Words)-2); k-- {
			if endsInDigit(l.Words[k].Text) {
				right = append(right, edgePoint{y, l.Words[k].X1})
				break
			}
		}
	}
	ls, lc, lok := straightEdge(left)
	rs, rc, rok := straightEdge(right)
	if !lok || !rok {
		return pg
	}
	// The drift of each edge over the page's height: a photo's lean. A
	// scan's edges stand within a point or two.
	if math.Abs(ls*pg.Height) < keystoneDrift && math.Abs(rs*pg.Height) < keystoneDrift {
		return pg
	}
	ym := pg.Height / 2
	l0, r0 := lc+ls*ym, rc+rs*ym
	if r0-l0 < 50 {
		return pg
	}
	ws := make([]source.Word, len(pg.Words))
	for i, w := range pg.Words {
		y := (w.Y0 + w.Y1) / 2
		l, r := lc+ls*y, rc+rs*y
		k := (r0 - l0) / (r - l)
		w.X0 = l0 + (w.X0-l)*k
		w.X1 = l0 + (w.X1-l)*k
		ws[i] = w
	}
	pg.Words = ws
	return pg
}

// keystoneDrift is the drift, in points over a page's height, below which
// an edge is taken to stand upright.
const keystoneDrift = 4.0

type edgePoint struct{ y, x float64 }

// straightEdge finds the straight edge x = c + s*y that most of pts lie on,
// within a point and a half: the pair of points whose line holds the most
// of them (a column edge among lines that start or end elsewhere). ok is
// false when no edge holds five points and a third of them.
func straightEdge(pts []edgePoint) (s, c float64, ok bool) {
	const within = 1.5
	best := 0
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			dy := pts[j].y - pts[i].y
			if math.Abs(dy) < 100 {
				continue // too close together to tell a lean
			}
			si := (pts[j].x - pts[i].x) / dy
			ci := pts[i].x - si*pts[i].y
			n := 0
			for _, p := range pts {
				if math.Abs(p.x-(ci+si*p.y)) <= within {
					n++
				}
			}
			if n > best || n == best && math.Abs(si) < math.Abs(s) {
				best, s, c = n, si, ci
			}
		}
	}
	if best < 5 || 3*best < len(pts) {
		return 0, 0, false
	}
	// Refit through the edge's points: the median lean of their pairs.
	var on []edgePoint
	for _, p := range pts {
		if math.Abs(p.x-(c+s*p.y)) <= within {
			on = append(on, p)
		}
	}
	var slopes []float64
	for i := range on {
		for j := i + 1; j < len(on); j++ {
			if dy := on[j].y - on[i].y; math.Abs(dy) >= 100 {
				slopes = append(slopes, (on[j].x-on[i].x)/dy)
			}
		}
	}
	if len(slopes) == 0 {
		return s, c, true
	}
	sort.Float64s(slopes)
	s = slopes[len(slopes)/2]
	var cs []float64
	for _, p := range on {
		cs = append(cs, p.x-s*p.y)
	}
	sort.Float64s(cs)
	return s, cs[len(cs)/2], true
}

// endsInDigit reports a word whose last letter or digit is a digit: an
// amount, with or without a sign or a bracket after it.
func endsInDigit(s string) bool {
	s = strings.TrimRightFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return s != "" && unicode.IsDigit(rune(s[len(s)-1]))
}
