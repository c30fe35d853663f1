package ocr

import (
	"encoding/binary"
	"image"
)

// jpegOrientation returns the EXIF Orientation tag (1–8) of a JPEG: how a
// camera that wrote the pixels sideways or mirrored says to turn them for
// display. 1 (as stored) when the file carries no Exif APP1 segment, no
// such tag or a damaged one: a wrong guess here only costs the page the
// quarter-turn check orient makes anyway.
func jpegOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	i := 2
	for i+4 <= len(data) {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte before a marker
			i++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image: no more metadata
			return 1
		}
		if marker >= 0xD0 && marker <= 0xD7 || marker == 0x01 { // markers with no length
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			if o := tiffOrientation(seg[6:]); o != 0 {
				return o
			}
		}
		i += 2 + n
	}
	return 1
}

// tiffOrientation reads tag 0x0112 from IFD0 of the TIFF structure inside
// an Exif segment; 0 when it is absent or out of range.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	bo := tiffByteOrder(t)
	if bo == nil {
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	off := uint64(bo.Uint32(t[4:]))
	if off+2 > uint64(len(t)) {
		return 0
	}
	n := uint64(bo.Uint16(t[off:]))
	for k := uint64(0); k < n; k++ {
		e := off + 2 + 12*k
		if e+12 > uint64(len(t)) {
			return 0
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		// Type SHORT (3), count 1: the value sits in the entry's first two bytes.
		if bo.Uint16(t[e+2:]) != 3 || bo.Uint32(t[e+4:]) != 1 {
			return 0
		}
		if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}

// applyOrientation turns and mirrors g as EXIF orientation o asks, so the
// result is the picture as it was meant to be seen. 1 (or anything out of
// range) returns g.
func applyOrientation(g *image.Gray, o int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	// src gives the stored pixel that output pixel (x, y) shows.
	var src func(x, y int) (int, int)
	ow, oh := w, h
	switch o {
	case 2: // mirrored left to right
		src = func(x, y int) (int, int) { return w - 1 - x, y }
	case 3: // upside down
		src = func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case 4: // mirrored top to bottom
		src = func(x, y int) (int, int) { return x, h - 1 - y }
	case 5: // transposed: stored rows are the picture's columns
		ow, oh = h, w
		src = func(x, y int) (int, int) { return y, x }
	case 6: // stored turned a quarter anticlockwise: turn it clockwise
		ow, oh = h, w
		src = func(x, y int) (int, int) { return y, h - 1 - x }
	case 7: // transverse
		ow, oh = h, w
		src = func(x, y int) (int, int) { return w - 1 - y, h - 1 - x }
	case 8: // stored turned a quarter clockwise: turn it anticlockwise
		ow, oh = h, w
		src = func(x, y int) (int, int) { return w - 1 - y, x }
	default:
		return g
	}
	out := image.NewGray(image.Rect(0, 0, ow, oh))
	for y := 0; y < oh; y++ {
		row := out.Pix[y*out.Stride : y*out.Stride+ow]
		for x := range row {
			sx, sy := src(x, y)
			row[x] = g.Pix[g.PixOffset(g.Rect.Min.X+sx, g.Rect.Min.Y+sy)]
		}
	}
	return out
}
