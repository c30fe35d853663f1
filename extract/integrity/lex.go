package integrity

import (
	"bytes"
	"strconv"
	"strings"
)

// token is one item of a content stream: an operand or an operator.
type token struct {
	kind byte // 'n' number, '/' name, 's' string, '[' array, '<' dictionary, 'o' operator
	num  float64
	str  string  // a name without its slash, a string's bytes, an operator
	arr  []token // an array's items
	at   int     // where the token starts in the stream, and ends
	end  int
}

// lexer reads the tokens of a content stream. It tolerates what readers
// tolerate (junk is skipped) and never reads past its data.
type lexer struct {
	b []byte
	i int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next token with its place, false at the end of the
// data.
func (l *lexer) next() (token, bool) {
	for l.i < len(l.b) && isSpace(l.b[l.i]) {
		l.i++
	}
	at := l.i
	t, ok := l.scan()
	t.at, t.end = at, l.i
	return t, ok
}

func (l *lexer) scan() (token, bool) {
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case isSpace(c):
			l.i++
		case c == '%':
			for l.i < len(l.b) && l.b[l.i] != '\n' && l.b[l.i] != '\r' {
				l.i++
			}
		case c == '/':
			l.i++
			s := l.i
			for l.i < len(l.b) && !isSpace(l.b[l.i]) && !isDelim(l.b[l.i]) {
				l.i++
			}
			return token{kind: '/', str: decodeName(l.b[s:l.i])}, true
		case c == '(':
			return token{kind: 's', str: l.literal()}, true
		case c == '<' && l.i+1 < len(l.b) && l.b[l.i+1] == '<':
			l.i += 2
			d := token{kind: '<'}
			for {
				t, ok := l.next()
				if !ok || (t.kind == 'o' && t.str == ">>") {
					return d, true
				}
				d.arr = append(d.arr, t)
			}
		case c == '>' && l.i+1 < len(l.b) && l.b[l.i+1] == '>':
			l.i += 2
			return token{kind: 'o', str: ">>"}, true
		case c == '<':
			return token{kind: 's', str: l.hex()}, true
		case c == '[':
			l.i++
			a := token{kind: '['}
			for {
				t, ok := l.next()
				if !ok || (t.kind == 'o' && t.str == "]") {
					return a, true
				}
				a.arr = append(a.arr, t)
			}
		case c == ']':
			l.i++
			return token{kind: 'o', str: "]"}, true
		case c == '{' || c == '}' || c == ')' || c == '>':
			l.i++
		default:
			s := l.i
			for l.i < len(l.b) && !isSpace(l.b[l.i]) && !isDelim(l.b[l.i]) {
				l.i++
			}
			w := l.b[s:l.i]
			if (w[0] >= '0' && w[0] <= '9') || w[0] == '-' || w[0] == '+' || w[0] == '.' {
				return token{kind: 'n', num: number(w)}, true
			}
			if string(w) == "ID" {
				l.skipInlineImage()
				return token{kind: 'o', str: "EI"}, true
			}
			if op, ok := operators[string(w)]; ok {
				return token{kind: 'o', str: op}, true
			}
			return token{kind: 'o', str: string(w)}, true
		}
	}
	return token{}, false
}

// skipInlineImage moves past an inline image's data to its EI.
func (l *lexer) skipInlineImage() {
	if l.i < len(l.b) {
		l.i++ // the one white-space byte after ID
	}
	for j := l.i; j+2 < len(l.b); j++ {
		if isSpace(l.b[j]) && l.b[j+1] == 'E' && l.b[j+2] == 'I' && (j+3 == len(l.b) || isSpace(l.b[j+3]) || isDelim(l.b[j+3])) {
			l.i = j + 3
			return
		}
	}
	l.i = len(l.b)
}

func (l *lexer) literal() string {
	var out []byte
	depth := 0
	l.i++ // (
	for l.i < len(l.b) {
		c := l.b[l.i]
		l.i++
		switch c {
		case '(':
			depth++
			out = append(out, c)
		case ')':
			if depth == 0 {
				return string(out)
			}
			depth--
			out = append(out, c)
		case '\\':
			if l.i >= len(l.b) {
				return string(out)
			}
			e := l.b[l.i]
			l.i++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r':
				if l.i < len(l.b) && l.b[l.i] == '\n' {
					l.i++
				}
			case '\n':
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '7'; k++ {
						v = v*8 + int(l.b[l.i]-'0')
						l.i++
					}
					out = append(out, byte(v))
				} else {
					out = append(out, e)
				}
			}
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

func (l *lexer) hex() string {
	l.i++ // <
	end := bytes.IndexByte(l.b[l.i:], '>')
	var h []byte
	if end < 0 {
		h, l.i = l.b[l.i:], len(l.b)
	} else {
		h, l.i = l.b[l.i:l.i+end], l.i+end+1
	}
	return string(hexBytes(h))
}

// hexBytes decodes hex digits, skipping anything else; an odd last digit
// is followed by 0, as the format says.
func hexBytes(h []byte) []byte {
	var out []byte
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

// decodeName undoes a name's #xx escapes.
func decodeName(b []byte) string {
	if bytes.IndexByte(b, '#') < 0 {
		return string(b)
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			if v := hexBytes(b[i+1 : i+3]); len(v) == 1 {
				out = append(out, v[0])
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
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
// Anything else reads as what strconv makes of it, or 0.
func number(w []byte) float64 {
	v, frac, scale, neg, i := 0.0, false, 1.0, false, 0
	if w[0] == '-' || w[0] == '+' {
		neg, i = w[0] == '-', 1
	}
	for ; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*10 + float64(c-'0')
			if frac {
				scale *= 10
			}
		case c == '.' && !frac:
			frac = true
		default:
			f, err := strconv.ParseFloat(string(w), 64)
			if err != nil {
				return 0
			}
			return f
		}
	}
	if neg {
		v = -v
	}
	return v / scale
}
