package redact

import (
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// stdAscent and stdDescent are how far above and below its baseline
// the reading (MuPDF) puts a word drawn in Helvetica, in ems (measured:
// 1.075 and 0.299 regular, 1.077 and 0.300 bold).
const stdAscent, stdDescent = 1.075, 0.299

// stdFontName is the resource name a copy gives the standard font it
// adds for a figure no font of the page can draw.
const stdFontName = "PassbookStd"

// standardFont adds to g's resources one of PDF's standard 14 fonts
// (Helvetica, bold where g's font is), which every reader draws without
// its being embedded, for a figure that neither g's font (a subset
// holding only the digits the original printed) nor any other font of
// the page can draw. It is nil when that font cannot draw text either.
func (p *planner) standardFont(g *glyph, text string) *subFont {
	if p.fc == nil || g.s.res == nil {
		return nil
	}
	ctx := p.fc.ctx
	fonts, _ := ctx.DereferenceDict(g.s.res["Font"])
	if fonts == nil {
		fonts = types.Dict{}
		g.s.res["Font"] = fonts
	}
	base := "Helvetica"
	if n := strings.ToLower(g.f.name); strings.Contains(n, "bold") || strings.Contains(n, "black") || strings.Contains(n, "heavy") {
		base = "Helvetica-Bold"
	}
	name := stdFontName + strings.TrimPrefix(base, "Helvetica")
	if _, ok := fonts[name]; !ok {
		d := types.Dict{
			"Type":     types.Name("Font"),
			"Subtype":  types.Name("Type1"),
			"BaseFont": types.Name(base),
			"Encoding": types.Name("WinAnsiEncoding"),
		}
		ref, err := ctx.IndRefForNewObject(d)
		if err != nil {
			return nil
		}
		fonts[name] = *ref
	}
	f, err := p.fc.load(g.s.res, name)
	if err != nil || f.err != nil {
		return nil
	}
	p.alphabetOf(f)
	if !p.draws(f, text) {
		return nil
	}
	if p.resAdded == nil {
		p.resAdded = map[*stream]bool{}
	}
	p.resAdded[g.s] = true
	return &subFont{name: name, f: f, std: true}
}
