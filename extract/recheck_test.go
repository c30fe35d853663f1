package extract

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

func pdec(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

func rtx(in, out, bal string, warnings ...string) Transaction {
	t := Transaction{Balance: *pdec(bal), Warnings: warnings}
	if in != "" {
		t.AmountIn = pdec(in)
	}
	if out != "" {
		t.AmountOut = pdec(out)
	}
	return t
}

func TestRecheck(t *testing.T) {
	computed := warnComputedPrefix + ": computed from the running balance"
	tests := []struct {
		name     string
		txs      []Transaction
		st       Statement
		status   string
		rows     []int
		diff     string
		balances []string // after recheck, when set
	}{
		{name: "empty", status: ReconcileNoTransactions},
		{name: "chain holds from opening to closing",
			txs:    []Transaction{rtx("", "10.00", "90.00"), rtx("5.50", "", "95.50")},
			st:     Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("95.50")},
			status: ReconcileOK},
		{name: "wrong amount breaks the chain at its row",
			txs:    []Transaction{rtx("", "10.00", "90.00"), rtx("5.00", "", "95.50"), rtx("", "1.00", "94.50")},
			st:     Statement{OpeningBalance: pdec("100")},
			status: ReconcileMismatch, rows: []int{1}, diff: "0.50"},
		{name: "closing balance disagrees",
			txs:    []Transaction{rtx("", "10.00", "90.00")},
			st:     Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("91")},
			status: ReconcileMismatch, rows: []int{0}, diff: "1.00"},
		{name: "no opening: first balance starts the chain",
			txs:    []Transaction{rtx("", "10.00", "90.00"), rtx("", "10.00", "80.00")},
			status: ReconcileOK},
		{name: "computed balances are recomputed, not checked",
			txs:    []Transaction{rtx("", "10.00", "90.00", computed), rtx("", "7.00", "80.00", computed)},
			st:     Statement{OpeningBalance: pdec("100")},
			status: ReconcileUnverified, balances: []string{"90", "83"}},
		{name: "computed balances carry into the closing balance",
			txs:    []Transaction{rtx("", "10.00", "90.00", computed), rtx("", "7.00", "80.00", computed)},
			st:     Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("83")},
			status: ReconcileOK},
		{name: "accounts are checked apart",
			txs: []Transaction{
				{Account: "A", AmountOut: pdec("1"), Balance: *pdec("9")},
				{Account: "B", AmountIn: pdec("1"), Balance: *pdec("51")},
				{Account: "A", AmountOut: pdec("1"), Balance: *pdec("7")},
			},
			st: Statement{Accounts: []Account{
				{Number: "A", OpeningBalance: pdec("10")},
				{Number: "B", OpeningBalance: pdec("50"), ClosingBalance: pdec("51")},
			}},
			status: ReconcileMismatch, rows: []int{2}, diff: "-1.00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Recheck(tc.txs, tc.st)
			if got.Status != tc.status {
				t.Fatalf("status: got %s (%s), want %s", got.Status, got.Message, tc.status)
			}
			if !slices.Equal(got.Rows, tc.rows) {
				t.Errorf("rows: got %v, want %v", got.Rows, tc.rows)
			}
			if tc.diff != "" && (got.Difference == nil || got.Difference.StringFixed(2) != tc.diff) {
				t.Errorf("difference: got %v, want %s", got.Difference, tc.diff)
			}
			if got.Message == "" {
				t.Error("no message")
			}
			for i, b := range tc.balances {
				if !tc.txs[i].Balance.Equal(*pdec(b)) {
					t.Errorf("row %d balance: got %s, want %s", i, tc.txs[i].Balance, b)
				}
			}
		})
	}
}
