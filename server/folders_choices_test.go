package server

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"passbook/quota"
)

// TestFolderChoices walks what a person decides in a folder: a name
// another folder has is said on creating and refused on renaming; of two
// conflicting statements one is kept and the other set aside (still in the
// folder, out of its findings and downloads) and put back; the year
// summary per account, month by month with the files; the same bytes
// uploaded again are named when asked; an upload retried with its
// Idempotency-Key and a folder_id lands in that folder.
func TestFolderChoices(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Enterprise)
	mk := func(name string) string {
		resp, m, raw := e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": "`+name+`"}`), "application/json")
		if resp.StatusCode != 200 {
			t.Fatalf("create %s: %d %s", name, resp.StatusCode, raw)
		}
		return m["folder_id"].(string)
	}
	id := mk("Smith 2024")
	other := mk("Jones 2024")
	// Made as before, but said: the page refuses it before asking.
	resp, m, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": " smith 2024 "}`), "application/json")
	if resp.StatusCode != 200 || m["same_name_as"] != id {
		t.Errorf("a second \"Smith 2024\": %d %v, want it made with same_name_as %s", resp.StatusCode, m, id)
	}
	resp, m, _ = e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": "Brown 2024"}`), "application/json")
	if m["same_name_as"] != nil {
		t.Errorf("a new name: %d %v", resp.StatusCode, m)
	}
	brown := m["folder_id"].(string)
	resp, m, _ = e.do("PATCH", "/api/v1/folders/"+other, key, strings.NewReader(`{"name": "SMITH 2024"}`), "application/json")
	wantError(t, resp, m, 409, "name_taken")
	resp, m, _ = e.do("PATCH", "/api/v1/folders/"+other, key, strings.NewReader(`{"name": ""}`), "application/json")
	wantError(t, resp, m, 400, "invalid_name")
	if resp, m, _ := e.do("PATCH", "/api/v1/folders/"+other, key, strings.NewReader(`{"name": "Jones & Co 2024"}`), "application/json"); resp.StatusCode != 200 || m["name"] != "Jones & Co 2024" {
		t.Fatalf("rename: %d %v", resp.StatusCode, m)
	}
	if f := e.folder(key, other); f["name"] != "Jones & Co 2024" {
		t.Errorf("renamed folder reads %v", f["name"])
	}
	// Renaming a folder to its own name, in other letters, is fine.
	if resp, _, raw := e.do("PATCH", "/api/v1/folders/"+brown, key, strings.NewReader(`{"name": "BROWN 2024"}`), "application/json"); resp.StatusCode != 200 {
		t.Errorf("rename to itself: %d %s", resp.StatusCode, raw)
	}

	// January, February, and a February whose balances are 100.00 higher.
	var ids []string
	for _, b := range [][]byte{month(1, 100), month(2, 115.5), month(2, 215.5)} {
		resp, m := e.upload(key, map[string][]byte{"file": b, "folder_id": []byte(id)})
		if resp.StatusCode != 200 {
			t.Fatalf("upload: %d %v", resp.StatusCode, m)
		}
		ids = append(ids, m["file_id"].(string))
		e.waitDone(key, ids[len(ids)-1])
	}
	if got := strings.Join(findings(e.folder(key, id)), "|"); !strings.Contains(got, "overlap") {
		t.Fatalf("two Februaries: findings %q, want an overlap", got)
	}
	// Keep the right February: the other is set aside, not deleted.
	resp, m, _ = e.do("PATCH", "/api/v1/folders/"+id+"/documents/"+ids[2], key, strings.NewReader(`{"set_aside": true}`), "application/json")
	if resp.StatusCode != 200 || m["set_aside"] != true {
		t.Fatalf("set aside: %d %v", resp.StatusCode, m)
	}
	f := e.folder(key, id)
	if f["status"] != "continuous" || len(findings(f)) != 0 || len(f["documents"].([]any)) != 3 {
		t.Errorf("with the faulty February set aside: %v %q, %d documents", f["status"], findings(f), len(f["documents"].([]any)))
	}
	for _, d := range f["documents"].([]any) {
		d := d.(map[string]any)
		if (d["file_id"] == ids[2]) != (d["set_aside"] == true) {
			t.Errorf("document %v set_aside %v", d["file_id"], d["set_aside"])
		}
	}
	// The year: opening 100.00, two months, each with its file.
	y := f["accounts"].([]any)[0].(map[string]any)["year"].(map[string]any)
	months := y["months"].([]any)
	feb := months[1].(map[string]any)
	if y["opening_balance"] != "100.00" || y["closing_balance"] != "131.00" || y["money_in"] != "51.00" || y["money_out"] != "20.00" ||
		len(months) != 2 || feb["month"] != "2024-02" || feb["opening_balance"] != "115.50" || feb["closing_balance"] != "131.00" ||
		len(feb["file_ids"].([]any)) != 1 || feb["file_ids"].([]any)[0] != ids[1] {
		t.Errorf("year: %v", y)
	}
	resp, _, body := e.do("GET", "/api/v1/folders/"+id+"/download?format=csv", key, nil, "")
	if resp.StatusCode != 200 || strings.Count(string(body), "\r\n") != 5 {
		t.Errorf("csv with one February: %d\n%s", resp.StatusCode, body)
	}
	_, _, body = e.do("GET", "/api/v1/folders/"+id+"/download?format=xlsx", key, nil, "")
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := x.GetRows("Year summary")
	x.Close()
	var sum []string
	for _, r := range rows {
		sum = append(sum, strings.Join(r, ";"))
	}
	if got := strings.Join(sum, "\n"); !strings.Contains(got, "Opening balance;100") || !strings.Contains(got, "2024-02;115.5") || !strings.Contains(got, ";131") {
		t.Errorf("year summary sheet:\n%s", got)
	}
	// Put back: the overlap is back.
	e.do("PATCH", "/api/v1/folders/"+id+"/documents/"+ids[2], key, strings.NewReader(`{"set_aside": false}`), "application/json")
	if got := findings(e.folder(key, id)); len(got) == 0 {
		t.Errorf("put back: no findings")
	}
	resp, m, _ = e.do("PATCH", "/api/v1/folders/"+other+"/documents/"+ids[2], key, strings.NewReader(`{"set_aside": true}`), "application/json")
	wantError(t, resp, m, 404, "not_found")
	resp, m, _ = e.do("PATCH", "/api/v1/folders/"+id+"/documents/"+ids[2], key, strings.NewReader(`{}`), "application/json")
	wantError(t, resp, m, 400, "invalid_request")

	// The same bytes again, with if_new: named, nothing charged.
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	used := u["quota"].(map[string]any)["used"]
	resp, m = e.upload(key, map[string][]byte{"file": month(1, 100), "if_new": []byte("true")})
	if resp.StatusCode != 409 || m["code"] != "already_uploaded" || m["file_id"] != ids[0] || m["status"] != "completed" {
		t.Errorf("same bytes with if_new: %d %v", resp.StatusCode, m)
	}
	_, u, _ = e.do("GET", "/api/v1/user", key, nil, "")
	if u["quota"].(map[string]any)["used"] != used {
		t.Errorf("a refused repeat charged: %v then %v", used, u["quota"].(map[string]any)["used"])
	}
	// Without if_new it converts again, as before.
	if resp, m := e.upload(key, map[string][]byte{"file": month(1, 100)}); resp.StatusCode != 200 || m["file_id"] == ids[0] {
		t.Errorf("same bytes without if_new: %d %v", resp.StatusCode, m)
	}

	// An upload retried with its key and a folder_id lands in the folder.
	send := func(folderID string) map[string]any {
		parts := map[string][]byte{"file": month(3, 131)}
		if folderID != "" {
			parts["folder_id"] = []byte(folderID)
		}
		body, ctype := form(parts)
		req, _ := http.NewRequest("POST", e.http.URL+"/api/v1/extract", body)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Idempotency-Key", "march-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		m := map[string]any{}
		if err := jsonDecode(bytes.NewReader(raw), &m); err != nil || resp.StatusCode != 200 {
			t.Fatalf("upload: %d %s", resp.StatusCode, raw)
		}
		return m
	}
	first := send("")
	again := send(other)
	if again["file_id"] != first["file_id"] {
		t.Fatalf("replay gave %v, first %v", again["file_id"], first["file_id"])
	}
	docs := e.folder(key, other)["documents"].([]any)
	if len(docs) != 1 || docs[0].(map[string]any)["file_id"] != first["file_id"] {
		t.Errorf("the replayed upload is not in the folder named: %v", docs)
	}
}
