package extract

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Recheck walks the balance chain of a list of transactions a person has
// corrected, from the statement's opening balance (or, without one, from the
// first row's balance) to its closing balance, and says whether it holds.
//
// A row whose warnings say its balance was not printed (it was computed from
// the running balance) proves nothing: its balance is recomputed in place
// from the row before, so that correcting an amount carries through. Every
// other balance is taken as printed and checked. A document that holds
// several accounts (st.Accounts) is checked account by account.
func Recheck(txs []Transaction, st Statement) Reconciliation {
	if len(txs) == 0 {
		return Reconciliation{Status: ReconcileNoTransactions, Message: "the document holds no transactions"}
	}
	if len(st.Accounts) == 0 {
		idx := make([]int, len(txs))
		for i := range idx {
			idx[i] = i
		}
		return finish(recheckChain(txs, idx, st.OpeningBalance, st.ClosingBalance))
	}
	var all chain
	for _, a := range st.Accounts {
		var idx []int
		for i, t := range txs {
			if t.Account == a.Number {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		c := recheckChain(txs, idx, a.OpeningBalance, a.ClosingBalance)
		all.checks += c.checks
		all.rows = append(all.rows, c.rows...)
		if all.diff == nil {
			all.diff = c.diff
		}
	}
	return finish(all)
}

// chain is what walking one account's rows found.
type chain struct {
	checks int
	rows   []int
	diff   *decimal.Decimal
}

func (c *chain) fail(i int, diff decimal.Decimal) {
	if c.diff == nil {
		c.diff = &diff
	}
	if n := len(c.rows); n == 0 || c.rows[n-1] != i {
		c.rows = append(c.rows, i)
	}
}

// recheckChain walks the rows txs[idx...] in order.
func recheckChain(txs []Transaction, idx []int, opening, closing *decimal.Decimal) chain {
	var c chain
	prev, have := decimal.Zero, opening != nil
	if have {
		prev = *opening
	}
	for _, i := range idx {
		t := &txs[i]
		d := decimal.Zero
		if t.AmountIn != nil {
			d = d.Add(*t.AmountIn)
		}
		if t.AmountOut != nil {
			d = d.Sub(*t.AmountOut)
		}
		switch {
		case !balancePrinted(*t) && have:
			prev = prev.Add(d)
			t.Balance = prev
		case !balancePrinted(*t):
			// Counted from zero, as the conversion did.
			prev, have = d, true
			t.Balance = prev
		case have:
			c.checks++
			if want := prev.Add(d); !want.Equal(t.Balance) {
				c.fail(i, t.Balance.Sub(want))
			}
			prev = t.Balance
		default:
			prev, have = t.Balance, true
		}
	}
	if closing != nil {
		c.checks++
		last := idx[len(idx)-1]
		if !txs[last].Balance.Equal(*closing) {
			c.fail(last, closing.Sub(txs[last].Balance))
		}
	}
	return c
}

// balancePrinted reports a row whose balance was read from the document,
// not computed by the conversion.
func balancePrinted(t Transaction) bool {
	for _, w := range t.Warnings {
		if strings.HasPrefix(w, warnComputedPrefix) || strings.HasPrefix(w, warnNoOpeningPref) {
			return false
		}
	}
	return true
}

func finish(c chain) Reconciliation {
	switch {
	case len(c.rows) > 0:
		first := c.rows[0] + 1
		return Reconciliation{Status: ReconcileMismatch, Difference: c.diff, Rows: c.rows,
			Message: fmt.Sprintf("the running balance breaks at %d row(s), first at row %d, where the printed balance is off by %s",
				len(c.rows), first, c.diff.StringFixed(2))}
	case c.checks == 0:
		return Reconciliation{Status: ReconcileUnverified, Message: "the statement prints no balances to check the transactions against"}
	}
	return Reconciliation{Status: ReconcileOK, Message: fmt.Sprintf("opening balance plus money in minus money out meets all %d printed balance(s)", c.checks)}
}
