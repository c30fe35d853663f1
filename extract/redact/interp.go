package redact

import (
	"fmt"
	"math"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"passbook/extract/pdfcontent"
)

// matrix is a PDF transformation [a b c d e f].
type matrix = pdfcontent.Matrix

var identity = pdfcontent.Identity

// stream is one content stream a rewrite may change: a page's contents
// (all its streams joined) or a form XObject's.
type stream struct {
	key  string
	data []byte
	ops  []op
	page int // the page whose contents it is; -1 for a form
	res  types.Dict
	form *types.StreamDict
	uses int // how many times it was drawn
}

// glyph is one character code a content stream shows.
type glyph struct {
	s      *stream
	op     int // the operation in s.ops
	item   int // the TJ array's item; -1 for a string operand
	c      code
	f      *font
	r      rune // 0 when the font does not say
	w      float64
	page   int
	x, y   float64 // a point inside the glyph, page points from the top-left
	x0, x1 float64 // its extent along the line
	em     float64 // its size on the page
	size   float64 // the font size and char spacing it was shown with
	tc     float64
	fres   string // the font's name in the resources (Tf's operand)
	idx    int    // its place among the document's glyphs
	kept   bool   // printed as it is
}

// interp walks content streams (with extract/pdfcontent) and lists their
// glyphs.
type interp struct {
	fc      *fontCache
	glyphs  []*glyph
	streams map[string]*stream
	order   []*stream
	depth   int
	images  []drawnImage
}

// drawnImage is an image XObject drawn on a page, with where.
type drawnImage struct {
	nr             int
	page           int
	x0, y0, x1, y1 float64 // page points from the top-left
}

// machineFont is a font as pdfcontent runs it: codes by the font's code
// space, advances in text space units.
type machineFont struct{ *font }

func (f machineFont) Code(s []byte) (uint32, int) {
	n := 1
	if !f.simple {
		n = min(f.codeLen(s), len(s))
	}
	var v uint32
	for _, b := range s[:n] {
		v = v<<8 | uint32(b)
	}
	return v, n
}

func (f machineFont) Advance(c uint32) float64 { return f.width(c) / 1000 }

// run walks s drawn on page (0-based) under ctm with the resources res,
// where page is the transform from user space to the page's top-left
// points.
func (in *interp) run(s *stream, res types.Dict, ctm, pageM matrix, page int) error {
	if in.depth > 8 {
		return fmt.Errorf("forms nested too deep")
	}
	s.uses++
	if s.res == nil {
		s.res = res
	}
	in.depth++
	defer func() { in.depth-- }()
	m := pdfcontent.Machine{
		Font: func(name string) (pdfcontent.Font, error) {
			f, err := in.fc.load(res, name)
			if err != nil || f == nil {
				return nil, err
			}
			return machineFont{f}, nil
		},
		Glyph: func(pg *pdfcontent.Glyph) {
			f := pg.State.Font.(machineFont).font
			st := pg.State
			c := code{v: pg.Code, at: pg.At, len: pg.Len}
			w := f.width(pg.Code)
			trm := pg.Trm.Mul(pageM)
			g := &glyph{s: s, op: pg.OpIndex, item: pg.Item, c: c, f: f, w: w, page: page, size: st.Size, tc: st.Tc, fres: st.FontRes, idx: len(in.glyphs)}
			g.r = f.uni[c.v]
			g.x, g.y = trm.Apply(w/2000, 0.3)
			ax, _ := trm.Apply(0, 0)
			bx, _ := trm.Apply(w/1000, 0)
			g.x0, g.x1 = math.Min(ax, bx), math.Max(ax, bx)
			ex, ey := trm.Apply(0, 1)
			g.em = math.Hypot(ex-ax, ey-trm[5])
			in.glyphs = append(in.glyphs, g)
		},
		Op: func(o *op, st *pdfcontent.State) error {
			if o.Name == "Do" && len(o.Args) == 1 && o.Args[0].Kind == kName {
				return in.form(res, string(o.Args[0].Val), st.CTM, pageM, page)
			}
			return nil
		},
	}
	return m.Run(s.ops, pdfcontent.NewState(ctm))
}

// form runs the form XObject res names, if it is one.
func (in *interp) form(res types.Dict, name string, ctm, pageM matrix, page int) error {
	ctx := in.fc.ctx
	xo, err := ctx.DereferenceDict(res["XObject"])
	if err != nil || xo == nil {
		return nil
	}
	ref, ok := xo[name].(types.IndirectRef)
	if !ok {
		return nil
	}
	key := ref.String()
	s := in.streams[key]
	if s == nil {
		sd, _, err := ctx.DereferenceStreamDict(ref)
		if err != nil || sd == nil {
			return nil
		}
		if st := sd.NameEntry("Subtype"); st != nil && *st == "Image" {
			// An image fills the unit square of its CTM.
			m := ctm.Mul(pageM)
			xs, ys := []float64{}, []float64{}
			for _, c := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				x, y := m.Apply(c[0], c[1])
				xs, ys = append(xs, x), append(ys, y)
			}
			in.images = append(in.images, drawnImage{nr: ref.ObjectNumber.Value(), page: page,
				x0: slices.Min(xs), y0: slices.Min(ys), x1: slices.Max(xs), y1: slices.Max(ys)})
			return nil
		}
		if st := sd.NameEntry("Subtype"); st == nil || *st != "Form" {
			return nil
		}
		if err := sd.Decode(); err != nil {
			return fmt.Errorf("form %s: %w", name, err)
		}
		ops, err := parseOps(sd.Content)
		if err != nil {
			return fmt.Errorf("form %s: %w", name, err)
		}
		s = &stream{key: key, data: sd.Content, ops: ops, page: -1, form: sd}
		in.streams[key] = s
		in.order = append(in.order, s)
	}
	m := identity
	if arr, _ := ctx.DereferenceArray(s.form.Dict["Matrix"]); len(arr) == 6 {
		for k := range m {
			m[k], _ = ctx.DereferenceNumber(arr[k])
		}
	}
	fres, _ := ctx.DereferenceDict(s.form.Dict["Resources"])
	if fres == nil {
		fres = res
	}
	return in.run(s, fres, m.Mul(ctm), pageM, page)
}
