package main

// The soak harness of issue 32: an office's day of mixed load against the
// whole program (`run serve` in this process, its workers children of it),
// sampled at a fixed interval, then checked. `make soak` runs it for an
// hour on SQLite and on PostgreSQL (soak_long_test.go, build tag soak);
// TestSoakSlice is its short seeded slice in `make test`.

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"passbook/extract/pdf"
)

// soakConfig is one soak run.
type soakConfig struct {
	data     string        // data file path or postgres:// URL
	duration time.Duration // of the load
	sample   time.Duration // between samples
	seed     uint64
	clients  int // uploaders, each waiting for its upload before the next
}

// soakSample is what the harness records at each sample.
type soakSample struct {
	At          float64 `json:"minute"` // minutes from the start
	ServerMB    float64 `json:"server_mb"`
	WorkersMB   float64 `json:"workers_mb"`
	Files       int     `json:"open_files"`
	Goroutines  int     `json:"goroutines"`
	DataMB      float64 `json:"data_mb"`
	StatusP99ms float64 `json:"status_p99_ms"`
	QueueAgeS   float64 `json:"queue_age_s"`
	Uploads     int     `json:"uploads"`
	Completed   int     `json:"completed"`
	// The server process's Go heap (it holds the harness's clients too):
	// live after the last collection, in use (spans holding objects), and
	// free but not yet given back to the system. Resident memory beyond
	// them is the runtime's own, stacks, the binary and C allocations.
	HeapLiveMB  float64 `json:"heap_live_mb"`
	HeapInuseMB float64 `json:"heap_inuse_mb"`
	HeapFreeMB  float64 `json:"heap_free_mb"`
}

// soakDoc is one upload the harness made.
type soakDoc struct {
	id, kind string
	pages    int
	at       time.Time
	done     bool
	deleted  bool
	failed   bool
}

// soakReport is a run's samples and what its checks found.
type soakReport struct {
	Samples                  []soakSample
	uploads, deleted, stuck  int
	failed                   []string
	charged, pagesConverted  int
	downloads, edits, folder int
	errors                   []string
}

// soakFiles are the documents the clients upload: text statements of 1 to
// 5 pages, a scan (PNG) and a photo (JPEG) of a page.
type soakFiles struct {
	text        [5][]byte
	scan, photo []byte
}

func newSoakFiles(t testing.TB) soakFiles {
	var f soakFiles
	for i := range f.text {
		var b bytes.Buffer
		if _, err := writeStatement(&b, i+1, 25); err != nil {
			t.Fatal(err)
		}
		f.text[i] = b.Bytes()
	}
	doc, err := pdf.Open(f.text[0], "")
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.RenderGray(0, 200)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	f.scan = b.Bytes()
	b = bytes.Buffer{}
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	f.photo = b.Bytes()
	return f
}

// soakFormats are the download formats a client asks for in turn.
var soakFormats = []string{"json", "csv", "xlsx", "ofx", "qfx", "qbo", "qif", "camt053", "mt940", "csv&profile=xero", "csv&profile=excel-eu"}

// soakLogKeep bounds the server's log a soak holds (syncBuffer's keep):
// an hour of it, about 20 MB, kept whole, grew the measured process
// in steps as its buffer doubled.
const soakLogKeep = 256 << 10

// runSoak serves cfg.data, runs the load for cfg.duration while sampling,
// then lets the queue drain and checks what the store holds.
func runSoak(t *testing.T, cfg soakConfig, files soakFiles) soakReport {
	// The server's log (an access line a request) is held in this process,
	// whose memory the samples measure: keep only its start and its end.
	srv := serveKeeping(t, cfg.data, soakLogKeep)
	key := keyRE.FindString(srv.stdout.String())
	if key == "" {
		t.Fatalf("no API key printed:\n%s", srv.stdout.String())
	}
	base := "http://" + srv.addr
	hc := &http.Client{Timeout: 2 * time.Minute}
	do := func(method, path string, body io.Reader, ctype string) (int, []byte, error) {
		req, _ := http.NewRequest(method, base+path, body)
		req.Header.Set("Authorization", "Bearer "+key)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
	usedPages := func() int {
		code, b, err := do("GET", "/api/v1/user", nil, "")
		var u struct {
			Quota struct{ Used int } `json:"quota"`
		}
		if err != nil || code != 200 || json.Unmarshal(b, &u) != nil {
			t.Fatalf("GET /user: %d %v %s", code, err, b)
		}
		return u.Quota.Used
	}
	usedBefore := usedPages()

	var rep soakReport
	var mu sync.Mutex
	var docs []*soakDoc
	var latencies []time.Duration // status polls since the last sample
	failedSeen := map[string]bool{}
	errorf := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(rep.errors) < 20 {
			rep.errors = append(rep.errors, fmt.Sprintf(format, a...))
		}
	}
	status := func(id string) string {
		start := time.Now()
		code, b, err := do("GET", "/api/v1/status?file_id="+id, nil, "")
		d := time.Since(start)
		mu.Lock()
		latencies = append(latencies, d)
		mu.Unlock()
		var st struct{ Status, Error string }
		if err != nil || code != 200 || json.Unmarshal(b, &st) != nil {
			return ""
		}
		if st.Status == "failed" {
			mu.Lock()
			first := !failedSeen[id]
			failedSeen[id] = true
			mu.Unlock()
			if first {
				errorf("%s failed: %s", id, st.Error)
			}
		}
		return st.Status
	}
	// pick returns a document the clients may use: completed and not deleted.
	pick := func(rng *rand.Rand) *soakDoc {
		mu.Lock()
		defer mu.Unlock()
		var done []*soakDoc
		for _, d := range docs {
			if d.done && !d.deleted && !d.failed {
				done = append(done, d)
			}
		}
		if len(done) == 0 {
			return nil
		}
		return done[rng.IntN(len(done))]
	}

	stop := make(chan struct{})
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}
	pause := func(rng *rand.Rand, max time.Duration) {
		select {
		case <-stop:
		case <-time.After(time.Duration(rng.Int64N(int64(max)))):
		}
	}
	var wg sync.WaitGroup
	// Uploaders: text most of the time, now and then a scan or a photo;
	// each polls its upload to the end before the next.
	for c := range cfg.clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(cfg.seed, uint64(c)))
			for !stopped() {
				d := &soakDoc{kind: "text", at: time.Now()}
				var body []byte
				name := "statement.pdf"
				switch r := rng.IntN(10); {
				case r == 0:
					d.kind, d.pages, body, name = "photo", 1, files.photo, "photo.jpg"
				case r <= 2:
					d.kind, d.pages, body, name = "scan", 1, files.scan, "scan.png"
				default:
					n := 1 + rng.IntN(len(files.text))
					d.pages, body = n, files.text[n-1]
				}
				mb, ctype := multipartFile(name, body)
				code, b, err := do("POST", "/api/v1/extract", bytes.NewReader(mb), ctype)
				var m struct {
					FileID string `json:"file_id"`
				}
				if err != nil || code != 200 || json.Unmarshal(b, &m) != nil || m.FileID == "" {
					errorf("upload %s: %d %v %.200s", d.kind, code, err, b)
					pause(rng, time.Second)
					continue
				}
				d.id = m.FileID
				mu.Lock()
				docs = append(docs, d)
				mu.Unlock()
				st := status(d.id)
				for st == "processing" && !stopped() {
					time.Sleep(200 * time.Millisecond)
					st = status(d.id)
				}
				mu.Lock()
				d.done, d.failed = st != "processing", st == "failed"
				mu.Unlock()
				pause(rng, 2*time.Second)
			}
		})
	}
	// A poller, as a page open on the documents list would be.
	wg.Go(func() {
		rng := rand.New(rand.NewPCG(cfg.seed, 100))
		for !stopped() {
			if d := pick(rng); d != nil {
				status(d.id)
			}
			pause(rng, 100*time.Millisecond)
		}
	})
	// A bookkeeper: downloads in every format, corrections and their
	// reverts, folders, deletes.
	wg.Go(func() {
		rng := rand.New(rand.NewPCG(cfg.seed, 200))
		var folders []string
		for i := 0; !stopped(); i++ {
			pause(rng, 1500*time.Millisecond)
			d := pick(rng)
			if d == nil {
				continue
			}
			// Half downloads, a fifth corrections, a quarter folder
			// changes, and 1 in 20 a delete (~1 upload in 10).
			switch op := rng.IntN(100); {
			case op < 50:
				f := soakFormats[i%len(soakFormats)]
				if code, b, err := do("GET", "/api/v1/download?file_id="+d.id+"&format="+f, nil, ""); err != nil || code != 200 || len(b) == 0 {
					errorf("download %s %s: %d %v", d.id, f, code, err)
				}
				mu.Lock()
				rep.downloads++
				mu.Unlock()
			case op < 70:
				code, b, err := do("GET", "/api/v1/download?file_id="+d.id+"&format=json", nil, "")
				var body struct {
					Transactions []map[string]any `json:"transactions"`
				}
				if err != nil || code != 200 || json.Unmarshal(b, &body) != nil {
					errorf("download for edit %s: %d %v", d.id, code, err)
					continue
				}
				if len(body.Transactions) == 0 {
					continue
				}
				body.Transactions[0]["description"] = fmt.Sprintf("corrected %d", i)
				eb, _ := json.Marshal(body)
				if code, b, err := do("PUT", "/api/v1/documents/"+d.id+"/transactions", bytes.NewReader(eb), "application/json"); err != nil || code != 200 {
					errorf("edit %s: %d %v %.200s", d.id, code, err, b)
				}
				if rng.IntN(2) == 0 {
					if code, _, err := do("DELETE", "/api/v1/documents/"+d.id+"/transactions", nil, ""); err != nil || code != 200 {
						errorf("revert %s: %d %v", d.id, code, err)
					}
				}
				mu.Lock()
				rep.edits++
				mu.Unlock()
			case op < 95:
				if len(folders) == 0 || rng.IntN(4) == 0 {
					fb, _ := json.Marshal(map[string]string{"name": fmt.Sprintf("Client %d", i)})
					code, b, err := do("POST", "/api/v1/folders", bytes.NewReader(fb), "application/json")
					var m struct {
						FolderID string `json:"folder_id"`
					}
					if err != nil || code != 200 || json.Unmarshal(b, &m) != nil {
						errorf("create folder: %d %v %.200s", code, err, b)
						continue
					}
					folders = append(folders, m.FolderID)
				}
				fid := folders[rng.IntN(len(folders))]
				if code, b, err := do("PUT", "/api/v1/folders/"+fid+"/documents/"+d.id, nil, ""); err != nil || code != 200 {
					errorf("add to folder: %d %v %.200s", code, err, b)
				}
				if code, _, err := do("GET", "/api/v1/folders/"+fid, nil, ""); err != nil || code != 200 {
					errorf("read folder: %d %v", code, err)
				}
				if code, _, err := do("GET", "/api/v1/folders/"+fid+"/download?format=xlsx", nil, ""); err != nil || code != 200 {
					errorf("folder download: %d %v", code, err)
				}
				if rng.IntN(3) == 0 {
					if code, _, err := do("DELETE", "/api/v1/folders/"+fid+"/documents/"+d.id, nil, ""); err != nil || code != 200 {
						errorf("remove from folder: %d %v", code, err)
					}
				}
				if len(folders) > 5 {
					if code, _, err := do("DELETE", "/api/v1/folders/"+folders[0], nil, ""); err != nil || code != 200 {
						errorf("delete folder: %d %v", code, err)
					}
					folders = folders[1:]
				}
				mu.Lock()
				rep.folder++
				mu.Unlock()
			default:
				if code, _, err := do("DELETE", "/api/v1/documents/"+d.id, nil, ""); err != nil || code != 200 {
					errorf("delete %s: %d %v", d.id, code, err)
					continue
				}
				mu.Lock()
				d.deleted = true
				mu.Unlock()
				if code, _, _ := do("GET", "/api/v1/status?file_id="+d.id, nil, ""); code != 404 {
					errorf("deleted %s answers %d, want 404", d.id, code)
				}
			}
		}
	})

	// Samples.
	start := time.Now()
	sampleNow := func() {
		mu.Lock()
		lat := latencies
		latencies = nil
		s := soakSample{At: time.Since(start).Minutes(), Uploads: len(docs)}
		oldest := time.Time{}
		for _, d := range docs {
			if d.done {
				s.Completed++
			} else if oldest.IsZero() || d.at.Before(oldest) {
				oldest = d.at
			}
		}
		mu.Unlock()
		if !oldest.IsZero() {
			s.QueueAgeS = time.Since(oldest).Seconds()
		}
		if len(lat) > 0 {
			slices.Sort(lat)
			s.StatusP99ms = float64(lat[(len(lat)*99)/100].Microseconds()) / 1000
		}
		self := os.Getpid()
		s.ServerMB = procRSS(self)
		s.Files = procFiles(self)
		for _, c := range procChildren(self) {
			s.WorkersMB += procRSS(c)
			s.Files += procFiles(c)
		}
		s.Goroutines = runtime.NumGoroutine()
		s.HeapLiveMB, s.HeapInuseMB, s.HeapFreeMB = goHeapMB()
		s.DataMB = dataSize(t, cfg.data)
		rep.Samples = append(rep.Samples, s)
		if dir := os.Getenv("SOAK_PROFILES"); dir != "" {
			// A heap profile a sample, to compare two with pprof -base.
			if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("heap-%05.1f.pprof", s.At))); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}
	}
	// One sample each cfg.sample from the start, the last at the end: a
	// sample taken late does not shift the next, nor add one.
	for at := cfg.sample; ; at += cfg.sample {
		if cfg.duration-at < cfg.sample/2 { // the end, or a rounding short of it
			at = cfg.duration
		}
		time.Sleep(time.Until(start.Add(at)))
		sampleNow()
		if at >= cfg.duration {
			break
		}
	}
	close(stop)
	wg.Wait()

	// Drain: every upload settles, none failed.
	deadline := time.Now().Add(5 * time.Minute)
	for _, d := range docs {
		if d.deleted {
			rep.deleted++
			continue
		}
		for {
			st := status(d.id)
			if st == "completed" {
				break
			}
			if st != "processing" {
				rep.failed = append(rep.failed, d.id+" "+st)
				d.failed = true
				break
			}
			if time.Now().After(deadline) {
				rep.stuck++
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	rep.uploads = len(docs)
	for _, d := range docs {
		if !d.failed { // a failed document is refunded
			rep.pagesConverted += d.pages
		}
	}
	rep.charged = usedPages() - usedBefore
	if err := srv.stop(); err != nil {
		t.Errorf("serve returned %v", err)
	}
	return rep
}

// check fails t on what a soak of any length must hold: uploads were made
// and none was lost, failed or stuck, every page charged once, no client
// error.
func (rep soakReport) check(t *testing.T) {
	t.Helper()
	if rep.uploads == 0 || rep.downloads == 0 {
		t.Errorf("no load: %d uploads, %d downloads", rep.uploads, rep.downloads)
	}
	if rep.stuck != 0 || len(rep.failed) != 0 {
		t.Errorf("%d stuck, failed or lost: %q", rep.stuck, rep.failed)
	}
	if rep.charged != rep.pagesConverted {
		t.Errorf("charged %d pages for %d pages converted (deleted ones stay charged)", rep.charged, rep.pagesConverted)
	}
	for _, e := range rep.errors {
		t.Errorf("client: %s", e)
	}
}

// multipartFile is an upload body holding data as the file part.
func multipartFile(name string, data []byte) ([]byte, string) {
	body, ctype := uploadBody(data, "")
	return bytes.Replace(body, []byte(`filename="s.pdf"`), []byte(`filename="`+name+`"`), 1), ctype
}

// procRSS is a process's resident memory in MB (0 when it is gone).
func procRSS(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

// goHeapMB is this process's Go heap in MB: live after the last
// collection, in use, and free but not returned to the system.
func goHeapMB() (live, inuse, free float64) {
	ms := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(ms)
	mb := func(i int) float64 { return float64(ms[i].Value.Uint64()) / (1 << 20) }
	return mb(0), mb(1) + mb(2), mb(3)
}

// procFiles counts a process's open file descriptors.
func procFiles(pid int) int {
	ents, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	return len(ents)
}

// procChildren lists the processes whose parent is pid.
func procChildren(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

// dataSize is the data file's size with its WAL, in MB; for PostgreSQL
// the database's.
func dataSize(t *testing.T, data string) float64 {
	if strings.HasPrefix(data, "postgres") {
		return pgDatabaseMB(t, data)
	}
	n := int64(0)
	for _, p := range []string{data, data + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return float64(n) / (1 << 20)
}

// pgDatabaseMB is the size of the database at url, in MB.
func pgDatabaseMB(t *testing.T, url string) float64 {
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT pg_database_size(current_database())").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return float64(n) / (1 << 20)
}

// TestSyncBufferKeep: a bounded buffer keeps the start and the end of
// what was written, in order, says how much of the middle it let go, and
// holds no more than about three times its bound however much is written.
func TestSyncBufferKeep(t *testing.T) {
	b := &syncBuffer{keep: 100}
	var all strings.Builder
	for i := range 1000 {
		line := fmt.Sprintf("line %d\n", i)
		b.Write([]byte(line))
		all.WriteString(line)
	}
	got := b.String()
	if !strings.HasPrefix(got, "line 0\nline 1\n") || !strings.HasSuffix(got, "line 998\nline 999\n") {
		t.Fatalf("start or end lost:\n%s", got)
	}
	if held := b.buf.Len() + b.prev.Len() + b.tail.Len(); held > 3*100+16 {
		t.Errorf("holds %d bytes for keep 100", held)
	}
	if int64(b.buf.Len()+b.prev.Len()+b.tail.Len())+b.dropped != int64(all.Len()) {
		t.Errorf("held %d + dropped %d != written %d", b.buf.Len()+b.prev.Len()+b.tail.Len(), b.dropped, all.Len())
	}
	head, rest, ok := strings.Cut(got, fmt.Sprintf("\n[... %d bytes not kept ...]\n", b.dropped))
	if !ok || !strings.HasPrefix(all.String(), head) || !strings.HasSuffix(all.String(), rest) {
		t.Errorf("not the written text's start and end around the gap:\n%s", got)
	}
	var u syncBuffer
	u.Write([]byte(all.String()))
	if u.String() != all.String() {
		t.Error("an unbounded buffer lost text")
	}
}

// TestSoakSlice is the soak's short seeded slice: 40 seconds of the same
// mixed load on SQLite, sampled every 5 s, with the checks that hold at
// any length (the flatness of memory, files and goroutines needs the long
// run: make soak).
func TestSoakSlice(t *testing.T) {
	files := newSoakFiles(t)
	data := filepath.Join(t.TempDir(), "soak.db")
	rep := runSoak(t, soakConfig{data: data, duration: 40 * time.Second, sample: 5 * time.Second, seed: 32, clients: 2}, files)
	rep.check(t)
	if len(rep.Samples) != 8 {
		t.Errorf("%d samples, want 8", len(rep.Samples))
	}
	for _, s := range rep.Samples {
		if s.ServerMB <= 0 || s.Files <= 0 || s.Goroutines <= 0 || s.DataMB <= 0 {
			t.Errorf("sample not recorded: %+v", s)
		}
	}
	t.Logf("soak slice: %d uploads (%d deleted), %d downloads, %d edits, %d folder changes; %d pages charged; last sample %+v",
		rep.uploads, rep.deleted, rep.downloads, rep.edits, rep.folder, rep.charged, rep.Samples[len(rep.Samples)-1])
}
