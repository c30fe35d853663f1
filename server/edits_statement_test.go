package server

import (
	"encoding/json"
	"slices"
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
	// Rows saved again alone keep that header correction; an empty
	// statement drops it.
	body, _ = json.Marshal(map[string]any{"transactions": doc.Transactions})
	if code, m := put("/transactions", string(body)); code != 200 {
		t.Fatalf("rows alone: %d %v", code, m)
	}
	if got := servedAccount(t, e, key, ids[1]); got != "99-0000" {
		t.Errorf("account after rows saved alone: %q, want the correction 99-0000 kept", got)
	}
	body, _ = json.Marshal(map[string]any{"transactions": doc.Transactions, "statement": map[string]any{}})
	if code, m := put("/transactions", string(body)); code != 200 {
		t.Fatalf("rows with an empty statement: %d %v", code, m)
	}
	if got := servedAccount(t, e, key, ids[1]); got != "12-3456" {
		t.Errorf("account after rows saved with an empty statement: %q, want the one read, 12-3456", got)
	}
	body, _ = json.Marshal(map[string]any{"transactions": doc.Transactions, "statement": map[string]any{"account_number": "99-0000", "opening_balance": "115.50"}})
	if code, m := put("/transactions", string(body)); code != 200 {
		t.Fatalf("rows with the header correction again: %d %v", code, m)
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

// servedAccount is the account number a document's JSON download serves.
func servedAccount(t *testing.T, e *testEnv, key, id string) string {
	t.Helper()
	_, _, raw := e.do("GET", "/api/v1/download?format=json&file_id="+id, key, nil, "")
	var doc struct {
		Statement struct {
			AccountNumber string `json:"account_number"`
		} `json:"statement"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Statement.AccountNumber
}

// twoAccounts is a test-engine statement of two accounts (a current
// account and a savings account) in one document, both reconciling, with
// a bank and holder named.
const twoAccounts = `PASSBOOK-TEST
bank Northbridge Bank
holder Anna Schäfer
period 2024-03-01 2024-03-31
subaccount 11-1111 EUR 100.00 115.50
row 2024-03-03 -10.00 90.00 COFFEE
row 2024-03-20 25.50 115.50 REFUND
subaccount 22-2222 EUR 1000.00 1001.25
row 2024-03-31 1.25 1001.25 INTEREST
`

// TestMultiAccountStatementCorrections corrects the details of each
// account of a document that holds two: each account's reconciliation
// and the whole's are re-checked after the edit as for one account, a
// renamed account keeps its rows (also renamed twice, and after rows are
// saved), folders see the corrected accounts, and the document's bank and
// holder are corrected too.
func TestMultiAccountStatementCorrections(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("m@example.com", quota.Enterprise)
	resp, m := e.upload(key, map[string][]byte{"file": []byte(twoAccounts)})
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id := m["file_id"].(string)
	e.waitDone(key, id)
	put := func(path, body string) (int, map[string]any) {
		t.Helper()
		resp, m, _ := e.do("PUT", "/api/v1/documents/"+id+path, key, strings.NewReader(body), "application/json")
		return resp.StatusCode, m
	}
	type served struct {
		Statement struct {
			Bank, Holder   string
			Edited         bool
			Reconciliation struct{ Status string }
			Accounts       []struct {
				AccountNumber  string `json:"account_number"`
				OpeningBalance string `json:"opening_balance"`
				Reconciliation struct {
					Status string
					Rows   []int
				}
			}
		}
		Transactions []map[string]any `json:"transactions"`
	}
	get := func() served {
		t.Helper()
		_, _, raw := e.do("GET", "/api/v1/download?format=json&file_id="+id, key, nil, "")
		var d served
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatalf("%v: %s", err, raw)
		}
		return d
	}
	if d := get(); d.Statement.Bank != "Northbridge Bank" || d.Statement.Holder != "Anna Schäfer" || len(d.Statement.Accounts) != 2 {
		t.Fatalf("as converted: %+v", d.Statement)
	}
	for _, bad := range []string{`{"opening_balance": "1.00"}`, `{"accounts": [{"index": 2, "currency": "EUR"}]}`,
		`{"accounts": [{"index": -1, "currency": "EUR"}]}`, `{"accounts": [{"index": 0}, {"index": 0}]}`,
		`{"accounts": [{"index": 1, "account_number": "11 1111"}]}`, `{"accounts": [{"index": 0, "currency": "EURO"}]}`,
		`{"holder": "a\nb"}`} {
		if code, m := put("/statement", bad); code != 400 || m["code"] != "invalid_statement" {
			t.Errorf("%s: %d %v", bad, code, m)
		}
	}
	// The savings account's opening balance corrected 1.00 lower: it
	// breaks at its row (row 2 of the document), the current account
	// still reconciles, and the whole is a mismatch.
	code, m := put("/statement", `{"accounts": [{"index": 1, "opening_balance": "999"}], "bank": "Northbridge Bank plc", "holder": ""}`)
	if code != 200 || m["reconciliation"].(map[string]any)["status"] != "mismatch" {
		t.Fatalf("correct the savings opening balance: %d %v", code, m)
	}
	d := get()
	a := d.Statement.Accounts
	if a[0].Reconciliation.Status != "ok" || a[1].Reconciliation.Status != "mismatch" || !slices.Equal(a[1].Reconciliation.Rows, []int{2}) ||
		a[1].OpeningBalance != "999.00" || !d.Statement.Edited || d.Statement.Bank != "Northbridge Bank plc" || d.Statement.Holder != "" {
		t.Errorf("after correcting account 1: %+v", d.Statement)
	}
	// Set right, and the current account renamed: its rows follow.
	if code, m := put("/statement", `{"accounts": [{"index": 1, "opening_balance": "1000"}, {"index": 0, "account_number": "DE89 3704"}]}`); code != 200 ||
		m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("rename account 0: %d %v", code, m)
	}
	d = get()
	if d.Statement.Accounts[0].AccountNumber != "DE89 3704" || d.Transactions[0]["account"] != "DE89 3704" || d.Transactions[2]["account"] != "22-2222" ||
		d.Statement.Reconciliation.Status != "ok" || d.Statement.Accounts[0].Reconciliation.Status != "ok" {
		t.Errorf("after renaming account 0: %+v, rows %v", d.Statement, d.Transactions)
	}
	// Rows saved as served (with the new number), then the account
	// renamed again: the rows still follow it.
	d.Transactions[1]["description"] = "REFUND SHOP"
	body, _ := json.Marshal(map[string]any{"transactions": d.Transactions,
		"statement": map[string]any{"accounts": []map[string]any{{"index": 0, "account_number": "DE89 3704"}}}})
	if code, m := put("/transactions", string(body)); code != 200 || m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("rows saved: %d %v", code, m)
	}
	if code, m := put("/statement", `{"accounts": [{"index": 0, "account_number": "DE89 9999"}]}`); code != 200 || m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("rename again: %d %v", code, m)
	}
	d = get()
	if d.Transactions[0]["account"] != "DE89 9999" || d.Transactions[1]["description"] != "REFUND SHOP" || d.Statement.Accounts[0].Reconciliation.Status != "ok" {
		t.Errorf("after renaming again: %+v, rows %v", d.Statement, d.Transactions)
	}
	// The page renames in the rows it sends with the correction; a later
	// correction still renames them.
	for _, r := range d.Transactions {
		if r["account"] == "DE89 9999" {
			r["account"] = "DE89 1111"
		}
	}
	body, _ = json.Marshal(map[string]any{"transactions": d.Transactions,
		"statement": map[string]any{"accounts": []map[string]any{{"index": 0, "account_number": "DE89 1111"}}}})
	if code, m := put("/transactions", string(body)); code != 200 || m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("rows renamed with the correction: %d %v", code, m)
	}
	if code, m := put("/statement", `{"accounts": [{"index": 0, "account_number": "DE89 9999"}]}`); code != 200 || m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("rename after rows renamed: %d %v", code, m)
	}
	if d = get(); d.Transactions[1]["account"] != "DE89 9999" || d.Statement.Accounts[0].Reconciliation.Status != "ok" {
		t.Errorf("after renaming rows and account: %+v, rows %v", d.Statement, d.Transactions)
	}
	// A folder groups the statement's accounts by their corrected numbers.
	_, fm, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": "Two"}`), "application/json")
	fid := fm["folder_id"].(string)
	e.do("PUT", "/api/v1/folders/"+fid+"/documents/"+id, key, nil, "")
	var numbers []string
	for _, a := range e.folder(key, fid)["accounts"].([]any) {
		numbers = append(numbers, a.(map[string]any)["account_number"].(string))
	}
	if got := strings.Join(numbers, ","); got != "22-2222,DE89 9999" {
		t.Errorf("folder accounts: %s", got)
	}
	// A single-account document takes no accounts.
	resp, m = e.upload(key, map[string][]byte{"file": month(1, 100)})
	one := m["file_id"].(string)
	e.waitDone(key, one)
	resp, m, _ = e.do("PUT", "/api/v1/documents/"+one+"/statement", key, strings.NewReader(`{"accounts": [{"index": 0, "currency": "EUR"}]}`), "application/json")
	wantError(t, resp, m, 400, "invalid_statement")
}
