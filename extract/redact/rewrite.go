package redact

import (
	"bytes"
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// rewrite is a stream's operations with the plan's edits made, and
// without marked content, which may carry a text's words a second time
// (ActualText, Alt, E) and whose optional-content properties pdfcpu
// does not write whole (an OCG's Intent went missing, and MuPDF then
// hid the page).
func rewrite(s *stream, edits map[editKey]edit, fonts map[opKey]*font) []byte {
	var out bytes.Buffer
	for i, o := range s.ops {
		switch o.Name {
		case "BMC", "BDC", "EMC", "MP", "DP":
			continue
		case "Tj", "'", "\"", "TJ":
			if f := fonts[opKey{s, i}]; f != nil && len(o.Args) > 0 {
				if pieces, changed := editShow(s, i, o, f, edits); changed {
					writeShow(&out, o, pieces)
					continue
				}
			}
		}
		out.Write(s.data[o.Start:o.End])
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// opKey names an operation of a stream.
type opKey struct {
	s  *stream
	op int
}

// piece is part of what a text-showing operation becomes: a TJ array,
// or a change of font (a figure drawn with a borrowed one, and back).
type piece struct {
	arr  []obj
	font string // with size: a Tf
	size float64
	// rise, when not 0, follows the Tf with a Ts; unrise sets it back
	// to 0.
	rise   float64
	unrise bool
}

// editShow builds the TJ arrays a text-showing operation becomes.
func editShow(s *stream, i int, o op, f *font, edits map[editKey]edit) ([]piece, bool) {
	last := o.Args[len(o.Args)-1]
	items := []obj{last}
	index := func(k int) int { return -1 }
	if last.Kind == kArray {
		items = last.Arr
		index = func(k int) int { return k }
	} else if last.Kind != kString {
		return nil, false
	}
	changed := false
	var pieces []piece
	var arr []obj
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			arr = append(arr, obj{Kind: kString, Val: cur})
			cur = nil
		}
	}
	adjust := func(n float64) {
		if n == 0 {
			return
		}
		flush()
		if k := len(arr) - 1; k >= 0 && arr[k].Kind == kNum {
			arr[k].Num += n
			return
		}
		arr = append(arr, obj{Kind: kNum, Num: n})
	}
	for k, it := range items {
		switch it.Kind {
		case kNum:
			adjust(it.Num)
		case kString:
			for _, c := range f.split(it.Val) {
				e, ok := edits[editKey{s, i, index(k), c.at}]
				if !ok {
					cur = append(cur, it.Val[c.at:c.at+c.len]...)
					continue
				}
				changed = true
				adjust(e.before)
				switch {
				case e.drop:
				case e.sub != nil:
					flush()
					g := e.sub
					size := e.size
					if e.subSize != 0 {
						size = e.subSize
					}
					pieces = append(pieces, piece{arr: arr}, piece{font: g.name, size: size, rise: e.rise},
						piece{arr: []obj{{Kind: kString, Val: e.with}}}, piece{font: e.fres, size: e.size, rise: 0, unrise: e.rise != 0})
					arr = nil
				case e.with == nil:
					cur = append(cur, it.Val[c.at:c.at+c.len]...)
				default:
					cur = append(cur, e.with...)
				}
				adjust(e.after)
			}
			flush()
		}
	}
	flush()
	pieces = append(pieces, piece{arr: arr})
	return pieces, changed
}

// writeShow writes a text-showing operation as TJ, with the line move and
// spacing that ' and " make first.
func writeShow(w *bytes.Buffer, o op, pieces []piece) {
	switch o.Name {
	case "'":
		w.WriteString("T*\n")
	case "\"":
		if len(o.Args) == 3 {
			writeObj(w, o.Args[0])
			w.WriteString(" Tw ")
			writeObj(w, o.Args[1])
			w.WriteString(" Tc\nT*\n")
		}
	}
	for _, p := range pieces {
		if p.font != "" {
			writeObj(w, obj{Kind: kName, Val: []byte(p.font)})
			w.WriteByte(' ')
			writeObj(w, obj{Kind: kNum, Num: p.size})
			w.WriteString(" Tf\n")
			if p.rise != 0 || p.unrise {
				writeObj(w, obj{Kind: kNum, Num: p.rise})
				w.WriteString(" Ts\n")
			}
			continue
		}
		if len(p.arr) == 0 {
			continue
		}
		writeObj(w, obj{Kind: kArray, Arr: p.arr})
		w.WriteString(" TJ\n")
	}
}

// setContent stores a page's new contents as one stream.
func (r *redactor) setContent(page types.Dict, b []byte) error {
	sd, err := r.ctx.NewStreamDictForBuf(b)
	if err != nil {
		return err
	}
	if err := sd.Encode(); err != nil {
		return err
	}
	ref, err := r.ctx.IndRefForNewObject(*sd)
	if err != nil {
		return err
	}
	page.Update("Contents", *ref)
	return nil
}

// setForm stores a form XObject's new contents in its own object.
func (r *redactor) setForm(s *stream, b []byte) error {
	sd := s.form
	sd.Content = b
	sd.Raw = nil
	sd.FilterPipeline = []types.PDFFilter{{Name: "FlateDecode"}}
	sd.Update("Filter", types.Name("FlateDecode"))
	sd.Delete("DecodeParms")
	if err := sd.Encode(); err != nil {
		return fmt.Errorf("form %s: %w", s.key, err)
	}
	var nr int
	if _, err := fmt.Sscanf(s.key, "(%d", &nr); err != nil {
		return fmt.Errorf("form %s: no object number", s.key)
	}
	e, ok := r.ctx.Table[nr]
	if !ok {
		return fmt.Errorf("form %s: not in the table", s.key)
	}
	e.Object = *sd
	return nil
}
