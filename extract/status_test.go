package extract

import (
	"slices"
	"testing"

	"passbook/extract/ledger"
)

// hasKind reports a row that carries a warning of kind k.
func hasKind(tx ledger.Transaction, k ledger.WarningKind) bool {
	return slices.ContainsFunc(tx.Warnings, func(w ledger.Warning) bool { return w.Kind == k })
}

// TestJudge holds the order in which ledger.Judge weighs a statement's proof
// and its rows' provenance: a break first, then what proves nothing,
// then ok.
func TestJudge(t *testing.T) {
	row := func(p ledger.Provenance) ledger.Transaction {
		return ledger.Transaction{AmountOut: pdec("1"), Provenance: p}
	}
	two := func(p ledger.Provenance) []ledger.Transaction {
		return []ledger.Transaction{row(ledger.Provenance{}), row(p)}
	}
	proven := ledger.Proof{Checks: 2, Proven: 2}
	with := func(f func(*ledger.Proof)) ledger.Proof { p := proven; f(&p); return p }
	tests := []struct {
		name    string
		txs     []ledger.Transaction
		p       ledger.Proof
		closing bool
		want    string
	}{
		{"no rows", nil, proven, true, ledger.ReconcileNoTransactions},
		{"proven", two(ledger.Provenance{}), proven, true, ledger.ReconcileOK},
		{"a break outweighs every doubt", two(ledger.Provenance{DirectionGuessed: true, LowConfidence: 10}),
			with(func(p *ledger.Proof) { p.Breaks, p.YearAssumed = []int{1}, true }), true, ledger.ReconcileMismatch},
		{"nothing checked", two(ledger.Provenance{}), ledger.Proof{}, true, ledger.ReconcileUnverified},
		{"a row after the last check", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.Proven = 1 }), true, ledger.ReconcileUnverified},
		{"from zero", two(ledger.Provenance{BalanceFromZero: true}), proven, false, ledger.ReconcileUnverified},
		{"direction guessed", two(ledger.Provenance{DirectionGuessed: true}), proven, true, ledger.ReconcileUnverified},
		{"direction learned from rows that begin alike", two(ledger.Provenance{DirectionLearned: true}), proven, true, ledger.ReconcileUnverified},
		{"direction from the balance proves", two(ledger.Provenance{DirectionFromBalance: true}), proven, true, ledger.ReconcileOK},
		{"amount from the balance", two(ledger.Provenance{AmountFromBalance: true}), proven, true, ledger.ReconcileUnverified},
		{"date unread", two(ledger.Provenance{DateUnread: true}), proven, true, ledger.ReconcileUnverified},
		{"counted against its Dr/Cr word", two(ledger.Provenance{AgainstMark: true}), proven, true, ledger.ReconcileUnverified},
		{"date from above proves", two(ledger.Provenance{DateFromAbove: true}), proven, true, ledger.ReconcileOK},
		{"low confidence", two(ledger.Provenance{LowConfidence: 30}), proven, true, ledger.ReconcileUnverified},
		{"entered balance proves nothing more", two(ledger.Provenance{BalanceEntered: true}), proven, true, ledger.ReconcileOK},
		{"OCR, all computed, no closing", []ledger.Transaction{row(ledger.Provenance{BalanceComputed: true})}, with(func(p *ledger.Proof) { p.OCR = true }), false, ledger.ReconcileUnverified},
		{"text, all computed, no closing", []ledger.Transaction{row(ledger.Provenance{BalanceComputed: true})}, proven, false, ledger.ReconcileOK},
		{"restart", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.Restarted = true }), true, ledger.ReconcileUnverified},
		{"restated opening", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.RestatedOpening = true }), true, ledger.ReconcileUnverified},
		{"dropped lines", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.Dropped = 2 }), true, ledger.ReconcileUnverified},
		{"year assumed", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.YearAssumed = true }), true, ledger.ReconcileUnverified},
		{"card by layout", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.CardByLayout = true }), true, ledger.ReconcileUnverified},
		{"card named once", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.CardNamedOnce = true }), true, ledger.ReconcileUnverified},
		{"booking date guessed", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.DateGuessed = true }), true, ledger.ReconcileUnverified},
		{"unresolved date", two(ledger.Provenance{DateUnread: true}), proven, true, ledger.ReconcileUnverified},
		{"OCR corrections proven", two(ledger.Provenance{}), with(func(p *ledger.Proof) { p.Corrections = 2 }), true, ledger.ReconcileOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ledger.Judge(tc.txs, tc.p, tc.closing)
			if got.Status != tc.want || got.Message == "" {
				t.Errorf("got %s (%q), want %s", got.Status, got.Message, tc.want)
			}
		})
	}
}
