// Package geom holds the plane geometry page images need: the projective
// map (homography) that takes a page's four corners as a photo shows
// them to an upright rectangle and back. Recognition straightens photos
// with it (extract/ocr), and the statement generator draws them with it
// (extract/synth).
package geom

import "math"

// Homography is a projective map of the plane as a 3x3 matrix, row by
// row, its last entry 1: (x, y) goes to ((h0 x + h1 y + h2) / w,
// (h3 x + h4 y + h5) / w) with w = h6 x + h7 y + h8.
type Homography [9]float64

// NewHomography solves for the map taking the four points from onto the
// four points to; false when three of them stand on a line.
func NewHomography(from, to [4][2]float64) (Homography, bool) {
	var a [8][9]float64
	for i := range 4 {
		x, y, u, v := from[i][0], from[i][1], to[i][0], to[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	// Gaussian elimination with partial pivoting.
	for c := range 8 {
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return Homography{}, false
		}
		a[c], a[p] = a[p], a[c]
		for r := range 8 {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 9; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var h Homography
	for i := range 8 {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	return h, true
}

// Apply maps (x, y); false for a point the map sends to infinity.
func (h Homography) Apply(x, y float64) (float64, float64, bool) {
	w := h[6]*x + h[7]*y + h[8]
	if w == 0 {
		return 0, 0, false
	}
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w, true
}
