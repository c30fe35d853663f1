package geom

import (
	"math"
	"testing"
)

func TestHomographyMapsCorners(t *testing.T) {
	from := [4][2]float64{{10, 20}, {300, 5}, {320, 400}, {0, 380}}
	to := [4][2]float64{{0, 0}, {100, 0}, {100, 140}, {0, 140}}
	h, ok := NewHomography(from, to)
	if !ok {
		t.Fatal("no homography for four corners of a quadrilateral")
	}
	for i := range 4 {
		x, y, ok := h.Apply(from[i][0], from[i][1])
		if !ok || math.Abs(x-to[i][0]) > 1e-6 || math.Abs(y-to[i][1]) > 1e-6 {
			t.Errorf("corner %d -> (%.3f, %.3f), want %v", i, x, y, to[i])
		}
	}
	if _, ok := NewHomography([4][2]float64{{0, 0}, {1, 1}, {2, 2}, {0, 5}}, to); ok {
		t.Error("a homography from three points on a line")
	}
}
