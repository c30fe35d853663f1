package synth

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"

	"passbook/extract/geom"
)

// Degradations that turn a clean rendered page into what a scanner or a
// phone delivers. All pure Go and deterministic for a given rand source.

// ScanOptions says what Scan did, for the record.
type ScanOptions struct {
	Angle   float64 // degrees
	DPI     int     // resolution of the result
	Blur    bool
	Noise   float64
	Quality int // JPEG quality; 0 means PNG
}

// Scan degrades a grey page rendered at dpi like a flatbed scan: slight
// rotation, blur, noise, a lower resolution and JPEG compression
// (sometimes a small, low-resolution PNG instead). It returns the encoded
// image, its resolution and what was done.
func Scan(r *rand.Rand, g *image.Gray, dpi int) ([]byte, ScanOptions, error) {
	o := ScanOptions{Angle: (r.Float64()*2 - 1) * 2, Blur: r.IntN(2) == 0, Noise: 4 + r.Float64()*10}
	o.DPI = 150 + r.IntN(151)
	o.Quality = 40 + r.IntN(46)
	if r.IntN(8) == 0 {
		o.DPI, o.Quality = 70+r.IntN(31), 0
	}
	out := rotateGray(g, o.Angle)
	if o.Blur {
		out = boxBlur(out)
	}
	out = resizeGray(out, float64(o.DPI)/float64(dpi))
	addNoise(r, out, o.Noise)
	data, err := encodeGray(out, o.Quality)
	return data, o, err
}

// SmallScan makes the small, low-resolution page image (70-100 DPI PNG)
// that people send when they photograph or screenshot at low quality.
func SmallScan(r *rand.Rand, g *image.Gray, dpi int) ([]byte, int, error) {
	to := 70 + r.IntN(31)
	out := resizeGray(rotateGray(g, (r.Float64()*2-1)*1), float64(to)/float64(dpi))
	addNoise(r, out, 3)
	data, err := encodeGray(out, 0)
	return data, to, err
}

// Photo makes a phone photo of a grey page: the page on a darker desk, in
// perspective, slightly rotated, unevenly lit and tinted, JPEG-compressed.
func Photo(r *rand.Rand, g *image.Gray) ([]byte, error) {
	b := g.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	margin := 0.06 + r.Float64()*0.08
	cw, ch := int(w*(1+2*margin)), int(h*(1+2*margin))
	// Page corners in the photo: a keystone (one edge shorter) plus jitter.
	jit := func(s float64) float64 { return (r.Float64()*2 - 1) * s }
	mx, my := w*margin, h*margin
	k := w * (0.02 + r.Float64()*0.06) // keystone inset of the top edge
	dst := [4][2]float64{
		{mx + k + jit(w*0.015), my + jit(h*0.015)},
		{mx + w - k + jit(w*0.015), my + jit(h*0.015)},
		{mx + w + jit(w*0.015), my + h + jit(h*0.015)},
		{mx + jit(w*0.015), my + h + jit(h*0.015)},
	}
	src := [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}}
	hm, _ := geom.NewHomography(dst, src) // photo point -> page point
	desk := [3]float64{60 + r.Float64()*90, 50 + r.Float64()*80, 40 + r.Float64()*70}
	tint := [3]float64{1, 0.96 + r.Float64()*0.04, 0.88 + r.Float64()*0.1}
	lx, ly := r.Float64()*float64(cw), r.Float64()*float64(ch)
	dark := 0.25 + r.Float64()*0.25
	diag := math.Hypot(float64(cw), float64(ch))
	img := image.NewRGBA(image.Rect(0, 0, cw, ch))
	for y := 0; y < ch; y++ {
		for x := 0; x < cw; x++ {
			px, py, ok := hm.Apply(float64(x)+0.5, float64(y)+0.5)
			var c [3]float64
			if ok && px >= 0 && py >= 0 && px < w && py < h {
				v := sampleGray(g, px-0.5, py-0.5)
				for i := range c {
					c[i] = v * tint[i]
				}
			} else {
				c = desk
			}
			light := 1 - dark*math.Hypot(float64(x)-lx, float64(y)-ly)/diag
			n := r.NormFloat64() * 5
			i := img.PixOffset(x, y)
			for j := range 3 {
				img.Pix[i+j] = clamp8(c[j]*light + n)
			}
			img.Pix[i+3] = 255
		}
	}
	var buf bytes.Buffer
	err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 55 + r.IntN(35)})
	return buf.Bytes(), err
}

// EncodePNG writes a grey image as PNG.
func EncodePNG(g *image.Gray) ([]byte, error) { return encodeGray(g, 0) }

func encodeGray(g *image.Gray, quality int) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if quality == 0 {
		err = png.Encode(&buf, g)
	} else {
		err = jpeg.Encode(&buf, g, &jpeg.Options{Quality: quality})
	}
	return buf.Bytes(), err
}

func clamp8(v float64) uint8 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v + 0.5)
}

// sampleGray reads g at a fractional position (pixel centres at integers),
// bilinearly; outside reads white.
func sampleGray(g *image.Gray, x, y float64) float64 {
	b := g.Bounds()
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 {
		if x < b.Min.X || y < b.Min.Y || x >= b.Max.X || y >= b.Max.Y {
			return 255
		}
		return float64(g.Pix[(y-b.Min.Y)*g.Stride+(x-b.Min.X)])
	}
	return at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
}

// rotateGray turns g by deg degrees about its centre, filling with white.
func rotateGray(g *image.Gray, deg float64) *image.Gray {
	b := g.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	sin, cos := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cos*dx+sin*dy+cx, -sin*dx+cos*dy+cy
			out.Pix[y*out.Stride+x] = clamp8(sampleGray(g, sx, sy))
		}
	}
	return out
}

// boxBlur is a 3x3 mean.
func boxBlur(g *image.Gray) *image.Gray {
	b := g.Bounds()
	out := image.NewGray(b)
	w, h := b.Dx(), b.Dy()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sum, n := 0, 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx >= 0 && yy >= 0 && xx < w && yy < h {
						sum += int(g.Pix[yy*g.Stride+xx])
						n++
					}
				}
			}
			out.Pix[y*out.Stride+x] = uint8(sum / n)
		}
	}
	return out
}

// resizeGray scales g by s with an area average when shrinking.
func resizeGray(g *image.Gray, s float64) *image.Gray {
	b := g.Bounds()
	w, h := max(1, int(float64(b.Dx())*s)), max(1, int(float64(b.Dy())*s))
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		sy0, sy1 := float64(y)/s, float64(y+1)/s
		for x := 0; x < w; x++ {
			sx0, sx1 := float64(x)/s, float64(x+1)/s
			if s >= 1 {
				out.Pix[y*out.Stride+x] = clamp8(sampleGray(g, (sx0+sx1)/2-0.5, (sy0+sy1)/2-0.5))
				continue
			}
			sum, n := 0, 0
			for yy := int(sy0); yy < int(math.Ceil(sy1)) && yy < b.Dy(); yy++ {
				for xx := int(sx0); xx < int(math.Ceil(sx1)) && xx < b.Dx(); xx++ {
					sum += int(g.Pix[yy*g.Stride+xx])
					n++
				}
			}
			if n > 0 {
				out.Pix[y*out.Stride+x] = uint8(sum / n)
			}
		}
	}
	return out
}

func addNoise(r *rand.Rand, g *image.Gray, sigma float64) {
	for i, p := range g.Pix {
		g.Pix[i] = clamp8(float64(p) + r.NormFloat64()*sigma)
	}
}
