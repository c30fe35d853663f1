package synth

import (
	"bytes"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"math"
	"math/rand/v2"
	"testing"
)

func testPage() *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 400, 560))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for y := 100; y < 110; y++ {
		for x := 50; x < 350; x++ {
			g.Pix[y*g.Stride+x] = 0
		}
	}
	return g
}

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestScanResolutionAndInk(t *testing.T) {
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 1))
		data, o, err := Scan(r, testPage(), 200)
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, data)
		want := int(400 * float64(o.DPI) / 200)
		if got := img.Bounds().Dx(); got < want-1 || got > want+1 {
			t.Errorf("seed %d: width %d at %d DPI, want %d", seed, got, o.DPI, want)
		}
		if math.Abs(o.Angle) > 2 {
			t.Errorf("seed %d: angle %.2f beyond 2 degrees", seed, o.Angle)
		}
		// The bar stays dark near the middle of the page.
		x, y := img.Bounds().Dx()/2, int(105*float64(o.DPI)/200)
		if v, _, _, _ := img.At(x, y).RGBA(); v > 0x9000 {
			t.Errorf("seed %d: bar lost (grey %d)", seed, v>>8)
		}
	}
}

func TestSmallScan(t *testing.T) {
	data, dpi, err := SmallScan(rand.New(rand.NewPCG(1, 1)), testPage(), 200)
	if err != nil {
		t.Fatal(err)
	}
	if dpi < 70 || dpi > 100 {
		t.Errorf("dpi %d", dpi)
	}
	if w := decode(t, data).Bounds().Dx(); w != 400*dpi/200 {
		t.Errorf("width %d at %d DPI", w, dpi)
	}
}

func TestPhotoFramesThePage(t *testing.T) {
	data, err := Photo(rand.New(rand.NewPCG(3, 1)), testPage())
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, data)
	b := img.Bounds()
	if b.Dx() <= 400 || b.Dy() <= 560 {
		t.Fatalf("photo %v smaller than the page plus a border", b)
	}
	// A corner is desk, the centre is page.
	corner, _, _, _ := img.At(1, 1).RGBA()
	centre, _, _, _ := img.At(b.Dx()/2, b.Dy()*3/4).RGBA()
	if corner >= centre {
		t.Errorf("desk corner %d not darker than the page %d", corner>>8, centre>>8)
	}
}

// A statement too wide for a portrait page is drawn landscape; its scan
// must keep the whole page, not crop it to a portrait one.
func TestScanKeepsLandscapePages(t *testing.T) {
	s, err := Generate(48, Options{}) // a Courier layout drawn landscape
	if err != nil {
		t.Fatal(err)
	}
	text, err := RenderPages(s.PDF, 50)
	if err != nil {
		t.Fatal(err)
	}
	if text[0].W <= text[0].H {
		t.Fatalf("seed 48 is no longer drawn landscape (%.0f×%.0f mm): pick another seed", text[0].W, text[0].H)
	}
	data, ext, err := inputFor("scan", s)
	if err != nil {
		t.Fatal(err)
	}
	if ext != ".pdf" {
		t.Fatalf("the scan of a two-page statement is a %s, not a PDF", ext)
	}
	scan, err := RenderPages(data, 50)
	if err != nil {
		t.Fatal(err)
	}
	for i, pg := range scan {
		if pg.W <= pg.H {
			t.Errorf("page %d of the scan is %.0f×%.0f mm: the landscape page was cropped", i+1, pg.W, pg.H)
		}
	}
}
