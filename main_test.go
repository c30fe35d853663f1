package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"passbook/store"
	"passbook/store/pgtest"
)

// TestMain lets the test binary stand in for the passbook binary: as the
// conversion worker it re-executes, and as a whole server for the crash test.
func TestMain(m *testing.M) {
	if os.Getenv("PASSBOOK_AS_MAIN") == "1" || (len(os.Args) > 1 && os.Args[1] == workerCommand) {
		ctx, stop := context.WithCancel(context.Background())
		go func() {
			sig := make(chan os.Signal, 1)
			signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
			<-sig
			stop()
		}()
		os.Exit(exitStatusOf(run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr), os.Stderr))
	}
	os.Exit(pgtest.Main(m))
}

// syncBuffer is a bytes.Buffer safe to write from one goroutine and read
// from another. With keep set it holds at most about three times keep:
// the first keep bytes written (a server's start: its address, its key),
// and the last keep to 2*keep bytes, the middle counted and let go; a soak
// that kept an hour's access log whole grew the process it measures.
type syncBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	keep int
	// Past the head, tail fills while prev holds the part before it.
	prev, tail bytes.Buffer
	dropped    int64
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.keep == 0 || b.buf.Len()+len(p) <= b.keep && b.tail.Len() == 0 {
		return b.buf.Write(p)
	}
	if b.tail.Len() >= b.keep {
		b.dropped += int64(b.prev.Len())
		b.prev, b.tail = b.tail, b.prev
		b.tail.Reset()
	}
	return b.tail.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tail.Len() == 0 {
		return b.buf.String()
	}
	gap := ""
	if b.dropped > 0 {
		gap = fmt.Sprintf("\n[... %d bytes not kept ...]\n", b.dropped)
	}
	return b.buf.String() + gap + b.prev.String() + b.tail.String()
}

var (
	addrRE = regexp.MustCompile(`msg=serving addr=(\S+)`)
	keyRE  = regexp.MustCompile(`\buk_[0-9A-Za-z]{32,}\b`)
)

// waitFor polls f until it returns a non-empty string, however long a
// busy machine makes that take (issue 41 point 14: tests wait on events,
// not deadlines); go test's -timeout ends a wait that never ends, and
// every minute of waiting is logged, naming what is awaited.
func waitFor(t *testing.T, what string, f func() string) string {
	t.Helper()
	start, said := time.Now(), time.Now()
	for {
		if s := f(); s != "" {
			return s
		}
		if time.Since(said) >= time.Minute {
			t.Logf("still waiting for %s after %s", what, time.Since(start).Round(time.Second))
			said = time.Now()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serving is the whole program serving a data file on port 0, as
// `passbook serve` runs it.
type serving struct {
	ctx            context.Context
	addr           string
	stdout, stderr *syncBuffer
	// stop ends serve and returns what it returned; the test's cleanup
	// calls it too, so calling it is only needed to check that.
	stop func() error
}

// serve starts `passbook serve` on data and waits for it to listen.
func serve(t *testing.T, data string) *serving {
	t.Helper()
	return serveKeeping(t, data, 0)
}

// serveKeeping is serve holding only about 3*keep bytes of each of the
// server's outputs (syncBuffer's keep; 0 keeps all), for runs long
// enough that the whole log would weigh on the measures.
func serveKeeping(t *testing.T, data string, keep int) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &serving{ctx: ctx, stdout: &syncBuffer{keep: keep}, stderr: &syncBuffer{keep: keep}}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", data}, os.Getenv, nil, s.stdout, s.stderr)
	}()
	var once sync.Once
	var err error
	s.stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { s.stop() })
	s.addr = waitFor(t, "the server to listen", func() string {
		if m := addrRE.FindStringSubmatch(s.stderr.String()); m != nil {
			return m[1]
		}
		return ""
	})
	return s
}

type client struct {
	t    *testing.T
	base string
	key  string
}

func (c client) get(path string, v any) int {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		c.t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode
}

func (c client) upload(name string, data []byte) string {
	c.t.Helper()
	code, m := c.post(name, data)
	if code != 200 {
		c.t.Fatalf("upload: %d %v", code, m)
	}
	return m["file_id"].(string)
}

// post uploads data as a file called name and returns the answer's status
// and body, whatever they are.
func (c client) post(name string, data []byte) (int, map[string]any) {
	c.t.Helper()
	return c.postWith(name, data, nil)
}

// postWith is post with more form fields (folder_id, password).
func (c client) postWith(name string, data []byte, fields map[string]string) (int, map[string]any) {
	c.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(data)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", c.base+"/api/v1/extract", &body)
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

type status struct {
	Status           string `json:"status"`
	PagesDone        int    `json:"pages_done"`
	PageCount        int    `json:"page_count"`
	TransactionCount int    `json:"transaction_count"`
	Error            string `json:"error"`
	ErrorCode        string `json:"error_code"`
}

func (c client) status(id string) status {
	var s status
	c.get("/api/v1/status?file_id="+id, &s)
	return s
}

// TestServeAndExtractAgree runs the whole program on port 0: a new data
// file prints a key, an upload converts through the worker, and the JSON
// download has the same transactions and statement as `passbook extract`.
func TestServeAndExtractAgree(t *testing.T) {
	data := filepath.Join(t.TempDir(), "passbook.db")
	srv := serve(t, data)
	ctx, stdout := srv.ctx, srv.stdout
	key := keyRE.FindString(stdout.String())
	if key == "" {
		t.Fatalf("no API key printed on a new data file: %q", stdout.String())
	}
	c := client{t: t, base: "http://" + srv.addr, key: key}
	sample, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	id := c.upload("sample_statement.pdf", sample)
	st := status{}
	waitFor(t, "the conversion", func() string {
		st = c.status(id)
		if st.Status == "processing" {
			return ""
		}
		return st.Status
	})
	if st.Status != "completed" || st.TransactionCount != 8 {
		t.Fatalf("status %+v", st)
	}
	var served map[string]any
	if code := c.get("/api/v1/download?format=json&file_id="+id, &served); code != 200 {
		t.Fatalf("download: %d %v", code, served)
	}

	var cli bytes.Buffer
	if err := run(ctx, []string{"extract", "--format", "json", "testdata/sample_statement.pdf"}, os.Getenv, nil, &cli, io.Discard); err != nil {
		t.Fatal(err)
	}
	var extracted map[string]any
	if err := json.Unmarshal(cli.Bytes(), &extracted); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"transactions", "statement", "transaction_count"} {
		a, _ := json.Marshal(served[field])
		b, _ := json.Marshal(extracted[field])
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs:\nserver:  %s\nextract: %s", field, a, b)
		}
	}
	if extracted["file_id"] != "sample_statement.pdf" {
		t.Errorf("extract file_id = %v, want the input's name", extracted["file_id"])
	}

	if err := srv.stop(); err != nil {
		t.Errorf("serve returned %v after shutdown", err)
	}
	if err := run(context.Background(), []string{"accounts", "list", "--data", data}, os.Getenv, nil, stdout, io.Discard); err != nil ||
		!regexp.MustCompile(`admin@localhost +admin +1 +none +month`).MatchString(stdout.String()) {
		t.Errorf("accounts list after the run: %v\n%s", err, stdout.String())
	}
}

// TestExtractErrors checks the CLI's exit paths: a clear one-line reason.
func TestExtractErrors(t *testing.T) {
	dir := t.TempDir()
	notPDF := filepath.Join(dir, "notes.txt")
	os.WriteFile(notPDF, []byte("hello"), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"unsupported", []string{"extract", notPDF}, "unsupported file type"},
		{"password", []string{"extract", "testdata/encrypted_statement.pdf"}, "password"},
		{"missing file", []string{"extract", filepath.Join(dir, "nope.pdf")}, "no such file"},
		{"bad format", []string{"extract", "--format", "pdf", "testdata/sample_statement.pdf"}, "format"},
		{"bad profile", []string{"extract", "--format", "csv", "--profile", "sage", "testdata/sample_statement.pdf"}, "profile"},
		{"profile without csv", []string{"extract", "--format", "xlsx", "--profile", "xero", "testdata/sample_statement.pdf"}, "profile"},
		{"bad intu-bid", []string{"extract", "--format", "qbo", "--intu-bid", "abc", "testdata/sample_statement.pdf"}, "intu_bid"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), tt.args, os.Getenv, nil, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestExtractFormats converts with the CLI into a statement format and a
// CSV profile.
func TestExtractFormats(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args       []string
		start, has string
	}{
		{[]string{"--format", "qbo", "--intu-bid", "3000"}, "OFXHEADER:100", "<INTU.BID>3000\r\n"},
		{[]string{"--format", "csv", "--profile", "excel-eu"}, "\uFEFFDate;Type;Description;Amount;", ";-11,37;"},
		{[]string{"--format", "mt940"}, ":20:PASSBOOK\r\n", ":61:2403010301D11,37NMSC"},
	} {
		out := filepath.Join(dir, "out")
		args := append(append([]string{"extract"}, tt.args...), "-o", out, "testdata/sample_statement.pdf")
		if err := run(context.Background(), args, os.Getenv, nil, io.Discard, io.Discard); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		body, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(body), tt.start) || !strings.Contains(string(body), tt.has) {
			t.Errorf("%v wrote:\n%.400s", args, body)
		}
	}
}

// TestKilledServerResumesJob kills the server with SIGKILL while it is
// converting a long statement, starts it again on the same data file, and
// checks the job completes, charged once.
func TestKilledServerResumesJob(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "passbook.db")
	var long bytes.Buffer
	const pages, rows = 300, 40
	if _, err := writeStatement(&long, pages, rows); err != nil {
		t.Fatal(err)
	}

	start := func() (*exec.Cmd, *syncBuffer, *syncBuffer, string) {
		cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--data", data)
		cmd.Env = append(os.Environ(), "PASSBOOK_AS_MAIN=1")
		var stdout, stderr syncBuffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		addr := waitFor(t, "the server to listen", func() string {
			if m := addrRE.FindStringSubmatch(stderr.String()); m != nil {
				return m[1]
			}
			return ""
		})
		return cmd, &stdout, &stderr, addr
	}

	first, stdout, _, addr := start()
	// stdout and stderr are separate pipes: the key may arrive after the address.
	c := client{t: t, base: "http://" + addr, key: waitFor(t, "the API key", func() string { return keyRE.FindString(stdout.String()) })}
	id := c.upload("long.pdf", long.Bytes())
	waitFor(t, "the conversion to start", func() string {
		if s := c.status(id); s.Status == "processing" && s.PagesDone > 0 {
			return "started"
		}
		return ""
	})
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()

	second, _, stderr2, addr2 := start()
	c.base = "http://" + addr2
	var st status
	waitFor(t, "the resumed conversion", func() string {
		st = c.status(id)
		if st.Status == "processing" {
			return ""
		}
		return st.Status
	})
	if st.Status != "completed" || st.TransactionCount != pages*rows {
		t.Fatalf("resumed job: %+v", st)
	}
	if !strings.Contains(stderr2.String(), "resuming interrupted conversions") {
		t.Errorf("the second server did not say it resumed a job:\n%s", stderr2.String())
	}
	var user struct {
		Quota struct{ Used int } `json:"quota"`
	}
	c.get("/api/v1/user", &user)
	if user.Quota.Used != pages {
		t.Errorf("quota.used = %d, want %d (charged once)", user.Quota.Used, pages)
	}
	second.Process.Signal(syscall.SIGTERM)
	if err := second.Wait(); err != nil {
		t.Errorf("graceful stop: %v", err)
	}
}

// TestAdministration drives the administration commands on one data
// file, and on one PostgreSQL database.
func TestAdministration(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "p.db")
			if kind == "postgres" {
				data = pgtest.Database(t)
			}
			administer(t, dir, data)
		})
	}
}

func administer(t *testing.T, dir, data string) {
	cmd := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), append(args, "--data", data), os.Getenv, nil, &out, io.Discard)
		return out.String(), err
	}
	if _, err := cmd("accounts", "list"); err == nil || !strings.Contains(err.Error(), "--create") {
		t.Errorf("accounts list on a new data file or database: %v, want a refusal that names --create", err)
	}
	out, err := cmd("accounts", "create", "Office@Example.com", "--plan", "professional", "--create")
	key := keyRE.FindString(out)
	if err != nil || key == "" {
		t.Fatalf("accounts create: %v\n%s", err, out)
	}
	for _, step := range []struct {
		args []string
		want string
		err  bool
	}{
		{[]string{"accounts", "create", "office@example.com"}, "", true},
		{[]string{"accounts", "create", "x@example.com", "--plan", "gold"}, "", true},
		{[]string{"accounts", "set-plan", "office@example.com", "business"}, "business plan", false},
		{[]string{"accounts", "grant-credits", "office@example.com", "25"}, "granted 25", false},
		{[]string{"accounts", "grant-credits", "office@example.com", "lots"}, "", true},
		{[]string{"accounts", "list"}, "office@example.com  business  0     1000   month   25", false},
		{[]string{"keys", "create", "office@example.com", "--label", "scanner"}, "key 2 for office@example.com", false},
		{[]string{"keys", "revoke", "1"}, "revoked key 1", false},
		{[]string{"keys", "revoke", "1"}, "", true},
		{[]string{"keys", "list", "office@example.com"}, "scanner", false},
		{[]string{"accounts", "add-member", "office@example.com", "Clerk@Example.com", "--role", "staff"}, "added clerk@example.com", false},
		{[]string{"accounts", "add-member", "office@example.com", "clerk@example.com"}, "", true},
		{[]string{"accounts", "add-member", "office@example.com", "x@example.com", "--role", "boss"}, "", true},
		{[]string{"accounts", "set-role", "clerk@example.com", "read_only"}, "clerk@example.com is now read_only", false},
		{[]string{"accounts", "set-role", "office@example.com", "staff"}, "", true}, // the last owner
		{[]string{"accounts", "members", "clerk@example.com"}, "clerk@example.com   read_only  set", false},
		{[]string{"accounts", "reset-password", "clerk@example.com"}, "new password for clerk@example.com", false},
		{[]string{"accounts", "reset-password", "nobody@example.com"}, "", true},
		{[]string{"keys", "create", "clerk@example.com"}, "for clerk@example.com (read_only", false},
		{[]string{"accounts", "rename", "clerk@example.com", "Smith & Partners"}, `office is now "Smith & Partners"`, false},
		{[]string{"accounts", "remove-member", "clerk@example.com"}, "removed clerk@example.com", false},
		{[]string{"accounts", "remove-member", "office@example.com"}, "", true}, // the last owner
		{[]string{"backup", filepath.Join(dir, "copy.db")}, "wrote", false},
		{[]string{"backup", filepath.Join(dir, "copy.db")}, "", true},
		{[]string{"audit", "verify"}, "audit trail whole: ", false},
		{[]string{"audit", "rewrite"}, "", true},
	} {
		out, err := cmd(step.args...)
		if (err != nil) != step.err || !strings.Contains(out, step.want) {
			t.Errorf("%v: err = %v, output %q; want error %v and %q", step.args, err, out, step.err, step.want)
		}
	}
	out, _ = cmd("keys", "list")
	if strings.Contains(out, key) || !strings.Contains(out, key[:9]) {
		t.Errorf("keys list shows the key itself or not its prefix:\n%s", out)
	}
	// What the commands changed is in the office's trail, as the admin's.
	st, err := store.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acc, err := st.AccountByEmail(context.Background(), "office@example.com")
	if err != nil {
		t.Fatal(err)
	}
	es, _, err := st.Audit(context.Background(), store.AuditQuery{AccountID: acc.ID, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range es {
		if e.Actor == "admin" {
			seen[e.Action] = true
		}
	}
	for _, a := range []string{store.ActPlanChange, store.ActCreditsGranted, store.ActKeyCreate, store.ActKeyRevoke, store.ActMemberJoin,
		store.ActMemberRole, store.ActPasswordReset, store.ActOfficeRename, store.ActMemberRemove} {
		if !seen[a] {
			t.Errorf("no %s by the admin in the trail: %v", a, seen)
		}
	}
	// Someone who can write to the database turns the trail's triggers
	// off and changes a line (issue 41, 7): audit verify names it.
	driver, off := "sqlite", "DROP TRIGGER audit_no_update"
	if store.IsPostgres(data) {
		driver, off = "pgx", "ALTER TABLE audit DISABLE TRIGGER USER"
	}
	db, err := sql.Open(driver, data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	changed := es[len(es)/2].ID
	if _, err := db.Exec(off); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("UPDATE audit SET detail = 'nothing happened' WHERE id = %d", changed)); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd("audit", "verify"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("broken at line %d:", changed)) {
		t.Errorf("audit verify after line %d was changed: %v", changed, err)
	}
}
