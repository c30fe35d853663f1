package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/redact"
	"passbook/extract/source"
)

// TestMain lets the test binary be the worker child, serving fakeEngine,
// so the process boundary is tested for real and links no C.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		if err := Serve(os.Stdin, os.Stdout, fakeEngine{}); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine acts on the document's text: "pages N EACH" converts N pages
// sleeping EACH per page ("cpu-pages N EACH" spending EACH of CPU time,
// "pages-until N FILE" its last page once FILE exists),
// "burn D" spends D of CPU time, "fail" fails with its own words, "crash" dies,
// "hang" never answers, "spin" burns CPU, "alloc" takes 1 GiB, "heavy"
// takes 100 MB and keeps it, "env NAME" fails with NAME's value. Probe answers with the worker's pid as the
// kind, so tests can tell workers apart, and with how many times the
// worker was told to release memory as the page count (from 1).
type fakeEngine struct{}

// kept is what "heavy" holds on to; released counts ReleaseMemory calls.
var (
	kept     []byte
	released atomic.Int32
)

func (fakeEngine) Probe(data []byte, password string) (source.Info, error) {
	if err := act(string(data)); err != nil {
		return source.Info{}, err
	}
	return source.Info{Kind: strconv.Itoa(os.Getpid()), PageCount: 1 + int(released.Load())}, nil
}

func (fakeEngine) ReleaseMemory() { released.Add(1) }

func (fakeEngine) Convert(data []byte, opts extract.Options) (*ledger.Result, error) {
	s := string(data)
	if f := strings.Fields(s); len(f) == 3 && f[0] == "pages-until" {
		// "pages-until N FILE": N pages, the last once FILE exists; it
		// writes FILE.started as it starts.
		n, _ := strconv.Atoi(f[1])
		if err := os.WriteFile(f[2]+".started", nil, 0o644); err != nil {
			return nil, err
		}
		for i := 1; i <= n; i++ {
			for i == n {
				if _, err := os.Stat(f[2]); err == nil {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			opts.Progress(i, n)
		}
		return &ledger.Result{PageCount: n}, nil
	}
	if f := strings.Fields(s); len(f) == 3 && (f[0] == "pages" || f[0] == "cpu-pages") {
		n, _ := strconv.Atoi(f[1])
		each, _ := time.ParseDuration(f[2])
		opts.Progress(0, n)
		for i := 1; i <= n; i++ {
			if f[0] == "pages" {
				time.Sleep(each)
			} else {
				burn(each)
			}
			opts.Progress(i, n)
		}
		return &ledger.Result{PageCount: n}, nil
	}
	if err := act(s); err != nil {
		return nil, err
	}
	return &ledger.Result{PageCount: 1}, nil
}

func (fakeEngine) RenderPage(data []byte, password string, page, width int) (source.Rendered, error) {
	if page != 1 {
		return source.Rendered{}, fmt.Errorf("page %d of 1: %w", page, source.ErrNoPage)
	}
	return source.Rendered{PNG: []byte(fmt.Sprintf("png %d", width)), Width: 595.5, Height: 842}, nil
}

// Redact answers the document's bytes reversed as its copy, with as many
// rows as bytes; "refuse" is refused with its reason.
func (fakeEngine) Redact(data []byte, password string) ([]byte, redact.Sidecar, error) {
	if string(data) == "refuse" {
		return nil, redact.Sidecar{}, &redact.RefusedError{Reason: "the copy would still hold \"Quartermaine\""}
	}
	out := slices.Clone(data)
	slices.Reverse(out)
	return out, redact.Sidecar{Rows: len(data), Reconciliation: "ok"}, nil
}

func act(s string) error {
	if name, ok := strings.CutPrefix(s, "env "); ok {
		return fmt.Errorf("%s=%q", name, os.Getenv(name))
	}
	switch s {
	case "fail":
		return fmt.Errorf("the engine's own words: %w", source.ErrPassword)
	case "crash":
		os.Stderr.WriteString("dying on purpose")
		os.Exit(3)
	case "hang":
		time.Sleep(time.Hour)
	case "alloc":
		b := make([]byte, 1<<30)
		for i := range b {
			b[i] = 1
		}
	case "heavy":
		kept = make([]byte, 100<<20)
		for i := range kept {
			kept[i] = 1
		}
	case "spin":
		for i := 0; ; i++ {
			_ = strconv.Itoa(i)
		}
	}
	if d, ok := strings.CutPrefix(s, "burn "); ok {
		want, _ := time.ParseDuration(d)
		burn(want)
	}
	return nil
}

// burn spends d of CPU time, however long the machine makes it take.
func burn(d time.Duration) {
	start := cpuTime()
	for i := 0; cpuTime()-start < d; i++ {
		for j := range 10000 {
			_ = strconv.Itoa(i + j)
		}
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func testPool(t *testing.T, edit func(*Config)) *Pool {
	t.Helper()
	cfg := DefaultConfig(os.Args[0], []string{"worker"}, 2)
	if edit != nil {
		edit(&cfg)
	}
	p := NewPool(cfg)
	t.Cleanup(func() { p.Close() })
	return p
}

func pid(t *testing.T, p *Pool) string {
	t.Helper()
	info, err := p.Probe(context.Background(), []byte("ok"), "")
	if err != nil {
		t.Fatal(err)
	}
	return info.Kind
}

func TestPoolReusesAndReplacesWorkers(t *testing.T) {
	p := testPool(t, func(c *Config) { c.MaxJobs = 3 })
	first := pid(t, p)
	if second := pid(t, p); second != first {
		t.Errorf("second job ran in %s, want the warm worker %s", second, first)
	}
	res, err := p.Convert(context.Background(), []byte("pages 2 1ms"), extract.Options{})
	if err != nil || res.PageCount != 2 {
		t.Fatalf("convert: %+v, %v", res, err)
	}
	if fourth := pid(t, p); fourth == first {
		t.Errorf("the worker ran a fourth job with MaxJobs 3")
	}
}

func TestPoolChildErrorsKeepTheirText(t *testing.T) {
	p := testPool(t, nil)
	before := pid(t, p)
	_, err := p.Convert(context.Background(), []byte("fail"), extract.Options{})
	if !errors.Is(err, source.ErrPassword) || err.Error() != "the engine's own words: "+source.ErrPassword.Error() {
		t.Errorf("err = %q, want the child's own text wrapping ErrPassword", err)
	}
	if after := pid(t, p); after != before {
		t.Errorf("a job that failed cleanly replaced its worker (%s, then %s)", before, after)
	}
	if _, err := p.RenderPage(context.Background(), []byte("ok"), "", 2, 0); !errors.Is(err, source.ErrNoPage) {
		t.Errorf("render of a missing page: err = %v, want ErrNoPage", err)
	}
	img, err := p.RenderPage(context.Background(), []byte("ok"), "", 1, 640)
	if err != nil || string(img.PNG) != "png 640" {
		t.Errorf("render = %q, %v", img.PNG, err)
	}
	if img.Width != 595.5 || img.Height != 842 {
		t.Errorf("render's page size = %g x %g, want the engine's 595.5 x 842", img.Width, img.Height)
	}
}

func TestPoolFailures(t *testing.T) {
	short := func(c *Config) {
		c.Limits.CPUBase, c.Limits.CPUPerPage, c.Limits.CPUMax = 300*time.Millisecond, 300*time.Millisecond, time.Second
		// However busy the machine, these jobs are never cut off for it.
		c.Limits.BusyWall = 1000
		c.Limits.Probe = 300 * time.Millisecond
	}
	tests := []struct {
		name string
		edit func(*Config)
		doc  string
		want error
	}{
		{"child dies", nil, "crash", source.ErrCrashed},
		{"child hangs past its budget", short, "hang", source.ErrStalled},
		{"budget grows with pages", short, "cpu-pages 3 200ms", nil},
		{"budget capped", short, "cpu-pages 20 100ms", source.ErrCPU},
		{"cpu budget", short, "spin", source.ErrCPU},
		{"cpu limit", func(c *Config) { c.Limits.CPUSeconds = 1 }, "spin", source.ErrCPU},
		{"memory cap", func(c *Config) { c.Limits.MemoryBytes = 512 << 20 }, "alloc", source.ErrMemory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testPool(t, tt.edit)
			_, err := p.Convert(context.Background(), []byte(tt.doc), extract.Options{})
			if !errors.Is(err, tt.want) && !(tt.want == nil && err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if tt.want == source.ErrCrashed && !strings.Contains(err.Error(), "dying on purpose") && tt.doc == "crash" {
				t.Errorf("crash error %q does not carry the child's stderr", err)
			}
			if errors.Is(tt.want, source.ErrLimit) && (errors.Is(err, source.ErrCrashed) || errors.Is(err, source.ErrBusy)) {
				t.Errorf("err = %v: a limit is neither a crash nor a busy machine", err)
			}
			if tt.want == nil || tt.name == "memory cap" {
				return
			}
			// The next job gets a sound worker.
			if _, err := p.Probe(context.Background(), []byte("ok"), ""); err != nil {
				t.Errorf("job after the failure: %v", err)
			}
		})
	}
	p := testPool(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := p.Convert(ctx, []byte("hang"), extract.Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled: err = %v, want the context's error", err)
	}
}

// holdCores starts a process per core that spinss until the test ends,
// at the test's own priority (above the workers', which run niced), and
// returns once each of them has run.
func holdCores(t *testing.T) {
	t.Helper()
	var pids []int
	for range runtime.NumCPU() {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		pids = append(pids, cmd.Process.Pid)
	}
	for _, pid := range pids {
		for {
			if u, ok := readUsage(pid); !ok || u.cpu > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestPoolBusyMachine converts while other processes hold every core
// (issue 41 point 10). A conversion's budget is CPU time: a job that needs
// less than its budget completes however long the busy machine makes it
// take; one that runs out of wall clock waiting for a processor ends with
// ErrBusy (its job is queued again), never a limit of the document's.
func TestPoolBusyMachine(t *testing.T) {
	holdCores(t)
	busy := func(factor int) func(*Config) {
		return func(c *Config) {
			c.Nice = 10
			c.Limits.CPUBase, c.Limits.CPUPerPage, c.Limits.CPUMax, c.Limits.BusyWall = time.Second, 0, time.Second, factor
		}
	}
	start := time.Now()
	_, err := testPool(t, busy(1000)).Convert(context.Background(), []byte("burn 300ms"), extract.Options{})
	if err != nil {
		t.Errorf("a job of 0.3 s of CPU within a budget of 1 s, on a busy machine: %v", err)
	}
	t.Logf("0.3 s of CPU took %s of wall clock with every core held", time.Since(start).Round(time.Millisecond))
	_, err = testPool(t, busy(2)).Convert(context.Background(), []byte("burn 900ms"), extract.Options{})
	if !errors.Is(err, source.ErrBusy) || errors.Is(err, source.ErrLimit) {
		t.Errorf("a job starved of CPU past twice its budget: %v, want ErrBusy and no limit", err)
	}
}

func TestPoolBoundsWorkers(t *testing.T) {
	p := testPool(t, func(c *Config) { c.Size, c.Spare = 2, 0 })
	var mu sync.Mutex
	pids := map[string]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := p.Convert(context.Background(), []byte("pages 1 50ms"), extract.Options{}); err != nil {
				t.Error(err)
			}
			info, err := p.Probe(context.Background(), []byte("ok"), "")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			pids[info.Kind] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(pids) > 2 {
		t.Errorf("%d workers ran jobs, want at most the pool's 2", len(pids))
	}
}

func TestPoolStopsIdleWorkers(t *testing.T) {
	p := testPool(t, func(c *Config) { c.IdleTimeout = 100 * time.Millisecond })
	first := pid(t, p)
	n, _ := strconv.Atoi(first)
	waitGone(n)
	if pid(t, p) == first {
		t.Errorf("an idle worker was reused after its idle time")
	}
}

func syscallKill0(pid int) error { return syscall.Kill(pid, 0) }

// waitGone waits, however long a busy machine makes it take, until process
// pid is gone: the test fails by its timeout if it never goes.
func waitGone(pid int) {
	for syscallKill0(pid) == nil {
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPoolSpareForShortJobs: with every conversion slot taken, a probe
// runs in the spare worker instead of waiting, and the pool never has
// more than Size+Spare workers.
func TestPoolSpareForShortJobs(t *testing.T) {
	p := testPool(t, func(c *Config) { c.Size, c.Spare, c.SpareAfter = 1, 1, 50*time.Millisecond })
	started := make(chan struct{})
	converted := make(chan error, 1)
	go func() {
		_, err := p.Convert(context.Background(), []byte("pages 2 1s"), extract.Options{Progress: func(done, total int) {
			if done == 1 {
				close(started)
			}
		}})
		converted <- err
	}()
	<-started
	pids := map[string]bool{}
	for range 3 {
		pids[pid(t, p)] = true
	}
	select {
	case err := <-converted:
		t.Fatalf("the conversion ended (%v) before the probes: they waited for its slot", err)
	default:
	}
	if err := <-converted; err != nil {
		t.Fatal(err)
	}
	pids[pid(t, p)] = true
	if len(pids) > p.Processes() {
		t.Errorf("%d workers, want at most %d", len(pids), p.Processes())
	}
	if got := p.Processes(); got != 2 {
		t.Errorf("Processes() = %d, want Size+Spare = 2", got)
	}
}

// TestPoolRetiresHeavyWorkers: a worker that ended a job holding more than
// HeavyRSS is stopped once it has idled HeavyIdle; a small one stays.
func TestPoolRetiresHeavyWorkers(t *testing.T) {
	p := testPool(t, func(c *Config) {
		c.Size, c.Spare = 1, 0
		c.HeavyRSS, c.HeavyIdle = 80<<20, 100*time.Millisecond
	})
	small := pid(t, p)
	time.Sleep(5 * 100 * time.Millisecond)
	if got := pid(t, p); got != small {
		t.Fatalf("a small worker was stopped after HeavyIdle (%s, then %s)", small, got)
	}
	if _, err := p.Convert(context.Background(), []byte("heavy"), extract.Options{}); err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(small)
	waitGone(n) // holding 100 MB, idle, with HeavyRSS 80 MB
	if got := pid(t, p); got == small {
		t.Errorf("the heavy worker was reused")
	}
}

// TestServeReleasesWhenIdle: a worker gives memory back once it has had no
// job for a while, not between the jobs of a burst.
func TestServeReleasesWhenIdle(t *testing.T) {
	p := testPool(t, func(c *Config) { c.Size, c.Spare = 1, 0 })
	count := func() int {
		info, err := p.Probe(context.Background(), []byte("ok"), "")
		if err != nil {
			t.Fatal(err)
		}
		return info.PageCount - 1
	}
	first := count()
	// Back to back: a gap between two jobs longer than releaseAfter (a
	// busy machine) may release once, shorter ones must not.
	end, slow := time.Now(), 0
	for range 5 {
		if time.Since(end) >= releaseAfter {
			slow++
		}
		got := count()
		end = time.Now()
		if got-first > slow {
			t.Fatalf("released %d times during back-to-back jobs with %d gaps over %s", got-first, slow, releaseAfter)
		}
	}
	first = count()
	// An idle spell: each look at the count is a job, and ends one spell;
	// one spell of twice releaseAfter releases once, however long the
	// machine makes the release wait.
	for {
		time.Sleep(2 * releaseAfter)
		got := count()
		if got == first {
			continue
		}
		if got != first+1 {
			t.Errorf("released %d times over an idle spell, want once", got-first)
		}
		break
	}
}

// TestPoolConvertJSON hands over the worker's JSON as it came, with the
// summary the caller needs; Convert decodes the same JSON.
func TestPoolConvertJSON(t *testing.T) {
	p := testPool(t, nil)
	raw, txs, recon, err := p.ConvertJSON(context.Background(), []byte("pages 3 1ms"), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var res ledger.Result
	if err := json.Unmarshal(raw, &res); err != nil || res.PageCount != 3 || txs != 0 || recon != "" {
		t.Errorf("ConvertJSON = %s, %d, %q, %v; want a result of 3 pages, no transactions", raw, txs, recon, err)
	}
	dec, err := p.Convert(context.Background(), []byte("pages 3 1ms"), extract.Options{})
	if err != nil || dec.PageCount != 3 {
		t.Errorf("Convert = %+v, %v", dec, err)
	}
}

// TestPoolStopsSpareWorkers: once the jobs are done, the workers beyond
// Size are stopped after SpareIdle, and Size of them stay warm.
func TestPoolStopsSpareWorkers(t *testing.T) {
	p := testPool(t, func(c *Config) {
		c.Size, c.Spare, c.SpareAfter, c.SpareIdle = 1, 1, 50*time.Millisecond, 200*time.Millisecond
	})
	converted := make(chan string, 1)
	release := filepath.Join(t.TempDir(), "release")
	go func() {
		if _, err := p.Convert(context.Background(), []byte("pages-until 2 "+release), extract.Options{}); err != nil {
			t.Error(err)
		}
		converted <- ""
	}()
	for { // the conversion has started in its worker
		if _, err := os.Stat(release + ".started"); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	spare := pid(t, p) // the conversion holds the only slot until release exists
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	<-converted
	warm := pid(t, p) // the warmest: the conversion's worker
	pids := []string{spare, warm}
	if spare == warm {
		t.Fatalf("a probe during the conversion and one after it ran in the same worker %s", spare)
	}
	alive := func() (n int) {
		for _, s := range pids {
			n2, _ := strconv.Atoi(s)
			if syscallKill0(n2) == nil {
				n++
			}
		}
		return n
	}
	for alive() > 1 {
		time.Sleep(20 * time.Millisecond)
	}
	if n := alive(); n != 1 {
		t.Errorf("%d of the 2 workers alive after SpareIdle, want Size = 1", n)
	}
}

// TestPoolProgressOnlyForLongJobs: progress costs a write to the data
// file, so a job that ends within progressEvery reports none; a longer
// one reports pages as they pass, its last page included.
func TestPoolProgressOnlyForLongJobs(t *testing.T) {
	p := testPool(t, nil)
	// A warm worker: starting one on a loaded machine can take longer
	// than progressEvery, which the short job would then be charged.
	pid(t, p)
	for _, tc := range []struct {
		doc  string
		want []int
	}{
		{"pages 5 1ms", nil},
		{"pages 3 150ms", []int{1, 2, 3}},
	} {
		var got []int
		start := time.Now()
		if _, err := p.Convert(context.Background(), []byte(tc.doc), extract.Options{Progress: func(done, total int) {
			got = append(got, done)
		}}); err != nil {
			t.Fatal(err)
		}
		// A busy machine may make the short job last progressEvery, and
		// it may then report; one that ended sooner must not.
		if took := time.Since(start); !slices.Equal(got, tc.want) && (tc.want != nil || took < progressEvery) {
			t.Errorf("%s: progress %v in %s, want %v", tc.doc, got, took, tc.want)
		}
	}
}

func TestPoolNice(t *testing.T) {
	// Relative to the test's own priority (make runs it as it is; an
	// engineer may run it under nice).
	own := ownNice()
	p := testPool(t, func(c *Config) { c.Nice = 7 })
	worker := pid(t, p)
	tasks, err := filepath.Glob("/proc/" + worker + "/task/*/stat")
	if err != nil || len(tasks) < 2 {
		t.Fatalf("threads of worker %s: %v %v", worker, tasks, err)
	}
	for _, task := range tasks {
		stat, err := os.ReadFile(task)
		if err != nil {
			t.Fatal(err)
		}
		// Field 19 is the nice value; fields from the third follow the
		// command's closing parenthesis.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if want := strconv.Itoa(min(own+7, 19)); f[16] != want {
			t.Errorf("%s: nice %s, want %s", task, f[16], want)
		}
	}
	if p2 := pid(t, testPool(t, nil)); p2 != "" {
		stat, _ := os.ReadFile("/proc/" + p2 + "/stat")
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); f[16] != strconv.Itoa(own) {
			t.Errorf("a pool without Nice runs its worker at nice %s, want the test's %d", f[16], own)
		}
	}
}

// TestPoolEnv: Config.Env reaches every worker's environment (the server
// names the directory its workers share the recognition models in).
func TestPoolEnv(t *testing.T) {
	p := testPool(t, func(c *Config) { c.Env = []string{"PASSBOOK_TEST_MODELS=/data/passbook-models"} })
	_, err := p.Probe(context.Background(), []byte("env PASSBOOK_TEST_MODELS"), "")
	if err == nil || !strings.Contains(err.Error(), `PASSBOOK_TEST_MODELS="/data/passbook-models"`) {
		t.Fatalf("worker saw %v, want PASSBOOK_TEST_MODELS=\"/data/passbook-models\"", err)
	}
}

// TestPoolRedact: a copy and its sidecar cross the process boundary
// whole; a refusal comes back as redact.ErrRefused with its reason.
func TestPoolRedact(t *testing.T) {
	p := testPool(t, nil)
	out, side, err := p.Redact(context.Background(), []byte("statement"), "", 1)
	if err != nil || string(out) != "tnemetats" || side.Rows != 9 || side.Reconciliation != "ok" {
		t.Fatalf("got %q %+v %v", out, side, err)
	}
	out, _, err = p.Redact(context.Background(), []byte("refuse"), "", 1)
	if !errors.Is(err, redact.ErrRefused) || out != nil || !strings.Contains(err.Error(), "Quartermaine") {
		t.Errorf("got %q, %v; want the refusal with its reason", out, err)
	}
}
