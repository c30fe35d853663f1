package ocr

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"passbook/extract/geom"
)

// photograph draws page g as a photo sees it: its corners at the given
// places on a desk of grey level desk, lit brighter towards the top left.
func photograph(g *image.Gray, corners [4][2]float64, w, h int, desk float64) *image.Gray {
	pw, ph := float64(g.Rect.Dx()), float64(g.Rect.Dy())
	hm, ok := geom.NewHomography(corners, [4][2]float64{{0, 0}, {pw, 0}, {pw, ph}, {0, ph}})
	if !ok {
		panic("no homography")
	}
	r := rand.New(rand.NewPCG(1, 2))
	out := image.NewGray(image.Rect(0, 0, w, h))
	diag := math.Hypot(float64(w), float64(h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u, v := float64(x)+0.5, float64(y)+0.5
			sx, sy, _ := hm.Apply(u, v)
			c := desk
			if sx >= 0 && sy >= 0 && sx < pw && sy < ph {
				c = float64(g.Pix[int(sy)*g.Stride+int(sx)])
			}
			light := 1 - 0.35*math.Hypot(float64(x), float64(y))/diag
			out.Pix[y*out.Stride+x] = clamp(c*light + r.NormFloat64()*4)
		}
	}
	return out
}

func clamp(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v+0.5))) }

// TestPageQuadFindsThePage: a page photographed in perspective (its top
// edge shorter, turned a little, unevenly lit) is found by its four
// corners, to within a hundredth of its size, and warped to an upright
// page of its proportions; a page squarely on the desk, and a page with
// no desk around it, are left to the crop.
func TestPageQuadFindsThePage(t *testing.T) {
	page, _ := renderFixture(t, "en_signed_amount", 100)
	pw, ph := float64(page.Rect.Dx()), float64(page.Rect.Dy())
	w, h := int(pw*1.2), int(ph*1.2)
	keystone := [4][2]float64{
		{0.1*pw + 0.06*pw, 0.08 * ph}, {1.1*pw - 0.05*pw, 0.1 * ph},
		{1.12 * pw, 1.11 * ph}, {0.09 * pw, 1.09 * ph},
	}
	q, ok := pageQuad(photograph(page, keystone, w, h, 90))
	if !ok {
		t.Fatal("no page found in a photo in perspective")
	}
	for i := range q {
		if d := dist(q[i], keystone[i]); d > 0.01*ph {
			t.Errorf("corner %d found at %.0f, is at %.0f (%.1f px off)", i, q[i], keystone[i], d)
		}
	}
	warped := warpQuad(photograph(page, keystone, w, h, 90), q)
	if r := float64(warped.Rect.Dy()) / float64(warped.Rect.Dx()); math.Abs(r-ph/pw) > 0.03*ph/pw {
		t.Errorf("warped page is %v, proportions %.3f, want the page's %.3f", warped.Rect.Size(), r, ph/pw)
	}

	square := [4][2]float64{{0.1 * pw, 0.1 * ph}, {1.1 * pw, 0.1 * ph}, {1.1 * pw, 1.1 * ph}, {0.1 * pw, 1.1 * ph}}
	if q, ok := pageQuad(photograph(page, square, w, h, 90)); ok {
		t.Errorf("a page squarely on the desk is warped, corners %.0f", q)
	}
	if q, ok := pageQuad(page); ok {
		t.Errorf("a page with no desk around it is warped, corners %.0f", q)
	}
}
