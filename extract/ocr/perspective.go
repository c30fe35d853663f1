package ocr

import (
	"image"
	"math"
	"sort"

	"passbook/extract/geom"
)

// Photos in perspective.
//
// A phone held over a page sees it as a quadrilateral: the edge further
// away is shorter (a keystone), and the page turned a little. Cropping
// to its bounding box leaves the desk in the corners and the page's
// columns slanting, a right-aligned column of figures drifting by as much
// as the keystone (up to a tenth of the width) from top to bottom. The
// page's four edges, where the darker desk meets the paper, are found
// row by row and column by column on a reduced copy, each fitted with a
// straight line, and the quadrilateral they make is warped back to a
// rectangle: its columns stand straight and its lines run level.

// quadSide is the long side, in pixels, of the reduced copy the page's
// edges are looked for on.
const quadSide = 600

// Edge finding bounds.
const (
	// edgeStep is the least rise, in grey levels, from the desk to the
	// paper where a row or column crosses the page's edge.
	edgeStep = 35
	// edgeReach is how far into the image, as a share of its side, a
	// page's edge is looked for.
	edgeReach = 0.35
	// minEdgeShare of a side's rows or columns must fit its line: a
	// receipt's fold, shaded, had given one edge on under half of them,
	// at a slant the page did not have.
	minEdgeShare = 0.6
	// minKeystone is the least slant of an edge, or difference between
	// opposite edges' lengths, as a share of the page's side, worth
	// warping: less, and the crop and deskew do as well.
	minKeystone = 0.008
)

// edgeLine is a page edge: x = a*y + b for the left and right edges, y =
// a*x + b for the top and bottom ones, in the reduced copy's pixels.
type edgeLine struct{ a, b float64 }

// pageQuad finds the corners of a photographed page (top left, top
// right, bottom right, bottom left, in g's pixels) when all four of its
// edges show the desk beyond them, each along a straight line, and the
// page stands in perspective or turned enough to be worth warping. A
// photo that cuts the page off is left to the crop (and its warning).
func pageQuad(g *image.Gray) ([4][2]float64, bool) {
	var q [4][2]float64
	w, h := g.Rect.Dx(), g.Rect.Dy()
	f := math.Min(1, quadSide/float64(max(w, h)))
	s := g
	if f < 1 {
		s = scaleGray(g, f)
	}
	sw, sh := s.Rect.Dx(), s.Rect.Dy()
	if sw < 100 || sh < 100 {
		return q, false
	}
	at := func(x, y int) int { return int(s.Pix[y*s.Stride+x]) }
	// Each side: for every row (column), where the desk gives way to
	// paper coming in from that side.
	left := edgePoints(sh, sw, func(i, j int) int { return at(j, i) })
	right := edgePoints(sh, sw, func(i, j int) int { return at(sw-1-j, i) })
	top := edgePoints(sw, sh, func(i, j int) int { return at(i, j) })
	bottom := edgePoints(sw, sh, func(i, j int) int { return at(i, sh-1-j) })
	var lines [4]edgeLine // left, right, top, bottom
	for k, pts := range [][][2]float64{left, right, top, bottom} {
		n := sh
		if k >= 2 {
			n = sw
		}
		l, ok := fitEdge(pts, n)
		if !ok {
			return q, false
		}
		if k == 1 || k == 3 {
			// Measured from the far side: mirror back.
			end := float64(sw - 1)
			if k == 3 {
				end = float64(sh - 1)
			}
			l = edgeLine{-l.a, end - l.b}
		}
		lines[k] = l
	}
	cross := func(side, tb edgeLine) [2]float64 {
		// x = a*y + b and y = c*x + d.
		x := (side.a*tb.b + side.b) / (1 - side.a*tb.a)
		return [2]float64{x, tb.a*x + tb.b}
	}
	q = [4][2]float64{
		cross(lines[0], lines[2]), cross(lines[1], lines[2]),
		cross(lines[1], lines[3]), cross(lines[0], lines[3]),
	}
	// A sane page: corners near the picture, most of it, convex.
	for _, c := range q {
		if c[0] < -0.05*float64(sw) || c[0] > 1.05*float64(sw) || c[1] < -0.05*float64(sh) || c[1] > 1.05*float64(sh) {
			return q, false
		}
	}
	if quadArea(q) < 0.35*float64(sw*sh) {
		return q, false
	}
	topLen, botLen := dist(q[0], q[1]), dist(q[3], q[2])
	leftLen, rightLen := dist(q[0], q[3]), dist(q[1], q[2])
	slant := 0.0
	for _, l := range lines {
		slant = math.Max(slant, math.Abs(l.a))
	}
	if slant < minKeystone && math.Abs(topLen-botLen) < minKeystone*math.Max(topLen, botLen) && math.Abs(leftLen-rightLen) < minKeystone*math.Max(leftLen, rightLen) {
		return q, false
	}
	for i := range q {
		q[i][0] /= f
		q[i][1] /= f
	}
	return q, true
}

// edgePoints looks along each of n lines (rows or columns) of length m,
// whose pixels px(i, j) gives from the side inwards, for where the desk
// at the side gives way to paper: the first of three pixels in a row past
// the level halfway between the desk and the line's paper. Lines whose
// side shows no desk give no point.
func edgePoints(n, m int, px func(i, j int) int) [][2]float64 {
	var out [][2]float64
	reach := int(edgeReach * float64(m))
	vals := make([]int, m)
	for i := 0; i < n; i++ {
		for j := range vals {
			vals[j] = px(i, j)
		}
		desk := (vals[0] + vals[1] + vals[2]) / 3
		sorted := append([]int(nil), vals...)
		sort.Ints(sorted)
		paper := sorted[m*8/10]
		if paper-desk < edgeStep {
			continue
		}
		level := (desk + paper) / 2
		for j := 0; j+2 < reach; j++ {
			if vals[j] >= level && vals[j+1] >= level && vals[j+2] >= level {
				if j > 0 {
					out = append(out, [2]float64{float64(i), float64(j)})
				}
				break
			}
		}
	}
	return out
}

// fitEdge fits a straight line j = a*i + b through an edge's points,
// leaving out those far from it (a line that met print or a shadow before
// the paper's edge), and reports whether enough of the side's n lines
// fit it.
func fitEdge(pts [][2]float64, n int) (edgeLine, bool) {
	var l edgeLine
	keep := pts
	for range 4 {
		if len(keep) < 20 {
			return l, false
		}
		var si, sj, sii, sij float64
		for _, p := range keep {
			si += p[0]
			sj += p[1]
			sii += p[0] * p[0]
			sij += p[0] * p[1]
		}
		k := float64(len(keep))
		den := k*sii - si*si
		if den == 0 {
			return l, false
		}
		l.a = (k*sij - si*sj) / den
		l.b = (sj - l.a*si) / k
		res := make([]float64, len(pts))
		for i, p := range pts {
			res[i] = math.Abs(p[1] - (l.a*p[0] + l.b))
		}
		sorted := append([]float64(nil), res...)
		sort.Float64s(sorted)
		tol := math.Max(1.5, 2.5*sorted[len(sorted)/2])
		keep = keep[:0:0]
		for i, p := range pts {
			if res[i] <= tol {
				keep = append(keep, p)
			}
		}
	}
	return l, float64(len(keep)) >= minEdgeShare*float64(n) && math.Abs(l.a) < 0.2
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// quadArea is the area of a quadrilateral given corner by corner (the
// shoelace formula).
func quadArea(q [4][2]float64) float64 {
	s := 0.0
	for i := range q {
		j := (i + 1) % 4
		s += q[i][0]*q[j][1] - q[j][0]*q[i][1]
	}
	return math.Abs(s) / 2
}

// warpQuad maps the quadrilateral q of g (corners clockwise from the top
// left) onto an upright rectangle as wide as its longer horizontal edge
// and as tall as its longer vertical one, sampling bilinearly; what falls
// outside g is paper white.
func warpQuad(g *image.Gray, q [4][2]float64) *image.Gray {
	ow := int(math.Round(math.Max(dist(q[0], q[1]), dist(q[3], q[2]))))
	oh := int(math.Round(math.Max(dist(q[0], q[3]), dist(q[1], q[2]))))
	out := image.NewGray(image.Rect(0, 0, ow, oh))
	hm, ok := geom.NewHomography([4][2]float64{{0, 0}, {float64(ow), 0}, {float64(ow), float64(oh)}, {0, float64(oh)}}, q)
	if !ok {
		return g
	}
	w, h := g.Rect.Dx(), g.Rect.Dy()
	for y := 0; y < oh; y++ {
		row := out.Pix[y*out.Stride : y*out.Stride+ow]
		v := float64(y) + 0.5
		for x := range row {
			u := float64(x) + 0.5
			sx, sy, ok := hm.Apply(u, v)
			sx, sy = sx-0.5, sy-0.5
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			if !ok || x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
				row[x] = 255
				continue
			}
			fx, fy := sx-float64(x0), sy-float64(y0)
			i := y0*g.Stride + x0
			p := g.Pix
			top := float64(p[i])*(1-fx) + float64(p[i+1])*fx
			bot := float64(p[i+g.Stride])*(1-fx) + float64(p[i+g.Stride+1])*fx
			row[x] = uint8(top*(1-fy) + bot*fy + 0.5)
		}
	}
	return out
}
