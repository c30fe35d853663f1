// Package pdfcontent reads PDF content streams: their syntax as
// operations, each with its operands and where it stands in the stream's
// bytes, and the text and graphics state they set as they run. It is
// pure Go and knows nothing of a file's objects: fonts, forms and
// resources come from the caller. extract/integrity and extract/redact
// both run page content through it.
package pdfcontent

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of one operand.
type Kind uint8

const (
	Num Kind = iota
	Name
	String // literal or hex: Val holds the bytes
	Array
	Dict
	Other // true, false, null, a stray delimiter
)

// Obj is one operand of a content stream operation.
type Obj struct {
	Kind Kind
	Num  float64
	Val  []byte // a string's bytes, a name without its slash, Other's text
	Arr  []Obj  // an array's items; a dictionary's keys and values in turn
	// At and End are the operand's bytes in the stream.
	At, End int
}

// Op is one content stream operation.
type Op struct {
	Name       string
	Args       []Obj
	Start, End int // its bytes, operands included
}

// OperatorAt is where the operator's own keyword starts.
func (o *Op) OperatorAt() int { return o.End - len(o.Name) }

// Lexer reads PDF syntax from a content stream or a CMap. It never reads
// past its data.
type Lexer struct {
	b   []byte
	pos int
}

// NewLexer reads b from its start.
func NewLexer(b []byte) *Lexer { return &Lexer{b: b} }

// Pos is where the lexer stands.
func (l *Lexer) Pos() int { return l.pos }

func isWhite(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (l *Lexer) skipSpace() {
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		if isWhite(c) {
			l.pos++
		} else if c == '%' {
			for l.pos < len(l.b) && l.b[l.pos] != '\n' && l.b[l.pos] != '\r' {
				l.pos++
			}
		} else {
			return
		}
	}
}

// Next reads one token: an operand, or an operator (returned as keyword
// with isOp). ok is false at the end.
func (l *Lexer) Next() (o Obj, keyword string, isOp, ok bool, err error) {
	l.skipSpace()
	at := l.pos
	o, keyword, isOp, ok, err = l.scan()
	o.At, o.End = at, l.pos
	return
}

func (l *Lexer) scan() (o Obj, keyword string, isOp, ok bool, err error) {
	if l.pos >= len(l.b) {
		return Obj{}, "", false, false, nil
	}
	c := l.b[l.pos]
	switch {
	case c == '(':
		s, err := l.literal()
		return Obj{Kind: String, Val: s}, "", false, true, err
	case c == '<' && l.pos+1 < len(l.b) && l.b[l.pos+1] == '<':
		l.pos += 2
		items, err := l.items(">>")
		return Obj{Kind: Dict, Arr: items}, "", false, err == nil, err
	case c == '<':
		l.pos++
		end := bytes.IndexByte(l.b[l.pos:], '>')
		if end < 0 {
			l.pos = len(l.b)
			return Obj{}, "", false, false, fmt.Errorf("unterminated hex string")
		}
		h := l.b[l.pos : l.pos+end]
		l.pos += end + 1
		return Obj{Kind: String, Val: HexBytes(h)}, "", false, true, nil
	case c == '[':
		l.pos++
		items, err := l.items("]")
		return Obj{Kind: Array, Arr: items}, "", false, err == nil, err
	case c == '/':
		l.pos++
		s := l.pos
		for l.pos < len(l.b) && !isWhite(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
			l.pos++
		}
		return Obj{Kind: Name, Val: unescapeName(l.b[s:l.pos])}, "", false, true, nil
	case c == ']' || c == '>' || c == ')' || c == '{' || c == '}':
		l.pos++
		return Obj{Kind: Other, Val: l.b[l.pos-1 : l.pos]}, "", false, true, nil
	}
	s := l.pos
	for l.pos < len(l.b) && !isWhite(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
		l.pos++
	}
	w := l.b[s:l.pos]
	if w[0] >= '0' && w[0] <= '9' || w[0] == '-' || w[0] == '+' || w[0] == '.' {
		if f, ok := number(w); ok {
			return Obj{Kind: Num, Num: f}, "", false, true, nil
		}
	}
	if op, ok := operators[string(w)]; ok {
		return Obj{}, op, true, true, nil
	}
	switch string(w) {
	case "true", "false", "null":
		return Obj{Kind: Other, Val: w}, "", false, true, nil
	}
	return Obj{}, string(w), true, true, nil
}

// items reads an array's or a dictionary's items up to its closing
// delimiter; a keyword among them is kept as an Other.
func (l *Lexer) items(end string) ([]Obj, error) {
	var items []Obj
	for {
		l.skipSpace()
		if bytes.HasPrefix(l.b[l.pos:], []byte(end)) {
			l.pos += len(end)
			return items, nil
		}
		it, kw, isop, ok, err := l.Next()
		if err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("end of stream")
			}
			return nil, fmt.Errorf("unterminated %q: %w", end, err)
		}
		if isop {
			it = Obj{Kind: Other, Val: []byte(kw), At: it.At, End: it.End}
		}
		items = append(items, it)
	}
}

func unescapeName(b []byte) []byte {
	if bytes.IndexByte(b, '#') < 0 {
		return b
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			if v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

// literal reads a (string) with its escapes.
func (l *Lexer) literal() ([]byte, error) {
	l.pos++ // (
	var out []byte
	depth := 1
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return out, nil
			}
		case '\\':
			if l.pos >= len(l.b) {
				return out, nil
			}
			e := l.b[l.pos]
			l.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.b) && l.b[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.pos < len(l.b) && l.b[l.pos] >= '0' && l.b[l.pos] <= '7'; k++ {
						v = v*8 + int(l.b[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		out = append(out, c)
	}
	return out, fmt.Errorf("unterminated string")
}

// HexBytes decodes hex digits, skipping anything else; an odd last digit
// is followed by 0, as the format says.
func HexBytes(h []byte) []byte {
	out := make([]byte, 0, len(h)/2)
	hi, half := byte(0), false
	for _, c := range h {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			continue
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		out = append(out, hi<<4)
	}
	return out
}

// operators are the content operators, so that reading one allocates
// nothing.
var operators = func() map[string]string {
	m := map[string]string{}
	for _, op := range strings.Fields(`b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y ' "`) {
		m[op] = op
	}
	return m
}()

// number reads a PDF number: digits with an optional sign and point.
// Anything else reads as what strconv makes of it; ok is false when
// strconv cannot either.
func number(w []byte) (float64, bool) {
	v, frac, scale, neg, i := 0.0, false, 1.0, false, 0
	if w[0] == '-' || w[0] == '+' {
		neg, i = w[0] == '-', 1
	}
	digits := 0
	for ; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*10 + float64(c-'0')
			digits++
			if frac {
				scale *= 10
			}
		case c == '.' && !frac:
			frac = true
		default:
			f, err := strconv.ParseFloat(string(w), 64)
			return f, err == nil
		}
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v / scale, true
}

// Parse reads a content stream into its operations. An inline image's
// dictionary and data (after BI: ... ID data EI) are one operation named
// EI whose bytes are copied whole. On malformed syntax it returns the operations read before it
// with the error.
func Parse(b []byte) ([]Op, error) {
	ops := make([]Op, 0, len(b)/16)
	err := Each(b, func(o *Op) bool {
		c := *o
		c.Args = append([]Obj(nil), o.Args...)
		ops = append(ops, c)
		return true
	})
	return ops, err
}

// Each reads a content stream's operations one at a time, as Parse does,
// handing each to f until f returns false. The operation and its operand
// slice are reused after f returns: f copies what it keeps.
func Each(b []byte, f func(*Op) bool) error {
	l := &Lexer{b: b}
	var o Op
	start := -1
	for {
		l.skipSpace()
		if start < 0 {
			start = l.pos
		}
		it, kw, isOp, ok, err := l.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if !isOp {
			o.Args = append(o.Args, it)
			continue
		}
		if kw == "ID" {
			// Inline image data runs to an EI between white space.
			i := l.pos + 1
			for ; i+2 < len(b); i++ {
				if isWhite(b[i]) && b[i+1] == 'E' && b[i+2] == 'I' && (i+3 == len(b) || isWhite(b[i+3]) || isDelim(b[i+3])) {
					break
				}
			}
			if i+2 >= len(b) {
				return fmt.Errorf("inline image without EI")
			}
			l.pos = i + 3
			kw = "EI"
		}
		o.Name, o.Start, o.End = kw, start, l.pos
		if !f(&o) {
			return nil
		}
		o.Args, start = o.Args[:0], -1
	}
}
