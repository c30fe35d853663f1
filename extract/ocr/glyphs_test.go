package ocr

import (
	"image"
	"testing"

	"passbook/extract/source"
	"passbook/extract/synth"
)

// synthPage generates statement seed (one page; plain: in the most
// common conventions, 1,234.56 and DD/MM/YYYY) and renders it at dpi,
// with its text layer's words.
func synthPage(t testing.TB, seed int64, plain bool, dpi float64) (*image.Gray, source.Page) {
	t.Helper()
	s, err := synth.Generate(seed, synth.Options{OnePage: true, Plain: plain})
	if err != nil {
		t.Fatal(err)
	}
	return renderPDF(t, s.PDF, dpi)
}

// TestGlyphHeight: the print's measured height follows the pixels it is
// drawn with, not the resolution a page claims, and a page blank or
// without characters measures nothing.
func TestGlyphHeight(t *testing.T) {
	for _, seed := range []int64{3, 11, 29} {
		g200, _ := synthPage(t, seed, false, 200)
		g100, _ := synthPage(t, seed, false, 100)
		h200, h100 := glyphHeight(g200), glyphHeight(g100)
		if h200 < 10 || h200 > 40 {
			t.Errorf("seed %d: print at 200 dpi measures %d px, want a statement's 10-40", seed, h200)
		}
		if r := float64(h200) / float64(max(1, h100)); r < 1.7 || r > 2.3 {
			t.Errorf("seed %d: print measures %d px at 200 dpi and %d at 100: want twice", seed, h200, h100)
		}
		if f := glyphScale(h100, g100.Rect.Dx(), g100.Rect.Dy()); f <= 1 {
			t.Errorf("seed %d: print of %d px is not enlarged", seed, h100)
		}
	}
	blank := image.NewGray(image.Rect(0, 0, 800, 1000))
	for i := range blank.Pix {
		blank.Pix[i] = 250
	}
	if h := glyphHeight(blank); h != 0 {
		t.Errorf("a blank page measures %d px, want 0", h)
	}
	if f := glyphScale(0, 800, 1000); f != 1 {
		t.Errorf("a page that measures nothing is scaled by %v, want 1", f)
	}
	if f := glyphScale(8, 1500, 2000); f <= 1 || float64(1500*2000)*f*f > maxGlyphPixels*1.01 {
		t.Errorf("a 3-megapixel page of 8 px print is enlarged by %v: want more than 1, within the %d-pixel bound", f, maxGlyphPixels)
	}
	if f := glyphScale(8, 6000, 8000); f != 1 {
		t.Errorf("a 48-megapixel page is enlarged by %v, past the %d-pixel bound", f, maxGlyphPixels)
	}
}

// TestSmallPrintEnlarged: a page whose print is small for its pixels (a
// statement drawn at 100 dpi handed over as 200 dpi, as a scan rendered
// above its own resolution is) reads its figures once preparePage
// enlarges it by the print's measured height; read at the resolution it
// claims, Tesseract loses many of them.
func TestSmallPrintEnlarged(t *testing.T) {
	g, text := synthPage(t, 11, true, 100)
	prepared, dpi, _ := preparePage(toGray(g), 200)
	if dpi <= 200 || prepared.Rect.Dx() <= g.Rect.Dx() {
		t.Fatalf("small print not enlarged: %dx%d at %.0f dpi", prepared.Rect.Dx(), prepared.Rect.Dy(), dpi)
	}
	pg, err := readPrepared(prepared, dpi, 1, readOptions{blockFigures: true, reread: true})
	if err != nil {
		t.Fatal(err)
	}
	missed, total := missingFigures(text, pg, nil)
	found := total - len(missed)
	// The same page read as it claims to be, the enlargement left out.
	as := toGray(g)
	normalizeContrast(as, 200)
	pgAs, err := readPrepared(orient(as, 200), 200, 1, readOptions{blockFigures: true, reread: true})
	if err != nil {
		t.Fatal(err)
	}
	missedAs, _ := missingFigures(text, pgAs, nil)
	foundAs := total - len(missedAs)
	if total < 10 {
		t.Fatalf("the page prints only %d amounts and dates", total)
	}
	t.Logf("%d amounts and dates printed: %d read enlarged, %d as claimed", total, found, foundAs)
	if found*100 < total*95 || found <= foundAs {
		t.Errorf("enlarged: %d of %d amounts and dates read; as claimed: %d: want at least 95%% and more", found, total, foundAs)
	}
}
