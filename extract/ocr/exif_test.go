package ocr

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"testing"
)

// withExifOrientation inserts an APP1 Exif segment carrying orientation o
// (IFD0 holding two tags, the orientation second) right after a JPEG's SOI.
func withExifOrientation(t *testing.T, j []byte, o int, bo binary.ByteOrder) []byte {
	t.Helper()
	var tf bytes.Buffer
	if bo == binary.LittleEndian {
		tf.WriteString("II")
	} else {
		tf.WriteString("MM")
	}
	w16 := func(v uint16) { binary.Write(&tf, bo, v) }
	w32 := func(v uint32) { binary.Write(&tf, bo, v) }
	w16(42)
	w32(8)
	w16(2)
	// ImageWidth (0x0100), LONG, 1: a tag before the one wanted.
	w16(0x0100)
	w16(4)
	w32(1)
	w32(640)
	// Orientation (0x0112), SHORT, 1, value padded to four bytes.
	w16(0x0112)
	w16(3)
	w32(1)
	w16(uint16(o))
	w16(0)
	w32(0) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tf.Bytes()...)
	out := []byte{0xFF, 0xD8, 0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(out[4:], uint16(len(seg)+2))
	out = append(out, seg...)
	return append(out, j[2:]...)
}

// TestJPEGExifOrientation writes the same upright picture stored as each of
// the eight EXIF orientations (how a camera would have laid it down) and
// checks that Decode gives back the upright picture: black top left, grey
// top right, white elsewhere, 80 wide and 48 tall.
func TestJPEGExifOrientation(t *testing.T) {
	const W, H, B = 80, 48, 16 // picture size, marker block size
	// stored gives, for each orientation, the corners of the stored image
	// that hold the black and the grey block, written from the EXIF
	// definitions (which side row 0 and column 0 show), not from the code.
	type corner int
	const (
		tl corner = iota
		tr
		bl
		br
	)
	stored := map[int]struct{ black, grey corner }{
		1: {tl, tr}, // row 0 top, column 0 left
		2: {tr, tl}, // row 0 top, column 0 right
		3: {br, bl}, // row 0 bottom, column 0 right
		4: {bl, br}, // row 0 bottom, column 0 left
		5: {tl, bl}, // row 0 left, column 0 top
		6: {bl, tl}, // row 0 right, column 0 top
		7: {br, tr}, // row 0 right, column 0 bottom
		8: {tr, br}, // row 0 left, column 0 bottom
	}
	paint := func(g *image.Gray, c corner, v uint8) {
		w, h := g.Rect.Dx(), g.Rect.Dy()
		x0, y0 := 0, 0
		if c == tr || c == br {
			x0 = w - B
		}
		if c == bl || c == br {
			y0 = h - B
		}
		for y := y0; y < y0+B; y++ {
			for x := x0; x < x0+B; x++ {
				g.Pix[y*g.Stride+x] = v
			}
		}
	}
	mean := func(g *image.Gray, x0, y0 int) int {
		s := 0
		for y := y0 + 4; y < y0+B-4; y++ {
			for x := x0 + 4; x < x0+B-4; x++ {
				s += int(g.Pix[g.PixOffset(x, y)])
			}
		}
		return s / ((B - 8) * (B - 8))
	}
	for o := 1; o <= 8; o++ {
		for _, bo := range []binary.ByteOrder{binary.BigEndian, binary.LittleEndian} {
			w, h := W, H
			if o >= 5 {
				w, h = H, W
			}
			g := image.NewGray(image.Rect(0, 0, w, h))
			for i := range g.Pix {
				g.Pix[i] = 255
			}
			paint(g, stored[o].black, 0)
			paint(g, stored[o].grey, 128)
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, g, &jpeg.Options{Quality: 95}); err != nil {
				t.Fatal(err)
			}
			data := withExifOrientation(t, buf.Bytes(), o, bo)
			if got := jpegOrientation(data); got != o {
				t.Fatalf("orientation %d (%v): read %d", o, bo, got)
			}
			imgs, err := Decode(data)
			if err != nil {
				t.Fatalf("orientation %d: %v", o, err)
			}
			up := toGray(imgs[0])
			if up.Rect.Dx() != W || up.Rect.Dy() != H {
				t.Fatalf("orientation %d (%v): %dx%d, want %dx%d", o, bo, up.Rect.Dx(), up.Rect.Dy(), W, H)
			}
			tlv, trv, blv, brv := mean(up, 0, 0), mean(up, W-B, 0), mean(up, 0, H-B), mean(up, W-B, H-B)
			if tlv > 30 || trv < 100 || trv > 160 || blv < 230 || brv < 230 {
				t.Errorf("orientation %d (%v): corners tl %d tr %d bl %d br %d, want ~0 ~128 ~255 ~255", o, bo, tlv, trv, blv, brv)
			}
		}
	}
}

// TestJPEGOrientationDamaged: an Exif segment that lies about its sizes, a
// tag of the wrong type or value, or none at all, leaves the picture as
// stored (and does not panic).
func TestJPEGOrientationDamaged(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 40, 20))
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, g, nil); err != nil {
		t.Fatal(err)
	}
	plain := buf.Bytes()
	if o := jpegOrientation(plain); o != 1 {
		t.Errorf("no Exif: orientation %d, want 1", o)
	}
	good := withExifOrientation(t, plain, 6, binary.BigEndian)
	cases := map[string][]byte{
		"value 9":   withExifOrientation(t, plain, 9, binary.BigEndian),
		"value 0":   withExifOrientation(t, plain, 0, binary.BigEndian),
		"truncated": good[:30],
		"ifd offset past end": func() []byte {
			b := bytes.Clone(good)
			binary.BigEndian.PutUint32(b[6+6+4:], 0xFFFFFF00)
			return b
		}(),
		"type LONG": func() []byte {
			b := bytes.Clone(good)
			binary.BigEndian.PutUint16(b[6+6+8+2+12+2:], 4) // second entry's type
			return b
		}(),
		"entry count past end, tag beyond it": func() []byte {
			b := bytes.Clone(good)
			binary.BigEndian.PutUint16(b[6+6+8+2+12:], 0x0113) // second entry no longer orientation
			binary.BigEndian.PutUint16(b[6+6+8:], 0xFFFF)
			return b
		}(),
		"segment length past end": func() []byte {
			b := bytes.Clone(good)
			binary.BigEndian.PutUint16(b[4:], 0xFFFF)
			return b
		}(),
	}
	for name, data := range cases {
		if o := jpegOrientation(data); o != 1 {
			t.Errorf("%s: orientation %d, want 1", name, o)
		}
	}
	imgs, err := Decode(good)
	if err != nil {
		t.Fatal(err)
	}
	if b := imgs[0].Bounds(); b.Dx() != 20 || b.Dy() != 40 {
		t.Errorf("orientation 6: %v, want 20x40", b)
	}
}
