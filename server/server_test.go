package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"passbook/export"
	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/source"
	"passbook/extract/worker"
	"passbook/quota"
	"passbook/store"
)

// TestMain lets the test binary act as the conversion worker, so tests run
// the real child-process path, serving the pure-Go testEngine.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		if err := worker.Serve(os.Stdin, os.Stdout, testEngine{}); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var sample = mustRead("testdata/sample.txt")

func mustRead(p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		panic(err)
	}
	return b
}

type testEnv struct {
	t      testing.TB
	store  *store.Store
	srv    *Server
	http   *httptest.Server
	now    time.Time
	mu     sync.Mutex
	keys   map[string]string // e-mail -> key
	cancel context.CancelFunc
	done   chan struct{}
}

// conversionFails makes every conversion fail after a real probe.
type conversionFails struct{ Converter }

func (conversionFails) Convert(context.Context, []byte, extract.Options) (*ledger.Result, error) {
	return nil, source.ErrCorrupt
}

type option func(*Config, *Converter)

func newEnv(t testing.TB, workers bool, opts ...option) *testEnv {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, store: st, now: time.Date(2024, 3, 9, 12, 0, 0, 0, time.UTC), keys: map[string]string{}}
	st.Now = func() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }
	cfg := DefaultConfig()
	cfg.PollInterval = 20 * time.Millisecond
	cfg.Sniff = testSniff
	pool := worker.NewPool(worker.DefaultConfig(os.Args[0], []string{"worker"}, 2))
	t.Cleanup(func() { pool.Close() })
	var conv Converter = pool
	for _, o := range opts {
		o(&cfg, &conv)
	}
	e.serve(slog.New(slog.NewTextHandler(io.Discard, nil)), conv, cfg, workers)
	return e
}

// serve starts e's server over HTTP, with its workers when workers is set,
// and stops it and closes e's store when the test ends.
func (e *testEnv) serve(logger *slog.Logger, conv Converter, cfg Config, workers bool) {
	e.srv = New(logger, e.store, conv, cfg)
	e.http = httptest.NewServer(e.srv)
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.done = cancel, make(chan struct{})
	go func() {
		defer close(e.done)
		if workers {
			_ = e.srv.RunWorkers(ctx)
		}
	}()
	e.t.Cleanup(func() {
		e.http.Close()
		cancel()
		<-e.done
		e.store.Close()
	})
}

func (e *testEnv) account(email string, plan quota.Plan) string {
	e.t.Helper()
	ctx := context.Background()
	a, err := e.store.CreateAccount(ctx, email, plan)
	if err != nil {
		e.t.Fatal(err)
	}
	key, _, err := e.store.CreateKey(ctx, a.ID, "")
	if err != nil {
		e.t.Fatal(err)
	}
	e.keys[email] = key
	return key
}

// do sends a request and decodes a JSON answer into a map.
func (e *testEnv) do(method, path, key string, body io.Reader, ctype string) (*http.Response, map[string]any, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.http.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &m); err != nil {
			e.t.Fatalf("%s %s: bad JSON %q: %v", method, path, raw, err)
		}
	}
	return resp, m, raw
}

func form(parts map[string][]byte) (io.Reader, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for name, data := range parts {
		var w io.Writer
		if name == "file" {
			w, _ = mw.CreateFormFile("file", "../../march statement.pdf")
		} else {
			w, _ = mw.CreateFormField(name)
		}
		w.Write(data)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func (e *testEnv) upload(key string, parts map[string][]byte) (*http.Response, map[string]any) {
	e.t.Helper()
	body, ctype := form(parts)
	resp, m, _ := e.do("POST", "/api/v1/extract", key, body, ctype)
	return resp, m
}

// wantError checks an error response: status, code, and the full body shape.
func wantError(t *testing.T, resp *http.Response, m map[string]any, status int, code string) {
	t.Helper()
	if resp.StatusCode != status || m["code"] != code {
		t.Fatalf("got %d %v, want %d %s", resp.StatusCode, m, status, code)
	}
	if m["success"] != false || m["error"] == "" || m["hint"] == "" || len(m) != 4 {
		t.Errorf("error body %v: want exactly success=false, error, hint, code", m)
	}
}

func (e *testEnv) waitDone(key, id string) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		_, m, _ := e.do("GET", "/api/v1/status?file_id="+id, key, nil, "")
		if m["status"] != store.StatusProcessing {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("%s still processing after 60s", id)
	return nil
}

func TestUploadConvertDownload(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("a@example.com", quota.Professional)
	resp, m := e.upload(key, map[string][]byte{"file": sample})
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id, _ := m["file_id"].(string)
	if !strings.HasPrefix(id, "doc_") || len(id) < 4+22 || m["success"] != true || m["original_name"] != "march statement.pdf" ||
		m["page_count"] != 1.0 || m["status"] != "processing" || len(m) != 5 {
		t.Errorf("upload body %v", m)
	}
	st := e.waitDone(key, id)
	if st["status"] != "completed" || st["transaction_count"] != 8.0 || st["page_count"] != 1.0 || st["file_id"] != id || st["success"] != true {
		t.Fatalf("status %v", st)
	}

	resp, j, _ := e.do("GET", "/api/v1/download?format=json&file_id="+id, key, nil, "")
	txs, _ := j["transactions"].([]any)
	if resp.StatusCode != 200 || j["success"] != true || j["file_id"] != id || j["transaction_count"] != 8.0 || len(txs) != 8 {
		t.Fatalf("json download %d %v", resp.StatusCode, j)
	}
	first := txs[0].(map[string]any)
	want := map[string]any{"date": "2024-03-01", "type": "DEBIT", "description": "PAYMENT 0001 TO SHOP 1",
		"amountIn": nil, "amountOut": "11.37", "balance": "988.63"}
	for k, v := range want {
		if first[k] != v {
			t.Errorf("transaction[0].%s = %v, want %v", k, first[k], v)
		}
	}

	resp, _, csvBody := e.do("GET", "/api/v1/download?file_id="+id, key, nil, "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(string(csvBody), "date,type,description,amountIn,amountOut,balance\r\n") ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "march statement.csv") {
		t.Errorf("csv (the default format): %d %q %q\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"), csvBody)
	}
	if n := strings.Count(string(csvBody), "\n"); n != 9 {
		t.Errorf("csv has %d lines, want header + 8", n)
	}

	resp, _, xlsx := e.do("GET", "/api/v1/download?format=xlsx&file_id="+id, key, nil, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("xlsx: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	f, err := excelize.OpenReader(bytes.NewReader(xlsx))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows(f.GetSheetName(0))
	if err != nil || len(rows) != 9 {
		t.Errorf("xlsx rows = %d, %v; want 9", len(rows), err)
	}
	if name, _ := f.GetCellValue("Statement", "B1"); name != "march statement.pdf" {
		t.Errorf("xlsx Statement sheet names %q, want the uploaded file's name", name)
	}

	// The statement formats and profiles, with their media types and names.
	for _, tt := range []struct {
		query, ctype, filename, start, contains string
	}{
		{"format=ofx", "application/x-ofx", "march statement.ofx", "<?xml", "<TRNAMT>-11.37</TRNAMT>"},
		{"format=qfx", "application/vnd.intu.qfx", "march statement.qfx", "OFXHEADER:100", "<TRNAMT>-11.37\r\n"},
		{"format=qbo&intu_bid=3000", "application/vnd.intu.qbo", "march statement.qbo", "OFXHEADER:100", "<INTU.BID>3000\r\n"},
		{"format=qif", "application/qif", "march statement.qif", "!Account", "T-11.37\r\n"},
		{"format=camt053", "application/xml", "march statement.xml", "<?xml", "camt.053.001.02"},
		{"format=mt940", "text/plain; charset=us-ascii", "march statement.sta", ":20:", ":61:2403010301D11,37NMSC"},
		{"format=csv&profile=excel-eu", "text/csv; charset=utf-8", "march statement (excel-eu).csv", "\uFEFFDate;Type;", ";-11,37;"},
		{"profile=xero", "text/csv; charset=utf-8", "march statement (xero).csv", "Date,Amount,Payee", "01/03/2024,-11.37,"},
		{"profile=quickbooks", "text/csv; charset=utf-8", "march statement (quickbooks).csv", "Date,Description,Amount", "03/01/2024,PAYMENT 0001 TO SHOP 1,-11.37"},
	} {
		resp, _, body := e.do("GET", "/api/v1/download?"+tt.query+"&file_id="+id, key, nil, "")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.ctype || !strings.Contains(resp.Header.Get("Content-Disposition"), tt.filename) ||
			!strings.HasPrefix(string(body), tt.start) || !strings.Contains(string(body), tt.contains) {
			t.Errorf("%s: %d %q %q\n%.300s", tt.query, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"), body)
		}
	}
	// A QBO without intu_bid, on a server with no INTU.BID set, has none.
	if _, _, body := e.do("GET", "/api/v1/download?format=qbo&file_id="+id, key, nil, ""); strings.Contains(string(body), "INTU.BID") {
		t.Errorf("qbo carries an INTU.BID nobody set")
	}
	// FITIDs are the same on a second download.
	_, _, ofx1 := e.do("GET", "/api/v1/download?format=ofx&file_id="+id, key, nil, "")
	_, _, ofx2 := e.do("GET", "/api/v1/download?format=ofx&file_id="+id, key, nil, "")
	fitids := regexp.MustCompile(`<FITID>[^<]+`)
	if a, b := fitids.FindAll(ofx1, -1), fitids.FindAll(ofx2, -1); len(a) != 8 || !bytes.Equal(bytes.Join(a, nil), bytes.Join(b, nil)) {
		t.Errorf("FITIDs differ between downloads or are missing: %s / %s", a, b)
	}

	resp, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	q, _ := u["quota"].(map[string]any)
	if resp.StatusCode != 200 || u["success"] != true || u["email"] != "a@example.com" || u["plan"] != "professional" ||
		u["credits"] != 0.0 || q["used"] != 1.0 || q["limit"] != 400.0 || q["remaining"] != 399.0 || q["period"] != "month" {
		t.Errorf("user %v", u)
	}
}

func TestAuth(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("a@example.com", quota.Free)
	for _, tt := range []struct {
		name, header, code string
	}{
		{"missing", "", "missing_api_key"},
		{"wrong scheme", "Basic " + key, "invalid_api_key"},
		{"not a uk_ key", "Bearer sk_123", "invalid_api_key"},
		{"unknown key", "Bearer uk_0000000000000000000000000000000000000000", "invalid_api_key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", e.http.URL+"/api/v1/user", nil)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var m map[string]any
			json.NewDecoder(resp.Body).Decode(&m)
			wantError(t, resp, m, 401, tt.code)
			if !strings.Contains(m["hint"].(string), "Authorization: Bearer") {
				t.Errorf("hint %q does not say how to send the key", m["hint"])
			}
		})
	}
	if resp, m, _ := e.do("GET", "/api/v1/user", "  "+key, nil, ""); resp.StatusCode != 200 {
		t.Errorf("a valid key: %d %v", resp.StatusCode, m)
	}
}

func TestUploadErrors(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.MaxUploadBytes = 64 << 10 })
	key := e.account("a@example.com", quota.Business)
	encrypted := mustRead("testdata/encrypted.txt")
	tests := []struct {
		name   string
		parts  map[string][]byte
		status int
		code   string
	}{
		{"no file part", map[string][]byte{"other": []byte("x")}, 400, "missing_file"},
		{"empty file", map[string][]byte{"file": {}}, 400, "empty_file"},
		{"not a statement type", map[string][]byte{"file": []byte("date,amount\n2024-01-01,5\n")}, 400, "unsupported_type"},
		{"damaged PDF", map[string][]byte{"file": []byte("%PDF-1.7\n1 0 obj garbage\n%%EOF")}, 400, "unreadable_file"},
		{"password-protected without password", map[string][]byte{"file": encrypted}, 400, "password_required"},
		{"password-protected with a wrong password", map[string][]byte{"file": encrypted, "password": []byte("nope")}, 400, "password_required"},
		{"over the size limit", map[string][]byte{"file": bytes.Repeat([]byte("%PDF"), 20<<10)}, 413, "file_too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, m := e.upload(key, tt.parts)
			wantError(t, resp, m, tt.status, tt.code)
		})
	}
	t.Run("not multipart", func(t *testing.T) {
		resp, m, _ := e.do("POST", "/api/v1/extract", key, strings.NewReader("{}"), "application/json")
		wantError(t, resp, m, 400, "invalid_request")
	})
	t.Run("password-protected with its password", func(t *testing.T) {
		resp, m := e.upload(key, map[string][]byte{"file": encrypted, "password": []byte("s3cret")})
		if resp.StatusCode != 200 || m["page_count"] != 1.0 {
			t.Errorf("%d %v", resp.StatusCode, m)
		}
	})
	if u, _ := e.store.Usage(context.Background(), 1); u.Used != 1 {
		t.Errorf("used = %d after one accepted upload among refusals, want 1", u.Used)
	}
}

func TestDocumentAccess(t *testing.T) {
	e := newEnv(t, false)
	alice := e.account("alice@example.com", quota.Business)
	bob := e.account("bob@example.com", quota.Business)
	_, m := e.upload(alice, map[string][]byte{"file": sample})
	id := m["file_id"].(string)
	for _, path := range []string{"/api/v1/status?file_id=", "/api/v1/download?format=json&file_id="} {
		resp, m, _ := e.do("GET", path+id, bob, nil, "")
		wantError(t, resp, m, 403, "forbidden")
		resp, m, _ = e.do("GET", path+"doc_doesnotexist", alice, nil, "")
		wantError(t, resp, m, 404, "not_found")
		resp, m, _ = e.do("GET", strings.TrimSuffix(path, "file_id="), alice, nil, "")
		wantError(t, resp, m, 400, "missing_file_id")
	}
	// No workers run in this test: the document stays processing.
	resp, st, _ := e.do("GET", "/api/v1/status?file_id="+id, alice, nil, "")
	if resp.StatusCode != 200 || st["status"] != "processing" || st["pages_done"] != 0.0 {
		t.Errorf("status %v", st)
	}
	if _, ok := st["transaction_count"]; ok {
		t.Errorf("transaction_count shown while processing: %v", st)
	}
	resp, m, _ = e.do("GET", "/api/v1/download?file_id="+id, alice, nil, "")
	wantError(t, resp, m, 409, "not_ready")
	if resp.Header.Get("Retry-After") != "2" {
		t.Errorf("Retry-After = %q, want 2", resp.Header.Get("Retry-After"))
	}
	resp, m, _ = e.do("GET", "/api/v1/download?format=pdf&file_id="+id, alice, nil, "")
	wantError(t, resp, m, 400, "invalid_format")
	resp, m, _ = e.do("GET", "/api/v1/download?profile=sage&file_id="+id, alice, nil, "")
	wantError(t, resp, m, 400, "invalid_profile")
	resp, m, _ = e.do("GET", "/api/v1/nothing", alice, nil, "")
	wantError(t, resp, m, 404, "not_found")
	resp, m, _ = e.do("DELETE", "/api/v1/user", alice, nil, "")
	wantError(t, resp, m, 405, "method_not_allowed")
}

func TestQuotaRefusalAtTheBoundary(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("free@example.com", quota.Free)
	for i := range 5 {
		if resp, m := e.upload(key, map[string][]byte{"file": sample}); resp.StatusCode != 200 {
			t.Fatalf("upload %d: %d %v", i+1, resp.StatusCode, m)
		}
	}
	resp, m := e.upload(key, map[string][]byte{"file": sample})
	wantError(t, resp, m, 429, "quota_exceeded")
	if !strings.Contains(m["hint"].(string), "2024-03-10T00:00:00Z") {
		t.Errorf("hint %q does not say when the quota resets", m["hint"])
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 5.0 || q["remaining"] != 0.0 || q["period"] != "day" {
		t.Errorf("quota after refusal %v", q)
	}
	e.mu.Lock()
	e.now = time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	e.mu.Unlock()
	if resp, m := e.upload(key, map[string][]byte{"file": sample}); resp.StatusCode != 200 {
		t.Errorf("upload after midnight: %d %v", resp.StatusCode, m)
	}
}

func TestFailedConversionIsRefunded(t *testing.T) {
	e := newEnv(t, true, func(_ *Config, c *Converter) { *c = conversionFails{*c} })
	key := e.account("free@example.com", quota.Free)
	_, m := e.upload(key, map[string][]byte{"file": sample})
	id := m["file_id"].(string)
	st := e.waitDone(key, id)
	if st["status"] != "failed" || st["error_code"] != "unreadable_file" || st["error"] == "" {
		t.Fatalf("status %v", st)
	}
	resp, d, _ := e.do("GET", "/api/v1/download?file_id="+id, key, nil, "")
	wantError(t, resp, d, 409, "document_failed")
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 0.0 {
		t.Errorf("quota after a failed conversion %v, want used 0", q)
	}
}

func TestInterruptedJobResumes(t *testing.T) {
	e := newEnv(t, false)
	key := e.account("a@example.com", quota.Business)
	_, m := e.upload(key, map[string][]byte{"file": sample})
	id := m["file_id"].(string)
	// A worker claims the job and the process dies before it finishes.
	if _, err := e.store.ClaimJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A new server on the same data file picks it up at start-up.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() { done <- e.srv.RunWorkers(ctx) }()
	st := e.waitDone(key, id)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if st["status"] != "completed" || st["transaction_count"] != 8.0 {
		t.Errorf("status %v", st)
	}
}

func TestConcurrentUploadsAtTheQuota(t *testing.T) {
	// Room for all 50 at once: this tests the quota, not the upload bounds.
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.MaxUploads, c.ProbeTimeout = 64, time.Minute })
	key := e.account("race@example.com", quota.Free)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 50 {
		wg.Go(func() {
			body, ctype := form(map[string][]byte{"file": sample})
			req, _ := http.NewRequest("POST", e.http.URL+"/api/v1/extract", body)
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("Content-Type", ctype)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[200] != 5 || codes[429] != 45 {
		t.Errorf("status codes %v, want 5×200 and 45×429", codes)
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 5.0 {
		t.Errorf("quota.used = %v, want 5", q["used"])
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"statement.pdf":           "statement.pdf",
		"C:\\Users\\me\\jan.pdf":  "jan.pdf",
		"../../etc/passwd":        "passwd",
		"":                        "statement",
		"bad\x00\nname.pdf":       "badname.pdf",
		"invoice\u202efdp.exe":    "invoicefdp.exe",
		"a\u2066b\u200fc\x85.pdf": "abc.pdf",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFailureCodes(t *testing.T) {
	if got := failureCode(errors.Join(errors.New("x"), source.ErrPassword)); got != "password_required" {
		t.Errorf("failureCode = %s", got)
	}
	if got := failureCode(errors.New("other")); got != "conversion_failed" {
		t.Errorf("failureCode(other) = %s", got)
	}
}

func TestWebPage(t *testing.T) {
	e := newEnv(t, false)
	for path, want := range map[string]string{"/": "<title>Passbook</title>", "/app.js": "from \"./session.js\"", "/session.js": "\"api/v1/"} {
		resp, _, body := e.do("GET", path, "", nil, "")
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d, CSP %q, body lacks %q", path, resp.StatusCode, resp.Header.Get("Content-Security-Policy"), want)
		}
	}
}

func TestDownloadOptions(t *testing.T) {
	for _, tt := range []struct {
		query, setting string
		format         export.Format
		profile        export.Profile
		bid, code      string
	}{
		{"", "", export.CSV, "", "", ""},
		{"format=QBO", "3000", export.QBO, "", "3000", ""},
		{"format=qbo&intu_bid=12345", "3000", export.QBO, "", "12345", ""},
		{"format=qfx&intu_bid=12a", "", "", "", "", "invalid_intu_bid"},
		{"format=qfx", "bad", "", "", "", "invalid_intu_bid"},
		{"profile=excel-eu", "", export.CSV, export.ExcelEU, "", ""},
		{"format=xlsx&profile=xero", "", "", "", "", "invalid_profile"},
		{"profile=excel", "", "", "", "", "invalid_profile"},
		{"format=camt", "", "", "", "", "invalid_format"},
	} {
		q, _ := url.ParseQuery(tt.query)
		f, opts, err := downloadOptions(q, tt.setting)
		code := ""
		if err != nil {
			code = err.code
		}
		if code != tt.code || f != tt.format || opts.Profile != tt.profile || opts.IntuBID != tt.bid {
			t.Errorf("downloadOptions(%q, %q) = %q %+v %v; want %q %q %q %q", tt.query, tt.setting, f, opts, err, tt.format, tt.profile, tt.bid, tt.code)
		}
	}
}

// TestResultStoredAsConverted: the pool hands over the JSON its worker
// wrote and the server stores it as it came (jsonConverter); a converter
// without that stores the decoded result encoded again. Downloads read the
// same either way, and a result without transactions gets its warning.
func TestResultStoredAsConverted(t *testing.T) {
	empty := []byte(testHeader + "\npages 1\n")
	got := map[string][2]map[string]any{}
	for _, path := range []struct {
		name string
		opts []option
	}{
		{"as converted", nil},
		// Embedding the Converter interface hides the pool's ConvertJSON.
		{"decoded and encoded", []option{func(_ *Config, c *Converter) { *c = struct{ Converter }{*c} }}},
	} {
		e := newEnv(t, true, path.opts...)
		if _, ok := e.srv.conv.(jsonConverter); ok != (path.opts == nil) {
			t.Fatalf("%s: the converter offers ConvertJSON: %v", path.name, ok)
		}
		key := e.account("a@example.com", quota.Business)
		var both [2]map[string]any
		for i, doc := range [][]byte{sample, empty} {
			_, m := e.upload(key, map[string][]byte{"file": doc})
			id := m["file_id"].(string)
			if st := e.waitDone(key, id); st["status"] != "completed" {
				t.Fatalf("%s: status %v", path.name, st)
			}
			_, j, _ := e.do("GET", "/api/v1/download?format=json&file_id="+id, key, nil, "")
			delete(j, "file_id")
			both[i] = j
		}
		got[path.name] = both
		warnings, _ := both[1]["statement"].(map[string]any)["warnings"].([]any)
		if len(warnings) != 1 || !strings.Contains(warnings[0].(string), "no transactions were found") {
			t.Errorf("%s: a document without transactions warns %v", path.name, warnings)
		}
		if txs, _ := both[0]["transactions"].([]any); len(txs) != 8 {
			t.Errorf("%s: %d transactions, want 8", path.name, len(txs))
		}
	}
	for i := range 2 {
		a, _ := json.Marshal(got["as converted"][i])
		b, _ := json.Marshal(got["decoded and encoded"][i])
		if !bytes.Equal(a, b) {
			t.Errorf("document %d reads differently:\nas converted: %s\ndecoded:      %s", i, a, b)
		}
	}
}
