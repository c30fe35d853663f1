package extract

import (
	"slices"
	"testing"
)

// hasKind reports a row that carries a warning of kind k.
func hasKind(tx Transaction, k WarningKind) bool {
	return slices.ContainsFunc(tx.Warnings, func(w Warning) bool { return w.Kind == k })
}

// TestJudge holds the order in which Judge weighs a statement's proof
// and its rows' provenance: a break first, then what proves nothing,
// then ok.
func TestJudge(t *testing.T) {
	row := func(p Provenance) Transaction { return Transaction{AmountOut: pdec("1"), Provenance: p} }
	two := func(p Provenance) []Transaction { return []Transaction{row(Provenance{}), row(p)} }
	proven := Proof{Checks: 2, Proven: 2}
	with := func(f func(*Proof)) Proof { p := proven; f(&p); return p }
	tests := []struct {
		name    string
		txs     []Transaction
		p       Proof
		closing bool
		want    string
	}{
		{"no rows", nil, proven, true, ReconcileNoTransactions},
		{"proven", two(Provenance{}), proven, true, ReconcileOK},
		{"a break outweighs every doubt", two(Provenance{DirectionGuessed: true, LowConfidence: 10}),
			with(func(p *Proof) { p.Breaks, p.YearAssumed = []int{1}, true }), true, ReconcileMismatch},
		{"nothing checked", two(Provenance{}), Proof{}, true, ReconcileUnverified},
		{"a row after the last check", two(Provenance{}), with(func(p *Proof) { p.Proven = 1 }), true, ReconcileUnverified},
		{"from zero", two(Provenance{BalanceFromZero: true}), proven, false, ReconcileUnverified},
		{"direction guessed", two(Provenance{DirectionGuessed: true}), proven, true, ReconcileUnverified},
		{"direction from the balance proves", two(Provenance{DirectionFromBalance: true}), proven, true, ReconcileOK},
		{"amount from the balance", two(Provenance{AmountFromBalance: true}), proven, true, ReconcileUnverified},
		{"date unread", two(Provenance{DateUnread: true}), proven, true, ReconcileUnverified},
		{"counted against its Dr/Cr word", two(Provenance{AgainstMark: true}), proven, true, ReconcileUnverified},
		{"date from above proves", two(Provenance{DateFromAbove: true}), proven, true, ReconcileOK},
		{"low confidence", two(Provenance{LowConfidence: 30}), proven, true, ReconcileUnverified},
		{"entered balance proves nothing more", two(Provenance{BalanceEntered: true}), proven, true, ReconcileOK},
		{"OCR, all computed, no closing", []Transaction{row(Provenance{BalanceComputed: true})}, with(func(p *Proof) { p.OCR = true }), false, ReconcileUnverified},
		{"text, all computed, no closing", []Transaction{row(Provenance{BalanceComputed: true})}, proven, false, ReconcileOK},
		{"restart", two(Provenance{}), with(func(p *Proof) { p.Restarted = true }), true, ReconcileUnverified},
		{"restated opening", two(Provenance{}), with(func(p *Proof) { p.RestatedOpening = true }), true, ReconcileUnverified},
		{"dropped lines", two(Provenance{}), with(func(p *Proof) { p.Dropped = 2 }), true, ReconcileUnverified},
		{"year assumed", two(Provenance{}), with(func(p *Proof) { p.YearAssumed = true }), true, ReconcileUnverified},
		{"card by layout", two(Provenance{}), with(func(p *Proof) { p.CardByLayout = true }), true, ReconcileUnverified},
		{"card named once", two(Provenance{}), with(func(p *Proof) { p.CardNamedOnce = true }), true, ReconcileUnverified},
		{"booking date guessed", two(Provenance{}), with(func(p *Proof) { p.DateGuessed = true }), true, ReconcileUnverified},
		{"unresolved date", two(Provenance{DateUnread: true}), proven, true, ReconcileUnverified},
		{"OCR corrections proven", two(Provenance{}), with(func(p *Proof) { p.Corrections = 2 }), true, ReconcileOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Judge(tc.txs, tc.p, tc.closing)
			if got.Status != tc.want || got.Message == "" {
				t.Errorf("got %s (%q), want %s", got.Status, got.Message, tc.want)
			}
		})
	}
}
