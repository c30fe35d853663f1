//go:build stress

// The stress harness of issue 9: `make stress` runs it against real servers
// on loopback (port 0) and prints the figures. Every loop is bounded in
// count and time. The disk-full part mounts a small tmpfs, so it runs as
// root.
package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"passbook/extract/pdf/hostile"
)

// startStress starts `passbook serve` on a data file.
func startStress(t *testing.T, data string, env ...string) *node {
	t.Helper()
	return startNode(t, []string{"--data", data}, env...)
}

// rssMB reads a process's resident set size.
func rssMB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	return -1
}

// dbFacts opens a stopped server's data file and reads what the harness
// checks.
type dbFacts struct {
	documents, completed, failed, processing, jobs int
	charged, pages                                 int
	integrity                                      string
}

func readFacts(t *testing.T, data string) dbFacts {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+data+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var f dbFacts
	q := func(dst *int, query string) {
		if err := db.QueryRow(query).Scan(dst); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	q(&f.documents, "SELECT count(*) FROM documents")
	q(&f.completed, "SELECT count(*) FROM documents WHERE status = 'completed'")
	q(&f.failed, "SELECT count(*) FROM documents WHERE status = 'failed'")
	q(&f.processing, "SELECT count(*) FROM documents WHERE status = 'processing'")
	q(&f.jobs, "SELECT count(*) FROM jobs")
	q(&f.charged, "SELECT coalesce(sum(quota_pages + credit_pages), 0) FROM usage WHERE refunded_at IS NULL")
	q(&f.pages, "SELECT coalesce(sum(page_count), 0) FROM documents WHERE status != 'failed'")
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&f.integrity); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestStressMemory holds 16 uploads of 45 MB open and reads the server's RSS.
func TestStressMemory(t *testing.T) {
	dir := t.TempDir()
	srv := startStress(t, filepath.Join(dir, "p.db"), "TMPDIR="+dir)
	key := keyRE.FindString(srv.stdout.String())
	addr := strings.TrimPrefix(srv.base, "http://")
	const clients, size = 16, 45 << 20
	head := "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n"
	total := len(head) + size + len("\r\n--XX--\r\n")
	before := rssMB(srv.cmd.Process.Pid)
	var wg sync.WaitGroup
	conns := make([]net.Conn, clients)
	ready := make(chan struct{}, clients)
	chunk := bytes.Repeat([]byte("0"), 1<<20)
	for i := range clients {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			conns[i] = c
			fmt.Fprintf(c, "POST /api/v1/extract HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: %d\r\n\r\n%s", key, total, head)
			for sent := 0; sent < size; sent += len(chunk) {
				if _, err := c.Write(chunk[:min(len(chunk), size-sent)]); err != nil {
					t.Errorf("client %d: %v", i, err)
					return
				}
			}
			ready <- struct{}{} // all but the closing boundary: held open
		})
	}
	peak := before
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	deadline := time.After(3 * time.Minute)
sample:
	for {
		peak = max(peak, rssMB(srv.cmd.Process.Pid))
		select {
		case <-done:
			break sample
		case <-deadline:
			t.Fatal("the uploads were not all sent within 3 minutes")
		case <-time.After(100 * time.Millisecond):
		}
	}
	for range 20 { // held open 2 s
		peak = max(peak, rssMB(srv.cmd.Process.Pid))
		time.Sleep(100 * time.Millisecond)
	}
	for _, c := range conns {
		if c != nil {
			c.Close()
		}
	}
	for range 50 { // 5 s after they closed
		peak = max(peak, rssMB(srv.cmd.Process.Pid))
		time.Sleep(100 * time.Millisecond)
	}
	after := rssMB(srv.cmd.Process.Pid)
	fmt.Printf("STRESS memory: %d clients holding open %d MB uploads: server RSS %.0f MB before, peak %.0f MB, %.0f MB 5 s after they closed\n",
		clients, size>>20, before, peak, after)
	if peak >= 300 {
		t.Errorf("peak RSS %.0f MB, want < 300 MB", peak)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "passbook-upload-*")); len(left) > 0 {
		t.Errorf("%d upload temp files left behind", len(left))
	}
	srv.stop(t)
}

// TestStressSlowBodies trickles 40 bodies at 1 byte/s, half without a key.
func TestStressSlowBodies(t *testing.T) {
	dir := t.TempDir()
	srv := startStress(t, filepath.Join(dir, "p.db"))
	key := keyRE.FindString(srv.stdout.String())
	addr := strings.TrimPrefix(srv.base, "http://")
	type outcome struct {
		auth   bool
		status int
		took   time.Duration
	}
	results := make(chan outcome, 40)
	start := time.Now()
	for i := range 40 {
		auth := i%2 == 0
		go func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				results <- outcome{auth, -1, 0}
				return
			}
			defer c.Close()
			h := ""
			if auth {
				h = "Authorization: Bearer " + key + "\r\n"
			}
			fmt.Fprintf(c, "POST /api/v1/extract HTTP/1.1\r\nHost: x\r\n%sContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n\r\n", h)
			got := make(chan int, 1)
			go func() {
				c.SetReadDeadline(time.Now().Add(60 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					got <- 0 // closed without an answer
					return
				}
				got <- resp.StatusCode
			}()
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case st := <-got:
					results <- outcome{auth, st, time.Since(start)}
					return
				case <-tick.C:
					c.Write([]byte("-"))
				}
			}
		}()
	}
	var worstAuth, worstAnon time.Duration
	anon401, stillOpen := 0, 0
	for range 40 {
		o := <-results
		if o.took >= 59*time.Second {
			stillOpen++ // the client's own 60 s deadline ended it
		}
		if o.auth {
			worstAuth = max(worstAuth, o.took)
		} else {
			worstAnon = max(worstAnon, o.took)
			if o.status == 401 {
				anon401++
			}
		}
	}
	fmt.Printf("STRESS slow bodies: 40 at 1 byte/s: %d still open at 60 s; the last of 20 with a key ended after %.1f s; of 20 without, %d got 401, the last after %.1f s\n",
		stillOpen, worstAuth.Seconds(), anon401, worstAnon.Seconds())
	if worstAuth > 30*time.Second || anon401 != 20 || worstAnon > 5*time.Second {
		t.Errorf("slow bodies: keyed cut off after %s (want ≤ 30 s), %d/20 unauthenticated got 401 within %s", worstAuth, anon401, worstAnon)
	}
	srv.stop(t)
}

// TestStressKill9 kills the server at random moments during 100 uploads over
// 10 cycles; clients retry unacknowledged uploads with their
// Idempotency-Key, as the docs advise.
func TestStressKill9(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "p.db")
	sample, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var longBuf bytes.Buffer
	if _, err := writeStatement(&longBuf, 6, 40); err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{sample, longBuf.Bytes()}
	rng := rand.New(rand.NewPCG(9, 9))
	var apiKey string
	acked := map[string]string{} // idempotency key -> file_id
	var pending []string
	body := func(k string) []byte { return docs[int(k[len(k)-1])%2] }
	kills := 0
	for cycle := range 11 {
		srv := startStress(t, data)
		if apiKey == "" {
			apiKey = keyRE.FindString(srv.stdout.String())
		}
		for i := range 10 {
			if cycle < 10 {
				pending = append(pending, fmt.Sprintf("c%02d-u%d", cycle, i))
			}
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		var still []string
		for _, k := range pending {
			delay := time.Duration(rng.IntN(300)) * time.Millisecond
			wg.Go(func() {
				time.Sleep(delay)
				code, id := post(srv.base, apiKey, body(k), "", k)
				mu.Lock()
				defer mu.Unlock()
				if code == 200 {
					acked[k] = id
				} else {
					still = append(still, k)
				}
			})
		}
		if cycle < 10 {
			time.Sleep(time.Duration(100+rng.IntN(900)) * time.Millisecond)
			srv.kill()
			kills++
			wg.Wait()
			pending = still
			continue
		}
		wg.Wait()
		pending = still
		c := client{t: t, base: srv.base, key: apiKey}
		for round := 0; len(pending) > 0 && round < 5; round++ {
			var again []string
			for _, k := range pending {
				if code, id := post(srv.base, apiKey, body(k), "", k); code == 200 {
					acked[k] = id
				} else {
					again = append(again, k)
				}
			}
			pending = again
		}
		ids, distinct := ackedIDs(acked)
		stuck := waitSettled(t, c, ids, 3*time.Minute)
		srv.stop(t)
		f := readFacts(t, data)
		fmt.Printf("STRESS kill -9: %d kills over %d uploads: %d acknowledged (%d distinct), %d unacknowledged; documents %d: %d completed, %d failed, %d processing (stuck %d), %d jobs left; pages charged %d for %d pages kept; integrity_check %s\n",
			kills, len(acked)+len(pending), len(acked), len(distinct), len(pending), f.documents, f.completed, f.failed, f.processing, stuck, f.jobs, f.charged, f.pages, f.integrity)
		if len(pending) != 0 || len(distinct) != 100 || f.documents != 100 || f.completed != 100 || f.failed != 0 ||
			f.processing != 0 || f.jobs != 0 || f.charged != f.pages || f.integrity != "ok" {
			t.Errorf("kill -9 cycles: want 100 uploads, 100 documents completed, none failed, stuck or duplicated, quota exact, integrity ok")
		}
	}
}

// TestStressDiskFull runs the server on a 20 MB tmpfs that a ballast file
// fills, then frees the space without restarting it.
func TestStressDiskFull(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount a 20 MB tmpfs (the disk-full test needs root): %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	data := filepath.Join(mnt, "p.db")
	srv := startStress(t, data, "TMPDIR="+t.TempDir())
	apiKey := keyRE.FindString(srv.stdout.String())
	c := client{t: t, base: srv.base, key: apiKey}
	encrypted, err := os.ReadFile("testdata/encrypted_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var statement bytes.Buffer
	if _, err := writeStatement(&statement, 3, 40); err != nil {
		t.Fatal(err)
	}
	// Fill the disk but for about 400 KB.
	var st syscall.Statfs_t
	syscall.Statfs(mnt, &st)
	free := int64(st.Bavail) * int64(st.Bsize)
	ballast := filepath.Join(mnt, "ballast")
	if err := os.WriteFile(ballast, make([]byte, free-400<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	codes := map[int]int{}
	var ids []string
	for i := range 60 {
		doc, pw := statement.Bytes(), ""
		if i%10 == 0 {
			doc, pw = encrypted, "s3cret"
		}
		code, id := post(srv.base, apiKey, doc, pw, "")
		codes[code]++
		if code == 200 {
			ids = append(ids, id)
		}
	}
	var health struct {
		Checks map[string]string `json:"checks"`
	}
	hresp, err := http.Get(srv.base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(hresp.Body).Decode(&health)
	hresp.Body.Close()
	time.Sleep(3 * time.Second)
	processingWhileFull := 0
	for _, id := range ids {
		if c.status(id).Status == "processing" {
			processingWhileFull++
		}
	}
	os.Remove(ballast)
	stuck := waitSettled(t, c, ids, 2*time.Minute)
	after, afterID := post(srv.base, apiKey, statement.Bytes(), "", "")
	if after == 200 {
		stuck += waitSettled(t, c, []string{afterID}, time.Minute)
	}
	srv.stop(t)
	f := readFacts(t, data)
	raw, _ := os.ReadFile(data)
	wal, _ := os.ReadFile(data + "-wal")
	pwOnDisk := bytes.Count(raw, []byte("s3cret")) + bytes.Count(wal, []byte("s3cret"))
	fmt.Printf("STRESS disk full: 60 uploads on a full 20 MB disk: answers %v; /readyz said data_file %q; %d accepted still processing while full; after freeing space (no restart): %d stuck, upload answers %d; documents %d completed, %d failed, %d processing; integrity_check %s; password copies on disk %d\n",
		codes, health.Checks["data_file"], processingWhileFull, stuck, after, f.completed, f.failed, f.processing, f.integrity, pwOnDisk)
	if codes[507] == 0 || codes[500] != 0 || stuck != 0 || after != 200 || f.processing != 0 || f.integrity != "ok" || pwOnDisk != 0 {
		t.Errorf("disk full: want 507s and no 500, nothing stuck after freeing space, a later upload accepted, integrity ok, no password on disk")
	}
}

// childCount counts the processes whose parent is pid (the converters).
func childCount(pid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			n++
		}
	}
	return n
}

// TestStressProbeFlood floods the server with probe bombs from one account
// (8 clients, a few seconds): PDFs of 14 KB whose catalog hides in an
// object stream behind 1 GiB of white space, so the probe must inflate it
// to find the pages. It counts the converter processes and times another
// account's scan during the flood against the same scan on an idle server.
func TestStressProbeFlood(t *testing.T) {
	corpus := os.Getenv("CORPUS")
	scan, err := os.ReadFile(filepath.Join(corpus, "dev", "northwind_us_02_scan.pdf"))
	if err != nil {
		t.Fatalf("the probe-flood test needs the corpus (CORPUS=%q): %v", corpus, err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "p.db")
	srv := startStress(t, data)
	flooder := keyRE.FindString(srv.stdout.String())
	var out bytes.Buffer
	if err := run(context.Background(), []string{"accounts", "create", "other@example.com", "--plan", "business", "--data", data},
		os.Getenv, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	other := client{t: t, base: srv.base, key: keyRE.FindString(out.String())}
	timeScan := func() time.Duration {
		start := time.Now()
		code, id := post(srv.base, other.key, scan, "", "")
		if code != 200 {
			t.Fatalf("the other account's scan: %d", code)
		}
		if waitSettled(t, other, []string{id}, 3*time.Minute) != 0 {
			t.Fatal("the other account's scan did not finish within 3 minutes")
		}
		if st := other.status(id); st.Status != "completed" {
			t.Fatalf("the other account's scan: %+v", st)
		}
		return time.Since(start)
	}
	idle := timeScan()

	bomb := hostile.ProbeBomb(hostile.GiB)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				code, _ := post(srv.base, flooder, bomb, "", "")
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}
		})
	}
	maxKids := 0
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				maxKids = max(maxKids, childCount(srv.cmd.Process.Pid))
			}
		}
	}()
	time.Sleep(3 * time.Second)
	loaded := timeScan()
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()
	<-sampled
	srv.stop(t)
	// The pool: a worker per CPU for conversions and one spare for probes
	// and renders (worker.DefaultConfig), whatever arrives.
	pool := runtime.NumCPU() + 1
	fmt.Printf("STRESS probe flood: 8 clients uploading %d KB probe bombs (1 GiB behind two Flate layers; answers %v): at most %d converter processes at once (the pool's size is %d); the other account's %d KB scan took %.1f s idle, %.1f s during the flood (%.1f×)\n",
		len(bomb)>>10, codes, maxKids, pool, len(scan)>>10, idle.Seconds(), loaded.Seconds(), loaded.Seconds()/idle.Seconds())
	if maxKids > pool {
		t.Errorf("%d converter processes at once, want ≤ the pool's %d", maxKids, pool)
	}
	if codes[200] != 0 {
		t.Errorf("%d probe bombs accepted, want none", codes[200])
	}
	if loaded > 2*idle {
		t.Errorf("the other account's scan took %.1f× as long during the flood, want ≤ 2×", loaded.Seconds()/idle.Seconds())
	}
}

// TestStressBusy is make stress under load (issue 41 point 10): text
// statements of one to five pages, scans and photos of a page, uploaded
// while three processes a core spin at the server's priority. No good
// document may fail.
func TestStressBusy(t *testing.T) {
	files := newSoakFiles(t)
	var docs []busyDoc
	for i := range 10 {
		docs = append(docs, busyDoc{"text", fmt.Sprintf("text%d.pdf", i), files.text[i%5]})
	}
	for i := range 4 {
		docs = append(docs, busyDoc{"scan", fmt.Sprintf("scan%d.png", i), files.scan}, busyDoc{"photo", fmt.Sprintf("photo%d.jpg", i), files.photo})
	}
	failed, figures := busyRun(t, docs, 3)
	fmt.Println("STRESS busy machine:", figures)
	if failed != 0 {
		t.Errorf("%d good documents failed on a busy machine", failed)
	}
}
