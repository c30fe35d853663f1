package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

// TestDocumentsSearch searches and filters GET /api/v1/documents on the
// server: by bank, holder, account and name, status, period and folder,
// a page at a time, with bank, holder and period in each document; a
// header correction is searched as corrected; bad parameters are 400
// invalid_query, another office's folder 403.
func TestDocumentsSearch(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("s@example.com", quota.Enterprise)
	other := e.account("o@example.com", quota.Enterprise)
	statement := func(bank, holder, number string, m int) []byte {
		return fmt.Appendf(nil, "PASSBOOK-TEST\nbank %s\nholder %s\naccount %s EUR\nperiod 2024-%02d-01 2024-%02d-28\nopening 10.00\nclosing 15.00\nrow 2024-%02d-03 5.00 15.00 PAY\n",
			bank, holder, number, m, m, m)
	}
	ids := map[string]string{}
	for _, d := range []struct {
		name string
		file []byte
	}{
		{"northbridge-jan", statement("Northbridge Bank", "Anna Schäfer", "DE89 3704 0044", 1)},
		{"northbridge-feb", statement("Northbridge Bank", "Anna Schäfer", "DE89 3704 0044", 2)},
		{"maple-mar", statement("Maple Trust", "Priya Sharma", "12-3456", 3)},
		{"broken", []byte("PASSBOOK-TEST\nfail unreadable\n")},
	} {
		e.mu.Lock()
		e.now = e.now.Add(time.Minute) // one upload a minute: newest first is their order
		e.mu.Unlock()
		resp, m := e.upload(key, map[string][]byte{"file": d.file})
		if resp.StatusCode != 200 {
			t.Fatalf("upload %s: %d %v", d.name, resp.StatusCode, m)
		}
		ids[d.name] = m["file_id"].(string)
		e.waitDone(key, ids[d.name])
	}
	_, fm, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": "Sharma 2024"}`), "application/json")
	folder := fm["folder_id"].(string)
	e.do("PUT", "/api/v1/folders/"+folder+"/documents/"+ids["maple-mar"], key, nil, "")
	_, om, _ := e.do("POST", "/api/v1/folders", other, strings.NewReader(`{"name": "Theirs"}`), "application/json")

	byID := map[string]string{}
	for n, id := range ids {
		byID[id] = n
	}
	list := func(query string) (string, []map[string]any) {
		t.Helper()
		var names []string
		var all []map[string]any
		before := ""
		for {
			q := query + "&limit=1"
			if before != "" {
				q += "&before=" + before
			}
			resp, m, raw := e.do("GET", "/api/v1/documents?"+q, key, nil, "")
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d %s", q, resp.StatusCode, raw)
			}
			for _, d := range m["documents"].([]any) {
				d := d.(map[string]any)
				names = append(names, byID[d["file_id"].(string)])
				all = append(all, d)
			}
			next, _ := m["next"].(string)
			if next == "" {
				return strings.Join(names, ","), all
			}
			before = next
		}
	}
	for _, tc := range []struct{ query, want string }{
		{"", "broken,maple-mar,northbridge-feb,northbridge-jan"},
		{"q=northbridge", "northbridge-feb,northbridge-jan"},
		{"q=" + url.QueryEscape("SCHÄFER"), "northbridge-feb,northbridge-jan"},
		{"q=37040044", "northbridge-feb,northbridge-jan"},
		{"q=sharma", "maple-mar"},
		{"status=failed", "broken"},
		{"status=ok", "maple-mar,northbridge-feb,northbridge-jan"},
		{"from=2024-02-10&to=2024-03-01", "maple-mar,northbridge-feb"},
		{"folder_id=" + folder, "maple-mar"},
		{"folder_id=none&status=ok&sort=oldest", "northbridge-jan,northbridge-feb"},
		{"sort=result", "broken,maple-mar,northbridge-feb,northbridge-jan"},
	} {
		if got, _ := list(tc.query); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.query, got, tc.want)
		}
	}
	_, docs := list("q=maple")
	if d := docs[0]; d["bank"] != "Maple Trust" || d["holder"] != "Priya Sharma" || d["period_start"] != "2024-03-01" || d["account"] != "12-3456 EUR" {
		t.Errorf("maple-mar as listed: %v", d)
	}
	// The bank corrected on the page: found by the corrected name only.
	resp, m, _ := e.do("PUT", "/api/v1/documents/"+ids["northbridge-jan"]+"/statement", key, strings.NewReader(`{"bank": "Harbor Savings"}`), "application/json")
	if resp.StatusCode != 200 {
		t.Fatalf("correct the bank: %d %v", resp.StatusCode, m)
	}
	if got, _ := list("q=harbor"); got != "northbridge-jan" {
		t.Errorf("the corrected bank: %s", got)
	}
	if got, _ := list("q=northbridge+bank"); got != "northbridge-feb" {
		t.Errorf("the bank read before the correction: %s", got)
	}
	// Folders are found by what their statements name.
	for q, want := range map[string]int{"maple": 1, "sharma+2024": 1, "northbridge": 0} {
		_, m, _ := e.do("GET", "/api/v1/folders?q="+q, key, nil, "")
		if fs := m["folders"].([]any); len(fs) != want || want == 1 && fs[0].(map[string]any)["folder_id"] != folder {
			t.Errorf("folders?q=%s: %v", q, m["folders"])
		}
	}
	// The folder view names each statement's bank and holder.
	st := e.folder(key, folder)["accounts"].([]any)[0].(map[string]any)["statements"].([]any)[0].(map[string]any)
	if st["bank"] != "Maple Trust" || st["holder"] != "Priya Sharma" {
		t.Errorf("the folder's statement: %v", st)
	}
	for _, q := range []string{"status=done", "sort=size", "from=2024-13-01", "to=yesterday", "q=" + strings.Repeat("x", 201)} {
		resp, m, _ := e.do("GET", "/api/v1/documents?"+q, key, nil, "")
		wantError(t, resp, m, 400, "invalid_query")
	}
	resp, m, _ = e.do("GET", "/api/v1/documents?folder_id="+om["folder_id"].(string), key, nil, "")
	wantError(t, resp, m, 403, "forbidden")
	resp, m, _ = e.do("GET", "/api/v1/documents?folder_id=fld_nothere", key, nil, "")
	wantError(t, resp, m, 404, "not_found")
}
