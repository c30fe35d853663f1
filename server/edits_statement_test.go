package server

import (
	"encoding/json"
	"strings"
	"testing"

	"passbook/quota"
)

// TestStatementCorrections corrects a statement's header (account,
// currency, period, balances): stored like row corrections, served by
// every download, used by folders to group and chain statements, checked,
// and undone with the rows' corrections.
func TestStatementCorrections(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("h@example.com", quota.Enterprise)
	resp, m, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": "Year"}`), "application/json")
	fid := m["folder_id"].(string)
	var ids []string
	for i, opening := range []float64{100, 115.5} {
		resp, m = e.upload(key, map[string][]byte{"file": month(i+1, opening), "folder_id": []byte(fid)})
		if resp.StatusCode != 200 {
			t.Fatalf("upload: %d %v", resp.StatusCode, m)
		}
		ids = append(ids, m["file_id"].(string))
		e.waitDone(key, ids[i])
	}
	put := func(path, body string) (int, map[string]any) {
		resp, m, _ := e.do("PUT", "/api/v1/documents/"+ids[1]+path, key, strings.NewReader(body), "application/json")
		return resp.StatusCode, m
	}
	for _, bad := range []string{`{"currency": "EURO"}`, `{"period_start": "2024-02-30"}`, `{"opening_balance": "1,00"}`,
		`{"period_start": "2024-02-10", "period_end": "2024-02-01"}`, `{"account_number": "  "}`, `{"iban": "x"}`} {
		if code, m := put("/statement", bad); code != 400 || m["code"] != "invalid_statement" {
			t.Errorf("%s: %d %v", bad, code, m)
		}
	}
	// February's opening balance corrected 10.00 lower: it no longer
	// reconciles, and the folder finds the break against January.
	code, m := put("/statement", `{"opening_balance": "105.5", "currency": "eur"}`)
	if code != 200 || m["edited"] != true || m["reconciliation"].(map[string]any)["status"] != "mismatch" {
		t.Fatalf("correct the opening balance: %d %v", code, m)
	}
	_, _, raw := e.do("GET", "/api/v1/download?format=json&file_id="+ids[1], key, nil, "")
	var doc struct {
		Statement    map[string]any   `json:"statement"`
		Transactions []map[string]any `json:"transactions"`
	}
	json.Unmarshal(raw, &doc)
	if doc.Statement["opening_balance"] != "105.50" || doc.Statement["currency"] != "EUR" || doc.Statement["edited"] != true || len(doc.Transactions) != 2 {
		t.Errorf("served statement: %v, %d rows", doc.Statement, len(doc.Transactions))
	}
	if got := strings.Join(findings(e.folder(key, fid)), "|"); got != "balance_break 2024-01-31..2024-02-01" {
		t.Errorf("folder after the correction: %q", got)
	}
	// The account corrected: February is another account in the folder.
	// Rows saved with a header correction keep it.
	body, _ := json.Marshal(map[string]any{"transactions": doc.Transactions, "statement": map[string]any{"account_number": "99-0000", "opening_balance": "115.50"}})
	if code, m := put("/transactions", string(body)); code != 200 || m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("rows with a header correction: %d %v", code, m)
	}
	f := e.folder(key, fid)
	var numbers []string
	for _, a := range f["accounts"].([]any) {
		numbers = append(numbers, a.(map[string]any)["account_number"].(string))
	}
	if got := strings.Join(numbers, ","); got != "12-3456,99-0000" {
		t.Errorf("accounts after correcting February's: %s", got)
	}
	_, _, raw = e.do("GET", "/api/v1/download?format=csv&file_id="+ids[1], key, nil, "")
	if len(raw) == 0 {
		t.Error("csv after a header correction is empty")
	}
	_, _, raw = e.do("GET", "/api/v1/download?format=ofx&file_id="+ids[1], key, nil, "")
	if !strings.Contains(string(raw), "99-0000") {
		t.Errorf("the OFX does not carry the corrected account:\n%s", raw)
	}
	// Undo: the header as read comes back.
	if resp, _, _ := e.do("DELETE", "/api/v1/documents/"+ids[1]+"/transactions", key, nil, ""); resp.StatusCode != 200 {
		t.Fatal("undo")
	}
	if f := e.folder(key, fid); f["status"] != "continuous" || len(f["accounts"].([]any)) != 1 {
		t.Errorf("after undo: %v", f["status"])
	}
}
