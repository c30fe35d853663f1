package integrity

import (
	"errors"
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"passbook/extract/pdfcontent"
)

// glyph is one character a page's content draws, where it draws it.
type glyph struct {
	font *font
	code int
	text string
	box  [4]float64 // points from the page's top-left
	seq  int        // drawing order on the page
	// at is where the glyph is written, kept only when the walker is
	// asked to (the tests' forger rewrites content streams with it).
	at *glyphSource
}

// glyphSource is where a glyph is written: the content stream's object
// number (0 when the page's content is not one stream object), the
// string's and the operator's byte ranges in it, the code's index in the
// string, whether the string is an item of a TJ array, the font's
// resource name and the text rendering matrix in default user space.
type glyphSource struct {
	src                        int
	tokAt, tokEnd, opAt, opEnd int
	idx                        int
	inTJ                       bool
	fontRes                    string
	trm                        matrix
}

// span is where one content stream starts in a page's joined content.
type span struct {
	obj, start int
}

// fill is a filled rectangle a page's content draws.
type fill struct {
	box    [4]float64
	seq    int
	opaque bool
}

// pageContent is what a page's content streams draw: its glyphs and filled
// rectangles in drawing order, and the marks an editor left.
type pageContent struct {
	glyphs  []glyph
	fills   []fill
	touchUp int // /TouchUp_TextEdit marked-content sections
}

type matrix = pdfcontent.Matrix

var identity = pdfcontent.Identity

// walker runs a page's content streams (with extract/pdfcontent) for
// the glyphs and fills they draw.
type walker struct {
	f      *pdfFile
	record bool // keep each glyph's source
	page   pageObj
	out    pageContent
	seq    int
	ops    int
	depth  int
}

// maxOps bounds the operators the report runs on one page, forms included.
const maxOps = 2_000_000

// readPage walks page p's content.
func (f *pdfFile) readPage(p pageObj) pageContent {
	return f.walkPage(p, false)
}

// walkPage is readPage; with record, each glyph keeps where it is written.
func (f *pdfFile) walkPage(p pageObj, record bool) pageContent {
	w := &walker{f: f, page: p, record: record}
	b, spans := f.content(p)
	// A page holds about as many glyphs as the one before it.
	w.out.glyphs = make([]glyph, 0, max(len(b)/6, f.lastGlyphs+f.lastGlyphs/8))
	w.run(b, spans, p.res, pdfcontent.NewState(identity))
	f.lastGlyphs = len(w.out.glyphs)
	return w.out
}

// toPage turns a point in default user space into points from the page's
// top-left, as the engine's boxes are (the page's rotation turned away).
func (w *walker) toPage(x, y float64) (float64, float64) {
	b := w.page.box
	x, y = x-b[0], y-b[1]
	wd, ht := b[2]-b[0], b[3]-b[1]
	switch w.page.rotate {
	case 90:
		return y, x
	case 180:
		return wd - x, y
	case 270:
		return ht - y, wd - x
	}
	return x, ht - y
}

func (w *walker) boxOf(m matrix, x0, y0, x1, y1 float64) [4]float64 {
	if m[1] == 0 && m[2] == 0 && w.page.rotate == 0 {
		b := w.page.box
		ax, bx := x0*m[0]+m[4]-b[0], x1*m[0]+m[4]-b[0]
		ay, by := b[3]-(y0*m[3]+m[5]), b[3]-(y1*m[3]+m[5])
		return [4]float64{min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)}
	}
	bx := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, c := range [][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		px, py := w.toPage(m.Apply(c[0], c[1]))
		bx[0], bx[1] = min(bx[0], px), min(bx[1], py)
		bx[2], bx[3] = max(bx[2], px), max(bx[3], py)
	}
	return bx
}

// noFont stands for a Tf whose font the resources do not hold.
var noFont = &font{id: "none", dw: 1000, matrix: 0.001}

// Code splits a shown string as the font's encoding does: one byte a code
// for simple fonts, two for Identity-encoded composite ones.
func (ft *font) Code(s []byte) (uint32, int) {
	if ft.twoByte {
		if len(s) < 2 {
			return 0, len(s)
		}
		return uint32(s[0])<<8 | uint32(s[1]), 2
	}
	return uint32(s[0]), 1
}

// Advance is width as pdfcontent asks it.
func (ft *font) Advance(code uint32) float64 { return ft.width(int(code)) }

func (w *walker) run(content []byte, spans []span, res types.Dict, gs pdfcontent.State) {
	if w.depth > 8 {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	fonts, _ := w.f.dict(res["Font"])
	xobjs, _ := w.f.dict(res["XObject"])
	extg, _ := w.f.dict(res["ExtGState"])
	var path [][4]float64 // rectangles of the current path, page points
	where := func(at int) (int, int) {
		for k := len(spans) - 1; k >= 0; k-- {
			if at >= spans[k].start {
				return spans[k].obj, spans[k].start
			}
		}
		return 0, 0
	}
	m := pdfcontent.Machine{
		Font: func(name string) (pdfcontent.Font, error) {
			ft := w.f.loadFont(fonts[name], fmt.Sprintf("page %d /%s", w.page.ref, name))
			if ft == nil {
				ft = noFont
			}
			return ft, nil
		},
		Glyph: func(pg *pdfcontent.Glyph) {
			ft := pg.State.Font.(*font)
			code := int(pg.Code)
			if pg.Len < 1 || (ft.twoByte && pg.Len < 2) {
				return
			}
			t := ft.text(code)
			if t == "" {
				return
			}
			asc, desc := 0.8, -0.2
			if ft.t3 {
				asc, desc = 1, 0
			}
			g := glyph{font: ft, code: code, text: t, box: w.boxOf(pg.Trm, 0, desc, pg.Adv, asc), seq: w.seq}
			if w.record {
				src, base := where(pg.Str.At)
				opAt := pg.Op.OperatorAt()
				g.at = &glyphSource{src: src, tokAt: pg.Str.At - base, tokEnd: pg.Str.End - base, opAt: opAt - base, opEnd: pg.Op.End - base,
					idx: pg.At / pg.Len, inTJ: pg.Item >= 0, fontRes: pg.State.FontRes, trm: pg.Trm}
			}
			w.out.glyphs = append(w.out.glyphs, g)
			w.seq++
		},
		Op: func(o *pdfcontent.Op, gs *pdfcontent.State) error {
			w.ops++
			if w.ops > maxOps {
				return errTooManyOps
			}
			a := o.Args
			num := func(i int) float64 {
				if i < len(a) && a[i].Kind == pdfcontent.Num {
					return a[i].Num
				}
				return 0
			}
			switch o.Name {
			case "gs":
				if len(a) > 0 {
					if d, _ := w.f.dict(extg[string(a[0].Val)]); d != nil {
						if v, ok := w.f.num(d["ca"]); ok {
							gs.FillAlpha = v
						}
					}
				}
			case "re":
				if len(a) >= 4 {
					x, y, wd, ht := num(0), num(1), num(2), num(3)
					path = append(path, w.boxOf(gs.CTM, x, y, x+wd, y+ht))
				}
			case "f", "F", "f*", "B", "B*", "b", "b*":
				for _, b := range path {
					w.out.fills = append(w.out.fills, fill{box: b, seq: w.seq, opaque: gs.FillAlpha >= 0.99})
					w.seq++
				}
				path = path[:0]
			case "n", "S", "s":
				path = path[:0]
			case "BDC", "BMC", "MP", "DP":
				if len(a) > 0 && a[0].Kind == pdfcontent.Name && string(a[0].Val) == "TouchUp_TextEdit" {
					w.out.touchUp++
				}
			case "Do":
				if len(a) > 0 && a[0].Kind == pdfcontent.Name {
					w.form(xobjs[string(a[0].Val)], res, *gs)
				}
			}
			return nil
		},
	}
	m.RunStream(content, gs)
}

// errTooManyOps stops a page past maxOps.
var errTooManyOps = errors.New("too many operators")

// form runs the form XObject o, drawn under gs from a stream with the
// resources res.
func (w *walker) form(o types.Object, res types.Dict, gs pdfcontent.State) {
	if w.ops > maxOps {
		return
	}
	d, b, ok := w.f.streamDict(o)
	if !ok || w.f.name(d["Subtype"]) != "Form" || b == nil {
		return
	}
	m := identity
	if a, _ := w.f.array(d["Matrix"]); len(a) == 6 {
		for i := range a {
			m[i], _ = w.f.num(a[i])
		}
	}
	r, _ := w.f.dict(d["Resources"])
	if r == nil {
		r = res
	}
	gs.CTM = m.Mul(gs.CTM)
	src := 0
	if ref, ok := o.(types.IndirectRef); ok {
		src = ref.ObjectNumber.Value()
	}
	w.run(b, []span{{obj: src}}, r, gs)
}
