package reading

import (
	"passbook/extract/ledger"
	"passbook/extract/source"

	"fmt"
	"slices"
	"strings"
	"time"

	"passbook/extract/cells"
	"passbook/extract/layout"

	"github.com/shopspring/decimal"
)

// chainStep is one transaction row as reconciliation reads it, for
// repairOCRChain.
type ChainStep struct {
	// Move is the row's signed change to the balance as read.
	Move decimal.Decimal
	// Known is false when the row's direction is unknown; no repair is
	// tried across such a row.
	Known bool
	// Balance is the balance printed on the row, when Printed.
	Balance decimal.Decimal
	Printed bool
}

// chainFix is a correction the running balance proves for one row: exactly
// one of Move and Balance is set.
type chainFix struct {
	Move    *decimal.Decimal // the row's corrected signed movement
	Balance *decimal.Decimal // the row's corrected printed balance
	// Warning says what was read and what it was corrected to, for the
	// row's warnings.
	Warning string
}

// openingRow is the key under which repairOCRChain returns a correction of
// the opening balance.
const OpeningRow = -1

// repairOCRChain finds the misreads OCR typically makes in numbers — a lost
// or invented minus sign, one digit read wrong, a '+' read as a '4' — where
// the statement's own arithmetic proves them: opening balance plus the
// movements must meet every printed balance and the closing balance.
//
// At each printed balance that does not follow, the explanations are
// weighed: the balance was misread (the chain goes on from the computed
// value), one amount since the last good balance was misread, or, before
// any balance has followed from it, the opening balance was (for both the
// chain goes on from the printed balance). A fix is made only when the
// misread value and the corrected one differ the way OCR errs (see
// ocrConfusable) and the next printed balance (or the closing balance)
// agrees with it, or when only one explanation fits that way (the next
// balance may have been misread too; it is weighed in its turn). A closing balance the chain does not meet is
// weighed the same way: the closing balance, one amount since the last good
// balance, or the opening balance misread. Anything else is left for
// reconciliation to report as a mismatch.
//
// It returns the fixes by row index, the opening balance's under
// openingRow. opening and closing may be nil.
func RepairOCRChain(opening *decimal.Decimal, steps []ChainStep, closing *decimal.Decimal) map[int]chainFix {
	fixes := map[int]chainFix{}
	moves := make([]decimal.Decimal, len(steps))
	for i, s := range steps {
		moves[i] = s.Move
	}
	var prev decimal.Decimal
	have := opening != nil
	if have {
		prev = *opening
	}
	// onOpening is true while the chain still stands on the opening balance:
	// no printed balance has been met since.
	onOpening := have
	start := 0 // first row since the last balance the chain stands on
	// amountAt finds the one row since start whose amount, misread by
	// diff, OCR could have turned into what was read: -1 for none, -2 for
	// more than one.
	amountAt := func(end int, diff decimal.Decimal) (int, string) {
		row, kind := -1, ""
		for k := start; k <= end; k++ {
			fixed := moves[k].Add(diff)
			if fixed.IsZero() || moves[k].IsZero() {
				continue // a row moves money: a zero amount is no reading of one
			}
			if kd := OCRConfusable(moves[k], fixed); kd != "" {
				if row >= 0 {
					return -2, "" // more than one row could be it: no telling which
				}
				row, kind = k, kd
			}
		}
		return row, kind
	}
	// openingKind says how the opening balance could have been misread when
	// the chain from it is diff short of a balance it should meet.
	openingKind := func(diff decimal.Decimal) string {
		if !onOpening {
			return ""
		}
		return OCRConfusable(*opening, opening.Add(diff))
	}
	fixOpening := func(diff decimal.Decimal, kind string) {
		v := opening.Add(diff)
		fixes[OpeningRow] = chainFix{Balance: &v, Warning: fmt.Sprintf(
			"OCR correction: opening balance read as %s, corrected to %s (%s) by the running balance",
			opening.StringFixed(2), v.StringFixed(2), kind)}
	}
	fixAmount := func(k int, diff decimal.Decimal, kind string) {
		v := moves[k].Add(diff)
		fixes[k] = chainFix{Move: &v, Warning: fmt.Sprintf(
			"OCR correction: amount read as %s, corrected to %s (%s) by the running balance",
			moves[k].Abs().StringFixed(2), v.Abs().StringFixed(2), kind)}
		moves[k] = v
	}
	for i, s := range steps {
		if !s.Known {
			have, onOpening = false, false
			if s.Printed {
				prev, have, start = s.Balance, true, i+1
			}
			continue
		}
		if !s.Printed {
			continue
		}
		if !have {
			prev, have, start = s.Balance, true, i+1
			continue
		}
		want := prev
		for k := start; k <= i; k++ {
			want = want.Add(moves[k])
		}
		if want.Equal(s.Balance) {
			prev, start, onOpening = s.Balance, i+1, false
			continue
		}
		// next reports whether the chain, continued from bal after row i,
		// meets the next printed balance or the closing one: true or false
		// when there is one to meet, and checked=false when there is none.
		next := func(bal decimal.Decimal) (ok, checked bool) {
			for j := i + 1; j < len(steps); j++ {
				if !steps[j].Known {
					return false, false
				}
				bal = bal.Add(moves[j])
				if steps[j].Printed {
					// That balance may have lost its own minus sign: a run of
					// overdrawn balances often loses every one.
					b := steps[j].Balance
					return bal.Equal(b) || bal.Equal(b.Neg()), true
				}
			}
			if closing != nil {
				return bal.Equal(*closing), true
			}
			return false, false
		}

		// The balance misread?
		balKind := OCRConfusable(s.Balance, want)
		balOK, balChecked := next(want)
		// One amount, or the opening balance, misread? The chain must go on
		// from the printed balance.
		diff := s.Balance.Sub(want)
		amtRow, amtKind := amountAt(i, diff)
		openKind := openingKind(diff)
		amtOK, amtChecked := next(s.Balance)

		switch {
		case balKind != "" && balChecked && balOK:
			v := want
			fixes[i] = chainFix{Balance: &v, Warning: fmt.Sprintf(
				"OCR correction: balance read as %s, corrected to %s (%s) by the running balance",
				s.Balance.StringFixed(2), v.StringFixed(2), balKind)}
			prev = want
		case amtRow >= 0 && openKind == "" && amtChecked && amtOK,
			amtRow >= 0 && openKind == "" && balKind == "":
			// Proved by the next balance, or the one explanation that fits:
			// the next balance may be misread itself (a run of amounts
			// that each lost a minus sign); it is weighed on its own.
			fixAmount(amtRow, diff, amtKind)
			prev = s.Balance
		case openKind != "" && amtRow == -1 && (amtChecked && amtOK || !amtChecked && balKind == ""):
			fixOpening(diff, openKind)
			prev = s.Balance
		case balKind != "" && !balChecked && amtRow == -1 && openKind == "":
			v := want
			fixes[i] = chainFix{Balance: &v, Warning: fmt.Sprintf(
				"OCR correction: balance read as %s, corrected to %s (%s) by the running balance",
				s.Balance.StringFixed(2), v.StringFixed(2), balKind)}
			prev = want
		default:
			prev = s.Balance // unexplained: reconciliation reports it
		}
		start, onOpening = i+1, false
	}
	// The closing balance: nothing after it checks a fix, so one
	// explanation alone must fit.
	if closing == nil || !have {
		return fixes
	}
	want := prev
	for k := start; k < len(steps); k++ {
		if !steps[k].Known {
			return fixes
		}
		want = want.Add(moves[k])
	}
	if want.Equal(*closing) {
		return fixes
	}
	diff := closing.Sub(want)
	closeKind := OCRConfusable(*closing, want)
	amtRow, amtKind := amountAt(len(steps)-1, diff)
	openKind := openingKind(diff)
	switch {
	case amtRow >= 0 && closeKind == "" && openKind == "":
		fixAmount(amtRow, diff, amtKind)
	case openKind != "" && amtRow == -1 && closeKind == "":
		fixOpening(diff, openKind)
	}
	// A misread closing balance is left for reconciliation to report: the
	// statement's own figure is not corrected to fit the rows.
	return fixes
}

// ocrConfusable says how OCR could have turned want into got ("a lost
// minus sign", "one digit misread", ...), or "" when it could not have:
// the sign dropped or added, one digit read as another, one digit added
// or dropped (a '+' read as '4', a stray mark read as '1'), or the decimal
// point lost ("26" for ".26").
func OCRConfusable(got, want decimal.Decimal) string {
	if got.Equal(want) {
		return ""
	}
	if got.Equal(want.Neg()) {
		if want.IsNegative() {
			return "a lost minus sign"
		}
		return "a stray minus sign"
	}
	if got.IsNegative() != want.IsNegative() && !got.IsZero() && !want.IsZero() {
		return "" // a sign and a digit both wrong: too far
	}
	if hundred := decimal.NewFromInt(100); got.Equal(want.Mul(hundred)) || want.Equal(got.Mul(hundred)) {
		return "a lost decimal point" // ".26" read as "26"
	}
	g := strings.ReplaceAll(got.Abs().StringFixed(2), ".", "")
	w := strings.ReplaceAll(want.Abs().StringFixed(2), ".", "")
	switch {
	case len(g) == len(w):
		d := 0
		for i := range g {
			if g[i] != w[i] {
				d++
			}
		}
		if d == 1 {
			return "one digit misread"
		}
	case len(g) == len(w)+1 && dropsOne(g, w):
		return "a stray digit"
	case len(w) == len(g)+1 && dropsOne(w, g):
		return "a lost digit"
	}
	return ""
}

// dropsOne reports whether removing one character from long gives short.
func dropsOne(long, short string) bool {
	for i := range long {
		if long[:i]+long[i+1:] == short {
			return true
		}
	}
	return false
}

// lowConfidence is the lowest confidence of a recognised line's words
// below source.LowConf, 0 when none is (or the line came from a text layer).
func lowConfidence(l *layout.Line) float64 {
	low := 0.0
	for _, w := range l.Words {
		if w.Conf > 0 && w.Conf < source.LowConf && (low == 0 || w.Conf < low) {
			low = w.Conf
		}
	}
	return low
}

// applyOCRRepairs corrects, in the transactions of one reconciled account
// read by OCR, the misreads the running balance proves (see repairOCRChain):
// amounts, printed balances, the balances computed after them, and st's
// reconciliation. card says the balance is the amount owed, which money out
// raises (see reading.card). Each corrected row says so in a warning.
// Running it on transactions it has already repaired changes nothing. It
// returns the number of corrections.
func ApplyOCRRepairs(txs []ledger.Transaction, st *ledger.Statement, card bool) int {
	if len(txs) == 0 {
		return 0
	}
	// chain is a transaction's change to the balance as printed.
	chain := func(tx ledger.Transaction) decimal.Decimal {
		return Reading{Card: card}.Chain(TxMove(tx))
	}
	steps := make([]ChainStep, len(txs))
	for i, tx := range txs {
		steps[i] = ChainStep{Move: chain(tx), Known: !tx.Provenance.DirectionGuessed && !tx.Provenance.DirectionLearned && !tx.Provenance.DirectionFromSums, Balance: tx.Balance, Printed: tx.Provenance.BalancePrinted()}
	}
	fixes := RepairOCRChain(st.OpeningBalance, steps, st.ClosingBalance)
	if len(fixes) == 0 {
		return 0
	}
	for i, f := range fixes {
		if i == OpeningRow {
			st.OpeningBalance = f.Balance
			st.Warnings = append(st.Warnings, f.Warning)
			continue
		}
		tx := &txs[i]
		switch {
		case f.Move != nil:
			move := Reading{Card: card}.Chain(*f.Move) // the chain's sign is its own inverse
			v := move.Abs()
			if move.IsNegative() {
				tx.AmountIn, tx.AmountOut = nil, &v
			} else {
				tx.AmountIn, tx.AmountOut = &v, nil
			}
		case f.Balance != nil:
			tx.Balance = *f.Balance
		}
		tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnOCRCorrection, Message: f.Warning})
	}
	// Walk the chain again: recompute the balances that were computed, and
	// drop break warnings the corrections answered.
	var prev decimal.Decimal
	have := st.OpeningBalance != nil
	if have {
		prev = *st.OpeningBalance
	}
	var breaks []int
	var first *decimal.Decimal
	for i := range txs {
		tx := &txs[i]
		if !steps[i].Known {
			have = false
		}
		want := prev.Add(chain(*tx))
		switch {
		case !steps[i].Printed && have:
			tx.Balance = want
		case steps[i].Printed && have && !want.Equal(tx.Balance):
			breaks = append(breaks, i)
			if first == nil {
				d := tx.Balance.Sub(want)
				first = &d
			}
		case steps[i].Printed && have:
			tx.Warnings = slices.DeleteFunc(tx.Warnings, func(w ledger.Warning) bool { return w.Kind == ledger.WarnBalanceBreak })
		}
		prev, have = tx.Balance, true
	}
	if c := st.ClosingBalance; c != nil && !txs[len(txs)-1].Balance.Equal(*c) {
		if len(breaks) == 0 || breaks[len(breaks)-1] != len(txs)-1 {
			breaks = append(breaks, len(txs)-1)
		}
		if first == nil {
			d := c.Sub(txs[len(txs)-1].Balance)
			first = &d
		}
	}
	// The walk above knows no restarts or totals lines: its breaks stand
	// for reconciliation's only where that found the chain whole or
	// broken, not where it found nothing to check.
	if len(st.Proof.Breaks) > 0 || st.Reconciliation.Status == ledger.ReconcileOK {
		st.Proof.Breaks, st.Proof.Difference = breaks, first
		st.Proof.Corrections = len(fixes)
	}
	return len(fixes)
}

// txMove is a transaction's signed change to the balance.
func TxMove(tx ledger.Transaction) decimal.Decimal {
	switch {
	case tx.AmountIn != nil:
		return *tx.AmountIn
	case tx.AmountOut != nil:
		return tx.AmountOut.Neg()
	}
	return decimal.Zero
}

// repairOCRDates corrects, in transactions read by OCR from a statement
// that prints its period, a date recognition misread by one digit: one that
// falls outside the period, where a single digit changed puts it inside
// and in order between its neighbours. When no one such date exists, the
// row says its date could not be read (see unprovenDates). It returns the
// number of corrections.
func RepairOCRDates(txs []ledger.Transaction, st *ledger.Statement) int {
	if st.PeriodStart == nil || st.PeriodEnd == nil {
		return 0
	}
	ps, pe := *st.PeriodStart, *st.PeriodEnd
	inside := func(d time.Time) bool { return !d.Before(ps) && !d.After(pe) }
	fixed := 0
	for i := range txs {
		tx := &txs[i]
		d := tx.Date
		if d.IsZero() || !d.Before(ps.Add(-cells.PeriodSlack)) && !d.After(pe.Add(cells.PeriodSlack)) {
			continue
		}
		lo, hi := ps, pe
		if i > 0 && inside(txs[i-1].Date) {
			lo = txs[i-1].Date
		}
		if i+1 < len(txs) && inside(txs[i+1].Date) {
			hi = txs[i+1].Date
		}
		var found []time.Time
		digits := []byte(d.Format("20060102"))
		for k := range digits {
			for c := byte('0'); c <= '9'; c++ {
				if c == digits[k] {
					continue
				}
				alt := slices.Clone(digits)
				alt[k] = c
				t, err := time.Parse("20060102", string(alt))
				if err == nil && inside(t) && !t.Before(lo) && !t.After(hi) {
					found = append(found, t)
				}
			}
		}
		if len(found) != 1 {
			tx.Provenance.DateUnread = true
			tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnDateUnread, Read: d.Format(time.DateOnly),
				Message: fmt.Sprintf("the date printed on this row could not be read: %s lies outside the statement's period", d.Format(time.DateOnly))})
			continue
		}
		tx.Date = found[0]
		tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnOCRCorrection, Read: d.Format(time.DateOnly),
			Message: fmt.Sprintf("OCR correction: date read as %s, corrected to %s (one digit misread): the first lies outside the statement's period", d.Format(time.DateOnly), found[0].Format(time.DateOnly))})
		fixed++
	}
	return fixed
}
