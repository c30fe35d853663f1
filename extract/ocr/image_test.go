package ocr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"passbook/extract/source"
)

// gopherWebP is golang.org/x/image's testdata/gopher-doc.1bpp.lossless.webp
// (BSD licence), 442 bytes: the smallest real WebP at hand, as x/image has
// no WebP encoder.
const gopherWebP = "\x52\x49\x46\x46\xb2\x01\x00\x00\x57\x45\x42\x50\x56\x50\x38\x4c\xa5\x01\x00\x00\x2f\x4a\xc0\x18\x00\x0f\x30\xff\xf3\x3f\xff\xf3\x1f\x78\x90\x24\x6d\x7b\xda\x48\x6e\xe6\xf1\x0d\xc6\x7d\x84\x81\x25\xe9\x30\x43\x3b\x66\xfc\x87\x19\x96\x0c\x27\x99\x62\x26\x9f\x60\x4a\xed\xa1\x66\x06\xd9\xd5\x8a\xbe\xaa\xff\xff\x15\x3a\x41\x44\xff\x19\xb8\x6d\xa4\xc8\xbb\xc7\x38\xf0\x0a\xc4\xa3\xaf\x81\xdf\x31\x4a\x62\x59\xf7\xa6\xa0\xa5\x48\x22\x97\xd1\xb7\xa0\x15\x30\x17\x14\xe2\xd7\x1d\x2c\x85\xf1\xc0\x8d\x71\x91\x06\xe0\xec\xb0\xb8\x0e\x0a\x55\x57\xc9\x0a\x20\x2b\x53\xb1\x80\x80\x92\x3c\xfa\x52\x4f\xfc\xe2\x8c\x4f\xf7\xc1\x02\x37\xaf\x83\x57\x18\x07\xb6\x15\x90\x5b\x96\x81\xad\xa5\xc8\xf8\xb9\x23\x41\xc5\xcb\x96\x13\xa5\x62\x07\x83\x44\x59\xa6\x49\xe2\x45\x55\xbd\xa1\xd1\xc0\x28\xec\x28\xb1\x6b\x8e\x19\xdc\x48\xca\x7d\x8e\xbd\xa0\x83\xbe\x18\x3f\xc1\xee\x93\xc1\xa7\x4f\x04\xf6\xea\x05\x5e\x7c\x32\xc2\xe6\x30\x9f\x32\x66\x73\x96\x93\xc4\x91\xcf\x83\x7e\x42\x8c\x8f\x2f\xe3\x27\x6a\x6c\xcc\xbd\xc1\x35\xac\x73\x44\xaf\xdd\x45\xf4\x62\x99\x3d\x55\x1c\x4b\xdc\x3b\x3e\x18\x47\xdf\xab\x2e\x07\xda\x8f\x79\x86\xff\xa0\xb9\x3a\x72\xe4\xe2\x27\x4c\x0e\x2b\x79\xb9\x87\x57\x0a\x8d\x6e\x84\x55\x90\x98\x30\xae\xdd\xc5\xc2\x82\x05\xd8\x0f\xf4\x79\x0a\xaf\xd8\x24\x00\xed\x8f\xf0\x62\x99\x19\x65\x5d\x20\x06\xad\x41\xaf\xb5\x20\x3a\x6d\xea\xac\xa8\xad\x5c\x1d\xcb\x4d\x71\x75\x6f\x09\x91\xf9\x3a\xc6\x31\x17\x99\x54\x10\xf8\x74\x1d\x16\xbe\x8e\x2a\x12\x0d\xdf\x87\x57\x5a\xad\x3e\xd2\xaa\xfa\x10\x94\x82\x79\xe5\x4b\x1f\xdf\xa0\xbc\x64\xcb\xca\xa3\x3a\xe4\xf4\x38\xe2\x28\x73\x95\x35\xf1\x40\xa8\xca\x6c\x0b\xec\x85\x78\x22\xaf\xb2\xe2\x97\xdc\x38\x2f\x66\xef\x33\x27\x26\x8d\x07\x2a\x5d\xa3\x02\x3b\xa0\x65\x63\x6f\x22\xf8\x53\x8b\xcd\xb7\xc8\xd6\xf1\x2a\xc4\x08\x68\xb6\x87\x00\x00"

// testPage draws a crude page: white paper with dark bars in rows of
// "words", so layout analysis has lines to find.
func testPage(w, h int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = 250
	}
	lh := max(4, h/60)
	for y := lh * 3; y+lh < h-lh*3; y += lh * 2 {
		for x := w / 10; x < w*9/10; x += w / 8 {
			for yy := y; yy < y+lh*2/3; yy++ {
				for xx := x; xx < x+w/12 && xx < w; xx++ {
					if (xx/3+yy)%4 != 0 { // strokes, not solid blocks
						g.Pix[yy*g.Stride+xx] = 20
					}
				}
			}
		}
	}
	return g
}

// encodeTIFF writes frames as an uncompressed 8-bit grey multi-page TIFF.
func encodeTIFF(t *testing.T, frames []*image.Gray) []byte {
	t.Helper()
	var buf bytes.Buffer
	le := binary.LittleEndian
	buf.WriteString("II*\x00\x00\x00\x00\x00")
	linkAt := 4 // where the offset of the next IFD goes
	for _, f := range frames {
		w, h := f.Rect.Dx(), f.Rect.Dy()
		pixOff := buf.Len()
		buf.Write(f.Pix[:w*h])
		if buf.Len()%2 == 1 {
			buf.WriteByte(0)
		}
		ifd := buf.Len()
		b := buf.Bytes()
		le.PutUint32(b[linkAt:], uint32(ifd))
		type entry struct {
			tag, typ uint16
			val      uint32
		}
		entries := []entry{
			{256, 4, uint32(w)}, {257, 4, uint32(h)}, {258, 3, 8}, {259, 3, 1},
			{262, 3, 1}, {273, 4, uint32(pixOff)}, {277, 3, 1}, {278, 4, uint32(h)}, {279, 4, uint32(w * h)},
		}
		binary.Write(&buf, le, uint16(len(entries)))
		for _, e := range entries {
			binary.Write(&buf, le, e.tag)
			binary.Write(&buf, le, e.typ)
			binary.Write(&buf, le, uint32(1))
			if e.typ == 3 {
				binary.Write(&buf, le, uint16(e.val))
				binary.Write(&buf, le, uint16(0))
			} else {
				binary.Write(&buf, le, e.val)
			}
		}
		linkAt = buf.Len()
		binary.Write(&buf, le, uint32(0))
	}
	return buf.Bytes()
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeImageFormats(t *testing.T) {
	page := testPage(120, 160)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, page, nil); err != nil {
		t.Fatal(err)
	}
	small := testPage(40, 50)
	tests := []struct {
		name   string
		data   []byte
		frames int
		size   image.Point // of the first frame
	}{
		{"png", encodePNG(t, page), 1, image.Pt(120, 160)},
		{"jpeg", jpg.Bytes(), 1, image.Pt(120, 160)},
		{"tiff one page", encodeTIFF(t, []*image.Gray{page}), 1, image.Pt(120, 160)},
		{"tiff three pages", encodeTIFF(t, []*image.Gray{page, small, page}), 3, image.Pt(120, 160)},
		{"webp", []byte(gopherWebP), 1, image.Pt(0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := PageCount(tc.data)
			if err != nil {
				t.Fatalf("PageCount: %v", err)
			}
			if n != tc.frames {
				t.Errorf("PageCount = %d, want %d", n, tc.frames)
			}
			imgs, err := Decode(tc.data)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if len(imgs) != tc.frames {
				t.Fatalf("Decode gave %d frames, want %d", len(imgs), tc.frames)
			}
			if tc.size != (image.Point{}) {
				if got := imgs[0].Bounds().Size(); got != tc.size {
					t.Errorf("first frame is %v, want %v", got, tc.size)
				}
			} else if imgs[0].Bounds().Empty() {
				t.Errorf("empty first frame")
			}
		})
	}
}

func TestDecodeTIFFFramesDiffer(t *testing.T) {
	a, b := testPage(60, 80), testPage(30, 40)
	b.Pix[0] = 7
	imgs, err := Decode(encodeTIFF(t, []*image.Gray{a, b}))
	if err != nil {
		t.Fatal(err)
	}
	if got := imgs[1].Bounds().Size(); got != image.Pt(30, 40) {
		t.Fatalf("second frame is %v, want 30x40", got)
	}
	if got := toGray(imgs[1]).Pix[0]; got != 7 {
		t.Errorf("second frame's first pixel = %d, want 7", got)
	}
	if got := toGray(imgs[0]).Pix[0]; got != 250 {
		t.Errorf("first frame's first pixel = %d, want 250", got)
	}
}

func TestImageBadInput(t *testing.T) {
	one := encodeTIFF(t, []*image.Gray{testPage(20, 20)})
	// A chain that loops back to its own first IFD ends there.
	loop := bytes.Clone(one)
	first := binary.LittleEndian.Uint32(loop[4:])
	n := binary.LittleEndian.Uint16(loop[first:])
	binary.LittleEndian.PutUint32(loop[first+2+12*uint32(n):], first)
	if got, err := PageCount(loop); err != nil || got != 1 {
		t.Errorf("looping TIFF: imagePageCount = %d, %v; want 1, nil", got, err)
	}

	badOff := bytes.Clone(one)
	binary.LittleEndian.PutUint32(badOff[4:], 1<<30)

	// A PNG whose header claims 100000 x 100000 pixels, with a valid CRC.
	bomb := encodePNG(t, testPage(8, 8))
	binary.BigEndian.PutUint32(bomb[16:], 100000)
	binary.BigEndian.PutUint32(bomb[20:], 100000)
	binary.BigEndian.PutUint32(bomb[29:], crc32.ChecksumIEEE(bomb[12:29]))

	truncated := encodePNG(t, testPage(50, 50))
	truncated = truncated[:len(truncated)/2]

	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"tiff first IFD out of range", badOff, source.ErrCorrupt},
		{"png bomb", bomb, source.ErrTooLarge},
		{"truncated png", truncated, source.ErrCorrupt},
		{"bigtiff", []byte("II+\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), source.ErrUnsupported},
		{"not an image", []byte("hello, world"), source.ErrUnsupported},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.data)
			if !errors.Is(err, tc.want) {
				t.Errorf("Decode error = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := PageCount(badOff); !errors.Is(err, source.ErrCorrupt) {
		t.Errorf("PageCount(bad offset) = %v, want source.ErrCorrupt", err)
	}
}

func TestToGray(t *testing.T) {
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	nrgba.Set(0, 0, color.NRGBA{0, 0, 0, 0})   // transparent: paper
	nrgba.Set(1, 0, color.NRGBA{0, 0, 0, 255}) // black ink
	ycc := image.NewYCbCr(image.Rect(0, 0, 2, 2), image.YCbCrSubsampleRatio420)
	ycc.Y[0], ycc.Y[1] = 10, 200
	pal := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.RGBA{255, 0, 0, 255}})
	tests := []struct {
		name string
		img  image.Image
		want []uint8
	}{
		{"nrgba over white", nrgba, []uint8{255, 0}},
		{"ycbcr luma", ycc, []uint8{10, 200}},
		{"paletted red", pal, []uint8{76}},
	}
	for _, tc := range tests {
		g := toGray(tc.img)
		for i, w := range tc.want {
			if g.Pix[i] != w {
				t.Errorf("%s: pixel %d = %d, want %d", tc.name, i, g.Pix[i], w)
			}
		}
	}
}

func TestRotateQuarter(t *testing.T) {
	g := testPage(30, 20)
	g.Pix[0] = 1 // top-left marker
	r1 := rotateQuarter(g, 1)
	if got := r1.Rect.Size(); got != image.Pt(20, 30) {
		t.Fatalf("quarter turn size %v, want 20x30", got)
	}
	if got := r1.GrayAt(19, 0).Y; got != 1 {
		t.Errorf("after a clockwise quarter turn the top-left pixel should be top-right; got %d", got)
	}
	if got := rotateQuarter(g, 2).GrayAt(29, 19).Y; got != 1 {
		t.Errorf("after a half turn the top-left pixel should be bottom-right; got %d", got)
	}
	back := rotateQuarter(rotateQuarter(g, 1), 3)
	if !bytes.Equal(back.Pix, g.Pix) {
		t.Errorf("a quarter turn and three more do not give the image back")
	}
}

func TestEstimateDPI(t *testing.T) {
	tests := []struct {
		w, h int
		want float64
	}{
		{1653, 2339, 200}, // A4 at 200 DPI
		{2339, 1653, 200}, // landscape
		{1700, 2200, 200}, // Letter at 200 DPI
		{2480, 3508, 300}, // A4 at 300 DPI
	}
	for _, tc := range tests {
		if got := estimateDPI(tc.w, tc.h); math.Abs(got-tc.want) > 3 {
			t.Errorf("estimateDPI(%d, %d) = %.1f, want %.0f", tc.w, tc.h, got, tc.want)
		}
	}
}

func TestCropBackground(t *testing.T) {
	// A page of 200x280 on a grey desk 30 pixels wide all round.
	page := testPage(200, 280)
	desk := image.NewGray(image.Rect(0, 0, 260, 340))
	for i := range desk.Pix {
		desk.Pix[i] = 90
	}
	for y := 0; y < 280; y++ {
		copy(desk.Pix[(y+30)*desk.Stride+30:], page.Pix[y*page.Stride:y*page.Stride+200])
	}
	r := cropBackground(desk)
	want := image.Rect(30, 30, 230, 310)
	if iabs(r.Min.X-want.Min.X) > 2 || iabs(r.Min.Y-want.Min.Y) > 2 || iabs(r.Max.X-want.Max.X) > 2 || iabs(r.Max.Y-want.Max.Y) > 2 {
		t.Errorf("crop = %v, want about %v", r, want)
	}
	// A clean page keeps every pixel.
	if r := cropBackground(page); r != page.Rect {
		t.Errorf("clean page cropped to %v", r)
	}
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestDeskewAndQuarterTurn(t *testing.T) {
	page := testPage(600, 800)
	for _, deg := range []float64{-4, -1.5, 2.5, 6} {
		skewed := rotateSmall(page, -deg)
		m := newInkMap(skewed, 100)
		got, _ := m.bestAngle(maxSkew, false)
		if math.Abs(got-deg) > 0.2 {
			t.Errorf("skew %.1f°: measured %.2f°", deg, got)
		}
		level := orient(skewed, 100)
		if a, _ := newInkMap(level, 100).bestAngle(maxSkew, false); math.Abs(a) > 0.15 {
			t.Errorf("skew %.1f°: %.2f° left after orient", deg, a)
		}
	}
	turned := rotateQuarter(page, 1)
	if got := orient(turned, 100).Rect.Size(); got != page.Rect.Size() {
		t.Errorf("a page on its side came out %v, want %v (text lines horizontal)", got, page.Rect.Size())
	}
}

func TestNormalizeContrast(t *testing.T) {
	// Ink 120 on paper that darkens from 230 to 150 across the page: a
	// photo under uneven light.
	g := testPage(400, 400)
	for y := 0; y < 400; y++ {
		for x := 0; x < 400; x++ {
			paper := 230 - 80*float64(x)/400
			if g.Pix[y*g.Stride+x] < 128 {
				g.Pix[y*g.Stride+x] = uint8(paper * 0.45)
			} else {
				g.Pix[y*g.Stride+x] = uint8(paper)
			}
		}
	}
	if !normalizeContrast(g, 100) {
		t.Fatal("uneven page left as it was")
	}
	// Paper on both sides is now near white and ink well below it.
	for _, x := range []int{5, 395} {
		if v := g.GrayAt(x, 2).Y; v < 225 {
			t.Errorf("paper at x=%d is %d after normalising, want ≥ 225", x, v)
		}
	}
	clean := testPage(200, 200)
	before := bytes.Clone(clean.Pix)
	if normalizeContrast(clean, 100) || !bytes.Equal(before, clean.Pix) {
		t.Errorf("a clean black-on-white page was changed")
	}
}

// TestUpscaleGray: the cubic enlargement keeps flat grey flat, follows a
// ramp, and leaves an ink edge sharper than bilinear does (the point of
// using it on 70 DPI pages).
func TestUpscaleGray(t *testing.T) {
	f := 250.0 / 72
	flat := image.NewGray(image.Rect(0, 0, 23, 17))
	for i := range flat.Pix {
		flat.Pix[i] = 201
	}
	up := upscaleGray(flat, f)
	if up.Rect.Dx() != int(math.Round(23*f)) || up.Rect.Dy() != int(math.Round(17*f)) {
		t.Fatalf("size %v, want %dx%d", up.Rect, int(math.Round(23*f)), int(math.Round(17*f)))
	}
	for i, v := range up.Pix {
		if v != 201 {
			t.Fatalf("flat grey became %d at %d", v, i)
		}
	}
	// A horizontal ramp 10, 20, ... is interpolated linearly inside.
	ramp := image.NewGray(image.Rect(0, 0, 20, 4))
	for y := 0; y < 4; y++ {
		for x := 0; x < 20; x++ {
			ramp.Pix[y*ramp.Stride+x] = uint8(10 + 10*x)
		}
	}
	up = upscaleGray(ramp, f)
	for x := int(2 * f); x < int(17*f); x++ {
		want := 10 + 10*((float64(x)+0.5)/f-0.5)
		if got := float64(up.Pix[2*up.Stride+x]); math.Abs(got-want) > 1 {
			t.Errorf("ramp at x=%d: %v, want %.1f", x, got, want)
		}
	}
	// A black stroke two pixels wide on white: the steepest step between
	// neighbouring output pixels is how sharp its edges stay.
	edge := image.NewGray(image.Rect(0, 0, 16, 4))
	for i := range edge.Pix {
		edge.Pix[i] = 255
	}
	for y := 0; y < 4; y++ {
		edge.Pix[y*edge.Stride+7], edge.Pix[y*edge.Stride+8] = 0, 0
	}
	steepest := func(g *image.Gray) int {
		row, m := g.Pix[g.Stride*2:g.Stride*2+g.Rect.Dx()], 0
		for x := 1; x < len(row); x++ {
			m = max(m, iabs(int(row[x])-int(row[x-1])))
		}
		return m
	}
	cubic, bilinear := steepest(upscaleGray(edge, f)), steepest(scaleGray(edge, f))
	if cubic <= bilinear*11/10 {
		t.Errorf("steepest step across a stroke: cubic %d, bilinear %d: want cubic sharper", cubic, bilinear)
	}
	cu := upscaleGray(edge, f)
	if m := cu.Pix[2*cu.Stride+int(8*f)]; m > 10 {
		t.Errorf("the stroke's middle is %d, want black", m)
	}
}
