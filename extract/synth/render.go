package synth

import (
	"image"

	"github.com/gen2brain/go-fitz"
)

// RenderedPage is one page rendered to grey pixels.
type RenderedPage struct {
	Img  *image.Gray
	W, H float64 // mm
}

// RenderPages renders every page of a PDF to grey pixels with MuPDF.
func RenderPages(pdf []byte, dpi int) ([]RenderedPage, error) {
	doc, err := fitz.NewFromMemory(pdf)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	var pages []RenderedPage
	for i := range doc.NumPage() {
		img, err := doc.ImageDPI(i, float64(dpi))
		if err != nil {
			return nil, err
		}
		b := img.Bounds()
		g := image.NewGray(b)
		for j := 0; j < len(g.Pix); j++ {
			p := img.Pix[j*4 : j*4+3]
			g.Pix[j] = uint8((299*int(p[0]) + 587*int(p[1]) + 114*int(p[2])) / 1000)
		}
		pages = append(pages, RenderedPage{Img: g, W: float64(b.Dx()) * 25.4 / float64(dpi), H: float64(b.Dy()) * 25.4 / float64(dpi)})
	}
	return pages, nil
}
