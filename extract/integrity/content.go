package integrity

import (
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
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

type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

type gstate struct {
	ctm     matrix
	font    *font
	size    float64
	fontRes string
	tc, tw  float64
	th      float64
	tl      float64
	rise    float64
	opaque  bool
	fillSet bool
}

// walker runs a page's content streams for the glyphs and fills they draw.
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
	w.out.glyphs = make([]glyph, 0, len(b)/6)
	w.run(b, spans, p.res, gstate{ctm: identity, th: 1, opaque: true})
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
		px, py := w.toPage(m.apply(c[0], c[1]))
		bx[0], bx[1] = min(bx[0], px), min(bx[1], py)
		bx[2], bx[3] = max(bx[2], px), max(bx[3], py)
	}
	return bx
}

func (w *walker) run(content []byte, spans []span, res types.Dict, gs gstate) {
	if w.depth > 8 {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	fonts, _ := w.f.dict(res["Font"])
	xobjs, _ := w.f.dict(res["XObject"])
	extg, _ := w.f.dict(res["ExtGState"])
	var stack []gstate
	var args []token
	var tm, tlm matrix
	var path [][4]float64 // rectangles of the current path, user space
	l := lexer{b: content}
	num := func(i int) float64 {
		if i < len(args) && args[i].kind == 'n' {
			return args[i].num
		}
		return 0
	}
	where := func(at int) (int, int) {
		for k := len(spans) - 1; k >= 0; k-- {
			if at >= spans[k].start {
				return spans[k].obj, spans[k].start
			}
		}
		return 0, 0
	}
	show := func(str, op token, inTJ bool) {
		s := str.str
		src, base := 0, 0
		if w.record {
			src, base = where(str.at)
		}
		ft := gs.font
		if ft == nil {
			ft = &font{id: "none", dw: 1000, matrix: 0.001}
		}
		step := 1
		if ft.twoByte {
			step = 2
		}
		for i := 0; i+step <= len(s); i += step {
			code := int(s[i])
			if step == 2 {
				code = code<<8 | int(s[i+1])
			}
			adv := ft.width(code)
			sx, sy := gs.size*gs.th, gs.size
			trm := matrix{sx * tm[0], sx * tm[1], sy * tm[2], sy * tm[3], gs.rise*tm[2] + tm[4], gs.rise*tm[3] + tm[5]}.mul(gs.ctm)
			asc, desc := 0.8, -0.2
			if ft.t3 {
				asc, desc = 1, 0
			}
			if t := ft.text(code); t != "" {
				g := glyph{font: ft, code: code, text: t, box: w.boxOf(trm, 0, desc, adv, asc), seq: w.seq}
				if w.record {
					g.at = &glyphSource{src: src, tokAt: str.at - base, tokEnd: str.end - base, opAt: op.at - base, opEnd: op.end - base,
						idx: i / step, inTJ: inTJ, fontRes: gs.fontRes, trm: trm}
				}
				w.out.glyphs = append(w.out.glyphs, g)
				w.seq++
			}
			tx := (adv*gs.size + gs.tc) * gs.th
			if step == 1 && code == 32 {
				tx += gs.tw * gs.th
			}
			tm = matrix{1, 0, 0, 1, tx, 0}.mul(tm)
		}
	}
	for {
		t, ok := l.next()
		if !ok {
			return
		}
		if t.kind != 'o' {
			args = append(args, t)
			if len(args) > 64 {
				args = args[1:]
			}
			continue
		}
		w.ops++
		if w.ops > maxOps {
			return
		}
		switch t.str {
		case "q":
			if len(stack) < 256 {
				stack = append(stack, gs)
			}
		case "Q":
			if n := len(stack); n > 0 {
				gs, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			if len(args) >= 6 {
				gs.ctm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(gs.ctm)
			}
		case "gs":
			if len(args) > 0 {
				if d, _ := w.f.dict(extg[args[0].str]); d != nil {
					if v, ok := w.f.num(d["ca"]); ok {
						gs.opaque = v >= 0.99
					}
				}
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(args) >= 2 && args[0].kind == '/' {
				gs.font = w.f.loadFont(fonts[args[0].str], fmt.Sprintf("page %d /%s", w.page.ref, args[0].str))
				gs.fontRes = args[0].str
				gs.size = num(1)
			}
		case "Tc":
			gs.tc = num(0)
		case "Tw":
			gs.tw = num(0)
		case "Tz":
			gs.th = num(0) / 100
		case "TL":
			gs.tl = num(0)
		case "Ts":
			gs.rise = num(0)
		case "Td":
			tlm = matrix{1, 0, 0, 1, num(0), num(1)}.mul(tlm)
			tm = tlm
		case "TD":
			gs.tl = -num(1)
			tlm = matrix{1, 0, 0, 1, num(0), num(1)}.mul(tlm)
			tm = tlm
		case "Tm":
			tlm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}
			tm = tlm
		case "T*":
			tlm = matrix{1, 0, 0, 1, 0, -gs.tl}.mul(tlm)
			tm = tlm
		case "Tj":
			if len(args) > 0 {
				show(args[len(args)-1], t, false)
			}
		case "'", "\"":
			if t.str == "\"" && len(args) >= 3 {
				gs.tw, gs.tc = num(0), num(1)
			}
			tlm = matrix{1, 0, 0, 1, 0, -gs.tl}.mul(tlm)
			tm = tlm
			if len(args) > 0 {
				show(args[len(args)-1], t, false)
			}
		case "TJ":
			if len(args) > 0 && args[len(args)-1].kind == '[' {
				for _, it := range args[len(args)-1].arr {
					switch it.kind {
					case 's':
						show(it, t, true)
					case 'n':
						tm = matrix{1, 0, 0, 1, -it.num / 1000 * gs.size * gs.th, 0}.mul(tm)
					}
				}
			}
		case "re":
			if len(args) >= 4 {
				x, y, wd, ht := num(0), num(1), num(2), num(3)
				b := w.boxOf(gs.ctm, x, y, x+wd, y+ht)
				path = append(path, b)
			}
		case "f", "F", "f*", "B", "B*", "b", "b*":
			for _, b := range path {
				w.out.fills = append(w.out.fills, fill{box: b, seq: w.seq, opaque: gs.opaque})
				w.seq++
			}
			path = path[:0]
		case "n", "S", "s":
			path = path[:0]
		case "BDC", "BMC", "MP", "DP":
			if len(args) > 0 && args[0].kind == '/' && args[0].str == "TouchUp_TextEdit" {
				w.out.touchUp++
			}
		case "Do":
			if len(args) > 0 && args[0].kind == '/' {
				o := xobjs[args[0].str]
				d, b, ok := w.f.streamDict(o)
				if ok && w.f.name(d["Subtype"]) == "Form" && b != nil {
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
					inner := gs
					inner.ctm = m.mul(gs.ctm)
					src := 0
					if ref, ok := o.(types.IndirectRef); ok {
						src = ref.ObjectNumber.Value()
					}
					w.run(b, []span{{obj: src}}, r, inner)
				}
			}
		}
		args = args[:0]
	}
}
