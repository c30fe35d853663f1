package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"passbook/quota"
	"passbook/store"
)

// logBuffer collects JSON log lines from the server and its workers.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines are the log records whose msg is msg.
func (b *logBuffer) lines(t *testing.T, msg string) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", l, err)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

func (b *logBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// newOpsEnv is newEnv with a JSON log at debug level, a data file at path
// and the configuration cfg changes.
func newOpsEnv(t *testing.T, path string, workers bool, logs *logBuffer, cfgf func(*Config)) *testEnv {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, store: st, now: time.Date(2024, 3, 9, 12, 0, 0, 0, time.UTC), keys: map[string]string{}}
	cfg := DefaultConfig()
	cfg.PollInterval = 20 * time.Millisecond
	cfg.Workers = 2
	cfg.Sniff = testSniff
	if cfgf != nil {
		cfgf(&cfg)
	}
	// newEnv's own converter, whatever it is, taken through its option.
	var conv Converter
	newEnv(t, false, func(_ *Config, c *Converter) { conv = *c })
	e.serve(slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), conv, cfg, workers)
	return e
}

func TestReadiness(t *testing.T) {
	logs := &logBuffer{}
	dir := t.TempDir()
	path := filepath.Join(dir, "ready.db")
	e := newOpsEnv(t, path, true, logs, nil)

	if resp, m, _ := e.do("GET", "/healthz", "", nil, ""); resp.StatusCode != 200 || m["success"] != true {
		t.Errorf("/healthz: %d %v", resp.StatusCode, m)
	}
	var m map[string]any
	var resp *http.Response
	// The workers start in their own goroutines: wait for both.
	var checks map[string]any
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, m, _ = e.do("GET", "/readyz", "", nil, "")
		if checks, _ = m["checks"].(map[string]any); resp.StatusCode == 200 && checks["workers"] == "2 running" {
			break
		}
	}
	if resp.StatusCode != 200 || m["success"] != true || checks["data_file"] != "writable" || checks["workers"] != "2 running" {
		t.Fatalf("/readyz on a healthy server: %d %v", resp.StatusCode, m)
	}

	// Root may ignore a mode bit: make the open data file immutable instead.
	files := []string{path, path + "-wal", path + "-shm", dir}
	if out, err := exec.Command("chattr", append([]string{"+i"}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("chattr +i (needs root and a file system with attributes, e.g. ext4): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("chattr", append([]string{"-i"}, files...)...).CombinedOutput(); err != nil {
			t.Errorf("chattr -i: %v: %s", err, out)
		}
	})
	resp, m, _ = e.do("GET", "/readyz", "", nil, "")
	checks, _ = m["checks"].(map[string]any)
	if resp.StatusCode != 503 || m["success"] != false || m["code"] != "server_not_ready" || checks["data_file"] != "not writable" {
		t.Errorf("/readyz on an immutable data file: %d %v; want 503 server_not_ready, data_file not writable", resp.StatusCode, m)
	}
	// Polls before the workers started may have logged "not ready" for them.
	var dataLines int
	for _, l := range logs.lines(t, "not ready") {
		if l["check"] == "data_file" {
			dataLines++
		}
	}
	if dataLines != 1 {
		t.Errorf("not-ready log lines for the data file = %d, want 1:\n%s", dataLines, logs)
	}
	// Liveness does not depend on the data file.
	if resp, _, _ := e.do("GET", "/healthz", "", nil, ""); resp.StatusCode != 200 {
		t.Errorf("/healthz with an immutable data file: %d, want 200", resp.StatusCode)
	}
}

func TestReadinessWithoutWorkers(t *testing.T) {
	e := newOpsEnv(t, filepath.Join(t.TempDir(), "s.db"), false, &logBuffer{}, nil)
	resp, m, _ := e.do("GET", "/readyz", "", nil, "")
	checks, _ := m["checks"].(map[string]any)
	if resp.StatusCode != 503 || checks["workers"] != "not running" || checks["data_file"] != "writable" {
		t.Errorf("/readyz with no workers: %d %v", resp.StatusCode, m)
	}
}

func TestBasePath(t *testing.T) {
	e := newOpsEnv(t, filepath.Join(t.TempDir(), "s.db"), false, &logBuffer{}, func(c *Config) { c.BasePath = "/passbook" })
	key := e.account("a@example.com", quota.Free)

	resp, _, body := e.do("GET", "/passbook/", "", nil, "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<head><base href="/passbook/">`) || !strings.Contains(string(body), "<title>Passbook</title>") {
		t.Errorf("GET /passbook/: %d, body %.200q; want the page with <base href=\"/passbook/\"> first in its head", resp.StatusCode, body)
	}
	if resp, _, body := e.do("GET", "/passbook/app.js", "", nil, ""); resp.StatusCode != 200 || len(body) == 0 {
		t.Errorf("GET /passbook/app.js: %d", resp.StatusCode)
	}
	if resp, m, _ := e.do("GET", "/passbook/api/v1/user", key, nil, ""); resp.StatusCode != 200 || m["email"] != "a@example.com" {
		t.Errorf("GET /passbook/api/v1/user: %d %v", resp.StatusCode, m)
	}
	body2, ctype := form(map[string][]byte{"file": sample})
	if resp, m, _ := e.do("POST", "/passbook/api/v1/extract", key, body2, ctype); resp.StatusCode != 200 || m["file_id"] == nil {
		t.Errorf("POST /passbook/api/v1/extract: %d %v", resp.StatusCode, m)
	}
	if resp, m, _ := e.do("GET", "/api/v1/user", key, nil, ""); resp.StatusCode != 404 || m["code"] != "not_found" {
		t.Errorf("GET /api/v1/user outside the base path: %d %v, want 404", resp.StatusCode, m)
	}
	for _, p := range []string{"/healthz", "/passbook/healthz"} {
		if resp, _, _ := e.do("GET", p, "", nil, ""); resp.StatusCode != 200 {
			t.Errorf("GET %s: %d, want 200", p, resp.StatusCode)
		}
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(e.http.URL + "/passbook")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/passbook/" {
		t.Errorf("GET /passbook: %d to %q, want 301 to /passbook/", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestCleanBasePath(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""}, {"/", ""}, {"/passbook", "/passbook"}, {"passbook/", "/passbook"}, {"/tools/pass-book_2/", "/tools/pass-book_2"},
	} {
		if got, err := CleanBasePath(tt.in); err != nil || got != tt.want {
			t.Errorf("CleanBasePath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"/a b", "/a/../b", "/a?x=1", "/a/..", `/"><script>`} {
		if got, err := CleanBasePath(in); err == nil {
			t.Errorf("CleanBasePath(%q) = %q, want an error", in, got)
		}
	}
}

func TestLogs(t *testing.T) {
	logs := &logBuffer{}
	e := newOpsEnv(t, filepath.Join(t.TempDir(), "s.db"), false, logs, nil)
	key := e.account("a@example.com", quota.Free)
	e.do("GET", "/api/v1/status?file_id=doc_secret_query", key, nil, "")
	e.do("GET", "/api/v1/user", "uk_0000000000000000000000000000000000000000", nil, "")
	body, ctype := form(map[string][]byte{"file": {}})
	e.do("POST", "/api/v1/extract", key, body, ctype)

	access := logs.lines(t, "request")
	if len(access) != 3 {
		t.Fatalf("access lines = %d, want 3:\n%s", len(access), logs)
	}
	first := access[0]
	if first["method"] != "GET" || first["path"] != "/api/v1/status" || first["status"] != 404.0 ||
		first["account_id"] != 1.0 || first["duration_ms"] == nil || first["code"] != "not_found" {
		t.Errorf("access line = %v; want GET /api/v1/status (no query) 404 account 1 with a duration", first)
	}
	if access[1]["status"] != 401.0 || access[1]["account_id"] != nil {
		t.Errorf("access line of a bad key = %v; want 401 and no account", access[1])
	}
	if got := logs.lines(t, "authentication failed"); len(got) != 1 || got[0]["code"] != "invalid_api_key" || got[0]["remote_addr"] == "" {
		t.Errorf("authentication failed lines = %v, want one invalid_api_key with the remote address", got)
	}
	if got := logs.lines(t, "upload rejected"); len(got) != 1 || got[0]["code"] != "empty_file" || got[0]["account_id"] != 1.0 {
		t.Errorf("upload rejected lines = %v, want one empty_file for account 1", got)
	}
	if all := logs.String(); strings.Contains(all, key) || strings.Contains(all, "uk_0000") || strings.Contains(all, "doc_secret_query") {
		t.Errorf("the log holds a key or a query string:\n%s", all)
	}
}
