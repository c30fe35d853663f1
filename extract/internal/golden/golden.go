// Package golden holds the golden-statement files of the engine's and OCR's
// fixture tests: their shape and the comparison both hold results to.
package golden

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract/internal/score"
	"passbook/extract/ledger"
)

// Txn, Statement and Doc are the golden JSON: the shape of the download body.
type Txn struct {
	Date        string  `json:"date"`
	Type        string  `json:"type"`
	Description string  `json:"description"`
	AmountIn    *string `json:"amountIn"`
	AmountOut   *string `json:"amountOut"`
	Balance     string  `json:"balance"`
}

type Statement struct {
	AccountNumber  string `json:"account_number"`
	PeriodStart    string `json:"period_start"`
	PeriodEnd      string `json:"period_end"`
	Currency       string `json:"currency"`
	OpeningBalance string `json:"opening_balance"`
	ClosingBalance string `json:"closing_balance"`
}

type Doc struct {
	Transactions []Txn     `json:"transactions"`
	Statement    Statement `json:"statement"`
}

// Compare reports every field of res that differs from the golden want that differs, row by row, and at most
// a screenful of them.
func Compare(t *testing.T, res *ledger.Result, want Doc) {
	t.Helper()
	got := make([]Txn, len(res.Transactions))
	for i, tx := range res.Transactions {
		got[i] = FromTransaction(tx)
	}
	if len(got) != len(want.Transactions) {
		t.Errorf("got %d transactions, want %d", len(got), len(want.Transactions))
	}
	reported := 0
	for i := 0; i < min(len(got), len(want.Transactions)) && reported < 12; i++ {
		g, w := got[i], want.Transactions[i]
		var diffs []string
		check := func(field, gv, wv string) {
			if gv != wv {
				diffs = append(diffs, fmt.Sprintf("%s got %q want %q", field, gv, wv))
			}
		}
		check("date", g.Date, w.Date)
		check("type", g.Type, w.Type)
		check("description", g.Description, w.Description)
		check("amountIn", StrOrNull(g.AmountIn), StrOrNull(w.AmountIn))
		check("amountOut", StrOrNull(g.AmountOut), StrOrNull(w.AmountOut))
		check("balance", g.Balance, w.Balance)
		if len(diffs) > 0 {
			reported++
			t.Errorf("row %d (want %s %q): %s", i, w.Date, w.Description, strings.Join(diffs, "; "))
		}
	}
	for i := len(want.Transactions); i < len(got) && i < len(want.Transactions)+3; i++ {
		t.Errorf("extra row %d: %+v", i, got[i])
	}
	for i := len(got); i < len(want.Transactions) && i < len(got)+3; i++ {
		t.Errorf("missing row %d: %+v", i, want.Transactions[i])
	}
	st := res.Statement
	date := func(d *time.Time) string {
		if d == nil {
			return ""
		}
		return d.Format(time.DateOnly)
	}
	for _, f := range []struct{ name, got, want string }{
		{"account number", st.AccountNumber, want.Statement.AccountNumber},
		{"period start", date(st.PeriodStart), want.Statement.PeriodStart},
		{"period end", date(st.PeriodEnd), want.Statement.PeriodEnd},
		{"currency", st.Currency, want.Statement.Currency},
		{"opening balance", decString(st.OpeningBalance), want.Statement.OpeningBalance},
		{"closing balance", decString(st.ClosingBalance), want.Statement.ClosingBalance},
	} {
		if f.got != f.want {
			t.Errorf("statement %s got %q want %q", f.name, f.got, f.want)
		}
	}
}

// FromTransaction is tx as the golden JSON holds it: the download's
// shape, whose balance a golden file always holds.
func FromTransaction(tx ledger.Transaction) Txn {
	s := score.FromTransaction(tx)
	return Txn{Date: s.Date, Type: s.Type, Description: s.Description, AmountIn: s.AmountIn, AmountOut: s.AmountOut, Balance: *s.Balance}
}

// StrOrNull prints an optional amount as the golden JSON does.
func StrOrNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

func decString(d *decimal.Decimal) string {
	if d == nil {
		return "null"
	}
	return d.StringFixed(2)
}

// Findings are what a conversion judged of a golden statement beyond its
// rows' values: the reconciliation status with the facts it stands on,
// and each row's warnings by kind. A fixture's findings file pins them, so
// that a change in status or warnings fails a test until the file is
// refreshed on purpose.
type Findings struct {
	Reconciliation string `json:"reconciliation"`
	// Proof is the statement's proof as the conversion found it.
	Proof ledger.Proof `json:"proof"`
	// Warnings are each row's warning kinds, in order; a row without
	// warnings has none.
	Warnings [][]ledger.WarningKind `json:"warnings"`
	// Provenance is each row's provenance, in order.
	Provenance []ledger.Provenance `json:"provenance"`
}

// FindingsOf is res's findings.
func FindingsOf(res *ledger.Result) Findings {
	f := Findings{Reconciliation: res.Statement.Reconciliation.Status, Proof: res.Statement.Proof,
		Warnings: make([][]ledger.WarningKind, len(res.Transactions)), Provenance: make([]ledger.Provenance, len(res.Transactions))}
	for i, tx := range res.Transactions {
		f.Warnings[i] = []ledger.WarningKind{}
		for _, w := range tx.Warnings {
			f.Warnings[i] = append(f.Warnings[i], w.Kind)
		}
		f.Provenance[i] = tx.Provenance
	}
	return f
}

// CompareFindings reports every way res's findings differ from want's.
func CompareFindings(t *testing.T, res *ledger.Result, want Findings) {
	t.Helper()
	got := FindingsOf(res)
	if got.Reconciliation != want.Reconciliation {
		t.Errorf("reconciliation %s (%s), want %s", got.Reconciliation, res.Statement.Reconciliation.Message, want.Reconciliation)
	}
	if g, w := jsonText(got.Proof), jsonText(want.Proof); g != w {
		t.Errorf("proof %s, want %s", g, w)
	}
	if len(got.Warnings) != len(want.Warnings) || len(want.Provenance) != len(want.Warnings) {
		t.Errorf("findings for %d rows, want %d (and %d provenances)", len(got.Warnings), len(want.Warnings), len(want.Provenance))
	}
	reported := 0
	for i := 0; i < min(len(got.Warnings), len(want.Warnings), len(want.Provenance)) && reported < 12; i++ {
		g, w := fmt.Sprint(got.Warnings[i]), fmt.Sprint(want.Warnings[i])
		gp, wp := jsonText(got.Provenance[i]), jsonText(want.Provenance[i])
		if g != w || gp != wp {
			reported++
			t.Errorf("row %d: warnings %s provenance %s, want %s %s", i, g, gp, w, wp)
		}
	}
}

// jsonText is v as JSON, for comparing values that hold pointers and
// decimals by what they say.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
