package ocr

import (
	"image"
	"image/color"
	"testing"
)

// dashPage draws glyph-like ink on white paper: each glyph a box outline
// of the line's height (ink above, in and below the middle, as every
// digit has), each mark a bar, so lostDashes is tried on marks of known
// shape and place.
type dashPage struct {
	g *image.Gray
	h int // glyph height
	y int // glyph top
}

func newDashPage() *dashPage {
	g := image.NewGray(image.Rect(0, 0, 900, 120))
	for i := range g.Pix {
		g.Pix[i] = 245
	}
	return &dashPage{g: g, h: 30, y: 40}
}

func (p *dashPage) fill(r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p.g.SetGray(x, y, color.Gray{Y: 20})
		}
	}
}

// glyphs draws n glyphs from x and returns the box they fill.
func (p *dashPage) glyphs(x, n int) image.Rectangle {
	w := p.h / 2
	for i := range n {
		x0 := x + i*(w+4)
		p.fill(image.Rect(x0, p.y, x0+w, p.y+3))
		p.fill(image.Rect(x0, p.y+p.h-3, x0+w, p.y+p.h))
		p.fill(image.Rect(x0, p.y, x0+3, p.y+p.h))
		p.fill(image.Rect(x0+w-3, p.y, x0+w, p.y+p.h))
	}
	return image.Rect(x, p.y, x+n*(w+4)-4, p.y+p.h)
}

// bar draws a mark from x, w long, 3 thick, its top at dy below the glyphs' top.
func (p *dashPage) bar(x, w, dy int) image.Rectangle {
	r := image.Rect(x, p.y+dy, x+w, p.y+dy+3)
	p.fill(r)
	return r
}

func TestLostDashes(t *testing.T) {
	t.Run("a minus before its figure", func(t *testing.T) {
		p := newDashPage()
		dash := p.bar(100, 12, 14)
		fig := p.glyphs(118, 5)
		got := lostDashes(p.g, []ocrWord{{text: "38.06", box: fig, conf: 90}})
		if texts(got) != "-38.06" || got[0].box.Min.X != dash.Min.X {
			t.Errorf("got %q box %v, want -38.06 from x %d", texts(got), got[0].box, dash.Min.X)
		}
	})
	t.Run("a minus inside the figure's box", func(t *testing.T) {
		p := newDashPage()
		dash := p.bar(100, 12, 14)
		fig := p.glyphs(118, 5)
		fig.Min.X = dash.Min.X
		if got := lostDashes(p.g, []ocrWord{{text: "38.06", box: fig, conf: 90}}); texts(got) != "-38.06" {
			t.Errorf("got %q, want -38.06", texts(got))
		}
	})
	t.Run("a minus misread as a mark", func(t *testing.T) {
		p := newDashPage()
		dash := p.bar(100, 12, 14)
		fig := p.glyphs(118, 5)
		fig.Min.X = dash.Min.X
		if got := lostDashes(p.g, []ocrWord{{text: "°10,28", box: fig, conf: 1}}); texts(got) != "-10,28" {
			t.Errorf("got %q, want -10,28", texts(got))
		}
	})
	t.Run("a figure with no sign", func(t *testing.T) {
		p := newDashPage()
		fig := p.glyphs(118, 5)
		if got := lostDashes(p.g, []ocrWord{{text: "38.06", box: fig, conf: 90}}); texts(got) != "38.06" {
			t.Errorf("got %q, want 38.06", texts(got))
		}
	})
	t.Run("an underscore and a rule are no minus", func(t *testing.T) {
		p := newDashPage()
		p.bar(100, 12, p.h-3) // on the baseline
		fig := p.glyphs(118, 5)
		p.fill(image.Rect(300, p.y-4, 303, p.y+p.h+4)) // a cell's border
		fig2 := p.glyphs(310, 5)
		got := lostDashes(p.g, []ocrWord{{text: "38.06", box: fig, conf: 90}, {text: "12.50", box: fig2, conf: 90}})
		if texts(got) != "38.06 12.50" {
			t.Errorf("got %q, want 38.06 12.50", texts(got))
		}
	})
	t.Run("a dash read as part of a word is not added again", func(t *testing.T) {
		p := newDashPage()
		dash := p.bar(100, 12, 14)
		fig := p.glyphs(118, 5)
		got := lostDashes(p.g, []ocrWord{{text: "-", box: dash, conf: 90}, {text: "38.06", box: fig, conf: 90}})
		if texts(got) != "- 38.06" {
			t.Errorf("got %q, want - 38.06", texts(got))
		}
	})
	t.Run("a dash between two numbers", func(t *testing.T) {
		p := newDashPage()
		year := p.glyphs(100, 4)
		p.bar(year.Max.X+10, 14, 14)
		day := p.glyphs(year.Max.X+34, 2)
		year.Max.X += 26 // recognition took the dash into the year's box
		got := lostDashes(p.g, []ocrWord{{text: "2023", box: year, conf: 93}, {text: "13", box: day, conf: 97}})
		if texts(got) != "2023 13 -" {
			t.Fatalf("got %q, want 2023 13 -", texts(got))
		}
		if d := got[2]; d.box.Min.X <= got[0].box.Max.X || d.box.Max.X >= got[1].box.Min.X || d.conf != 93 {
			t.Errorf("dash %v conf %.0f, between %v and %v, confidence 93", d.box, d.conf, got[0].box, got[1].box)
		}
	})
	t.Run("a minus printed after its figure is no dash between", func(t *testing.T) {
		p := newDashPage()
		fig := p.glyphs(100, 5)
		p.bar(fig.Max.X+2, 12, 14)
		fig2 := p.glyphs(fig.Max.X+60, 5)
		got := lostDashes(p.g, []ocrWord{{text: "38.06", box: fig, conf: 90}, {text: "12.50", box: fig2, conf: 90}})
		if texts(got) != "38.06 12.50" {
			t.Errorf("got %q, want 38.06 12.50", texts(got))
		}
	})
}
