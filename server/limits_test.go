package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"passbook/extract/source"
	"passbook/quota"
	"passbook/store"
)

// rawRequest sends head by hand on a new connection and returns the
// connection and a reader of the answer, for bodies a client trickles.
func (e *testEnv) rawRequest(head string) (net.Conn, *bufio.Reader) {
	e.t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(e.http.URL, "http://"))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head); err != nil {
		e.t.Fatal(err)
	}
	return c, bufio.NewReader(c)
}

// readStatus reads the answer's status code, failing after limit.
func readStatus(t *testing.T, c net.Conn, br *bufio.Reader, limit time.Duration) int {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(limit))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer within %s: %v", limit, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func uploadHead(key string, contentLength int64) string {
	auth := ""
	if key != "" {
		auth = "Authorization: Bearer " + key + "\r\n"
	}
	length := "Transfer-Encoding: chunked\r\n"
	if contentLength >= 0 {
		length = fmt.Sprintf("Content-Length: %d\r\n", contentLength)
	}
	return "POST /api/v1/extract HTTP/1.1\r\nHost: x\r\n" + auth + length +
		"Content-Type: multipart/form-data; boundary=XX\r\n\r\n"
}

func TestUnauthenticatedSlowBodyGets401AtOnce(t *testing.T) {
	e := newEnv(t, false)
	for _, cl := range []int64{-1, 45 << 20} {
		c, br := e.rawRequest(uploadHead("", cl))
		// The body never comes.
		if got := readStatus(t, c, br, 3*time.Second); got != http.StatusUnauthorized {
			t.Errorf("Content-Length %d: status %d, want 401", cl, got)
		}
	}
}

func TestDeclaredLengthOverTheLimitIsRefusedFirst(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("big@example.com", quota.Business)
	c, br := e.rawRequest(uploadHead(key, 51<<20))
	if got := readStatus(t, c, br, 3*time.Second); got != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413 before any of the body is sent", got)
	}
}

func TestSlowBodyIsCutOff(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.BodyIdle = 300 * time.Millisecond })
	key := e.account("slow@example.com", quota.Business)
	c, br := e.rawRequest(uploadHead(key, 1000) + "--XX\r\n")
	status := readStatus(t, c, br, 5*time.Second)
	if status != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408 upload_too_slow", status)
	}
}

func TestUploadsInFlightAreBounded(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.MaxUploads = 1 })
	key := e.account("busy@example.com", quota.Business)
	// One upload holds the only slot, sending nothing more.
	c, _ := e.rawRequest(uploadHead(key, 1000) + "--XX\r\n")
	defer c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(e.srv.uploads) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slow upload never took its slot")
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, m := e.upload(key, map[string][]byte{"file": sample})
	wantError(t, resp, m, 503, "busy")
	if resp.Header.Get("Retry-After") == "" {
		t.Error("503 busy without Retry-After")
	}
	c.Close()
	// The slot comes back when the first upload goes.
	deadline = time.Now().Add(5 * time.Second)
	for {
		resp, m := e.upload(key, map[string][]byte{"file": sample})
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the slow upload left: %d %v", resp.StatusCode, m)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestFailedKeysAreThrottledByAddress(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.AuthFailures = 3 })
	good := e.account("good@example.com", quota.Free)
	for i := range 3 {
		resp, m, _ := e.do("GET", "/api/v1/user", "uk_wrong", nil, "")
		wantError(t, resp, m, 401, "invalid_api_key")
		_ = i
	}
	resp, m, _ := e.do("GET", "/api/v1/user", "uk_wrong", nil, "")
	wantError(t, resp, m, 429, "too_many_failures")
	if resp.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	// Even a good key waits: the address is guessing.
	resp, m, _ = e.do("GET", "/api/v1/user", good, nil, "")
	wantError(t, resp, m, 429, "too_many_failures")
	// After the window it may try again.
	e.mu.Lock()
	e.now = e.now.Add(2 * time.Minute)
	e.mu.Unlock()
	if resp, m, _ := e.do("GET", "/api/v1/user", good, nil, ""); resp.StatusCode != 200 {
		t.Errorf("after the window: %d %v", resp.StatusCode, m)
	}
}

func TestIdempotencyKeyChargesOnce(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("idem@example.com", quota.Professional)
	send := func(k string) (*http.Response, map[string]any) {
		body, ctype := form(map[string][]byte{"file": sample})
		req, _ := http.NewRequest("POST", e.http.URL+"/api/v1/extract", body)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Idempotency-Key", k)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		m := map[string]any{}
		if err := jsonDecode(resp.Body, &m); err != nil {
			t.Fatal(err)
		}
		return resp, m
	}
	r1, m1 := send("order-42")
	r2, m2 := send("order-42")
	if r1.StatusCode != 200 || r2.StatusCode != 200 || m1["file_id"] != m2["file_id"] {
		t.Fatalf("same key: %d %v then %d %v; want the same file_id twice", r1.StatusCode, m1, r2.StatusCode, m2)
	}
	if r2.Header.Get("Idempotent-Replayed") != "true" {
		t.Error("replayed answer not marked Idempotent-Replayed")
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 1.0 {
		t.Errorf("quota.used = %v after a repeated key, want 1", q["used"])
	}
	if r3, m3 := send("order-43"); r3.StatusCode != 200 || m3["file_id"] == m1["file_id"] {
		t.Errorf("another key: %d %v; want a new document", r3.StatusCode, m3)
	}
	r4, m4 := send("bad key")
	wantError(t, r4, m4, 400, "invalid_idempotency_key")
}

func TestWrongTypeIsRefusedFromItsFirstBytes(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("type@example.com", quota.Free)
	resp, m := e.upload(key, map[string][]byte{"file": []byte("MZ\x90\x00 this is not a statement")})
	wantError(t, resp, m, 400, "unsupported_type")
}

func TestWrongMethodIs405(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("m@example.com", quota.Free)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/extract"}, {"POST", "/api/v1/status"}, {"PUT", "/api/v1/download"}, {"DELETE", "/api/v1/user"},
		{"POST", "/api/v1/documents"}, {"PATCH", "/api/v1/documents/abc"}, {"POST", "/api/v1/documents/abc/pages/1"},
		{"POST", "/api/v1/documents/abc/transactions"},
	} {
		resp, m, _ := e.do(c.method, c.path, key, nil, "")
		if resp.StatusCode != 405 || m["code"] != "method_not_allowed" {
			t.Errorf("%s %s: %d %v, want 405 method_not_allowed", c.method, c.path, resp.StatusCode, m)
		}
	}
}

func TestForgottenPasswordFailsTheJob(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("pw@example.com", quota.Professional)
	acc, err := e.store.AccountByKey(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	// As after a restart: the job needs a password no one holds.
	doc, err := e.store.CreateDocument(context.Background(), store.NewDocument{AccountID: acc.ID, OriginalName: "x.pdf",
		Kind: "pdf", PageCount: 1, Content: sample, Encrypted: true})
	if err != nil {
		t.Fatal(err)
	}
	e.srv.nudge()
	st := e.waitDone(key, doc.ID)
	if st["status"] != "failed" || st["error_code"] != "password_required" {
		t.Errorf("status %v, want failed password_required", st)
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 0.0 {
		t.Errorf("quota.used = %v, want 0 (refunded)", q["used"])
	}
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

func TestRetentionDeletesOldDocuments(t *testing.T) {
	e := newEnv(t, true, func(c *Config, _ *Converter) { c.Retention = 90 * 24 * time.Hour })
	key := e.account("ret@example.com", quota.Professional)
	resp, m := e.upload(key, map[string][]byte{"file": sample})
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id := m["file_id"].(string)
	e.waitDone(key, id)
	if n := e.srv.retentionPass(context.Background()); n != 0 {
		t.Fatalf("retention deleted %d documents younger than 90 days", n)
	}
	e.mu.Lock()
	e.now = e.now.Add(91 * 24 * time.Hour)
	e.mu.Unlock()
	if n := e.srv.retentionPass(context.Background()); n != 1 {
		t.Fatalf("retention deleted %d documents, want 1", n)
	}
	raw, err := e.store.Result(context.Background(), id)
	if err == nil && len(raw) > 0 {
		t.Errorf("the result outlived retention: %d bytes", len(raw))
	}
	// Retention deletes as DELETE does: the document leaves the list.
	_, l, _ := e.do("GET", "/api/v1/documents", key, nil, "")
	if docs, _ := l["documents"].([]any); docs == nil || len(docs) != 0 {
		t.Errorf("after retention the list is %v, want no documents", l)
	}
}

func TestOneAccountCannotHoldEveryProbeSlot(t *testing.T) {
	a := newAccountSlots(1)
	never := make(chan struct{})
	if !a.acquire(1, never) {
		t.Fatal("first slot refused")
	}
	gaveUp := make(chan struct{})
	close(gaveUp)
	if a.acquire(1, gaveUp) {
		t.Fatal("account 1 took a second slot past its limit")
	}
	if !a.acquire(2, gaveUp) {
		t.Fatal("account 2 waited on account 1's slot")
	}
	a.release(1)
	if !a.acquire(1, gaveUp) {
		t.Fatal("account 1's slot did not come back")
	}
}

func TestRecordWaitsOutAFullDisk(t *testing.T) {
	s := &Server{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tries := 0
	ok := s.record(context.Background(), log, "complete job", func() error {
		if tries++; tries < 6 {
			return fmt.Errorf("complete: %w", store.ErrFull)
		}
		return nil
	})
	if !ok || tries != 6 {
		t.Errorf("full disk: record = %v after %d tries, want true after 6 (a full disk is waited out past the 5 tries other errors get)", ok, tries)
	}
	tries = 0
	ok = s.record(context.Background(), log, "complete job", func() error { tries++; return errors.New("other") })
	if ok || tries != 5 {
		t.Errorf("other error: record = %v after %d tries, want false after 5", ok, tries)
	}
	tries = 0
	ok = s.record(context.Background(), log, "complete job", func() error { tries++; return store.ErrNotFound })
	if ok || tries != 1 {
		t.Errorf("document gone: record = %v after %d tries, want false at once", ok, tries)
	}
}

// stuckProbe never finishes a probe, as a pool whose workers are all busy.
type stuckProbe struct{ Converter }

func (stuckProbe) Probe(ctx context.Context, _ []byte, _ string) (source.Info, error) {
	<-ctx.Done()
	return source.Info{}, ctx.Err()
}

func TestProbeOutOfTimeIsBusyNotTheFilesFault(t *testing.T) {
	e := newEnv(t, false, func(c *Config, conv *Converter) {
		c.ProbeTimeout = 100 * time.Millisecond
		*conv = stuckProbe{*conv}
	})
	key := e.account("late@example.com", quota.Free)
	resp, m := e.upload(key, map[string][]byte{"file": sample})
	wantError(t, resp, m, 503, "busy")
	if resp.Header.Get("Retry-After") == "" {
		t.Error("503 busy without Retry-After")
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 0.0 {
		t.Errorf("quota.used = %v after a probe that ran out of time, want 0", q["used"])
	}
}

// TestUnreadableUploadsSlowTheirAccount: after an upload the converter
// cannot read, the account's next probe waits ProbePenalty (here longer
// than ProbeTimeout, so it gets 503 busy); other accounts, and an account
// that sent a wrong password, do not wait.
func TestUnreadableUploadsSlowTheirAccount(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) {
		c.ProbePenalty, c.ProbeTimeout, c.Workers = time.Hour, 300*time.Millisecond, 2
	})
	bad := e.account("bad@example.com", quota.Business)
	other := e.account("other@example.com", quota.Business)
	forgetful := e.account("forgetful@example.com", quota.Business)
	resp, m := e.upload(bad, map[string][]byte{"file": []byte("%PDF-1.4 cut short")})
	wantError(t, resp, m, 400, "unreadable_file")
	resp, m = e.upload(bad, map[string][]byte{"file": sample})
	wantError(t, resp, m, 503, "busy")
	if resp, m := e.upload(other, map[string][]byte{"file": sample}); resp.StatusCode != 200 {
		t.Errorf("another account: %d %v", resp.StatusCode, m)
	}
	resp, m = e.upload(forgetful, map[string][]byte{"file": mustRead("testdata/encrypted.txt"), "password": []byte("wrong")})
	wantError(t, resp, m, 400, "password_required")
	if resp, m := e.upload(forgetful, map[string][]byte{"file": sample}); resp.StatusCode != 200 {
		t.Errorf("after a wrong password: %d %v, want no penalty", resp.StatusCode, m)
	}
}

func TestPenaltyDoubles(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{{0, 0}, {1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {8, 128 * time.Second}, {20, 128 * time.Second}} {
		if got := penalty(time.Second, tc.n); got != tc.want {
			t.Errorf("penalty(1s, %d) = %s, want %s", tc.n, got, tc.want)
		}
	}
	if got := penalty(0, 5); got != 0 {
		t.Errorf("penalty off: %s", got)
	}
}
