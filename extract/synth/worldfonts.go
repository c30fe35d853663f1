package synth

import (
	"sync"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/sfnt"
)

// Fonts for the scripts the world's faces do not carry.
//
// worldFaces (DejaVu, Liberation) carry Latin, Greek and Cyrillic; a
// locale's dates may print in other scripts ("2025年3月17日", Hindi's
// month names). Chromium and LibreOffice fall back through fontconfig to
// a font that carries a character; fpdf draws what its one font lacks as
// an empty box. So fpdf draws each run of characters its face lacks in
// the first of these that carries them, from Debian's fonts-dejavu-core,
// fonts-noto-core and fonts-ipafont-gothic (make test-deps installs
// them). fpdf neither
// shapes nor orders right to left: Devanagari's conjuncts and Arabic's
// joined letters come out as their letters one by one, which the other
// two producers print as they should.
var scriptFallbacks = []struct{ regular, bold string }{
	// DejaVu Sans draws Arabic-Indic digits and Hebrew and Arabic
	// letters with a text layer MuPDF reads back (Noto Sans Arabic's
	// digits came back as nothing); a Liberation face lacks them.
	{"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"},
	{"NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf"},
	{"NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"},
	{"NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"},
	{"NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"},
	{"ipag.ttf", "ipag.ttf"}, // Han and kana; IPA Gothic has no bold
}

// scriptFontDirs are where Debian puts them.
var scriptFontDirs = []string{"/usr/share/fonts/truetype/noto", "/usr/share/fonts/opentype/ipafont-gothic"}

var (
	glyphMu    sync.Mutex
	glyphCache = map[string]map[rune]bool{}
)

// hasGlyph reports whether the font file carries r.
func hasGlyph(file string, r rune) (bool, error) {
	glyphMu.Lock()
	if has, ok := glyphCache[file][r]; ok {
		glyphMu.Unlock()
		return has, nil
	}
	glyphMu.Unlock()
	f, err := loadFont(file)
	if err != nil {
		return false, err
	}
	var b sfnt.Buffer
	gi, err := f.GlyphIndex(&b, r)
	has := err == nil && gi != 0
	glyphMu.Lock()
	if glyphCache[file] == nil {
		glyphCache[file] = map[rune]bool{}
	}
	glyphCache[file][r] = has
	glyphMu.Unlock()
	return has, nil
}

// pen draws a world document's text with fpdf in its face ("f", set up
// by drawPDF), and what the face lacks in a fallback of scriptFallbacks.
type pen struct {
	pdf     *fpdf.Fpdf
	regular string // the face's regular file: what it carries
	added   map[int]bool
	style   string
	size    float64
}

// penRun is a run of text one font draws: -1 the face, else a fallback.
type penRun struct {
	font int
	text string
}

// runs cuts s into runs of the face and of the fallbacks that carry
// what it lacks. A character no font carries stays with the face.
func (p *pen) runs(s string) ([]penRun, error) {
	var out []penRun
	for _, r := range s {
		if n := len(out); n > 0 && out[n-1].font >= 0 {
			// A fallback's run goes on through what it carries too
			// (the dots of "١.٢.٢٠٢٥"): one run reads back as one word.
			has, err := hasGlyph(scriptFallbacks[out[n-1].font].regular, r)
			if err != nil {
				return nil, err
			}
			if has {
				out[n-1].text += string(r)
				continue
			}
		}
		font := -1
		if r > ' ' {
			has, err := hasGlyph(p.regular, r)
			if err != nil {
				return nil, err
			}
			for i := 0; !has && i < len(scriptFallbacks); i++ {
				if has, err = hasGlyph(scriptFallbacks[i].regular, r); err != nil {
					return nil, err
				} else if has {
					font = i
				}
			}
		}
		if n := len(out); n > 0 && (out[n-1].font == font || r == ' ') {
			out[n-1].text += string(r)
			continue
		}
		out = append(out, penRun{font, string(r)})
	}
	return out, nil
}

// setFont sets the font of a run in the pen's style and size, adding a
// fallback to the document the first time it is used.
func (p *pen) setFont(font int) error {
	if font < 0 {
		p.pdf.SetFont("f", p.style, p.size)
		return nil
	}
	name := fallbackName(font)
	if !p.added[font] {
		for _, st := range []struct{ style, file string }{{"", scriptFallbacks[font].regular}, {"B", scriptFallbacks[font].bold}} {
			data, err := fontFile(st.file)
			if err != nil {
				return err
			}
			p.pdf.AddUTF8FontFromBytes(name, st.style, data)
		}
		if p.added == nil {
			p.added = map[int]bool{}
		}
		p.added[font] = true
	}
	p.pdf.SetFont(name, p.style, p.size)
	return nil
}

// fallbackName is the name a fallback is added to the document by.
func fallbackName(font int) string { return "s" + string(rune('0'+font)) }

// use sets the style and size the pen draws in.
func (p *pen) use(style string, size float64) {
	p.style, p.size = style, size
	p.pdf.SetFont("f", style, size)
}

// width is s's width in mm as the pen draws it.
func (p *pen) width(s string) float64 {
	runs, err := p.runs(s)
	if err != nil {
		p.pdf.SetError(err)
		return 0
	}
	w := 0.0
	for _, r := range runs {
		if err := p.setFont(r.font); err != nil {
			p.pdf.SetError(err)
			return 0
		}
		w += p.pdf.GetStringWidth(r.text)
	}
	p.pdf.SetFont("f", p.style, p.size)
	return w
}

// text draws s with its baseline's left end at x, y.
func (p *pen) text(x, y float64, s string) {
	runs, err := p.runs(s)
	if err != nil {
		p.pdf.SetError(err)
		return
	}
	for _, r := range runs {
		if err := p.setFont(r.font); err != nil {
			p.pdf.SetError(err)
			return
		}
		p.pdf.Text(x, y, r.text)
		x += p.pdf.GetStringWidth(r.text)
	}
	p.pdf.SetFont("f", p.style, p.size)
}
