package redact

import (
	"fmt"

	"github.com/shopspring/decimal"

	"passbook/extract/layout"
	"passbook/extract/ledger"
)

// values are the copy's figures. Amounts are the original's times the
// factor, rounded to the places the statement prints. Printed balances
// are scaled the same way, and an amount the balances around it prove
// is their difference in the copy, so the copy's arithmetic proves
// exactly where the original's did; where the original's breaks, the
// amount is scaled alone and the copy breaks there too. A balance the
// conversion computed runs on from the one before. Printed sums are the
// copy's sums plus the original's difference from its own, scaled.
type values struct {
	f    decimal.Decimal
	dec  int32
	rows []ledger.Transaction // the copy's rows, as it should read
	orig []ledger.Transaction
	// named maps an original figure outside the rows (opening, closing,
	// totals) to the copy's.
	named map[string]decimal.Decimal
	// onPage lists each page's rows (by the original's index), so that a
	// token looks for its row among its page's only.
	onPage map[int][]int
}

func (p *planner) figureValues() *values {
	v := &values{f: p.factor, named: map[string]decimal.Decimal{}}
	ts := p.res.Transactions
	v.orig = ts
	v.onPage = map[int][]int{}
	for i, t := range ts {
		v.onPage[t.Page] = append(v.onPage[t.Page], i)
	}
	for _, t := range ts {
		for _, a := range []*decimal.Decimal{t.AmountIn, t.AmountOut} {
			if a != nil && -a.Exponent() > v.dec {
				v.dec = -a.Exponent()
			}
		}
	}
	st := p.res.Statement
	type chain struct {
		opening, closing  *decimal.Decimal
		totalIn, totalOut *decimal.Decimal
	}
	chains := map[string]chain{}
	if len(st.Accounts) == 0 {
		chains[""] = chain{st.OpeningBalance, st.ClosingBalance, st.TotalIn, st.TotalOut}
	} else {
		for _, a := range st.Accounts {
			chains[a.Number] = chain{opening: a.OpeningBalance, closing: a.ClosingBalance}
		}
		// The statement's own sums are the whole document's.
		chains["\x00"] = chain{totalIn: st.TotalIn, totalOut: st.TotalOut}
	}
	type run struct {
		prev, prevNew decimal.Decimal
		known         bool
		in, out       [2]decimal.Decimal // original and copy sums
	}
	runs := map[string]*run{}
	v.rows = make([]ledger.Transaction, len(ts))
	for i, t := range ts {
		key := t.Account
		if len(st.Accounts) == 0 {
			key = ""
		}
		r := runs[key]
		if r == nil {
			r = &run{}
			if c := chains[key]; c.opening != nil {
				r.prev, r.prevNew, r.known = *c.opening, v.signed(*c.opening), true
			}
			runs[key] = r
		}
		a := t.AmountIn
		if a == nil {
			a = t.AmountOut
		}
		if a == nil {
			v.rows[i] = t
			continue
		}
		na := v.scale(*a)
		var nb decimal.Decimal
		switch {
		case t.Provenance.BalanceComputed || t.Provenance.BalanceFromZero:
			switch {
			case t.Provenance.BalanceFromZero:
				if !r.known {
					r.prev, r.prevNew = decimal.Zero, decimal.Zero
				}
			case !r.known || !t.Balance.Sub(r.prev).Abs().Equal(a.Abs()):
				// Computed from an opening the statement's summary does
				// not carry, or from another figure than the balance
				// before it (the conversion started its count there):
				// the one before the row, by the way the balances move
				// with money in further down.
				r.prev = t.Balance.Sub(a.Abs().Mul(decimal.NewFromInt(int64(inSign(t) * balanceSign(ts, i)))))
				r.prevNew = v.signed(r.prev)
			}
			step := t.Balance.Sub(r.prev)
			nb = r.prevNew.Add(na.Mul(decimal.NewFromInt(int64(step.Sign()))))
		default:
			nb = v.signed(t.Balance)
			if r.known && t.Balance.Sub(r.prev).Abs().Equal(a.Abs()) && !a.IsZero() {
				na = nb.Sub(r.prevNew).Abs()
			}
		}
		r.prev, r.prevNew, r.known = t.Balance, nb, true
		// A balance printed apart from its row ("SALDO DO DIA" under a
		// day's rows, a balance the conversion computed) prints the
		// copy's.
		v.name(t.Balance, nb)
		nt := t
		nt.Balance = nb
		if t.AmountIn != nil {
			nt.AmountIn = &na
			r.in[0], r.in[1] = r.in[0].Add(*a), r.in[1].Add(na)
		} else {
			nt.AmountOut = &na
			r.out[0], r.out[1] = r.out[0].Add(*a), r.out[1].Add(na)
		}
		v.rows[i] = nt
	}
	v.columnSums()
	sums := func(keys ...string) (in, out [2]decimal.Decimal) {
		for k, r := range runs {
			if len(keys) == 0 || k == keys[0] {
				in[0], in[1] = in[0].Add(r.in[0]), in[1].Add(r.in[1])
				out[0], out[1] = out[0].Add(r.out[0]), out[1].Add(r.out[1])
			}
		}
		return
	}
	for key, c := range chains {
		r := runs[key]
		if c.opening != nil {
			v.name(*c.opening, v.signed(*c.opening))
		}
		if c.closing != nil {
			if r != nil && r.known {
				v.name(*c.closing, r.prevNew.Add(v.signed(c.closing.Sub(r.prev))))
			} else {
				v.name(*c.closing, v.signed(*c.closing))
			}
		}
		var in, out [2]decimal.Decimal
		if key == "\x00" {
			in, out = sums()
		} else {
			in, out = sums(key)
		}
		if c.totalIn != nil {
			v.name(*c.totalIn, in[1].Add(v.signed(c.totalIn.Abs().Sub(in[0]))))
		}
		if c.totalOut != nil {
			v.name(*c.totalOut, out[1].Add(v.signed(c.totalOut.Abs().Sub(out[0]))))
		}
	}
	return v
}

// columnSums names the sums of the rows' money in and money out that a
// statement may print without the reading taking them as its totals (a
// totals line it knows by its figures): over the document, each
// account, each page, and up to the end of each page (carried
// forward). The copy prints its own rows' sums there.
func (v *values) columnSums() {
	type sum struct{ o, c decimal.Decimal }
	add := func(m map[string]*[2]sum, key string, t, n ledger.Transaction) {
		if m[key] == nil {
			m[key] = &[2]sum{}
		}
		k, a, na := 0, t.AmountIn, n.AmountIn
		if a == nil {
			k, a, na = 1, t.AmountOut, n.AmountOut
		}
		if a == nil || na == nil {
			return
		}
		m[key][k].o, m[key][k].c = m[key][k].o.Add(a.Abs()), m[key][k].c.Add(na.Abs())
	}
	groups := map[string]*[2]sum{}
	var run [2]sum
	for i, t := range v.orig {
		n := v.rows[i]
		add(groups, "all", t, n)
		add(groups, "account "+t.Account, t, n)
		add(groups, fmt.Sprint("page ", t.Page), t, n)
		k, a, na := 0, t.AmountIn, n.AmountIn
		if a == nil {
			k, a, na = 1, t.AmountOut, n.AmountOut
		}
		if a != nil && na != nil {
			run[k].o, run[k].c = run[k].o.Add(a.Abs()), run[k].c.Add(na.Abs())
		}
		if i+1 == len(v.orig) || v.orig[i+1].Page != t.Page {
			r := run
			groups[fmt.Sprint("to page ", t.Page)] = &r
		}
	}
	for _, g := range groups {
		for _, s := range g {
			if s.o.Sign() > 0 {
				v.name(s.o, s.c)
			}
		}
	}
}

// inSign is +1 for money in, -1 for money out.
func inSign(t ledger.Transaction) int {
	if t.AmountIn != nil {
		return 1
	}
	return -1
}

// balanceSign is how the rows' balances move with money in after row i
// of its account: +1 up (a deposit account), -1 down (a card's balance
// owed), from the first later row whose balance moved; +1 when none did.
func balanceSign(ts []ledger.Transaction, i int) int {
	for j := i + 1; j < len(ts); j++ {
		if ts[j].Account != ts[i].Account {
			continue
		}
		prev := j - 1
		for prev > i && ts[prev].Account != ts[i].Account {
			prev--
		}
		if step := ts[j].Balance.Sub(ts[prev].Balance).Sign(); step != 0 {
			return step * inSign(ts[j])
		}
	}
	return 1
}

// name records the copy's value of a figure printed outside the rows.
func (v *values) name(orig, nv decimal.Decimal) {
	k := orig.Abs().String()
	if _, ok := v.named[k]; !ok {
		v.named[k] = nv.Abs()
	}
}

// scale is |x| times the factor, rounded to the statement's places.
func (v *values) scale(x decimal.Decimal) decimal.Decimal {
	return x.Abs().Mul(v.f).Round(v.dec)
}

// signed is x times the factor, rounded away from zero at the half as
// its magnitude is, so that a balance keeps its sign.
func (v *values) signed(x decimal.Decimal) decimal.Decimal {
	s := v.scale(x)
	if x.Sign() < 0 {
		return s.Neg()
	}
	return s
}

// rowAt is the row whose box holds the token on page pi, or -1. A row's
// box may stop short of its figures (a row whose description stands on
// lines of its own, its amount on the line above them): then it is the
// row beside the token, one of whose figures the token prints.
func (v *values) rowAt(pi int, t layout.Token) int {
	cx, cy := t.Center(), (t.Y0+t.Y1)/2
	for _, i := range v.onPage[pi+1] {
		b := v.orig[i].Box
		if cx >= b[0]-1 && cx <= b[2]+1 && cy >= b[1]-1 && cy <= b[3]+1 {
			return i
		}
	}
	if t.Amount.IsZero() {
		return -1
	}
	x := t.Amount.Abs()
	prints := func(i int) bool {
		r := v.orig[i]
		a := r.AmountIn
		if a == nil {
			a = r.AmountOut
		}
		return a != nil && x.Equal(a.Abs()) || x.Equal(r.Balance.Abs()) && !r.Provenance.BalanceComputed && !r.Provenance.BalanceFromZero
	}
	for _, i := range v.onPage[pi+1] {
		b := v.orig[i].Box
		if cy >= b[1]-1 && cy <= b[3]+1 && cx >= b[2] && prints(i) {
			return i
		}
	}
	// A record whose figures stand on lines under its dated one
	// ("Amount: $-31,897.50" under "Date: 2024-03-07"), its box that
	// line alone: the nearest row above the token, when it prints the
	// token's figure.
	best := -1
	for _, i := range v.onPage[pi+1] {
		if b := v.orig[i].Box; b[1] <= cy && (best < 0 || b[1] > v.orig[best].Box[1]) {
			best = i
		}
	}
	if best >= 0 && prints(best) {
		return best
	}
	return -1
}

// isFigure reports a whole number ("172", printed with no decimals or
// grouping) that stands for money: as a row's amount or balance, or as
// a figure the reading took outside the rows (an opening, a closing, a
// total).
func (v *values) isFigure(pi int, t layout.Token) bool {
	if _, ok := v.named[t.Amount.Abs().String()]; ok {
		return true
	}
	i := v.rowAt(pi, t)
	if i < 0 {
		return false
	}
	r := v.orig[i]
	a := r.AmountIn
	if a == nil {
		a = r.AmountOut
	}
	x := t.Amount.Abs()
	return a != nil && x.Equal(a.Abs()) || x.Equal(r.Balance.Abs())
}

// of is the copy's value of an amount token of page pi on line l.
func (v *values) of(pi int, l *layout.Line, t layout.Token) decimal.Decimal {
	x := t.Amount.Abs()
	dec := int32(0)
	if e := t.Amount.Exponent(); e < 0 {
		dec = -e
	}
	if i := v.rowAt(pi, t); i >= 0 {
		r, n := v.orig[i], v.rows[i]
		a, na := r.AmountIn, n.AmountIn
		if a == nil {
			a, na = r.AmountOut, n.AmountOut
		}
		isBal := x.Equal(r.Balance.Abs()) && !r.Provenance.BalanceComputed && !r.Provenance.BalanceFromZero
		isAmt := a != nil && x.Equal(a.Abs())
		if isAmt && isBal {
			// The same figure twice on the row: the balance is the one
			// further right.
			for _, o := range l.Toks {
				if o.X0 > t.X0 && o.Amount.Abs().Equal(x) && (o.Kind == layout.TokAmount || o.Bare) {
					isBal = false
				}
			}
			isAmt = !isBal
		}
		switch {
		case isAmt:
			return *na
		case isBal:
			return n.Balance.Abs()
		}
	}
	if nv, ok := v.named[x.String()]; ok {
		return nv
	}
	return x.Mul(v.f).Round(dec)
}
