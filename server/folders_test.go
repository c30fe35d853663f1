package server

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"passbook/quota"
)

// month is a test-engine statement of account 12-3456 in euros for a
// month of 2024, opening with opening and two rows.
func month(m int, opening float64) []byte {
	last := [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	bal1, bal2 := opening-10, opening-10+25.5
	return fmt.Appendf(nil, "PASSBOOK-TEST\naccount 12-3456 EUR\nperiod 2024-%02d-01 2024-%02d-%02d\nopening %.2f\nclosing %.2f\n"+
		"row 2024-%02d-03 -10.00 %.2f COFFEE\nrow 2024-%02d-20 25.50 %.2f REFUND\n", m, m, last, opening, bal2, m, bal1, m, bal2)
}

// folderGet reads a folder.
func (e *testEnv) folder(key, id string) map[string]any {
	e.t.Helper()
	resp, m, raw := e.do("GET", "/api/v1/folders/"+id, key, nil, "")
	if resp.StatusCode != 200 {
		e.t.Fatalf("GET folder: %d %s", resp.StatusCode, raw)
	}
	return m
}

// findings lists a folder's findings as "kind from..to".
func findings(m map[string]any) []string {
	var out []string
	for _, a := range m["accounts"].([]any) {
		for _, f := range a.(map[string]any)["findings"].([]any) {
			f := f.(map[string]any)
			out = append(out, fmt.Sprintf("%s %v..%v", f["kind"], f["from"], f["to"]))
		}
	}
	return out
}

// TestFolderAPI walks the folders API: create, upload into, add, check
// continuity, download, remove, delete, and the errors of each.
func TestFolderAPI(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Enterprise)
	other := e.account("b@example.com", quota.Enterprise)

	for _, body := range []string{`{}`, `{"name": "  "}`, `{"name": "a\u0007b"}`, `{"name": "` + strings.Repeat("x", 201) + `"}`} {
		resp, m, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(body), "application/json")
		wantError(t, resp, m, 400, "invalid_name")
	}
	resp, m, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(`not json`), "application/json")
	wantError(t, resp, m, 400, "invalid_request")
	resp, m, _ = e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": " Smith & Co 2024 "}`), "application/json")
	id, _ := m["folder_id"].(string)
	if resp.StatusCode != 200 || m["success"] != true || !strings.HasPrefix(id, "fld_") || m["name"] != "Smith & Co 2024" {
		t.Fatalf("create: %d %v", resp.StatusCode, m)
	}
	if f := e.folder(key, id); f["status"] != "empty" || len(f["accounts"].([]any)) != 0 || len(f["documents"].([]any)) != 0 {
		t.Errorf("new folder: %v", f)
	}

	// Upload three months into it; a wrong folder is refused before anything is charged.
	resp, m = e.upload(key, map[string][]byte{"file": month(1, 100), "folder_id": []byte("fld_nope")})
	wantError(t, resp, m, 404, "not_found")
	resp, m, _ = e.do("POST", "/api/v1/folders", other, strings.NewReader(`{"name": "theirs"}`), "application/json")
	theirs := m["folder_id"].(string)
	resp, m = e.upload(key, map[string][]byte{"file": month(1, 100), "folder_id": []byte(theirs)})
	wantError(t, resp, m, 403, "forbidden")
	var ids []string
	for i, opening := range []float64{100, 115.5, 131} {
		resp, m = e.upload(key, map[string][]byte{"file": month(i+1, opening), "folder_id": []byte(id)})
		if resp.StatusCode != 200 {
			t.Fatalf("upload %d: %d %v", i, resp.StatusCode, m)
		}
		ids = append(ids, m["file_id"].(string))
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if used := u["quota"].(map[string]any)["used"]; used != 3.0 {
		t.Errorf("pages used %v, want 3 (the refused uploads charge nothing)", used)
	}
	for _, d := range ids {
		e.waitDone(key, d)
	}
	f := e.folder(key, id)
	accounts := f["accounts"].([]any)
	if f["status"] != "continuous" || len(accounts) != 1 || len(f["documents"].([]any)) != 3 || f["transaction_count"] != 6.0 {
		t.Fatalf("folder of three months: %v", f)
	}
	acct := accounts[0].(map[string]any)
	stmts := acct["statements"].([]any)
	if acct["account_number"] != "12-3456" || acct["iban"] != nil || acct["currency"] != "EUR" || len(stmts) != 3 ||
		acct["period_start"] != "2024-01-01" || acct["period_end"] != "2024-03-31" {
		t.Errorf("account: %v", acct)
	}
	first := stmts[0].(map[string]any)
	if first["file_id"] != ids[0] || first["period_start"] != "2024-01-01" || first["period_end"] != "2024-01-31" ||
		first["opening_balance"] != "100.00" || first["closing_balance"] != "115.50" || first["reconciliation"] != "ok" {
		t.Errorf("first statement: %v", first)
	}

	// The same statement again, uploaded on its own and added: a duplicate.
	resp, m = e.upload(key, map[string][]byte{"file": month(2, 115.5)})
	again := m["file_id"].(string)
	e.waitDone(key, again)
	if resp, m, _ := e.do("PUT", "/api/v1/folders/"+id+"/documents/"+again, key, nil, ""); resp.StatusCode != 200 || m["file_id"] != again {
		t.Fatalf("add: %d %v", resp.StatusCode, m)
	}
	f = e.folder(key, id)
	if got := strings.Join(findings(f), "|"); f["status"] != "broken" || got != "duplicate 2024-02-01..2024-02-29" {
		t.Errorf("with a duplicate: %s %q", f["status"], got)
	}
	fd := f["accounts"].([]any)[0].(map[string]any)["findings"].([]any)[0].(map[string]any)
	if ids := fd["file_ids"].([]any); len(ids) != 2 || ids[1] != again || fd["difference"] != nil {
		t.Errorf("duplicate finding: %v", fd)
	}

	// Downloads: every format, the duplicate counted once.
	resp, _, body := e.do("GET", "/api/v1/folders/"+id+"/download?format=csv", key, nil, "")
	if resp.StatusCode != 200 || strings.Count(string(body), "\r\n") != 7 || !strings.Contains(resp.Header.Get("Content-Disposition"), "Smith & Co 2024.csv") {
		t.Errorf("csv: %d %q\n%s", resp.StatusCode, resp.Header.Get("Content-Disposition"), body)
	}
	resp, _, body = e.do("GET", "/api/v1/folders/"+id+"/download?format=xlsx", key, nil, "")
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("xlsx: %d %v", resp.StatusCode, err)
	}
	if got := strings.Join(x.GetSheetList(), "|"); got != "12-3456 EUR|Continuity|Year summary" {
		t.Errorf("xlsx sheets %q", got)
	}
	x.Close()
	resp, _, body = e.do("GET", "/api/v1/folders/"+id+"/download?format=mt940", key, nil, "")
	if resp.StatusCode != 200 || strings.Count(string(body), ":60F:") != 3 {
		t.Errorf("mt940: %d\n%s", resp.StatusCode, body)
	}
	for _, q := range []string{"format=json", "format=ofx", "format=qbo&intu_bid=3000", "format=qif", "format=camt053", "profile=xero", "profile=excel-eu", "profile=quickbooks"} {
		if resp, _, body := e.do("GET", "/api/v1/folders/"+id+"/download?"+q, key, nil, ""); resp.StatusCode != 200 || len(body) == 0 {
			t.Errorf("%s: %d %s", q, resp.StatusCode, body)
		}
	}
	resp, m, _ = e.do("GET", "/api/v1/folders/"+id+"/download?format=pdf", key, nil, "")
	wantError(t, resp, m, 400, "invalid_format")

	// Taken out again: continuous; taking out what is not in it is 404.
	if resp, _, _ := e.do("DELETE", "/api/v1/folders/"+id+"/documents/"+again, key, nil, ""); resp.StatusCode != 200 {
		t.Errorf("remove: %d", resp.StatusCode)
	}
	resp, m, _ = e.do("DELETE", "/api/v1/folders/"+id+"/documents/"+again, key, nil, "")
	wantError(t, resp, m, 404, "not_found")
	if f := e.folder(key, id); f["status"] != "continuous" {
		t.Errorf("after removing the duplicate: %v", f["status"])
	}

	// While a document converts, the folder says so and its download waits.
	resp, m = e.upload(key, map[string][]byte{"file": append(month(4, 146.5), "sleep 1s\n"...), "folder_id": []byte(id)})
	slow := m["file_id"].(string)
	if f := e.folder(key, id); f["status"] != "processing" {
		t.Errorf("while converting: %v", f["status"])
	}
	resp, m, _ = e.do("GET", "/api/v1/folders/"+id+"/download", key, nil, "")
	wantError(t, resp, m, 409, "not_ready")
	if resp.Header.Get("Retry-After") != "2" {
		t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	e.waitDone(key, slow)

	// Other accounts: 403 for the folder, 403 for putting their document in it.
	resp, m, _ = e.do("GET", "/api/v1/folders/"+id, other, nil, "")
	wantError(t, resp, m, 403, "forbidden")
	resp, m = e.upload(other, map[string][]byte{"file": month(1, 5)})
	theirDoc := m["file_id"].(string)
	resp, m, _ = e.do("PUT", "/api/v1/folders/"+id+"/documents/"+theirDoc, key, nil, "")
	wantError(t, resp, m, 403, "forbidden")
	resp, m, _ = e.do("PUT", "/api/v1/folders/"+id+"/documents/doc_nope", key, nil, "")
	wantError(t, resp, m, 404, "not_found")
	resp, m, _ = e.do("GET", "/api/v1/folders/fld_nope", key, nil, "")
	wantError(t, resp, m, 404, "not_found")
	resp, m, _ = e.do("PUT", "/api/v1/folders/"+id, key, nil, "")
	wantError(t, resp, m, 405, "method_not_allowed")

	// Deleting a document takes it out; deleting the folder keeps the rest.
	if resp, _, _ := e.do("DELETE", "/api/v1/documents/"+ids[1], key, nil, ""); resp.StatusCode != 200 {
		t.Fatal("delete document")
	}
	f = e.folder(key, id)
	if got := strings.Join(findings(f), "|"); got != "gap 2024-02-01..2024-02-29" || len(f["documents"].([]any)) != 3 {
		t.Errorf("after deleting February: %q, %d documents", got, len(f["documents"].([]any)))
	}
	_, list, _ := e.do("GET", "/api/v1/folders", key, nil, "")
	if fs := list["folders"].([]any); len(fs) != 1 || fs[0].(map[string]any)["document_count"] != 3.0 {
		t.Errorf("folders: %v", list)
	}
	if resp, m, _ := e.do("DELETE", "/api/v1/folders/"+id, key, nil, ""); resp.StatusCode != 200 || m["folder_id"] != id {
		t.Errorf("delete folder: %d %v", resp.StatusCode, m)
	}
	resp, m, _ = e.do("GET", "/api/v1/folders/"+id, key, nil, "")
	wantError(t, resp, m, 404, "not_found")
	_, docs, _ := e.do("GET", "/api/v1/documents", key, nil, "")
	if n := len(docs["documents"].([]any)); n != 4 {
		t.Errorf("%d documents after deleting the folder, want 4 (January, March, April and the copy)", n)
	}
	if resp, _, _ := e.do("GET", "/api/v1/status?file_id="+ids[0], key, nil, ""); resp.StatusCode != http.StatusOK {
		t.Errorf("a document of the deleted folder: %d", resp.StatusCode)
	}
}
