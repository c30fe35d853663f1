package reading

import (
	"cmp"
	"slices"
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

// toward is an amount's size as a movement in direction dir (-1 out, +1
// in).
func toward(size decimal.Decimal, dir int) decimal.Decimal {
	return size.Mul(decimal.NewFromInt(int64(dir)))
}

// provenDirections gives each row whose direction the document proves
// its direction (-1 out, +1 in), keyed by the row's seq: by its column,
// sign, Dr/Cr word or title, or by the printed balances. The rows of
// unproven direction between two printed balances (or the opening balance
// and a printed balance) move it from one to the other: when only one
// choice of their directions does, under the rows' reading, the balances
// prove it, as they prove a single row's.
func provenDirections(rows []tables.Row, bySeg map[int]Reading, unsigned bool, opening *decimal.Decimal) map[int]int {
	out := map[int]int{}
	// start is the balance the rows since it move by moved, less what
	// the rows of unproven direction among them (seqs, sizes) move.
	var start, moved decimal.Decimal
	have := opening != nil
	if have {
		start = *opening
	}
	var seqs []int
	var sizes []decimal.Decimal
	card := false
	for _, rw := range rows {
		r := bySeg[rw.SegID]
		d, abs, known, any := r.movement(rw, unsigned)
		if any && known && !d.IsZero() {
			out[rw.Seq] = d.Sign()
		}
		moved = moved.Add(r.Chain(d))
		if !known {
			seqs, sizes, card = append(seqs, rw.Seq), append(sizes, abs), r.Card
		}
		b, hasBal := PrintedBalance(rw)
		if !hasBal {
			continue
		}
		if have && len(seqs) > 0 {
			net := b.Sub(start).Sub(moved)
			if card {
				net = net.Neg()
			}
			if dirs, ok := directionsFor(sizes, net); ok {
				for k, seq := range seqs {
					out[seq] = dirs[k]
				}
			}
		}
		start, moved, have = b, decimal.Zero, true
		seqs, sizes = nil, nil
	}
	return out
}

// directionsFor gives amounts of the given sizes the one choice of
// directions (-1 out, +1 in) under which they move the balance by net,
// money in less money out, if exactly one does.
func directionsFor(sizes []decimal.Decimal, net decimal.Decimal) ([]int, bool) {
	all := decimal.Sum(decimal.Zero, sizes...)
	picked, ok := onlySubset(sizes, net.Add(all).Div(decimal.NewFromInt(2)))
	if !ok {
		return nil, false
	}
	dirs := make([]int, len(sizes))
	for k, in := range picked {
		dirs[k] = -1
		if in {
			dirs[k] = 1
		}
	}
	return dirs, true
}

// minExamples is the least number of proven rows of a kind that teach
// its direction: one row may be the exception ("Transfer from" among
// "Transfer to").
const minExamples = 2

// learnDirections gives each row of unproven direction (an amount with
// no sign that proven does not hold) the direction of the proven rows of
// its kind: those whose description starts with the same two words, else
// the same word. At least minExamples rows of that kind must agree, more
// than twice as many one way as the other; else the row is left out.
func learnDirections(rows []tables.Row, bySeg map[int]Reading, unsigned bool, proven map[int]int) map[int]learned {
	// votes[key] counts the proven rows of each kind: [0] out, [1] in.
	votes := map[[2]string]*[2]int{}
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
			case out0 >= minExamples && out0 > 2*in:
				out[rw.Seq] = learned{dir: -1, from: out0}
			case in >= minExamples && in > 2*out0:
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
func kindKeys(desc []string) [][2]string {
	var words []string
	for _, part := range desc {
		for _, w := range strings.Fields(lexicon.FoldLabel(part)) {
			if len(words) < 2 && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
				words = append(words, w)
			}
		}
	}
	switch len(words) {
	case 0:
		return nil
	case 1:
		return [][2]string{{words[0]}}
	}
	return [][2]string{{words[0], words[1]}, {words[0]}}
}

// maxSearch bounds the ways sumDirections tries: past it, the sums settle
// nothing.
const maxSearch = 1 << 17

// sumDirections gives the rows of unproven direction (neither known nor in
// proven) the directions under which the statement's printed sums come
// out, when exactly one way does: its totals of money in and out, or, with
// no balance printed on any row, its opening and closing balances. It
// returns nothing when no sum is printed, the sums disagree, or several
// ways (or none) add up.
func sumDirections(rows []tables.Row, bySeg map[int]Reading, unsigned bool, proven map[int]int, opening, closing, totalIn, totalOut *decimal.Decimal) map[int]int {
	var knownIn, knownOut, knownNet, all decimal.Decimal
	var seqs []int
	var sizes []decimal.Decimal
	card := false
	for _, rw := range rows {
		r := bySeg[rw.SegID]
		d, abs, known, any := r.movement(rw, unsigned)
		if !any {
			continue
		}
		if dir, ok := proven[rw.Seq]; ok && !known {
			d, known = d.Add(toward(abs, dir)), true
		}
		if d.IsNegative() {
			knownOut = knownOut.Sub(d)
		} else {
			knownIn = knownIn.Add(d)
		}
		knownNet = knownNet.Add(r.Chain(d))
		if !known {
			seqs, sizes = append(seqs, rw.Seq), append(sizes, abs)
			all = all.Add(abs)
			card = r.Card
		}
	}
	if len(seqs) == 0 {
		return nil
	}
	// net is what the rows of unproven direction move, money in less
	// money out, by each sum.
	var nets []decimal.Decimal
	if totalIn != nil {
		nets = append(nets, totalIn.Sub(knownIn).Mul(decimal.NewFromInt(2)).Sub(all))
	}
	if totalOut != nil {
		nets = append(nets, all.Sub(totalOut.Sub(knownOut).Mul(decimal.NewFromInt(2))))
	}
	if opening != nil && closing != nil && !AnyPrintedBalance(rows) {
		// They move the balance the rest of the way to the closing
		// balance.
		net := closing.Sub(*opening).Sub(knownNet)
		if card {
			net = net.Neg()
		}
		nets = append(nets, net)
	}
	if len(nets) == 0 || slices.ContainsFunc(nets[1:], func(v decimal.Decimal) bool { return !v.Equal(nets[0]) }) {
		return nil
	}
	dirs, ok := directionsFor(sizes, nets[0])
	if !ok {
		return nil
	}
	out := map[int]int{}
	for k, seq := range seqs {
		out[seq] = dirs[k]
	}
	return out
}

// onlySubset finds the one choice of sizes that adds up to target, if
// exactly one does (within maxSearch steps).
func onlySubset(sizes []decimal.Decimal, target decimal.Decimal) ([]bool, bool) {
	if target.IsNegative() {
		return nil, false
	}
	// Whole cents (or whatever the smallest unit printed is); a target
	// between them is met by no choice.
	places := int32(0)
	for _, v := range sizes {
		places = max(places, -v.Exponent())
	}
	if places > 6 {
		return nil, false
	}
	n := len(sizes)
	vals := make([]int64, n)
	order := make([]int, n)
	for i, v := range sizes {
		s := v.Shift(places)
		if !s.IsInteger() || s.Sign() <= 0 {
			return nil, false
		}
		vals[i], order[i] = s.IntPart(), i
	}
	t := target.Shift(places)
	if !t.IsInteger() {
		return nil, false
	}
	want := t.IntPart()
	// Largest first, with what is left below each, to cut branches early.
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(vals[b], vals[a]) })
	rest := make([]int64, n+1)
	for k := n - 1; k >= 0; k-- {
		rest[k] = rest[k+1] + vals[order[k]]
	}
	var found, cur []bool
	cur = make([]bool, n)
	count, steps := 0, 0
	var walk func(k int, sum int64)
	walk = func(k int, sum int64) {
		steps++
		if count > 1 || steps > maxSearch || sum > want || sum+rest[k] < want {
			return
		}
		if k == n {
			count++
			found = slices.Clone(cur)
			return
		}
		i := order[k]
		cur[i] = true
		walk(k+1, sum+vals[i])
		cur[i] = false
		walk(k+1, sum)
	}
	walk(0, 0)
	if count != 1 || steps > maxSearch {
		return nil, false
	}
	return found, true
}

// openingAmong finds, among the lone amounts printed outside the tables,
// the opening balance of rows whose first printed balance comes after
// rows of unproven direction: the one amount from which exactly one
// choice of their directions reaches that balance. A balance the rows
// before it prove is worked back to the usual way, and is none of this.
func openingAmong(loose []decimal.Decimal, rows []tables.Row, bySeg map[int]Reading, unsigned bool) (decimal.Decimal, bool) {
	var moved decimal.Decimal
	var sizes []decimal.Decimal
	card := false
	for _, rw := range rows {
		r := bySeg[rw.SegID]
		d, abs, known, _ := r.movement(rw, unsigned)
		moved = moved.Add(r.Chain(d))
		if !known {
			sizes, card = append(sizes, abs), r.Card
		}
		b, ok := PrintedBalance(rw)
		if !ok {
			continue
		}
		var found []decimal.Decimal
		for _, a := range loose {
			net := b.Sub(a).Sub(moved)
			if card {
				net = net.Neg()
			}
			if _, ok := directionsFor(sizes, net); ok && len(sizes) > 0 && !slices.ContainsFunc(found, a.Equal) {
				found = append(found, a)
			}
		}
		if len(found) != 1 {
			return decimal.Decimal{}, false
		}
		return found[0], true
	}
	return decimal.Decimal{}, false
}
