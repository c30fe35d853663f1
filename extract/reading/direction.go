package reading

import (
	"strings"
	"unicode"

	"passbook/extract/lexicon"
	"passbook/extract/tables"

	"github.com/shopspring/decimal"
)

// A row's direction is proven by what the document prints: its column, its
// sign, its Dr/Cr word, its section's title, or the printed balance it
// reaches from the one before. Where nothing proves it (an unsigned amount
// with no balance before it, or none at all), the document's own proven
// rows are the examples it is learned from: a row of the same kind, as its
// description's leading words name it ("Card purchase", "SEPA transfer",
// a merchant's name), goes the way those rows go. No word list says which
// way a word goes; the statement itself does, and a row so read is never
// proven.

// learned is the direction a row of unproven direction takes from the
// document's proven rows: -1 money out, +1 money in, and how many proven
// rows of its kind went that way.
type learned struct {
	dir, from int
}

// provenDirections gives each row whose direction the document proves
// its direction (-1 out, +1 in), keyed by the row's seq: by its column,
// sign, Dr/Cr word or title, or by the printed balance it reaches from the
// one before under its reading. It walks the chain as score does.
func provenDirections(rows []tables.Row, bySeg map[int]Reading, unsigned bool, opening *decimal.Decimal) map[int]int {
	out := map[int]int{}
	var prev decimal.Decimal
	have := opening != nil
	if have {
		prev = *opening
	}
	for _, rw := range rows {
		r := bySeg[rw.SegID]
		d, abs, known, any := r.movement(rw, unsigned)
		b, hasBal := PrintedBalance(rw)
		if !known && hasBal && have {
			switch {
			case prev.Add(r.Chain(d.Add(abs))).Equal(b):
				d, known = d.Add(abs), true
			case prev.Add(r.Chain(d.Sub(abs))).Equal(b):
				d, known = d.Sub(abs), true
			}
		}
		if any && known && !d.IsZero() {
			out[rw.Seq] = d.Sign()
		}
		switch {
		case hasBal:
			prev, have = b, true
		case have && known:
			prev = prev.Add(r.Chain(d))
		default:
			have = false
		}
	}
	return out
}

// learnDirections gives each row of unproven direction (an amount with
// no sign that proven does not hold) the direction of the proven rows of
// its kind: those whose description starts with the same two words, else
// the same word. The rows of that kind must agree by a clear margin (more
// than twice as many one way as the other); else the row is left out.
func learnDirections(rows []tables.Row, bySeg map[int]Reading, unsigned bool, proven map[int]int) map[int]learned {
	// votes[key] counts the proven rows of each kind: [0] out, [1] in.
	votes := map[string]*[2]int{}
	for _, rw := range rows {
		dir, ok := proven[rw.Seq]
		if !ok {
			continue
		}
		for _, k := range kindKeys(rw.Desc) {
			v := votes[k]
			if v == nil {
				v = &[2]int{}
				votes[k] = v
			}
			v[(dir+1)/2]++
		}
	}
	out := map[int]learned{}
	for _, rw := range rows {
		if _, ok := proven[rw.Seq]; ok {
			continue
		}
		if _, _, known, any := bySeg[rw.SegID].movement(rw, unsigned); known || !any {
			continue
		}
		// The longest key that proven rows share decides, or nothing.
		for _, k := range kindKeys(rw.Desc) {
			v := votes[k]
			if v == nil {
				continue
			}
			switch out0, in := v[0], v[1]; {
			case out0 > 2*in:
				out[rw.Seq] = learned{dir: -1, from: out0}
			case in > 2*out0:
				out[rw.Seq] = learned{dir: 1, from: in}
			}
			break
		}
	}
	return out
}

// kindKeys are the names of a row's kind, longest first: its
// description's first two words and its first word, folded, leaving out
// words without a letter (dates, references, amounts).
func kindKeys(desc []string) []string {
	var words []string
	for _, w := range strings.Fields(lexicon.FoldLabel(strings.Join(desc, " "))) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			words = append(words, w)
			if len(words) == 2 {
				break
			}
		}
	}
	switch len(words) {
	case 0:
		return nil
	case 1:
		return words
	}
	return []string{words[0] + " " + words[1], words[0]}
}
