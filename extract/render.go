package extract

import (
	"bytes"
	"fmt"
	"image/png"
)

// Rendered is a page drawn for a person to look at.
type Rendered struct {
	// PNG is the image.
	PNG []byte `json:"png"`
	// Width and Height are the page's size in PDF points, the unit of
	// Transaction.Box, so a viewer can place boxes on the image.
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Render width bounds, in pixels.
const (
	MinRenderWidth = 100
	MaxRenderWidth = 2400
)

// RenderPage draws page n (from 1) of a PDF or image document as a grey PNG
// width pixels wide (clamped to MinRenderWidth..MaxRenderWidth).
func RenderPage(data []byte, password string, n, width int) (Rendered, error) {
	width = min(max(width, MinRenderWidth), MaxRenderWidth)
	var r Rendered
	switch sniff(data) {
	case "":
		return Rendered{}, ErrUnsupported
	case "pdf":
		doc, err := openPDF(data, password)
		if err != nil {
			return Rendered{}, err
		}
		defer doc.Close()
		if n < 1 || n > doc.PageCount() {
			return Rendered{}, fmt.Errorf("page %d of %d: %w", n, doc.PageCount(), ErrNoPage)
		}
		pg, err := doc.words(n - 1)
		if err != nil {
			return Rendered{}, err
		}
		if pg.Width <= 0 {
			return Rendered{}, fmt.Errorf("page %d has no size: %w", n, ErrCorrupt)
		}
		g, err := doc.renderGray(n-1, float64(width)*72/pg.Width)
		if err != nil {
			return Rendered{}, err
		}
		r.Width, r.Height = pg.Width, pg.Height
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, g); err != nil {
			return Rendered{}, err
		}
		r.PNG = buf.Bytes()
	default:
		imgs, err := decodeImage(data)
		if err != nil {
			return Rendered{}, err
		}
		if n < 1 || n > len(imgs) {
			return Rendered{}, fmt.Errorf("page %d of %d: %w", n, len(imgs), ErrNoPage)
		}
		g := toGray(imgs[n-1])
		w, h := g.Rect.Dx(), g.Rect.Dy()
		dpi := estimateDPI(w, h)
		r.Width, r.Height = float64(w)*72/dpi, float64(h)*72/dpi
		if w != width {
			g = scaleGray(g, float64(width)/float64(w))
		}
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, g); err != nil {
			return Rendered{}, err
		}
		r.PNG = buf.Bytes()
	}
	return r, nil
}
