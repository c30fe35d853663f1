package main

import (
	"path/filepath"
	"strings"
	"testing"

	"passbook/extract/pdf/hostile"
)

// TestHostilePages runs the whole program on port 0 against PDFs whose
// page trees lie and whose streams inflate to a gigabyte: a 1-page file
// claiming 499 pages is charged 1; a 900-page file claiming 1 is refused
// as over the 500-page limit; a flate bomb fails as too large.
func TestHostilePages(t *testing.T) {
	srv := serve(t, filepath.Join(t.TempDir(), "passbook.db"))
	c := client{t: t, base: "http://" + srv.addr, key: waitFor(t, "the API key", func() string { return keyRE.FindString(srv.stdout.String()) })}

	post := func(doc []byte) (int, map[string]any) { return c.post("hostile.pdf", doc) }
	settle := func(id string) status {
		var st status
		waitFor(t, "the conversion", func() string {
			if st = c.status(id); st.Status == "processing" {
				return ""
			}
			return st.Status
		})
		return st
	}

	code, m := post(hostile.PageTree(1, 499))
	if code != 200 || m["page_count"] != 1.0 {
		t.Fatalf("1 page claiming 499: %d %v, want 200 with page_count 1", code, m)
	}
	if st := settle(m["file_id"].(string)); st.Status != "completed" || st.PageCount != 1 {
		t.Errorf("1 page claiming 499: %+v", st)
	}

	code, m = post(hostile.PageTree(900, 1))
	if msg, _ := m["error"].(string); code != 413 || m["code"] != "too_many_pages" || !strings.Contains(msg, "900 pages") {
		t.Errorf("900 pages claiming 1: %d %v, want 413 too_many_pages counting 900", code, m)
	}

	code, m = post(hostile.FlateBomb(hostile.GiB))
	if code != 200 {
		t.Fatalf("flate bomb: %d %v (its page count is true: 1)", code, m)
	}
	var failed struct {
		Status    string `json:"status"`
		ErrorCode string `json:"error_code"`
	}
	id := m["file_id"].(string)
	settle(id)
	c.get("/api/v1/status?file_id="+id, &failed)
	if failed.Status != "failed" || failed.ErrorCode != "too_large" {
		t.Errorf("flate bomb: %+v, want failed too_large", failed)
	}
	var user struct {
		Quota struct{ Used int } `json:"quota"`
	}
	c.get("/api/v1/user", &user)
	if user.Quota.Used != 1 {
		t.Errorf("quota.used = %d, want 1: the true page, the refused and failed documents nothing", user.Quota.Used)
	}
}

// TestHundredThousandPages (issue 41, 9): a PDF of 100,000 pages gets the
// definite 413 too_many_pages, not "busy, retry" (which a client would
// retry for ever), and is charged nothing.
func TestHundredThousandPages(t *testing.T) {
	srv := serve(t, filepath.Join(t.TempDir(), "passbook.db"))
	c := client{t: t, base: "http://" + srv.addr, key: waitFor(t, "the API key", func() string { return keyRE.FindString(srv.stdout.String()) })}
	code, m := c.post("huge.pdf", hostile.PageTree(100000, 100000))
	if code != 413 || m["code"] != "too_many_pages" {
		t.Errorf("100,000 pages: %d %v, want 413 too_many_pages", code, m)
	}
	var user struct {
		Quota struct{ Used int } `json:"quota"`
	}
	c.get("/api/v1/user", &user)
	if user.Quota.Used != 0 {
		t.Errorf("quota.used = %d after a refused document, want 0", user.Quota.Used)
	}
}
