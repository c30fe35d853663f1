package extract

import (
	"slices"

	"passbook/extract/cells"
	"passbook/extract/ledger"
	"passbook/extract/reading"

	"github.com/shopspring/decimal"
)

// Recheck judges the rows txs a person corrected from the stored
// conversion's rows orig, under st: the stored statement with the person's
// corrections of its header. It sets st's (and each account's) proof and
// reconciliation, and returns the document's.
//
// What the rows say of themselves is ignored: each corrected row takes the
// provenance and warnings of the stored row it stands for (matched by
// date, description and account, else by place; a row matching none was
// added by the person), less the doubts the correction answered (a row
// whose amount was changed is no longer one whose direction was guessed).
// So a client cannot make a statement ok by sending other warnings.
//
// Then the balance chain is walked from the opening balance (or, without
// one, from the first printed balance) to the closing balance, with Judge
// deciding as for a conversion. A balance the conversion computed is
// computed again, so that a corrected amount carries through; one a person
// typed over it is checked but proves nothing; a printed balance (as
// corrected) is checked. The doubts of the reading that the rows do not
// hold (a year assumed, an opening balance restated among the rows, lines
// set aside) stay in the proof. A document of several accounts is checked
// account by account.
func Recheck(orig []ledger.Transaction, txs []ledger.Transaction, st *ledger.Statement) ledger.Reconciliation {
	carryOver(orig, txs)
	if len(st.Accounts) == 0 {
		idx := make([]int, len(txs))
		for i := range idx {
			idx[i] = i
		}
		p := recheckChain(txs, idx, st.OpeningBalance, st.ClosingBalance, st.Proof)
		p.DatesOutside = ledger.DatesOutside(txs, st.PeriodStart, st.PeriodEnd, cells.PeriodSlack)
		p.CheckTotals(txs, st.TotalIn, st.TotalOut)
		st.Proof = p
		st.Reconciliation = ledger.Judge(txs, p, st.ClosingBalance != nil)
		return st.Reconciliation
	}
	rows := make([][]int, len(st.Accounts))
	for k := range st.Accounts {
		a := &st.Accounts[k]
		for i, t := range txs {
			if t.Account == a.Number {
				rows[k] = append(rows[k], i)
			}
		}
		a.Proof = recheckChain(txs, rows[k], a.OpeningBalance, a.ClosingBalance, a.Proof)
		a.Proof.DatesOutside = ledger.DatesOutside(mineOf(txs, rows[k]), st.PeriodStart, st.PeriodEnd, cells.PeriodSlack)
		a.Reconciliation = ledger.Judge(mineOf(txs, rows[k]), a.Proof, a.ClosingBalance != nil)
	}
	st.Reconciliation = ledger.JudgeAccounts(st.Accounts, rows)
	return st.Reconciliation
}

// recheckChain walks the rows txs[idx...] in order from opening to
// closing, recomputing the balances the conversion computed, and returns
// the arithmetic's proof with the reading's doubts kept from was. Its
// breaks are positions in idx.
func recheckChain(txs []ledger.Transaction, idx []int, opening, closing *decimal.Decimal, was ledger.Proof) ledger.Proof {
	p := ledger.Proof{Restarted: was.Restarted, RestatedOpening: was.RestatedOpening, Dropped: was.Dropped, Unread: was.Unread,
		OCR: was.OCR, YearAssumed: was.YearAssumed, CardByLayout: was.CardByLayout, Card: was.Card, DateGuessed: was.DateGuessed, CardNamedOnce: was.CardNamedOnce, KindOpen: was.KindOpen}
	r := reading.Reading{Card: was.Card}
	prev, have := decimal.Zero, opening != nil
	if have {
		prev = *opening
	}
	lastPrinted := false
	for k, i := range idx {
		t := &txs[i]
		pv := &t.Provenance
		d := r.Chain(reading.TxMove(*t))
		switch {
		case !pv.BalancePrinted() && !pv.BalanceEntered && have:
			prev = prev.Add(d)
			t.Balance = prev
			pv.BalanceComputed, pv.BalanceFromZero = true, false
			t.Warnings = append(t.Warnings, ledger.ComputedWarning())
		case !pv.BalancePrinted() && !pv.BalanceEntered:
			prev, have = d, true
			t.Balance = prev
			pv.BalanceComputed, pv.BalanceFromZero = false, true
			t.Warnings = append(t.Warnings, ledger.FromZeroWarning())
		case have:
			want := prev.Add(d)
			if !pv.BalanceEntered {
				p.Checks++
				p.Proven = k + 1
			}
			if !want.Equal(t.Balance) {
				p.BreakAt(k, t.Balance.Sub(want))
				t.Warnings = append(t.Warnings, ledger.BreakWarning(t.Balance, prev, want))
			}
			prev = t.Balance
		default:
			// The first printed balance with no opening balance: the
			// opening is worked back from it, which it then meets.
			p.OpeningDerived = true
			prev, have = t.Balance, true
		}
		lastPrinted = pv.BalancePrinted()
	}
	if closing != nil && len(idx) > 0 {
		if !lastPrinted {
			p.Checks++
			p.Proven = len(idx)
		}
		if last := txs[idx[len(idx)-1]].Balance; !last.Equal(*closing) {
			p.BreakAt(len(idx)-1, closing.Sub(last))
		}
	}
	return p
}

// carryOver gives each corrected row of txs the provenance and warnings
// of the stored row of orig it stands for, less the doubts the correction
// answered, and drops whatever the rows said of themselves. The
// balance's own notes (computed, from zero, a break) are left for the
// chain's walk to write again.
func carryOver(orig, txs []ledger.Transaction) {
	match := matchRows(orig, txs)
	for i := range txs {
		e := &txs[i]
		j := match[i]
		if j < 0 {
			e.Provenance = ledger.Provenance{Added: true, BalanceComputed: true}
			e.Warnings = []ledger.Warning{{Kind: ledger.WarnAdded, Message: "added by a person: its balance is computed from the row before"}}
			continue
		}
		o := orig[j]
		pv := o.Provenance
		drop := map[ledger.WarningKind]bool{ledger.WarnBalanceBreak: true, ledger.WarnBalanceComputed: true, ledger.WarnBalanceFromZero: true, ledger.WarnBalanceEntered: true}
		if !sameAmount(o, *e) {
			pv.DirectionGuessed, pv.DirectionLearned, pv.DirectionFromSums, pv.DirectionFromBalance, pv.AmountFromBalance = false, false, false, false, false
			for _, k := range []ledger.WarningKind{ledger.WarnDirectionUnknown, ledger.WarnDirectionLearned, ledger.WarnDirectionFromSums, ledger.WarnDirectionFromBalance, ledger.WarnAmountFromBalance} {
				drop[k] = true
			}
		}
		if !o.Date.Equal(e.Date) {
			pv.DateUnread, pv.DateFromAbove = false, false
			drop[ledger.WarnDateUnread], drop[ledger.WarnDateFromAbove], drop[ledger.WarnDateUnresolved] = true, true, true
		}
		if !o.Date.Equal(e.Date) || o.Description != e.Description {
			pv.LowConfidence = 0
			drop[ledger.WarnLowConfidence] = true
		}
		if !o.Provenance.BalancePrinted() && !o.Balance.Equal(e.Balance) {
			// Typed over a computed balance: the person's, which the
			// chain checks but which proves nothing.
			pv.BalanceComputed, pv.BalanceFromZero, pv.BalanceEntered = false, false, true
		}
		pv.Added = o.Provenance.Added
		ws := slices.DeleteFunc(slices.Clone(o.Warnings), func(w ledger.Warning) bool { return drop[w.Kind] })
		if pv.BalanceEntered {
			ws = append(ws, ledger.Warning{Kind: ledger.WarnBalanceEntered, Message: "balance entered by a person where the statement prints none: checked, but it proves nothing"})
		}
		e.Provenance, e.Warnings = pv, ws
	}
}

// sameAmount reports rows that move the same money the same way.
func sameAmount(a, b ledger.Transaction) bool {
	eq := func(x, y *decimal.Decimal) bool { return x == nil && y == nil || x != nil && y != nil && x.Equal(*y) }
	return eq(a.AmountIn, b.AmountIn) && eq(a.AmountOut, b.AmountOut)
}

// maxMatchCells bounds the table matchRows fills for the rows between
// the corrected list's common start and end with the stored one.
const maxMatchCells = 1 << 20

// matchRows returns, for each row of txs, the index of the row of orig it
// stands for, or -1 for a row a person added. Rows are the same when their
// date, description and account are: the common start and end are
// matched first, then the longest common run of the rows between, and
// rows left between two matches in equal numbers on both sides are
// matched by place (a corrected date or description).
func matchRows(orig, txs []ledger.Transaction) []int {
	same := func(o, e ledger.Transaction) bool {
		return o.Date.Equal(e.Date) && o.Description == e.Description && o.Account == e.Account
	}
	m := make([]int, len(txs))
	for i := range m {
		m[i] = -1
	}
	lo := 0
	for lo < len(orig) && lo < len(txs) && same(orig[lo], txs[lo]) {
		m[lo] = lo
		lo++
	}
	ho, he := len(orig), len(txs)
	for ho > lo && he > lo && same(orig[ho-1], txs[he-1]) {
		ho, he = ho-1, he-1
		m[he] = ho
	}
	a, b := ho-lo, he-lo
	// pairs are the matches in the middle, in order, closed by the ends.
	type pair struct{ o, e int }
	pairs := []pair{{lo - 1, lo - 1}}
	if a > 0 && b > 0 && a != b && a*b <= maxMatchCells {
		// The longest common subsequence, by a table of suffix lengths.
		w := b + 1
		n := make([]int32, (a+1)*w)
		for i := a - 1; i >= 0; i-- {
			for j := b - 1; j >= 0; j-- {
				if same(orig[lo+i], txs[lo+j]) {
					n[i*w+j] = n[(i+1)*w+j+1] + 1
				} else {
					n[i*w+j] = max(n[(i+1)*w+j], n[i*w+j+1])
				}
			}
		}
		for i, j := 0, 0; i < a && j < b; {
			switch {
			case same(orig[lo+i], txs[lo+j]):
				pairs = append(pairs, pair{lo + i, lo + j})
				i, j = i+1, j+1
			case n[(i+1)*w+j] >= n[i*w+j+1]:
				i++
			default:
				j++
			}
		}
	}
	pairs = append(pairs, pair{ho, he})
	for k := 1; k < len(pairs); k++ {
		p, q := pairs[k-1], pairs[k]
		if k < len(pairs)-1 {
			m[q.e] = q.o
		}
		if q.o-p.o == q.e-p.e {
			for d := 1; d < q.o-p.o; d++ {
				m[p.e+d] = p.o + d
			}
		}
	}
	return m
}

// mineOf is the rows of txs at idx.
func mineOf(txs []ledger.Transaction, idx []int) []ledger.Transaction {
	out := make([]ledger.Transaction, len(idx))
	for j, i := range idx {
		out[j] = txs[i]
	}
	return out
}
