package redact

import (
	"fmt"
	"math"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m then n.
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

// textState is the text and graphics state a glyph's place depends on.
type textState struct {
	ctm                        matrix
	f                          *font
	fres                       string
	size, tc, tw, th, tl, rise float64
}

// interp walks content streams and lists their glyphs.
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
	st := textState{ctm: ctm, th: 1}
	var stack []textState
	var tm, tlm matrix
	for i, o := range s.ops {
		a := o.args
		num := func(k int) float64 {
			if k < len(a) && a[k].kind == kNum {
				return a[k].num
			}
			return 0
		}
		switch o.name {
		case "q":
			stack = append(stack, st)
		case "Q":
			if n := len(stack); n > 0 {
				st, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			if len(a) == 6 {
				st.ctm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(st.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(a) == 2 && a[0].kind == kName {
				f, err := in.fc.load(res, string(a[0].val))
				if err != nil {
					return err
				}
				st.f, st.size, st.fres = f, num(1), string(a[0].val)
			}
		case "Tc":
			st.tc = num(0)
		case "Tw":
			st.tw = num(0)
		case "Tz":
			st.th = num(0) / 100
		case "TL":
			st.tl = num(0)
		case "Ts":
			st.rise = num(0)
		case "Td", "TD":
			if o.name == "TD" {
				st.tl = -num(1)
			}
			tlm = matrix{1, 0, 0, 1, num(0), num(1)}.mul(tlm)
			tm = tlm
		case "Tm":
			tlm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}
			tm = tlm
		case "T*":
			tlm = matrix{1, 0, 0, 1, 0, -st.tl}.mul(tlm)
			tm = tlm
		case "Tj", "'", "\"", "TJ":
			if o.name != "Tj" && o.name != "TJ" {
				if o.name == "\"" && len(a) == 3 {
					st.tw, st.tc = num(0), num(1)
				}
				tlm = matrix{1, 0, 0, 1, 0, -st.tl}.mul(tlm)
				tm = tlm
			}
			if st.f == nil || len(a) == 0 {
				continue
			}
			last := a[len(a)-1]
			show := func(b []byte, item int) {
				for _, c := range st.f.split(b) {
					w := st.f.width(c.v)
					trm := matrix{st.size * st.th, 0, 0, st.size, 0, st.rise}.mul(tm).mul(st.ctm).mul(pageM)
					g := &glyph{s: s, op: i, item: item, c: c, f: st.f, w: w, page: page, size: st.size, tc: st.tc, fres: st.fres, idx: len(in.glyphs)}
					g.r = st.f.uni[c.v]
					g.x, g.y = trm.apply(w/2000, 0.3)
					ax, _ := trm.apply(0, 0)
					bx, _ := trm.apply(w/1000, 0)
					g.x0, g.x1 = math.Min(ax, bx), math.Max(ax, bx)
					ex, ey := trm.apply(0, 1)
					g.em = math.Hypot(ex-ax, ey-trm[5])
					in.glyphs = append(in.glyphs, g)
					tx := (w/1000*st.size + st.tc) * st.th
					if c.len == 1 && c.v == 32 {
						tx += st.tw * st.th
					}
					tm = matrix{1, 0, 0, 1, tx, 0}.mul(tm)
				}
			}
			switch last.kind {
			case kString:
				show(last.val, -1)
			case kArray:
				for k, it := range last.arr {
					switch it.kind {
					case kString:
						show(it.val, k)
					case kNum:
						tm = matrix{1, 0, 0, 1, -it.num / 1000 * st.size * st.th, 0}.mul(tm)
					}
				}
			}
		case "Do":
			if len(a) == 1 && a[0].kind == kName {
				if err := in.form(res, string(a[0].val), st.ctm, pageM, page); err != nil {
					return err
				}
			}
		}
	}
	return nil
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
			m := ctm.mul(pageM)
			xs, ys := []float64{}, []float64{}
			for _, c := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				x, y := m.apply(c[0], c[1])
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
	return in.run(s, fres, m.mul(ctm), pageM, page)
}
