package extract

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"
)

// TestStoredVersion0 reads results that main stored before versions
// (testdata/stored, made by main's own code) and checks what the
// migration makes of them: every row, its warnings as kinds, its
// provenance from them, the stored status; and that they are written
// back as version 1 and read again unchanged.
func TestStoredVersion0(t *testing.T) {
	for _, tc := range []struct {
		file     string
		rows     int
		computed int
	}{
		{"daily_balance.main-result.json", 26, 13},
		{"no_balance.main-result.json", 22, 22},
	} {
		t.Run(tc.file, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/stored/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			var old map[string]any
			if err := json.Unmarshal(raw, &old); err != nil {
				t.Fatal(err)
			}
			if _, ok := old["version"]; ok {
				t.Fatalf("the fixture has a version: it is not main's stored form")
			}
			var res ledger.Result
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatalf("version 0 does not load: %v", err)
			}
			if len(res.Transactions) != tc.rows {
				t.Fatalf("%d rows, want %d", len(res.Transactions), tc.rows)
			}
			oldTxs := old["Transactions"].([]any)
			computed := 0
			for i, tx := range res.Transactions {
				o := oldTxs[i].(map[string]any)
				if got, want := tx.Description, o["Description"].(string); got != want {
					t.Errorf("row %d description %q, want %q", i, got, want)
				}
				if got, want := tx.Balance.String(), o["Balance"].(string); got != want {
					t.Errorf("row %d balance %s, want %s", i, got, want)
				}
				var texts []string
				if ws, ok := o["Warnings"].([]any); ok {
					for _, w := range ws {
						texts = append(texts, w.(string))
					}
				}
				if !slices.Equal(tx.WarningTexts(), texts) {
					t.Errorf("row %d warnings %q, want %q", i, tx.WarningTexts(), texts)
				}
				isComputed := slices.ContainsFunc(texts, func(w string) bool { return strings.HasPrefix(w, "balance not printed") })
				if tx.Provenance.BalanceComputed != isComputed || isComputed && !hasKind(tx, ledger.WarnBalanceComputed) {
					t.Errorf("row %d: provenance %+v, warnings %+v: want the balance computed %v", i, tx.Provenance, tx.Warnings, isComputed)
				}
				if tx.Provenance.BalanceComputed {
					computed++
				}
			}
			if computed != tc.computed {
				t.Errorf("%d rows computed, want %d", computed, tc.computed)
			}
			st := old["Statement"].(map[string]any)
			if got, want := res.Statement.Reconciliation.Status, st["Reconciliation"].(map[string]any)["Status"].(string); got != want {
				t.Errorf("status %s, want the stored %s", got, want)
			}
			if res.Statement.PeriodStart == nil || res.Statement.OpeningBalance == nil {
				t.Errorf("statement lost its period or opening balance: %+v", res.Statement)
			}

			again, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Version int `json:"version"`
			}
			if err := json.Unmarshal(again, &v); err != nil || v.Version != ledger.ResultVersion {
				t.Fatalf("written back as version %d (%v), want %d", v.Version, err, ledger.ResultVersion)
			}
			var back ledger.Result
			if err := json.Unmarshal(again, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(normalised(back), normalised(res)) {
				t.Errorf("version 1 does not read back as written")
			}
		})
	}
}

// normalised is r with its times in UTC and decimals as text, for
// comparing a result with its stored and read-back self.
func normalised(r ledger.Result) string {
	b, _ := json.MarshalIndent(r, "", " ")
	return string(b)
}

func TestStoredVersion1RoundTrip(t *testing.T) {
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	res := ledger.Result{PageCount: 2, Transactions: []ledger.Transaction{
		{Date: day, Description: "A", AmountOut: pdec("10.50"), Balance: *pdec("89.50"), Page: 1, Box: [4]float64{1, 2, 3, 4},
			Provenance: ledger.Provenance{BalanceComputed: true, LowConfidence: 41},
			Warnings:   []ledger.Warning{ledger.ComputedWarning(), {Kind: ledger.WarnLowConfidence, Confidence: 41, Message: "low"}}},
		{Date: day, Description: "B", AmountIn: pdec("1"), Balance: *pdec("90.50"), Account: "X",
			Warnings: []ledger.Warning{ledger.BreakWarning(*pdec("90.50"), *pdec("89.50"), *pdec("90.00"))}},
	}, Statement: ledger.Statement{AccountNumber: "12", PeriodStart: &day, OpeningBalance: pdec("100"), TotalIn: pdec("1"),
		Reconciliation: ledger.Reconciliation{Status: ledger.ReconcileMismatch, Difference: pdec("0.50"), Rows: []int{1}, Message: "m"},
		Proof:          ledger.Proof{Checks: 2, Proven: 1, Breaks: []int{1}, Difference: pdec("0.50"), OCR: true, YearAssumed: true},
		Warnings:       []string{"page 2: blank"},
		Accounts:       []ledger.Account{{Number: "X", OpeningBalance: pdec("1"), Proof: ledger.Proof{Card: true}, Reconciliation: ledger.Reconciliation{Status: ledger.ReconcileOK}}}}}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"version":1`, `"kind":"balance_break"`, `"printed":"90.5"`, `"balance_computed":true`, `"year_assumed":true`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("stored form lacks %s: %s", want, raw)
		}
	}
	var back ledger.Result
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	b0, b1 := back.Transactions[0], back.Transactions[1]
	switch {
	case b0.Box != res.Transactions[0].Box, b0.Page != 1, b1.Account != "X", !b0.Provenance.BalanceComputed, b0.Provenance.LowConfidence != 41,
		b1.Warnings[0].Expected == nil || !b1.Warnings[0].Expected.Equal(*pdec("90")),
		!back.Statement.Proof.YearAssumed, !back.Statement.Proof.OCR, back.Statement.Proof.Proven != 1,
		!back.Statement.Accounts[0].Proof.Card, back.Statement.Reconciliation.Rows[0] != 1, back.Statement.TotalIn == nil,
		!back.Transactions[1].AmountIn.Equal(*pdec("1")), back.Transactions[0].AmountOut == nil:
		t.Errorf("read back lost a field: %+v", back)
	}
	if normalised(back) != normalised(res) {
		t.Errorf("read back differs:\n%s\nwant\n%s", normalised(back), normalised(res))
	}
	if err := json.Unmarshal([]byte(`{"version":99}`), &back); err == nil {
		t.Errorf("a result of a later version loads")
	}
}

// TestStoredIntegrity: the integrity report, with the file's profile,
// survives the stored form; a result stored before there were reports
// reads back with none.
func TestStoredIntegrity(t *testing.T) {
	box := [4]float64{1, 2, 3, 4}
	res := ledger.Result{PageCount: 1, Integrity: &ledger.Integrity{
		Signals: []ledger.Signal{{Code: "covering_box", Severity: ledger.SeverityHigh, Page: 1, BBox: &box, Evidence: "e"}},
		Summary: "s", Profile: &ledger.Profile{Producer: "P", Version: "1.4", Fonts: []string{"Arial"}, PageSize: "595x842", Structure: "xref"}}}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back ledger.Result
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	in := back.Integrity
	if in == nil || len(in.Signals) != 1 || *in.Signals[0].BBox != box || in.Summary != "s" || in.Profile == nil || in.Profile.Fonts[0] != "Arial" || in.Worst() != ledger.SeverityHigh {
		t.Fatalf("read back %+v from %s", in, raw)
	}
	if err := json.Unmarshal([]byte(`{"version":1,"page_count":1,"transactions":[],"statement":{"reconciliation":{"status":"ok","message":""},"proof":{"checks":0,"proven":0}}}`), &back); err != nil {
		t.Fatal(err)
	}
	if back.Integrity != nil {
		t.Errorf("a result stored before reports has one: %+v", back.Integrity)
	}
}
