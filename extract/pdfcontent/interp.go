package pdfcontent

// Matrix is a PDF transformation [a b c d e f].
type Matrix [6]float64

// Identity is the transformation that changes nothing.
var Identity = Matrix{1, 0, 0, 1, 0, 0}

// Mul is m then n.
func (m Matrix) Mul(n Matrix) Matrix {
	return Matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// Apply maps the point (x, y).
func (m Matrix) Apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

// Font is what running a content stream needs of a font: how a shown
// string splits into codes and how far each moves the pen.
type Font interface {
	// Code is the character code s starts with and its length in bytes
	// (at least 1).
	Code(s []byte) (code uint32, n int)
	// Advance is how far code moves the pen, in text space units before
	// the font size (a glyph width of 500 in a common font is 0.5).
	Advance(code uint32) float64
}

// State is the graphics and text state an operation runs under. q and Q
// save and restore it whole, FillAlpha included (the caller sets it from
// an ExtGState's ca).
type State struct {
	CTM                        Matrix
	Font                       Font
	FontRes                    string // the font's resource name, Tf's operand
	Size, Tc, Tw, Th, TL, Rise float64
	FillAlpha                  float64
}

// NewState is the state a page's content starts in under ctm.
func NewState(ctm Matrix) State {
	return State{CTM: ctm, Th: 1, FillAlpha: 1}
}

// Glyph is one character code a text operation shows.
type Glyph struct {
	Op *Op // the operation that shows it
	// OpIndex is the operation's place among the stream's operations.
	OpIndex int
	Item    int // the string's index in a TJ array; -1 for a string operand
	Str     *Obj
	At      int // its first byte in the string, and its length
	Len     int
	Code    uint32
	// Trm maps glyph space in ems (before the font's own matrix) to user
	// space: [Size·Th 0 0 Size 0 Rise] × Tm × CTM. A glyph spans x from 0
	// to Adv along it.
	Trm   Matrix
	Adv   float64
	State *State
}

// Machine runs content streams. Fonts and everything beyond the text
// state (paths, forms, marked content, ExtGStates) are the caller's,
// through its hooks.
type Machine struct {
	// Font is the font a Tf names among the running stream's resources;
	// nil or an error leaves no font set. An error stops the run.
	Font func(res string) (Font, error)
	// Glyph is called for every code shown. g is reused after it returns.
	Glyph func(g *Glyph)
	// Op is called for every operation after the state has taken it in.
	// An error stops the run.
	Op func(o *Op, st *State) error
	// MaxOps bounds the operations one Run takes (0: no bound).
	MaxOps int
}

// Run runs the operations of one stream under st. An error from a hook
// stops it.
func (m *Machine) Run(ops []Op, st State) error {
	r := runner{m: m, st: st}
	for i := range ops {
		if m.MaxOps > 0 && i >= m.MaxOps {
			return nil
		}
		r.idx = i
		if err := r.step(&ops[i]); err != nil {
			return err
		}
	}
	return nil
}

// RunStream reads and runs a stream's bytes in one pass, as Run on
// Parse's operations does, without keeping the operations (the Op a hook
// sees is reused after it returns). A syntax error ends the run quietly
// where it stands, as readers do.
func (m *Machine) RunStream(b []byte, st State) error {
	r := runner{m: m, st: st}
	var herr error
	n := 0
	Each(b, func(o *Op) bool {
		n++
		if m.MaxOps > 0 && n > m.MaxOps {
			return false
		}
		r.idx = n - 1
		herr = r.step(o)
		return herr == nil
	})
	return herr
}

type runner struct {
	m       *Machine
	st      State
	stack   []State
	tm, tlm Matrix
	idx     int
	g       Glyph // handed to the Glyph hook, reused
}

func (r *runner) step(o *Op) error {
	st := &r.st
	a := o.Args
	num := func(k int) float64 {
		if k < len(a) && a[k].Kind == Num {
			return a[k].Num
		}
		return 0
	}
	switch o.Name {
	case "q":
		if len(r.stack) < 1024 {
			r.stack = append(r.stack, *st)
		}
	case "Q":
		if n := len(r.stack); n > 0 {
			*st, r.stack = r.stack[n-1], r.stack[:n-1]
		}
	case "cm":
		if len(a) == 6 {
			st.CTM = Matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.Mul(st.CTM)
		}
	case "BT":
		r.tm, r.tlm = Identity, Identity
	case "Tf":
		if len(a) == 2 && a[0].Kind == Name {
			st.Font, st.FontRes, st.Size = nil, string(a[0].Val), num(1)
			if r.m.Font != nil {
				f, err := r.m.Font(st.FontRes)
				if err != nil {
					return err
				}
				st.Font = f
			}
		}
	case "Tc":
		st.Tc = num(0)
	case "Tw":
		st.Tw = num(0)
	case "Tz":
		st.Th = num(0) / 100
	case "TL":
		st.TL = num(0)
	case "Ts":
		st.Rise = num(0)
	case "Td", "TD":
		if o.Name == "TD" {
			st.TL = -num(1)
		}
		r.tlm = Matrix{1, 0, 0, 1, num(0), num(1)}.Mul(r.tlm)
		r.tm = r.tlm
	case "Tm":
		if len(a) == 6 {
			r.tlm = Matrix{num(0), num(1), num(2), num(3), num(4), num(5)}
			r.tm = r.tlm
		}
	case "T*":
		r.tlm = Matrix{1, 0, 0, 1, 0, -st.TL}.Mul(r.tlm)
		r.tm = r.tlm
	case "Tj", "'", "\"", "TJ":
		if o.Name == "'" || o.Name == "\"" {
			if o.Name == "\"" && len(a) == 3 {
				st.Tw, st.Tc = num(0), num(1)
			}
			r.tlm = Matrix{1, 0, 0, 1, 0, -st.TL}.Mul(r.tlm)
			r.tm = r.tlm
		}
		if len(a) == 0 {
			break
		}
		last := &a[len(a)-1]
		switch {
		case last.Kind == String:
			r.show(o, last, -1)
		case last.Kind == Array:
			for k := range last.Arr {
				it := &last.Arr[k]
				switch it.Kind {
				case String:
					r.show(o, it, k)
				case Num:
					tx := -it.Num / 1000 * st.Size * st.Th
					r.tm[4], r.tm[5] = tx*r.tm[0]+r.tm[4], tx*r.tm[1]+r.tm[5]
				}
			}
		}
	}
	if r.m.Op != nil {
		return r.m.Op(o, st)
	}
	return nil
}

// show moves the pen over a shown string, a glyph at a time. The pen
// moves by translations, so Tm × CTM is kept as it moves instead of
// multiplied out per glyph.
func (r *runner) show(o *Op, str *Obj, item int) {
	st := &r.st
	if st.Font == nil {
		return
	}
	tmc := r.tm.Mul(st.CTM)
	sx, sy := st.Size*st.Th, st.Size
	s := str.Val
	for i := 0; i < len(s); {
		c, n := st.Font.Code(s[i:])
		if n < 1 {
			n = 1
		}
		if i+n > len(s) {
			n = len(s) - i
		}
		adv := st.Font.Advance(c)
		if r.m.Glyph != nil {
			// [sx 0 0 sy 0 rise] × Tm × CTM
			trm := Matrix{sx * tmc[0], sx * tmc[1], sy * tmc[2], sy * tmc[3], st.Rise*tmc[2] + tmc[4], st.Rise*tmc[3] + tmc[5]}
			r.g = Glyph{Op: o, OpIndex: r.idx, Item: item, Str: str, At: i, Len: n, Code: c, Trm: trm, Adv: adv, State: st}
			r.m.Glyph(&r.g)
		}
		tx := (adv*st.Size + st.Tc) * st.Th
		if n == 1 && c == 32 {
			tx += st.Tw * st.Th
		}
		r.tm[4], r.tm[5] = tx*r.tm[0]+r.tm[4], tx*r.tm[1]+r.tm[5]
		tmc[4], tmc[5] = tx*tmc[0]+tmc[4], tx*tmc[1]+tmc[5]
		i += n
	}
}
