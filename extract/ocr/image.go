package ocr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"passbook/extract/source"

	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

// maxImagePixels bounds the pixels of one decoded page or frame: a 600 DPI
// A3 scan is ~70 million; anything larger is a decompression bomb, not a
// bank statement.
const maxImagePixels = 80_000_000

// maxTIFFFrames bounds the IFD chain walked in a TIFF, so a looping or
// absurdly long chain ends with source.ErrTooLarge instead of running on.
const maxTIFFFrames = source.MaxPages

// Decode returns the pages (frames) of an uploaded PNG, JPEG, TIFF (all pages) or WebP,
// a JPEG turned and mirrored as its EXIF orientation tag says.
func Decode(data []byte) ([]image.Image, error) {
	kind := source.Sniff(data)
	if kind == "tiff" {
		offs, err := tiffIFDs(data)
		if err != nil {
			return nil, err
		}
		imgs := make([]image.Image, 0, len(offs))
		for i, off := range offs {
			img, err := decodeOne("tiff", tiffFrame(data, off))
			if err != nil {
				return nil, fmt.Errorf("tiff page %d: %w", i+1, err)
			}
			imgs = append(imgs, img)
		}
		return imgs, nil
	}
	img, err := decodeOne(kind, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if kind == "jpeg" {
		// A phone stores a photo as its sensor lay and says in EXIF how to
		// turn it; the pages are grey from here on in any case.
		if o := jpegOrientation(data); o != 1 {
			img = applyOrientation(toGray(img), o)
		}
	}
	return []image.Image{img}, nil
}

// imageReader is what every decoder here can read from: the TIFF decoder
// needs random access and uses it when the reader offers it.
type imageReader interface {
	io.Reader
	io.ReaderAt
	io.Seeker
}

// decodeOne decodes one image of the given kind after checking its declared
// size, so a bomb fails before its pixels are allocated.
func decodeOne(kind string, r imageReader) (image.Image, error) {
	var config func(io.Reader) (image.Config, error)
	var decode func(io.Reader) (image.Image, error)
	switch kind {
	case "png":
		config, decode = png.DecodeConfig, png.Decode
	case "jpeg":
		config, decode = jpeg.DecodeConfig, jpeg.Decode
	case "tiff":
		config, decode = tiff.DecodeConfig, tiff.Decode
	case "webp":
		config, decode = webp.DecodeConfig, webp.Decode
	default:
		return nil, source.ErrUnsupported
	}
	cfg, err := config(r)
	if err != nil {
		return nil, decodeErr(kind, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("%s: empty image: %w", kind, source.ErrCorrupt)
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxImagePixels {
		return nil, fmt.Errorf("%s: %dx%d pixels: %w", kind, cfg.Width, cfg.Height, source.ErrTooLarge)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, decodeErr(kind, err)
	}
	img, err := decode(r)
	if err != nil {
		return nil, decodeErr(kind, err)
	}
	return img, nil
}

// decodeErr classifies a decoder's error: a feature the decoder lacks is
// source.ErrUnsupported, anything else is a damaged file.
func decodeErr(kind string, err error) error {
	var ue interface{ UnsupportedError() }
	switch {
	case errors.As(err, &ue):
		return fmt.Errorf("%s: %v: %w", kind, err, source.ErrUnsupported)
	}
	switch err.(type) {
	case tiff.UnsupportedError, png.UnsupportedError, jpeg.UnsupportedError:
		return fmt.Errorf("%s: %v: %w", kind, err, source.ErrUnsupported)
	}
	return fmt.Errorf("%s: %v: %w", kind, err, source.ErrCorrupt)
}

// PageCount counts pages or frames without decoding pixels (TIFF: walk the IFD chain).
func PageCount(data []byte) (int, error) {
	kind := source.Sniff(data)
	switch kind {
	case "tiff":
		offs, err := tiffIFDs(data)
		if err != nil {
			return 0, err
		}
		return len(offs), nil
	case "png", "jpeg", "webp":
		// One frame; reading the header proves the file is what it claims.
		var err error
		switch kind {
		case "png":
			_, err = png.DecodeConfig(bytes.NewReader(data))
		case "jpeg":
			_, err = jpeg.DecodeConfig(bytes.NewReader(data))
		case "webp":
			_, err = webp.DecodeConfig(bytes.NewReader(data))
		}
		if err != nil {
			return 0, decodeErr(kind, err)
		}
		return 1, nil
	}
	return 0, source.ErrUnsupported
}

// tiffByteOrder reads the byte order a TIFF header (or an Exif block, which
// is one) starts with; nil when it names none.
func tiffByteOrder(t []byte) binary.ByteOrder {
	switch string(t[:2]) {
	case "II":
		return binary.LittleEndian
	case "MM":
		return binary.BigEndian
	}
	return nil
}

// tiffIFDs walks a TIFF's chain of image file directories and returns the
// offset of each one: one per page.
func tiffIFDs(data []byte) ([]uint32, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("tiff: short header: %w", source.ErrCorrupt)
	}
	bo := tiffByteOrder(data)
	if bo == nil {
		return nil, fmt.Errorf("tiff: bad byte order: %w", source.ErrCorrupt)
	}
	if bo.Uint16(data[2:4]) != 42 {
		// 43 is BigTIFF, which the decoder does not read.
		return nil, fmt.Errorf("tiff: version %d: %w", bo.Uint16(data[2:4]), source.ErrUnsupported)
	}
	var offs []uint32
	seen := map[uint32]bool{}
	off := bo.Uint32(data[4:8])
	for off != 0 {
		if seen[off] {
			break // a loop back to an earlier page: the chain ends here
		}
		if off < 8 || uint64(off)+2 > uint64(len(data)) {
			if len(offs) > 0 {
				break // a dangling last link; the pages before it are fine
			}
			return nil, fmt.Errorf("tiff: IFD offset %d out of range: %w", off, source.ErrCorrupt)
		}
		if len(offs) >= maxTIFFFrames {
			return nil, fmt.Errorf("tiff: more than %d pages: %w", maxTIFFFrames, source.ErrTooLarge)
		}
		seen[off] = true
		offs = append(offs, off)
		n := uint64(bo.Uint16(data[off:]))
		next := uint64(off) + 2 + 12*n
		if next+4 > uint64(len(data)) {
			break
		}
		off = bo.Uint32(data[next:])
	}
	if len(offs) == 0 {
		return nil, fmt.Errorf("tiff: no pages: %w", source.ErrCorrupt)
	}
	return offs, nil
}

// tiffFrame presents data with its header's first-IFD offset pointing at
// off, so the single-image TIFF decoder reads that page. No bytes are copied.
func tiffFrame(data []byte, off uint32) imageReader {
	f := &frameReader{data: data}
	copy(f.head[:], data[:8])
	if data[0] == 'I' {
		binary.LittleEndian.PutUint32(f.head[4:], off)
	} else {
		binary.BigEndian.PutUint32(f.head[4:], off)
	}
	return f
}

// frameReader reads data with its first 8 bytes replaced by head.
type frameReader struct {
	head [8]byte
	data []byte
	pos  int64
}

// ReadAt implements io.ReaderAt.
func (f *frameReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if off < 8 {
		copy(p, f.head[off:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Read implements io.Reader.
func (f *frameReader) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.pos)
	f.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// Seek implements io.Seeker.
func (f *frameReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.pos
	case io.SeekEnd:
		offset += int64(len(f.data))
	}
	if offset < 0 {
		return 0, errors.New("negative position")
	}
	f.pos = offset
	return offset, nil
}

// toGray converts any image to 8-bit grey, taking the luma plane of a JPEG
// as it is and using fast paths for the common pixel layouts.
func toGray(img image.Image) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	w, h := b.Dx(), b.Dy()
	switch src := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			i := src.PixOffset(b.Min.X, b.Min.Y+y)
			copy(out.Pix[y*out.Stride:y*out.Stride+w], src.Pix[i:i+w])
		}
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			i := src.YOffset(b.Min.X, b.Min.Y+y)
			copy(out.Pix[y*out.Stride:y*out.Stride+w], src.Y[i:i+w])
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			row := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := out.Pix[y*out.Stride:]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+4 : 4*x+4]
				// Over white: a transparent pixel is paper, not ink.
				a := 255 - uint32(p[3])
				dst[x] = uint8(min(255, lumaOf(uint32(p[0]), uint32(p[1]), uint32(p[2]))+a))
			}
		}
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			row := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := out.Pix[y*out.Stride:]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+4 : 4*x+4]
				l, a := lumaOf(uint32(p[0]), uint32(p[1]), uint32(p[2])), uint32(p[3])
				dst[x] = uint8((l*a + 255*(255-a)) / 255)
			}
		}
	default:
		for y := 0; y < h; y++ {
			dst := out.Pix[y*out.Stride:]
			for x := 0; x < w; x++ {
				r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				// Premultiplied: composite over white.
				l := lumaOf(r>>8, g>>8, bl>>8) + (0xffff-a)>>8
				dst[x] = uint8(min(255, l))
			}
		}
	}
	return out
}

// lumaOf is the ITU-R 601 luma of an 8-bit RGB triple.
func lumaOf(r, g, b uint32) uint32 {
	return (299*r + 587*g + 114*b + 500) / 1000
}

// PageSize is the size in points of a page image w by h pixels, at the
// resolution recognition assumes for it: the unit of its word boxes.
func PageSize(w, h int) (width, height float64) {
	dpi := estimateDPI(w, h)
	return float64(w) * 72 / dpi, float64(h) * 72 / dpi
}

// estimateDPI guesses the resolution of a page image from its size, assuming
// it shows a whole page: A4 or US Letter by its proportions, else a page
// 8.27 inches wide. Used only when the source does not say (image uploads).
func estimateDPI(w, h int) float64 {
	if w <= 0 || h <= 0 {
		return 200
	}
	short, long := float64(min(w, h)), float64(max(w, h))
	inches := 8.27 // A4 and most other paper
	if r := long / short; math.Abs(r-11.0/8.5) < 0.04 {
		inches = 8.5 // US Letter
	}
	dpi := short / inches
	return math.Max(50, math.Min(dpi, 1200))
}

// scaleGray resizes g by factor f: area averaging when shrinking, bilinear
// when enlarging (upscaleGray enlarges a page for recognition).
func scaleGray(g *image.Gray, f float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	nw, nh := max(1, int(math.Round(float64(w)*f))), max(1, int(math.Round(float64(h)*f)))
	out := image.NewGray(image.Rect(0, 0, nw, nh))
	if f < 1 {
		// Area average: each output pixel covers 1/f input pixels each way.
		inv := 1 / f
		for y := 0; y < nh; y++ {
			y0, y1 := int(float64(y)*inv), min(h, int(float64(y+1)*inv))
			y1 = max(y1, y0+1)
			for x := 0; x < nw; x++ {
				x0, x1 := int(float64(x)*inv), min(w, int(float64(x+1)*inv))
				x1 = max(x1, x0+1)
				sum, n := 0, 0
				for yy := y0; yy < y1; yy++ {
					row := g.Pix[yy*g.Stride:]
					for xx := x0; xx < x1; xx++ {
						sum += int(row[xx])
					}
					n += x1 - x0
				}
				out.Pix[y*out.Stride+x] = uint8(sum / n)
			}
		}
		return out
	}
	for y := 0; y < nh; y++ {
		sy := (float64(y)+0.5)/f - 0.5
		sy = math.Max(0, math.Min(sy, float64(h-1)))
		y0 := int(sy)
		y1 := min(y0+1, h-1)
		fy := sy - float64(y0)
		r0, r1 := g.Pix[y0*g.Stride:], g.Pix[y1*g.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < nw; x++ {
			sx := (float64(x)+0.5)/f - 0.5
			sx = math.Max(0, math.Min(sx, float64(w-1)))
			x0 := int(sx)
			x1 := min(x0+1, w-1)
			fx := sx - float64(x0)
			top := float64(r0[x0])*(1-fx) + float64(r0[x1])*fx
			bot := float64(r1[x0])*(1-fx) + float64(r1[x1])*fx
			dst[x] = uint8(top*(1-fy) + bot*fy + 0.5)
		}
	}
	return out
}

// upscaleGray enlarges g by factor f > 1 with Catmull-Rom cubic
// interpolation, row pass then column pass: small glyph strokes stay
// sharper than bilinear leaves them, which is what a 70 DPI page enlarged
// for recognition needs.
func upscaleGray(g *image.Gray, f float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	nw, nh := max(1, int(math.Round(float64(w)*f))), max(1, int(math.Round(float64(h)*f)))
	xs, xw := cubicTaps(w, nw, f)
	ys, yw := cubicTaps(h, nh, f)
	// Row pass: h rows of nw values, in 1/cubicOne units.
	mid := make([]int32, h*nw)
	for y := 0; y < h; y++ {
		src := g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):]
		dst := mid[y*nw : (y+1)*nw]
		for x := range dst {
			i, k := xs[x], xw[4*x:4*x+4:4*x+4]
			dst[x] = int32(src[i[0]])*k[0] + int32(src[i[1]])*k[1] + int32(src[i[2]])*k[2] + int32(src[i[3]])*k[3]
		}
	}
	out := image.NewGray(image.Rect(0, 0, nw, nh))
	for y := 0; y < nh; y++ {
		i, k := ys[y], yw[4*y:4*y+4:4*y+4]
		r0, r1, r2, r3 := mid[i[0]*nw:], mid[i[1]*nw:], mid[i[2]*nw:], mid[i[3]*nw:]
		dst := out.Pix[y*out.Stride : y*out.Stride+nw]
		for x := range dst {
			v := (int64(r0[x])*int64(k[0]) + int64(r1[x])*int64(k[1]) + int64(r2[x])*int64(k[2]) + int64(r3[x])*int64(k[3]) + cubicOne*cubicOne/2) / (cubicOne * cubicOne)
			dst[x] = uint8(max(0, min(255, v)))
		}
	}
	return out
}

// cubicOne is the fixed-point unit of upscaleGray's weights.
const cubicOne = 1 << 12

// cubicTaps gives, for each of m output samples enlarging n input samples
// by f, its four input indices (clamped to the edge) and Catmull-Rom
// weights in cubicOne units, summing to cubicOne.
func cubicTaps(n, m int, f float64) ([][4]int, []int32) {
	idx := make([][4]int, m)
	wts := make([]int32, 4*m)
	for o := 0; o < m; o++ {
		s := (float64(o)+0.5)/f - 0.5
		i0 := int(math.Floor(s))
		t := s - float64(i0)
		t2, t3 := t*t, t*t*t
		k := [4]float64{
			(-t3 + 2*t2 - t) / 2,
			(3*t3 - 5*t2 + 2) / 2,
			(-3*t3 + 4*t2 + t) / 2,
			(t3 - t2) / 2,
		}
		var sum int32
		for j := range 4 {
			idx[o][j] = max(0, min(n-1, i0-1+j))
			wts[4*o+j] = int32(math.Round(k[j] * cubicOne))
			sum += wts[4*o+j]
		}
		wts[4*o+1] += cubicOne - sum // the rounding left over goes to the tap at i0
	}
	return idx, wts
}

// rotateQuarter turns g clockwise by quarter turns (1 = 90°, 2 = 180°, 3 = 270°).
func rotateQuarter(g *image.Gray, turns int) *image.Gray {
	turns = ((turns % 4) + 4) % 4
	if turns == 0 {
		return g
	}
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var out *image.Gray
	if turns == 2 {
		out = image.NewGray(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			src := g.Pix[y*g.Stride : y*g.Stride+w]
			dst := out.Pix[(h-1-y)*out.Stride:]
			for x := 0; x < w; x++ {
				dst[w-1-x] = src[x]
			}
		}
		return out
	}
	out = image.NewGray(image.Rect(0, 0, h, w))
	for y := 0; y < h; y++ {
		src := g.Pix[y*g.Stride : y*g.Stride+w]
		for x := 0; x < w; x++ {
			if turns == 1 {
				// (x, y) → (h-1-y, x)
				out.Pix[x*out.Stride+h-1-y] = src[x]
			} else {
				// (x, y) → (y, w-1-x)
				out.Pix[(w-1-x)*out.Stride+y] = src[x]
			}
		}
	}
	return out
}

// rotateSmall turns g by deg degrees about its centre so that text lines
// that inkMap.bestAngle measured at deg come out level. It keeps the size
// and fills the uncovered corners with paper white.
func rotateSmall(g *image.Gray, deg float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	// Fixed point 16.16 for the inner loop.
	const one = 1 << 16
	cs, sn := int64(c*one), int64(s*one)
	for y := 0; y < h; y++ {
		dy := float64(y) - cy
		// Source of (x, y): rotate back by -deg around the centre.
		sx0 := int64((cx + (-cx)*c - dy*s) * one)
		sy0 := int64((cy + (-cx)*s + dy*c) * one)
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		for x := 0; x < w; x++ {
			sx := sx0 + int64(x)*cs
			sy := sy0 + int64(x)*sn
			ix, iy := sx>>16, sy>>16
			if ix < 0 || iy < 0 || ix >= int64(w-1) || iy >= int64(h-1) {
				dst[x] = 255
				continue
			}
			fx, fy := sx&(one-1), sy&(one-1)
			i := int(iy)*g.Stride + int(ix)
			p00, p01 := int64(g.Pix[i]), int64(g.Pix[i+1])
			p10, p11 := int64(g.Pix[i+g.Stride]), int64(g.Pix[i+g.Stride+1])
			top := p00*(one-fx) + p01*fx
			bot := p10*(one-fx) + p11*fx
			dst[x] = uint8((top>>16*(one-fy) + bot>>16*fy + one/2) >> 16)
		}
	}
	return out
}

// percentile returns the grey level below which frac of the histogram lies.
func percentile(hist *[256]int, frac float64) int {
	total := 0
	for _, n := range hist {
		total += n
	}
	want := int(frac * float64(total))
	acc := 0
	for v, n := range hist {
		acc += n
		if acc > want {
			return v
		}
	}
	return 255
}

// cropBackground trims bands along the edges of a photographed page that are
// background (table, desk) rather than paper: an edge row or column where
// fewer than half the pixels are as bright as paper. It returns the crop
// rectangle; the whole image when nothing is trimmed.
func cropBackground(g *image.Gray) image.Rectangle {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var hist [256]int
	step := max(1, min(w, h)/400)
	for y := 0; y < h; y += step {
		row := g.Pix[y*g.Stride:]
		for x := 0; x < w; x += step {
			hist[row[x]]++
		}
	}
	paper := percentile(&hist, 0.7)
	dark := percentile(&hist, 0.02)
	if paper-dark < 40 {
		return g.Rect // no clear paper: leave it alone
	}
	level := uint8(paper - (paper-dark)/4)
	rowBright := func(y int) bool {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		n := 0
		for x := 0; x < w; x += step {
			if row[x] >= level {
				n++
			}
		}
		return n*2 >= (w+step-1)/step
	}
	colBright := func(x int) bool {
		n := 0
		for y := 0; y < h; y += step {
			if g.Pix[y*g.Stride+x] >= level {
				n++
			}
		}
		return n*2 >= (h+step-1)/step
	}
	top, bot, left, right := 0, h, 0, w
	for top < h/4 && !rowBright(top) {
		top++
	}
	for bot > h*3/4 && !rowBright(bot-1) {
		bot--
	}
	for left < w/4 && !colBright(left) {
		left++
	}
	for right > w*3/4 && !colBright(right-1) {
		right--
	}
	return image.Rect(left, top, right, bot)
}

// cropGray copies r out of g.
func cropGray(g *image.Gray, r image.Rectangle) *image.Gray {
	r = r.Intersect(g.Rect)
	if r == g.Rect {
		return g
	}
	out := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		i := g.PixOffset(r.Min.X, r.Min.Y+y)
		copy(out.Pix[y*out.Stride:y*out.Stride+r.Dx()], g.Pix[i:i+r.Dx()])
	}
	return out
}

// normalizeContrast flattens uneven lighting and stretches contrast: each
// pixel is divided by a smooth estimate of the paper brightness around it
// (the bright end of each block), so paper becomes white and ink stays dark
// whatever the light fell like. A page that is already flat white paper and
// dark ink is returned as it is. It reports whether it changed anything.
func normalizeContrast(g *image.Gray, dpi float64) bool {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	bs := max(16, int(dpi/4)) // blocks of a quarter inch: wider than any glyph stroke
	bw, bh := (w+bs-1)/bs, (h+bs-1)/bs
	bg := make([]float64, bw*bh)
	var all [256]int
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			var hist [256]int
			for y := by * bs; y < min(h, (by+1)*bs); y += 2 {
				row := g.Pix[y*g.Stride:]
				for x := bx * bs; x < min(w, (bx+1)*bs); x += 2 {
					hist[row[x]]++
					all[row[x]]++
				}
			}
			bg[by*bw+bx] = float64(percentile(&hist, 0.9))
		}
	}
	lo, hi := percentile(&all, 0.005), percentile(&all, 0.5)
	minBG, maxBG := 255.0, 0.0
	for _, v := range bg {
		minBG, maxBG = math.Min(minBG, v), math.Max(maxBG, v)
	}
	// Dense ink can fill a block: keep such blocks from reading as shadow
	// by not letting a block be darker than its neighbours' brightest.
	sm := make([]float64, len(bg))
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			m := bg[by*bw+bx]
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if x, y := bx+dx, by+dy; x >= 0 && y >= 0 && x < bw && y < bh {
						m = math.Max(m, bg[y*bw+x])
					}
				}
			}
			sm[by*bw+bx] = m
		}
	}
	if hi >= 235 && lo <= 40 && maxBG-minBG < 20 {
		return false
	}
	blackOut := float64(lo)
	for y := 0; y < h; y++ {
		fy := (float64(y)+0.5)/float64(bs) - 0.5
		fy = math.Max(0, math.Min(fy, float64(bh-1)))
		y0 := int(fy)
		y1 := min(y0+1, bh-1)
		ty := fy - float64(y0)
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		for x := 0; x < w; x++ {
			fx := (float64(x)+0.5)/float64(bs) - 0.5
			fx = math.Max(0, math.Min(fx, float64(bw-1)))
			x0 := int(fx)
			x1 := min(x0+1, bw-1)
			tx := fx - float64(x0)
			p := (sm[y0*bw+x0]*(1-tx)+sm[y0*bw+x1]*tx)*(1-ty) + (sm[y1*bw+x0]*(1-tx)+sm[y1*bw+x1]*tx)*ty
			// Map [black, paper] to [0, 255]. (Mapping paper a little
			// darker than its estimate to white as well lost a pale
			// column heading on a dev photo.)
			den := p - blackOut
			if den < 8 {
				den = 8
			}
			v := (float64(row[x]) - blackOut) * 255 / den
			row[x] = uint8(math.Max(0, math.Min(255, v)))
		}
	}
	return true
}

// inkMap is a small binary picture of a page's ink for layout analysis:
// the page at about 100 DPI, true where a pixel is darker than the paper.
type inkMap struct {
	w, h  int
	scale float64 // inkMap pixels per source pixel
	ink   []bool
	pts   []int32 // x, y pairs of the ink pixels
}

// newInkMap thresholds a reduced copy of g at the midpoint between its ink
// and paper levels.
func newInkMap(g *image.Gray, dpi float64) *inkMap {
	f := math.Min(1, 100/dpi)
	small := g
	if f < 0.95 {
		small = scaleGray(g, f)
	} else {
		f = 1
	}
	var hist [256]int
	for _, v := range small.Pix {
		hist[v]++
	}
	paper, ink := percentile(&hist, 0.6), percentile(&hist, 0.01)
	thr := uint8((paper + ink) / 2)
	m := &inkMap{w: small.Rect.Dx(), h: small.Rect.Dy(), scale: f}
	m.ink = make([]bool, m.w*m.h)
	if paper-ink < 30 {
		return m // a blank page
	}
	for y := 0; y < m.h; y++ {
		row := small.Pix[y*small.Stride:]
		for x := 0; x < m.w; x++ {
			if row[x] < thr {
				m.ink[y*m.w+x] = true
				m.pts = append(m.pts, int32(x), int32(y))
			}
		}
	}
	return m
}

// profileScore measures how well the ink lines up into horizontal text lines
// when the page is turned by deg (or, with vertical, into vertical ones):
// the sum of squared differences between neighbouring rows of the
// projection, large when rows alternate sharply between ink and gaps.
func (m *inkMap) profileScore(deg float64, vertical bool) float64 {
	t := math.Tan(deg * math.Pi / 180)
	n := m.h
	if vertical {
		n = m.w
	}
	pad := int(math.Abs(t)*float64(max(m.w, m.h))) + 2
	bins := make([]int32, n+2*pad)
	for i := 0; i < len(m.pts); i += 2 {
		x, y := float64(m.pts[i]), float64(m.pts[i+1])
		var r float64
		if vertical {
			r = x + y*t
		} else {
			r = y - x*t
		}
		b := int(r) + pad
		if b >= 0 && b < len(bins) {
			bins[b]++
		}
	}
	var s float64
	for i := 1; i < len(bins); i++ {
		d := float64(bins[i] - bins[i-1])
		s += d * d
	}
	return s
}

// bestAngle searches skew angles within ±maxDeg for the one that lines the
// ink up best, coarse then fine, and returns it with its score.
func (m *inkMap) bestAngle(maxDeg float64, vertical bool) (float64, float64) {
	best, bestScore := 0.0, m.profileScore(0, vertical)
	for a := -maxDeg; a <= maxDeg+1e-9; a += 0.5 {
		if s := m.profileScore(a, vertical); s > bestScore {
			best, bestScore = a, s
		}
	}
	centre := best
	for a := centre - 0.5; a <= centre+0.5+1e-9; a += 0.05 {
		if s := m.profileScore(a, vertical); s > bestScore {
			best, bestScore = a, s
		}
	}
	return best, bestScore
}

// pageQuality measures a page image at the resolution it is read at: how
// bright its paper is (the 90th percentile of its pixels, 0–255) and how
// sharp its strokes are (the 99th percentile of the step between
// neighbouring pixels, as a share of the page's contrast: crisp print
// steps from paper to ink in a pixel or two, a blurred page over many).
func pageQuality(g *image.Gray) (paper int, sharp float64) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var hist, steps [256]int
	for y := 0; y < h; y += 2 {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		for x := 0; x+1 < w; x++ {
			hist[row[x]]++
			d := int(row[x+1]) - int(row[x])
			if d < 0 {
				d = -d
			}
			steps[d]++
		}
	}
	paper = percentile(&hist, 0.9)
	contrast := paper - percentile(&hist, 0.01)
	if contrast <= 0 {
		return paper, 0
	}
	return paper, float64(percentile(&steps, 0.99)) / float64(contrast)
}
