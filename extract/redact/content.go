package redact

import (
	"bytes"
	"fmt"
	"strconv"
)

// A content stream is read as operations: each its operands and operator,
// with where it stands in the stream's bytes, so that a rewrite changes
// only the operations it must and copies every other byte as it was.

// objKind is the kind of one operand.
type objKind int

const (
	kNum objKind = iota
	kName
	kString // literal or hex: val holds the bytes
	kArray
	kDict
	kOther // true, false, null, an inline image's data
)

// obj is one operand of a content stream operation.
type obj struct {
	kind objKind
	num  float64
	val  []byte // a string's bytes, a name without its slash
	arr  []obj  // an array's items; a dict's keys and values in turn
}

// op is one content stream operation.
type op struct {
	name       string
	args       []obj
	start, end int // its bytes, operands included
}

// lexer reads PDF syntax from a content stream or a CMap.
type lexer struct {
	b   []byte
	pos int
}

func isWhite(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == '/' || c == '%'
}

func (l *lexer) skipSpace() {
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

// next reads one token: an operand, or an operator (returned with
// isOp). ok is false at the end.
func (l *lexer) next() (o obj, keyword string, isOp, ok bool, err error) {
	l.skipSpace()
	if l.pos >= len(l.b) {
		return obj{}, "", false, false, nil
	}
	c := l.b[l.pos]
	switch {
	case c == '(':
		s, err := l.literal()
		return obj{kind: kString, val: s}, "", false, true, err
	case c == '<' && l.pos+1 < len(l.b) && l.b[l.pos+1] == '<':
		l.pos += 2
		items, err := l.items(">>")
		return obj{kind: kDict, arr: items}, "", false, err == nil, err
	case c == '<':
		l.pos++
		var hex []byte
		for l.pos < len(l.b) && l.b[l.pos] != '>' {
			if !isWhite(l.b[l.pos]) {
				hex = append(hex, l.b[l.pos])
			}
			l.pos++
		}
		l.pos++
		if len(hex)%2 == 1 {
			hex = append(hex, '0')
		}
		out := make([]byte, len(hex)/2)
		for i := range out {
			v, err := strconv.ParseUint(string(hex[2*i:2*i+2]), 16, 8)
			if err != nil {
				return obj{}, "", false, false, fmt.Errorf("bad hex string")
			}
			out[i] = byte(v)
		}
		return obj{kind: kString, val: out}, "", false, true, nil
	case c == '[':
		l.pos++
		items, err := l.items("]")
		return obj{kind: kArray, arr: items}, "", false, err == nil, err
	case c == '/':
		l.pos++
		s := l.pos
		for l.pos < len(l.b) && !isWhite(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
			l.pos++
		}
		return obj{kind: kName, val: unescapeName(l.b[s:l.pos])}, "", false, true, nil
	case c == ']' || c == '>' || c == ')' || c == '{' || c == '}':
		l.pos++
		return obj{kind: kOther, val: []byte{c}}, "", false, true, nil
	}
	s := l.pos
	for l.pos < len(l.b) && !isWhite(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
		l.pos++
	}
	word := string(l.b[s:l.pos])
	if f, err := strconv.ParseFloat(word, 64); err == nil {
		return obj{kind: kNum, num: f}, "", false, true, nil
	}
	if word == "true" || word == "false" || word == "null" {
		return obj{kind: kOther, val: []byte(word)}, "", false, true, nil
	}
	return obj{}, word, true, true, nil
}

// items reads an array's or a dictionary's items up to its closing
// delimiter; a keyword among them is kept as it is.
func (l *lexer) items(end string) ([]obj, error) {
	var items []obj
	for {
		l.skipSpace()
		if bytes.HasPrefix(l.b[l.pos:], []byte(end)) {
			l.pos += len(end)
			return items, nil
		}
		it, kw, isop, ok, err := l.next()
		if err != nil || !ok {
			return nil, fmt.Errorf("unterminated %q: %w", end, errOr(err))
		}
		if isop {
			it = obj{kind: kOther, val: []byte(kw)}
		}
		items = append(items, it)
	}
}

func errOr(err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("end of stream")
}

func unescapeName(b []byte) []byte {
	if !bytes.Contains(b, []byte{'#'}) {
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
func (l *lexer) literal() ([]byte, error) {
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

// parseOps reads a content stream into its operations. An inline image's
// data (BI ... ID data EI) is one operation whose bytes are copied whole.
func parseOps(b []byte) ([]op, error) {
	l := &lexer{b: b}
	var ops []op
	var args []obj
	start := -1
	for {
		l.skipSpace()
		if start < 0 {
			start = l.pos
		}
		o, kw, isOp, ok, err := l.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if !isOp {
			args = append(args, o)
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
				return nil, fmt.Errorf("inline image without EI")
			}
			l.pos = i + 3
			kw = "EI"
		}
		ops = append(ops, op{name: kw, args: args, start: start, end: l.pos})
		args, start = nil, -1
	}
	return ops, nil
}

// writeObj writes an operand in PDF syntax.
func writeObj(w *bytes.Buffer, o obj) {
	switch o.kind {
	case kNum:
		w.WriteString(strconv.FormatFloat(o.num, 'f', -1, 64))
	case kName:
		w.WriteByte('/')
		for _, c := range o.val {
			if c <= ' ' || c >= 0x7f || isDelim(c) || c == '#' {
				fmt.Fprintf(w, "#%02X", c)
			} else {
				w.WriteByte(c)
			}
		}
	case kString:
		// Literal, not hex: a hex string's digits would read, to the leak
		// check, as figures the copy does not print.
		w.WriteByte('(')
		for _, c := range o.val {
			switch {
			case c == '(' || c == ')' || c == '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case c < ' ' || c >= 0x7f:
				fmt.Fprintf(w, "\\%03o", c)
			default:
				w.WriteByte(c)
			}
		}
		w.WriteByte(')')
	case kArray, kDict:
		begin, end := "[", "]"
		if o.kind == kDict {
			begin, end = "<<", ">>"
		}
		w.WriteString(begin)
		for i, it := range o.arr {
			if i > 0 {
				w.WriteByte(' ')
			}
			writeObj(w, it)
		}
		w.WriteString(end)
	default:
		w.Write(o.val)
	}
}
