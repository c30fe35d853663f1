package server

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"passbook/extract/ledger"
	"passbook/quota"
)

// TestCorrectionsCannotForgeProof plays a client that wants a statement
// to say ok when its conversion proved less: it saves the rows back with
// the warnings, warning details and provenance of its choosing. The
// status is judged from the stored conversion's provenance every time; a
// correction that answers the doubt (the row's words rewritten) is what
// lifts it.
func TestCorrectionsCannotForgeProof(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("forge@example.com", quota.Enterprise)
	docs := map[string]string{
		// Balances computed from the opening balance: nothing printed
		// checks them.
		"computed": "PASSBOOK-TEST\naccount 12-3456 EUR\nperiod 2024-01-01 2024-01-31\nopening 100.00\n" +
			"row 2024-01-03 -10.00 90.00 COFFEE\nprovenance {\"balance_computed\": true}\n" +
			"row 2024-01-20 25.50 115.50 REFUND\nprovenance {\"balance_computed\": true}\n",
		// Every balance printed and closing, but one row's words read
		// with low confidence.
		"low confidence": "PASSBOOK-TEST\naccount 12-3456 EUR\nperiod 2024-01-01 2024-01-31\nopening 100.00\nclosing 115.50\n" +
			"row 2024-01-03 -10.00 90.00 C0FFEE\nprovenance {\"low_confidence\": 41}\n" +
			"row 2024-01-20 25.50 115.50 REFUND\n",
	}
	type served struct {
		Statement struct {
			Reconciliation struct {
				Status string `json:"status"`
			} `json:"reconciliation"`
		} `json:"statement"`
		Transactions []map[string]any `json:"transactions"`
	}
	download := func(id string) served {
		_, _, raw := e.do("GET", "/api/v1/download?format=json&file_id="+id, key, nil, "")
		var s served
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("download: %v: %s", err, raw)
		}
		return s
	}
	save := func(id string, txs []map[string]any) string {
		body, _ := json.Marshal(map[string]any{"transactions": txs})
		resp, m, _ := e.do("PUT", "/api/v1/documents/"+id+"/transactions", key, strings.NewReader(string(body)), "application/json")
		if resp.StatusCode != 200 {
			t.Fatalf("save: %d %v", resp.StatusCode, m)
		}
		return m["reconciliation"].(map[string]any)["status"].(string)
	}
	lies := map[string]func(tx map[string]any){
		"nothing said": func(tx map[string]any) {
			delete(tx, "warnings")
			delete(tx, "warning_details")
			delete(tx, "provenance")
		},
		"all printed, all checked": func(tx map[string]any) {
			tx["warnings"] = []string{"OCR correction: checked against the page"}
			tx["warning_details"] = []map[string]any{{"kind": "ocr_correction", "message": "checked"}}
			tx["provenance"] = map[string]any{}
		},
	}
	for name, content := range docs {
		for lie, tell := range lies {
			t.Run(name+"/"+lie, func(t *testing.T) {
				resp, m := e.upload(key, map[string][]byte{"file": []byte(content)})
				if resp.StatusCode != 200 {
					t.Fatalf("upload: %d %v", resp.StatusCode, m)
				}
				id := m["file_id"].(string)
				e.waitDone(key, id)
				got := download(id)
				if s := got.Statement.Reconciliation.Status; s != "unverified" {
					t.Fatalf("as converted: %s, want unverified", s)
				}
				if _, ok := got.Transactions[0]["provenance"]; !ok {
					t.Fatalf("the download does not say the row's provenance: %v", got.Transactions[0])
				}
				for _, tx := range got.Transactions {
					tell(tx)
				}
				if s := save(id, got.Transactions); s == "ok" {
					t.Errorf("the client made it ok")
				}
				after := download(id)
				if s := after.Statement.Reconciliation.Status; s == "ok" {
					t.Errorf("served ok after the forged save")
				}
				if _, ok := after.Transactions[0]["provenance"]; !ok {
					t.Errorf("the served row lost its stored provenance: %v", after.Transactions[0])
				}
				if name == "low confidence" {
					// A person rewrites the misread words: the doubt is
					// answered, and the printed balances prove the rest.
					after.Transactions[0]["description"] = "COFFEE"
					if s := save(id, after.Transactions); s != "ok" {
						t.Errorf("with the words corrected: %s, want ok", s)
					}
				}
			})
		}
	}
}

// TestServedFromVersion0 serves a result that main stored before stored
// results had versions (its own output, ../extract/testdata/stored), with a
// correction in the edit form main stored, warnings and all: the result
// loads, its rows' computed balances stay computed whatever the edit's
// warnings say, and a changed amount carries through them to the closing
// balance.
func TestServedFromVersion0(t *testing.T) {
	raw, err := os.ReadFile("../extract/testdata/stored/no_balance.main-result.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := decodeServed("doc_x", raw, nil)
	if err != nil {
		t.Fatalf("main's stored result does not load: %v", err)
	}
	if len(res.Transactions) != 22 || res.Statement.Reconciliation.Status != ledger.ReconcileOK {
		t.Fatalf("loaded %d rows, %s", len(res.Transactions), res.Statement.Reconciliation.Status)
	}
	edit := func(change func([]editTransaction)) *ledger.Result {
		t.Helper()
		se := storedEdit{Version: editVersion}
		for _, tx := range res.Transactions {
			e := fromTransaction(tx)
			e.Warnings = []string{"printed on the page, checked"} // what main kept of a client's warnings
			se.Transactions = append(se.Transactions, e)
		}
		change(se.Transactions)
		rawEdit, _ := json.Marshal(se)
		got, err := decodeServed("doc_x", raw, rawEdit)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	same := edit(func([]editTransaction) {})
	if s := same.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("unchanged: %s (%s), want ok: the closing balance and totals prove the computed balances", s, same.Statement.Reconciliation.Message)
	}
	for i, tx := range same.Transactions {
		if !tx.Provenance.BalanceComputed || slices.Contains(tx.WarningTexts(), "printed on the page, checked") {
			t.Fatalf("row %d: provenance %+v warnings %q: want the stored row's", i, tx.Provenance, tx.WarningTexts())
		}
	}
	changed := edit(func(txs []editTransaction) {
		v := "900.00"
		txs[0].AmountIn = &v // was 817.66
	})
	if rec := changed.Statement.Reconciliation; rec.Status != ledger.ReconcileMismatch || changed.Transactions[21].Balance.Equal(same.Transactions[21].Balance) {
		t.Errorf("amount changed: %s (%s), last balance %s: want the change carried to a mismatch at the closing balance", rec.Status, rec.Message, changed.Transactions[21].Balance)
	}
}

// TestCheckCorrection: a correction checked is judged by the same status
// function as one saved (the break, the difference, the computed balances
// carried), and nothing is stored: downloads and the trail are as before.
func TestCheckCorrection(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("check@example.com", quota.Enterprise)
	doc := "PASSBOOK-TEST\naccount 12-3456 EUR\nperiod 2024-01-01 2024-01-31\nopening 100.00\nclosing 115.50\n" +
		"row 2024-01-03 -10.00 90.00 COFFEE\n" +
		"row 2024-01-10 -4.00 86.00 BUS\nprovenance {\"balance_computed\": true}\n" +
		"row 2024-01-20 29.50 115.50 REFUND\n"
	resp, m := e.upload(key, map[string][]byte{"file": []byte(doc)})
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id := m["file_id"].(string)
	e.waitDone(key, id)
	review := func() map[string]any {
		_, m, _ := e.do("GET", "/api/v1/documents/"+id, key, nil, "")
		return m
	}
	txs := review()["transactions"].([]any)
	txs[1].(map[string]any)["amountOut"] = "5.00"
	body, _ := json.Marshal(map[string]any{"transactions": txs})
	resp, got, _ := e.do("POST", "/api/v1/documents/"+id+"/transactions/check", key, strings.NewReader(string(body)), "application/json")
	if resp.StatusCode != 200 {
		t.Fatalf("check: %d %v", resp.StatusCode, got)
	}
	rec := got["reconciliation"].(map[string]any)
	if rec["status"] != "mismatch" || rec["difference"] != "1.00" || !slices.Equal(got["balances"].([]any), []any{"90.00", "85.00", "115.50"}) {
		t.Errorf("check of a row 1.00 more out: %v; want mismatch by 1.00 at row 3, the computed balance 85.00", got)
	}
	if got["edited"] != false {
		t.Errorf("a check says edited: %v", got["edited"])
	}
	after := review()
	if st := after["statement"].(map[string]any); st["edited"] == true || st["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Errorf("after a check the download is %v; want the original, ok", st)
	}
	_, trail, _ := e.do("GET", "/api/v1/audit", key, nil, "")
	for _, ev := range trail["events"].([]any) {
		if a := ev.(map[string]any)["action"]; a == "correct" || a == "export" {
			t.Errorf("a check or a review left %q in the trail", a)
		}
	}
}
