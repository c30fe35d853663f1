package server

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

// converted uploads the sample and waits for it.
func (e *testEnv) converted(key string) string {
	e.t.Helper()
	resp, m := e.upload(key, map[string][]byte{"file": sample})
	if resp.StatusCode != 200 {
		e.t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id := m["file_id"].(string)
	if st := e.waitDone(key, id); st["status"] != "completed" {
		e.t.Fatalf("conversion: %v", st)
	}
	return id
}

func TestDocumentsListAndDelete(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Professional)
	other := e.account("b@example.com", quota.Professional)
	var ids []string
	for range 3 {
		e.mu.Lock()
		e.now = e.now.Add(time.Minute)
		e.mu.Unlock()
		ids = append(ids, e.converted(key))
	}
	_, m, _ := e.do("GET", "/api/v1/documents?limit=2", key, nil, "")
	docs := m["documents"].([]any)
	if len(docs) != 2 || m["next"] != docs[1].(map[string]any)["file_id"] {
		t.Fatalf("first page: %v", m)
	}
	first := docs[0].(map[string]any)
	if first["file_id"] != ids[2] || first["status"] != "completed" || first["reconciliation"] != "ok" ||
		first["transaction_count"] != 8.0 || first["page_count"] != 1.0 || first["original_name"] != "march statement.pdf" ||
		first["created_at"] != "2024-03-09T12:03:00Z" {
		t.Errorf("newest document: %v", first)
	}
	_, m, _ = e.do("GET", "/api/v1/documents?limit=2&before="+m["next"].(string), key, nil, "")
	if docs := m["documents"].([]any); len(docs) != 1 || docs[0].(map[string]any)["file_id"] != ids[0] || m["next"] != nil {
		t.Errorf("second page: %v", m)
	}
	_, m, _ = e.do("GET", "/api/v1/documents", other, nil, "")
	if docs := m["documents"].([]any); len(docs) != 0 {
		t.Errorf("another account sees %d documents", len(docs))
	}
	resp, m, _ := e.do("GET", "/api/v1/documents?limit=0", key, nil, "")
	wantError(t, resp, m, 400, "invalid_limit")

	usedBefore := e.used(key)
	resp, m, _ = e.do("DELETE", "/api/v1/documents/"+ids[1], other, nil, "")
	wantError(t, resp, m, 403, "forbidden")
	resp, m, _ = e.do("DELETE", "/api/v1/documents/"+ids[1], key, nil, "")
	if resp.StatusCode != 200 || m["success"] != true || m["file_id"] != ids[1] {
		t.Fatalf("delete: %d %v", resp.StatusCode, m)
	}
	for _, path := range []string{"/api/v1/status?file_id=" + ids[1], "/api/v1/download?file_id=" + ids[1], "/api/v1/documents/" + ids[1] + "/pages/1"} {
		resp, m, _ = e.do("GET", path, key, nil, "")
		wantError(t, resp, m, 404, "not_found")
	}
	resp, m, _ = e.do("DELETE", "/api/v1/documents/"+ids[1], key, nil, "")
	wantError(t, resp, m, 404, "not_found")
	if got := e.used(key); got != usedBefore {
		t.Errorf("pages used after delete: got %v, want %v (charged pages stay charged)", got, usedBefore)
	}
	_, m, _ = e.do("GET", "/api/v1/documents", key, nil, "")
	if docs := m["documents"].([]any); len(docs) != 2 {
		t.Errorf("after delete: %d documents listed, want 2", len(docs))
	}
}

func (e *testEnv) used(key string) float64 {
	e.t.Helper()
	_, m, _ := e.do("GET", "/api/v1/user", key, nil, "")
	return m["quota"].(map[string]any)["used"].(float64)
}

func TestPageImage(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Professional)
	id := e.converted(key)
	resp, _, body := e.do("GET", "/api/v1/documents/"+id+"/pages/1?width=400", key, nil, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("page: %d %s", resp.StatusCode, body)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w < 399 || w > 401 {
		t.Errorf("width: got %d, want 400", w)
	}
	var pw, ph float64
	if _, err := fmt.Sscanf(resp.Header.Get("X-Page-Size"), "%f %f", &pw, &ph); err != nil || pw < 590 || pw > 600 {
		t.Errorf("X-Page-Size %q: want the A4 width in points", resp.Header.Get("X-Page-Size"))
	}
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/pages/2", 404, "no_such_page"},
		{"/pages/0", 404, "no_such_page"},
		{"/pages/x", 404, "no_such_page"},
		{"/pages/1?width=5", 400, "invalid_width"},
		{"/pages/1?width=100000", 400, "invalid_width"},
	} {
		resp, m, _ := e.do("GET", "/api/v1/documents/"+id+c.path, key, nil, "")
		wantError(t, resp, m, c.status, c.code)
	}
	other := e.account("b@example.com", quota.Professional)
	resp, m, _ := e.do("GET", "/api/v1/documents/"+id+"/pages/1", other, nil, "")
	wantError(t, resp, m, 403, "forbidden")
}

func (e *testEnv) jsonDoc(key, id string) map[string]any {
	e.t.Helper()
	_, m, _ := e.do("GET", "/api/v1/download?format=json&file_id="+id, key, nil, "")
	return m
}

func TestCorrectTransactions(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Professional)
	id := e.converted(key)
	orig := e.jsonDoc(key, id)
	txs := orig["transactions"].([]any)
	row := txs[2].(map[string]any)
	field := "amountOut"
	if row[field] == nil {
		field = "amountIn"
	}
	wrong := "999.99"
	row[field] = wrong
	body, _ := json.Marshal(map[string]any{"transactions": txs})
	path := "/api/v1/documents/" + id + "/transactions"
	resp, m, _ := e.do("PUT", path, key, bytes.NewReader(body), "application/json")
	if resp.StatusCode != 200 || m["edited"] != true {
		t.Fatalf("save: %d %v", resp.StatusCode, m)
	}
	rec := m["reconciliation"].(map[string]any)
	if rec["status"] != "mismatch" || fmt.Sprint(rec["rows"]) != "[2]" {
		t.Errorf("reconciliation after a wrong amount: %v, want mismatch at row 2", rec)
	}
	doc := e.jsonDoc(key, id)
	st := doc["statement"].(map[string]any)
	if st["edited"] != true || st["reconciliation"].(map[string]any)["status"] != "mismatch" {
		t.Errorf("JSON download after edit: statement %v", st)
	}
	_, _, raw := e.do("GET", "/api/v1/download?format=csv&file_id="+id, key, nil, "")
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := 3
	if field == "amountOut" {
		col = 4
	}
	if recs[3][col] != wrong {
		t.Errorf("CSV row 3 %s: got %q, want %q", field, recs[3][col], wrong)
	}
	_, m, _ = e.do("GET", "/api/v1/documents", key, nil, "")
	if d := m["documents"].([]any)[0].(map[string]any); d["edited"] != true || d["reconciliation"] != "mismatch" {
		t.Errorf("listing after edit: %v", d)
	}

	// Deleting a row whose amount is wrong mends nothing; removing the bad
	// edit by reverting brings the original back.
	resp, m, _ = e.do("DELETE", path, key, nil, "")
	if resp.StatusCode != 200 || m["edited"] != false || m["reconciliation"].(map[string]any)["status"] != "ok" {
		t.Fatalf("revert: %d %v", resp.StatusCode, m)
	}
	if st := e.jsonDoc(key, id)["statement"].(map[string]any); st["edited"] != nil {
		t.Errorf("after revert the download is still marked edited: %v", st)
	}

	bad := func(mut func(r map[string]any)) []byte {
		var cp []any
		b, _ := json.Marshal(orig["transactions"])
		json.Unmarshal(b, &cp)
		mut(cp[0].(map[string]any))
		out, _ := json.Marshal(map[string]any{"transactions": cp})
		return out
	}
	for name, body := range map[string][]byte{
		"not json":       []byte("{"),
		"no list":        []byte(`{"rows": []}`),
		"bad date":       bad(func(r map[string]any) { r["date"] = "2024-02-30" }),
		"both amounts":   bad(func(r map[string]any) { r["amountIn"], r["amountOut"] = "1.00", "1.00" }),
		"no amount":      bad(func(r map[string]any) { r["amountIn"], r["amountOut"] = nil, nil }),
		"comma decimal":  bad(func(r map[string]any) { r["amountIn"], r["amountOut"] = "1,50", nil }),
		"negative":       bad(func(r map[string]any) { r["amountIn"], r["amountOut"] = "-1.50", nil; r["type"] = "CREDIT" }),
		"bad balance":    bad(func(r map[string]any) { r["balance"] = "1e3" }),
		"type disagrees": bad(func(r map[string]any) { r["amountIn"], r["amountOut"], r["type"] = "1.00", nil, "DEBIT" }),
	} {
		resp, m, _ := e.do("PUT", path, key, bytes.NewReader(body), "application/json")
		if resp.StatusCode != 400 || m["code"] != "invalid_transactions" {
			t.Errorf("%s: got %d %v, want 400 invalid_transactions", name, resp.StatusCode, m)
		} else if name != "not json" && name != "no list" && !strings.HasPrefix(m["error"].(string), "Row 1:") {
			t.Errorf("%s: error %q does not name the row", name, m["error"])
		}
	}
	other := e.account("b@example.com", quota.Professional)
	resp, m, _ = e.do("PUT", path, other, bytes.NewReader(body), "application/json")
	wantError(t, resp, m, 403, "forbidden")
	if st := e.jsonDoc(key, id)["statement"].(map[string]any); st["edited"] != nil {
		t.Errorf("a refused edit was stored: %v", st)
	}
}

func TestPageImageOfProtectedPDF(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Professional)
	resp, m := e.upload(key, map[string][]byte{"file": mustRead("testdata/encrypted.txt"), "password": []byte("s3cret")})
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id := m["file_id"].(string)
	e.waitDone(key, id)
	resp, m, _ = e.do("GET", "/api/v1/documents/"+id+"/pages/1", key, nil, "")
	wantError(t, resp, m, 400, "password_required")
	req, _ := http.NewRequest("GET", e.http.URL+"/api/v1/documents/"+id+"/pages/1?width=300", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("X-Document-Password", "s3cret")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" {
		t.Errorf("with the password: %d %s, want a PNG", r.StatusCode, r.Header.Get("Content-Type"))
	}
}
