package redact

import (
	"bytes"
	"fmt"
	"strconv"

	"passbook/extract/pdfcontent"
)

// A content stream is read as operations (extract/pdfcontent): each its
// operands and operator, with where it stands in the stream's bytes, so
// that a rewrite changes only the operations it must and copies every
// other byte as it was.

type (
	obj = pdfcontent.Obj
	op  = pdfcontent.Op
)

const (
	kNum    = pdfcontent.Num
	kName   = pdfcontent.Name
	kString = pdfcontent.String
	kArray  = pdfcontent.Array
	kDict   = pdfcontent.Dict
)

// parseOps reads a content stream into its operations.
func parseOps(b []byte) ([]op, error) { return pdfcontent.Parse(b) }

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// writeObj writes an operand in PDF syntax.
func writeObj(w *bytes.Buffer, o obj) {
	switch o.Kind {
	case kNum:
		w.WriteString(strconv.FormatFloat(o.Num, 'f', -1, 64))
	case kName:
		w.WriteByte('/')
		for _, c := range o.Val {
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
		for _, c := range o.Val {
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
		if o.Kind == kDict {
			begin, end = "<<", ">>"
		}
		w.WriteString(begin)
		for i, it := range o.Arr {
			if i > 0 {
				w.WriteByte(' ')
			}
			writeObj(w, it)
		}
		w.WriteString(end)
	default:
		w.Write(o.Val)
	}
}
