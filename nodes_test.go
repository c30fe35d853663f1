package main

// TestNodes is issue 22's harness, three nodes since issue 41: `passbook
// serve` processes (the test binary standing in for passbook) on one
// PostgreSQL database, a folder made on one and read on another, racing
// uploads at the quota, kill -9 of a node during conversions, and
// (TestNodesRollingUpgrade) a rolling upgrade under continuous uploads. It
// prints its figures on lines starting NODES; `make nodes` runs it in
// full (NODES_FULL=1: more uploads, and the upgrade from the previous
// commit's binary), `make test` a shorter slice.

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
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"passbook/store/pgtest"
)

// node is one `passbook serve` process.
type node struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	base           string
}

// startNode runs the test binary as `passbook serve --addr 127.0.0.1:0` with
// more flags (at least --data), and waits for it to listen.
func startNode(t *testing.T, flags []string, env ...string) *node {
	t.Helper()
	// PASSBOOK_STRESS_BIN runs another build (e.g. main's, for a "before"
	// figure); by default the test binary stands in for passbook.
	bin := os.Args[0]
	if b := os.Getenv("PASSBOOK_STRESS_BIN"); b != "" {
		bin = b
	}
	return startNodeOf(t, bin, flags, env...)
}

// startNodeOf is startNode running the binary bin.
func startNodeOf(t *testing.T, bin string, flags []string, env ...string) *node {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, flags...)...)
	cmd.Env = append(append(os.Environ(), "PASSBOOK_AS_MAIN=1"), env...)
	n := &node{cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	cmd.Stdout, cmd.Stderr = n.stdout, n.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := waitFor(t, "the server to listen", func() string {
		if m := addrRE.FindStringSubmatch(n.stderr.String()); m != nil {
			return m[1]
		}
		return ""
	})
	n.base = "http://" + addr
	return n
}

func (n *node) kill() { n.cmd.Process.Signal(syscall.SIGKILL); n.cmd.Wait() }

func (n *node) stop(t *testing.T) {
	n.cmd.Process.Signal(syscall.SIGTERM)
	if err := n.cmd.Wait(); err != nil {
		t.Errorf("graceful stop: %v\n%s", err, tail(n.stderr.String()))
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return s[len(s)-3000:]
	}
	return s
}

// uploadBody is a multipart body holding data as the file part.
func uploadBody(data []byte, password string) ([]byte, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", "s.pdf")
	w.Write(data)
	if password != "" {
		mw.WriteField("password", password)
	}
	mw.Close()
	return body.Bytes(), mw.FormDataContentType()
}

// post uploads data, with an Idempotency-Key when key is set; it returns
// the status (0 when the connection broke) and the file_id.
func post(base, apiKey string, data []byte, password, key string) (int, string) {
	body, ctype := uploadBody(data, password)
	req, _ := http.NewRequest("POST", base+"/api/v1/extract", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Content-Type", ctype)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	cl := &http.Client{Timeout: 30 * time.Second}
	resp, err := cl.Do(req)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	var m struct {
		FileID string `json:"file_id"`
	}
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m.FileID
}

// ackedIDs lists the file_ids of acknowledged uploads (by their
// Idempotency-Key), and the distinct ones.
func ackedIDs(acked map[string]string) ([]string, map[string]bool) {
	var ids []string
	distinct := map[string]bool{}
	for _, id := range acked {
		ids = append(ids, id)
		distinct[id] = true
	}
	return ids, distinct
}

// waitSettled polls until no document is processing, within limit.
func waitSettled(t *testing.T, c client, ids []string, limit time.Duration) (stuck int) {
	t.Helper()
	settled := settleTimes(c, ids, limit)
	for _, id := range ids {
		if _, ok := settled[id]; !ok {
			stuck++
		}
	}
	return stuck
}

// completedRE finds the documents a node's log says it converted.
var completedRE = regexp.MustCompile(`msg="conversion completed" file_id=(\S+)`)

// openCounter opens the database dsn for the harness's own checks, and
// returns it with a function that runs a query of one integer.
func openCounter(t *testing.T, dsn string) (*sql.DB, func(q string, args ...any) int) {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
}

// nodesFull says make nodes runs the harness in full, not make test's slice.
func nodesFull() bool { return os.Getenv("NODES_FULL") != "" }

// settleTimes polls ids until none is processing, within limit, and
// returns when each was first seen settled (absent: still processing).
func settleTimes(c client, ids []string, limit time.Duration) map[string]time.Time {
	done := map[string]time.Time{}
	deadline := time.Now().Add(limit)
	for len(done) < len(ids) && time.Now().Before(deadline) {
		for _, id := range ids {
			if _, ok := done[id]; !ok && c.status(id).Status != "processing" {
				done[id] = time.Now()
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return done
}

func TestNodes(t *testing.T) {
	dsn := pgtest.Database(t)
	ctx := context.Background()
	// The default lease (15 s, renewed every 5 s): a dead node's jobs
	// must move within 30 s of its death.
	flags := []string{"--data", dsn, "--workers", "2"}
	a := startNode(t, flags)
	b := startNode(t, flags)
	cNode := startNode(t, flags)
	out := func() string { return a.stdout.String() + b.stdout.String() + cNode.stdout.String() }
	admin := waitFor(t, "the first run's API key", func() string { return keyRE.FindString(out()) })
	if strings.Count(out(), "uk_") != 1 {
		t.Errorf("three nodes on a new database printed the first run's key %d times, want once", strings.Count(out(), "uk_"))
	}
	db, count := openCounter(t, dsn)
	account := func(email, plan string) string {
		var out bytes.Buffer
		if err := run(ctx, []string{"accounts", "create", email, "--plan", plan, "--data", dsn}, os.Getenv, nil, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		return keyRE.FindString(out.String())
	}
	sample, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}

	// /readyz of each node reports the database.
	for _, n := range []*node{a, b, cNode} {
		var ready struct {
			Checks map[string]string `json:"checks"`
		}
		c := client{t: t, base: n.base}
		if code := c.get("/readyz", &ready); code != 200 || ready.Checks["database"] != "writable" {
			t.Errorf("/readyz: %d %v; want 200 and database writable", code, ready.Checks)
		}
	}

	// An upload on node A is polled and downloaded on node B.
	onA, onB := client{t: t, base: a.base, key: admin}, client{t: t, base: b.base, key: admin}
	id := onA.upload("sample_statement.pdf", sample)
	st := status{}
	waitFor(t, "the conversion, polled on B", func() string {
		if st = onB.status(id); st.Status == "processing" {
			return ""
		}
		return st.Status
	})
	var fromA, fromB struct {
		TransactionCount int               `json:"transaction_count"`
		Transactions     []json.RawMessage `json:"transactions"`
	}
	codeB := onB.get("/api/v1/download?format=json&file_id="+id, &fromB)
	onA.get("/api/v1/download?format=json&file_id="+id, &fromA)
	same := fmt.Sprint(fromA) == fmt.Sprint(fromB)
	fmt.Printf("NODES upload on A, downloaded on B: status %s on B, download %d with %d transactions, the same as on A: %v\n",
		st.Status, codeB, fromB.TransactionCount, same)
	if st.Status != "completed" || codeB != 200 || fromB.TransactionCount != 8 || len(fromB.Transactions) != 8 || !same {
		t.Errorf("upload on A, download on B: want completed, 200, 8 transactions as on A")
	}

	// A folder made on A, an upload into it on A, the document above added
	// to it on B; B reads the folder and downloads it in one file. It holds
	// the same statement twice: one duplicate, its rows counted once.
	var made struct {
		FolderID string `json:"folder_id"`
	}
	if code := apiJSON(t, a.base, admin, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Two nodes"}`), &made); code != 200 || made.FolderID == "" {
		t.Fatalf("a folder made on A: %d %+v", code, made)
	}
	code, m := onA.postWith("again.pdf", sample, map[string]string{"folder_id": made.FolderID})
	if code != 200 {
		t.Fatalf("an upload into the folder on A: %d %v", code, m)
	}
	again := m["file_id"].(string)
	if code := apiJSON(t, b.base, admin, "PUT", "/api/v1/folders/"+made.FolderID+"/documents/"+id, nil, &map[string]any{}); code != 200 {
		t.Fatalf("adding A's document to the folder on B: %d", code)
	}
	if waitSettled(t, onB, []string{again}, time.Minute) != 0 {
		t.Fatal("the upload into the folder did not settle")
	}
	var folder struct {
		Documents []struct {
			FileID string `json:"file_id"`
			Status string `json:"status"`
		} `json:"documents"`
		Status           string `json:"status"`
		TransactionCount int    `json:"transaction_count"`
	}
	codeF := onB.get("/api/v1/folders/"+made.FolderID, &folder)
	var download struct {
		FolderID string `json:"folder_id"`
		Accounts []struct {
			Transactions []json.RawMessage `json:"transactions"`
		} `json:"accounts"`
	}
	codeD := onB.get("/api/v1/folders/"+made.FolderID+"/download?format=json", &download)
	rowsD := 0
	for _, acc := range download.Accounts {
		rowsD += len(acc.Transactions)
	}
	var statuses []string
	for _, d := range folder.Documents {
		statuses = append(statuses, d.Status)
	}
	fmt.Printf("NODES a folder made on A, filled on A and B, read on B: %d, documents %v, status %s (the same statement twice), %d transactions; downloaded on B: %d with %d rows\n",
		codeF, statuses, folder.Status, folder.TransactionCount, codeD, rowsD)
	if codeF != 200 || len(folder.Documents) != 2 || folder.Documents[0].FileID != again || folder.Documents[1].FileID != id ||
		folder.Documents[0].Status != "completed" || folder.Documents[1].Status != "completed" || folder.TransactionCount != 8 ||
		codeD != 200 || download.FolderID != made.FolderID || rowsD != 8 {
		t.Errorf("the folder on B: want its two documents, the upload into it first, both completed, the statement's 8 transactions counted once, and a download of them")
	}

	// 50 concurrent one-page uploads of a free account (5 pages a day),
	// spread over the nodes: exactly 5 accepted and charged.
	free := account("free@example.com", "free")
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := range 50 {
		base := []string{a.base, b.base, cNode.base}[i%3]
		wg.Go(func() {
			code, _ := post(base, free, sample, "", "")
			mu.Lock()
			codes[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	var user struct {
		Quota struct{ Used, Limit int } `json:"quota"`
	}
	client{t: t, base: b.base, key: free}.get("/api/v1/user", &user)
	charged := count(`SELECT coalesce(sum(u.quota_pages + u.credit_pages), 0) FROM usage u JOIN accounts a ON a.id = u.account_id
		WHERE a.email = 'free@example.com'`)
	fmt.Printf("NODES 50 concurrent one-page uploads of a free account over three nodes: answers %v; quota used %d of %d; pages charged %d\n",
		codes, user.Quota.Used, user.Quota.Limit, charged)
	if codes[200] != 5 || codes[429] != 45 || user.Quota.Used != 5 || charged != 5 {
		t.Errorf("want exactly 5 accepted, 45 refused 429, quota used 5, 5 pages charged")
	}

	// kill -9 of node A during uploads spread over the three nodes.
	// Clients send unacknowledged uploads again to B or C with their
	// Idempotency-Key, as the docs advise.
	busy := account("busy@example.com", "enterprise")
	var long bytes.Buffer
	uploads, pages := 12, 20
	if nodesFull() {
		uploads, pages = 30, 30
	}
	if _, err := writeStatement(&long, pages, 40); err != nil {
		t.Fatal(err)
	}
	pidA := strconv.Itoa(a.cmd.Process.Pid)
	doneByA := len(completedRE.FindAllString(a.stderr.String(), -1))
	acked := map[string]string{} // Idempotency-Key -> file_id
	var pending []string
	for i := range uploads {
		pending = append(pending, fmt.Sprintf("k%02d", i))
	}
	bases := []string{a.base, b.base, cNode.base}
	for i, k := range pending {
		wg.Go(func() {
			time.Sleep(time.Duration(i) * 40 * time.Millisecond)
			if code, id := post(bases[i%3], busy, long.Bytes(), "", k); code == 200 {
				mu.Lock()
				acked[k] = id
				mu.Unlock()
			}
		})
	}
	// Kill A while it holds conversions, once it has finished one of
	// them: the moment a query finds it holding some.
	var held []string
	waitFor(t, "node A to finish one job and hold others", func() string {
		if len(completedRE.FindAllString(a.stderr.String(), -1)) == doneByA {
			return ""
		}
		held = held[:0]
		rows, err := db.Query("SELECT document_id FROM jobs WHERE state = 'running' AND claim LIKE '%/' || $1 || '/%'", pidA)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			rows.Scan(&id)
			held = append(held, id)
		}
		rows.Close()
		if len(held) > 0 {
			return "yes"
		}
		return ""
	})
	a.kill()
	killedAt := time.Now()
	completedByA := map[string]bool{}
	for _, m := range completedRE.FindAllStringSubmatch(a.stderr.String(), -1) {
		completedByA[m[1]] = true
	}
	wg.Wait()
	var resent int
	for i, k := range pending {
		if _, ok := acked[k]; !ok {
			resent++
			if code, id := post(bases[1+i%2], busy, long.Bytes(), "", k); code == 200 {
				acked[k] = id
			}
		}
	}
	c := client{t: t, base: b.base, key: busy}
	ids, distinct := ackedIDs(acked)
	// Every held job is watched until it settles, however long; the
	// figure is when the last of them did.
	heldSettled := settleTimes(c, held, 5*time.Minute)
	var lastHeld time.Duration
	for _, at := range heldSettled {
		lastHeld = max(lastHeld, at.Sub(killedAt))
	}
	stuck := waitSettled(t, c, ids, 5*time.Minute)
	settled := time.Since(killedAt)
	completedBy := map[string]int{}
	for _, n := range []*node{b, cNode} {
		for _, m := range completedRE.FindAllStringSubmatch(n.stderr.String(), -1) {
			completedBy[m[1]]++
		}
	}
	takeovers := strings.Count(b.stderr.String()+cNode.stderr.String(), "taking over a job whose node stopped renewing its lease")
	var completed, failed, processing, twice, unlogged, heldDone, byOthers int
	for _, id := range ids {
		if completedBy[id] > 0 {
			byOthers++
		}
		switch c.status(id).Status {
		case "completed":
			completed++
		case "failed":
			failed++
		default:
			processing++
		}
		if completedByA[id] && completedBy[id] > 0 || completedBy[id] > 1 {
			twice++
		}
		if !completedByA[id] && completedBy[id] == 0 {
			// Completed (the status says so) with no node's log line: A
			// was killed between its commit and its log line.
			unlogged++
		}
	}
	// A job A held may have ended on A between the query and the kill.
	var heldLeft int
	for _, id := range held {
		if completedByA[id] {
			continue
		}
		heldLeft++
		if completedBy[id] == 1 {
			heldDone++
		}
	}
	q := `SELECT %s FROM usage u JOIN accounts a ON a.id = u.account_id WHERE a.email = 'busy@example.com' AND u.refunded_at IS NULL`
	charges, chargedPages := count(fmt.Sprintf(q, "count(*)")), count(fmt.Sprintf(q, "coalesce(sum(u.quota_pages + u.credit_pages), 0)"))
	jobsLeft := count("SELECT count(*) FROM jobs")
	fmt.Printf("NODES kill -9 of node A of three during %d uploads (%d pages each, lease 15 s): A held %d jobs when killed; the last of them "+
		"completed %.1f s after the kill; %d acknowledged (%d distinct, %d sent again to B or C); %d completed, %d failed, %d processing "+
		"(stuck %d), %d jobs left; %d of A's held jobs and %d documents in all completed by B and C after the kill (%d take-overs), "+
		"%d completed twice, %d completed by A unlogged as it was killed; %d charges, %d pages charged for %d pages; all settled %.1f s after the kill\n",
		uploads, pages, len(held), lastHeld.Seconds(), len(acked), len(distinct), resent, completed, failed, processing, stuck, jobsLeft, heldDone,
		byOthers, takeovers, twice, unlogged, charges, chargedPages, len(distinct)*pages, settled.Seconds())
	if len(acked) != uploads || len(distinct) != uploads || completed != uploads || failed != 0 || processing != 0 || stuck != 0 || jobsLeft != 0 ||
		heldDone != heldLeft || heldLeft == 0 || takeovers < heldLeft || twice != 0 || unlogged > 1 || charges != uploads || chargedPages != uploads*pages {
		t.Errorf("kill -9: want %d documents, all completed, none stuck or completed twice, A's held jobs completed by B and C, charged once each", uploads)
	}
	// Issue 41 point 11: taken over within 30 s. A figure of a busy
	// shared machine, so make nodes holds it to that, and make test only
	// prints it.
	if nodesFull() && lastHeld > 30*time.Second {
		t.Errorf("the last of the dead node's jobs completed %.1f s after the kill, want within 30 s", lastHeld.Seconds())
	}
	b.stop(t)
	cNode.stop(t)
}

// TestMigrateCommand copies a data file into PostgreSQL with `passbook
// migrate`, then serves the database: the file's key works there and its
// document downloads. (store's TestCopyToPostgres compares every row of
// 100 documents.)
func TestMigrateCommand(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "office.db")
	srv := serve(t, file)
	key := waitFor(t, "the first run's key", func() string { return keyRE.FindString(srv.stdout.String()) })
	sample, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	onFile := client{t: t, base: "http://" + srv.addr, key: key}
	id := onFile.upload("sample_statement.pdf", sample)
	if waitSettled(t, onFile, []string{id}, time.Minute) != 0 {
		t.Fatal("the upload did not complete")
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	dsn := pgtest.Database(t)
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"migrate", "--from", file, "--to", dsn}, os.Getenv, nil, &out, &errOut); err != nil {
		t.Fatalf("migrate: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"accounts          1", "api_keys          1", "documents         1", "usage             1", "copied and checked"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("migrate printed:\n%s\nwant a line with %q", out.String(), want)
		}
	}
	if err := run(ctx, []string{"migrate", "--from", file, "--to", dsn}, os.Getenv, nil, io.Discard, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "empty") {
		t.Errorf("a second migrate into the same database: %v, want a refusal", err)
	}
	if err := run(ctx, []string{"migrate", "--from", dsn, "--to", file}, os.Getenv, nil, io.Discard, io.Discard); err == nil {
		t.Error("migrate from PostgreSQL into a file was accepted")
	}
	pg := serve(t, dsn)
	if strings.Contains(pg.stdout.String(), "uk_") {
		t.Errorf("serving the copy made a first-run account: %s", pg.stdout.String())
	}
	onPG := client{t: t, base: "http://" + pg.addr, key: key}
	var doc struct {
		TransactionCount int `json:"transaction_count"`
	}
	if code := onPG.get("/api/v1/download?format=json&file_id="+id, &doc); code != 200 || doc.TransactionCount != 8 {
		t.Errorf("the file's document on PostgreSQL: %d, %d transactions; want 200 and 8", code, doc.TransactionCount)
	}
	// The audit trail's chain came over whole, and the copy goes on with it
	// (issue 41, 7).
	var verified bytes.Buffer
	if err := run(ctx, []string{"audit", "verify", "--data", dsn}, os.Getenv, nil, &verified, io.Discard); err != nil ||
		!strings.Contains(verified.String(), "audit trail whole") {
		t.Errorf("audit verify of the copy: %v\n%s", err, verified.String())
	}
}
