package synth

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-pdf/fpdf"
)

// worldFaces are the fonts world statements print in: Unicode faces, so
// every locale's letters, Greek and Cyrillic included, are drawn. Regular
// and bold files from Debian's fonts-dejavu-core and fonts-liberation;
// the family is the name Chromium and LibreOffice find them by.
var worldFaces = []struct{ family, regular, bold string }{
	{"DejaVu Sans", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"},
	{"Liberation Sans", "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"},
	{"Liberation Serif", "LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf"},
	{"DejaVu Serif", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"},
}

var (
	fontBytesMu sync.Mutex
	fontBytes   = map[string][]byte{}
)

// fontFile reads a font file once.
func fontFile(name string) ([]byte, error) {
	fontBytesMu.Lock()
	defer fontBytesMu.Unlock()
	if b, ok := fontBytes[name]; ok {
		return b, nil
	}
	p, err := fontPath(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	fontBytes[name] = b
	return b, nil
}

// The page, in mm.
const (
	worldPageW, worldPageH = 210.0, 297.0
	worldMargin            = 15.0
	worldBottom            = worldPageH - 20
)

// worldStyle is how a document is printed: face and size.
type worldStyle struct {
	face int
	size float64 // pt
}

func (d *worldDoc) style(r *rand.Rand) worldStyle {
	st := worldStyle{face: r.IntN(len(worldFaces)), size: 8 + float64(r.IntN(4))*0.5}
	if d.web {
		st.size = 10
	}
	return st
}

// drawPDF draws the document with fpdf and returns it and its page count.
func (d *worldDoc) drawPDF(r *rand.Rand) ([]byte, int, error) {
	st := d.style(r)
	d.st = st
	face := worldFaces[st.face]
	reg, err := fontFile(face.regular)
	if err != nil {
		return nil, 0, err
	}
	bold, err := fontFile(face.bold)
	if err != nil {
		return nil, 0, err
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(epoch)
	pdf.SetModificationDate(epoch)
	pdf.SetCreator("passbook synth", true)
	pdf.AddUTF8FontFromBytes("f", "", reg)
	pdf.AddUTF8FontFromBytes("f", "B", bold)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetFooterFunc(func() {
		pdf.SetFont("f", "", st.size-1)
		s := fmt.Sprintf("%s %d", d.pageWord, pdf.PageNo())
		pdf.Text((worldPageW-pdf.GetStringWidth(s))/2, worldPageH-10, s)
	})
	pdf.AddPage()
	pn := &pen{pdf: pdf, regular: face.regular}
	lh := st.size * 0.3528 * 1.45
	if d.web {
		lh *= 1.6
	}
	width := worldPageW - 2*worldMargin
	xs := []float64{worldMargin}
	for _, w := range d.widths {
		xs = append(xs, xs[len(xs)-1]+w*width)
	}
	y := worldMargin
	var lastHead *wline
	draw := func(l wline) {
		size := st.size
		if l.title {
			size *= 1.5
		}
		style := ""
		if l.bold {
			style = "B"
		}
		pn.use(style, size)
		lines := 1
		wrapped := make([][]string, len(l.cells))
		for i, c := range l.cells {
			cw := xs[c.col+c.span] - xs[c.col] - 2
			wrapped[i] = wrapText(pn.width, c.text, cw)
			lines = max(lines, len(wrapped[i]))
		}
		h := float64(lines) * lh * size / st.size
		if len(l.cells) == 0 {
			h = 0
		}
		if l.shade {
			pdf.SetFillColor(225, 225, 225)
			pdf.Rect(xs[0], y, xs[len(xs)-1]-xs[0], h, "F")
		}
		if l.boxed {
			for i := range d.widths {
				pdf.Rect(xs[i], y, xs[i+1]-xs[i], h, "D")
			}
		}
		for i, c := range l.cells {
			for k, s := range wrapped[i] {
				base := y + float64(k+1)*lh*size/st.size - lh*0.3
				x := xs[c.col] + 1
				if c.right {
					x = xs[c.col+c.span] - 1 - pn.width(s)
				}
				pn.text(x, base, s)
			}
		}
		y += h
		if l.rule && !d.web {
			pdf.SetLineWidth(0.2)
			pdf.Line(xs[0], y, xs[len(xs)-1], y)
		}
	}
	for i := range d.lines {
		l := d.lines[i]
		y += l.gap * lh
		if l.pageBreak {
			pdf.AddPage()
			y = worldMargin
			continue
		}
		if len(l.cells) > 0 && y+lh*2 > worldBottom {
			pdf.AddPage()
			y = worldMargin
			if lastHead != nil && !l.head && len(l.cells) > 0 && !isFullWidth(l, len(d.widths)) {
				draw(*lastHead)
			}
		}
		if l.head {
			lastHead = &d.lines[i]
		} else if isFullWidth(l, len(d.widths)) && l.bold {
			lastHead = nil
		}
		draw(l)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), pdf.PageNo(), nil
}

func isFullWidth(l wline, n int) bool {
	return len(l.cells) == 1 && l.cells[0].col == 0 && l.cells[0].span == n
}

// wrapText splits s into lines no wider than w as width measures them.
func wrapText(width func(string) float64, s string, w float64) []string {
	if width(s) <= w {
		return []string{s}
	}
	var out []string
	cur := ""
	for _, f := range strings.Fields(s) {
		try := f
		if cur != "" {
			try = cur + " " + f
		}
		if cur != "" && width(try) > w {
			out = append(out, cur)
			cur = f
			continue
		}
		cur = try
	}
	return append(out, cur)
}

// htmlDoc writes the document as one HTML table, for Chromium and
// LibreOffice.
func (d *worldDoc) htmlDoc() string {
	st := d.st
	face := worldFaces[st.face]
	var b strings.Builder
	pad, rule := "0.3mm 1mm", "0.5pt solid #000"
	if d.web {
		pad, rule = "2.2mm 2mm", "none"
	}
	fmt.Fprintf(&b, `<!doctype html><html lang="%s"><head><meta charset="utf-8"><title>%s</title><style>
@page { size: A4; margin: %.0fmm }
body { font-family: '%s'; font-size: %.1fpt; margin: 0; color: #000 }
table { width: 100%%; border-collapse: collapse; table-layout: fixed }
td { padding: %s; vertical-align: top; text-align: left }
td.r { text-align: right }
tr.b td { font-weight: bold }
tr.t td { font-size: %.1fpt }
tr.rule td { border-bottom: %s }
tr.box td { border: %s }
tr.shade td { background: #e1e1e1 }
</style></head><body><table width="100%%" cellspacing="0">`, html.EscapeString(d.langTag()), html.EscapeString(d.bank), worldMargin, face.family, st.size, pad, st.size*1.5, rule, rule)
	b.WriteString(d.colgroup())
	b.WriteString("<tbody>\n")
	n := len(d.widths)
	for _, l := range d.lines {
		var cls []string
		if l.bold {
			cls = append(cls, "b")
		}
		if l.title {
			cls = append(cls, "t")
		}
		if l.rule {
			cls = append(cls, "rule")
		}
		if l.boxed {
			cls = append(cls, "box")
		}
		if l.shade {
			cls = append(cls, "shade")
		}
		if l.pageBreak {
			// A new table after a forced break: Chromium and LibreOffice
			// both break before a paragraph, not always before a row.
			fmt.Fprintf(&b, "</tbody></table>\n<p style=\"page-break-before: always; break-before: page; margin: 0\"></p>\n<table width=\"100%%\" cellspacing=\"0\">%s<tbody>\n", d.colgroup())
			continue
		}
		if l.gap > 0 {
			fmt.Fprintf(&b, `<tr><td colspan="%d" style="height:%.2fem;padding:0"></td></tr>`, n, l.gap*1.2)
		}
		if len(l.cells) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<tr class="%s">`, strings.Join(cls, " "))
		for col := 0; col < n; {
			c, ok := cellAt(l, col)
			if !ok {
				b.WriteString("<td></td>")
				col++
				continue
			}
			// Attributes as well as classes: LibreOffice's HTML import
			// reads align and <b>, not every CSS rule.
			attrs := ""
			if c.right {
				attrs = ` class="r" align="right"`
			}
			text := html.EscapeString(c.text)
			if l.bold {
				text = "<b>" + text + "</b>"
			}
			fmt.Fprintf(&b, `<td colspan="%d"%s>%s</td>`, c.span, attrs, text)
			col += c.span
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></body></html>\n")
	return b.String()
}

// colgroup is the table's column widths.
func (d *worldDoc) colgroup() string {
	var b strings.Builder
	b.WriteString("<colgroup>")
	for _, w := range d.widths {
		fmt.Fprintf(&b, `<col width="%.0f%%" style="width:%.2f%%">`, w*100, w*100)
	}
	b.WriteString("</colgroup>")
	return b.String()
}

func cellAt(l wline, col int) (wcell, bool) {
	for _, c := range l.cells {
		if c.col == col {
			return c, true
		}
	}
	return wcell{}, false
}

func (d *worldDoc) langTag() string {
	if strings.HasPrefix(d.lang, "x-") {
		return "en"
	}
	return d.lang
}

// PrintWorld prints world samples through a producer: fpdf as generated,
// chromium or libreoffice from the same lines as HTML. A sample the
// producer could not print is left out, its error joined into the one
// returned.
func PrintWorld(producer string, samples []WorldSample) ([]WorldSample, error) {
	if len(samples) == 0 {
		return nil, nil // no browser or office suite to start for nothing
	}
	switch producer {
	case "fpdf":
		return samples, nil
	case "chromium":
		c, err := startChromium()
		if err != nil {
			return nil, err
		}
		defer c.close()
		tab, cancel, err := c.tab()
		if err != nil {
			return nil, err
		}
		defer cancel()
		var out []WorldSample
		var errs []error
		for _, s := range samples {
			doc := s.doc.htmlDoc()
			pdf, _, err := c.print(tab, doc, "")
			if err == nil {
				s, err = s.reprinted("chromium", pdf, doc)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", s, err))
				continue
			}
			out = append(out, s)
		}
		return out, errors.Join(errs...)
	case "libreoffice":
		return printWorldOffice(samples)
	}
	return printWorldWith(producer, samples)
}

// reprinted is s with another producer's PDF.
func (s WorldSample) reprinted(producer string, pdf []byte, source string) (WorldSample, error) {
	pages, err := countPages(pdf)
	if err != nil {
		return s, err
	}
	s.Producer, s.PDF, s.Pages, s.html = producer, pdf, pages, source
	return s, nil
}

// printWorldOffice converts every sample's HTML with LibreOffice Writer.
func printWorldOffice(samples []WorldSample) ([]WorldSample, error) {
	exe, err := toolPath("SOFFICE", "soffice", "libreoffice-writer-nogui")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "passbook-world-office-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	docs := make([]string, len(samples))
	batches := make([][]string, min(2, 1+len(samples)/20))
	for i, s := range samples {
		docs[i] = s.doc.htmlDoc()
		name := filepath.Join(dir, fmt.Sprintf("w%d.html", i))
		if err := os.WriteFile(name, []byte(docs[i]), 0o644); err != nil {
			return nil, err
		}
		batches[i%len(batches)] = append(batches[i%len(batches)], name)
	}
	if err := errors.Join(parallel(len(batches), func(_, b int) error {
		return convertOffice(exe, dir, batches[b], "--infilter=HTML (StarWriter)")
	})...); err != nil {
		return nil, err
	}
	var out []WorldSample
	var errs []error
	for i, s := range samples {
		pdf, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("w%d.pdf", i)))
		if err == nil {
			s, err = s.reprinted("libreoffice", pdf, docs[i])
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: LibreOffice: %w", s, err))
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// Screenshot renders every page of the sample at screen resolution and
// stacks them into one PNG: a web bank's page as a person saves it.
func (s WorldSample) Screenshot(dpi int) ([]byte, error) {
	pages, err := RenderPages(s.PDF, dpi)
	if err != nil {
		return nil, err
	}
	w, h := 0, 0
	for _, p := range pages {
		w = max(w, p.Img.Bounds().Dx())
		h += p.Img.Bounds().Dy()
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	y := 0
	for _, p := range pages {
		b := p.Img.Bounds()
		for row := 0; row < b.Dy(); row++ {
			copy(out.Pix[(y+row)*out.Stride:], p.Img.Pix[row*p.Img.Stride:row*p.Img.Stride+b.Dx()])
		}
		y += b.Dy()
	}
	return EncodePNG(out)
}
