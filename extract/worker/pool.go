package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/redact"
	"passbook/extract/source"
)

// Config sets up a Pool.
type Config struct {
	// Exe is the binary to run, usually os.Executable(); Args make it a
	// worker (e.g. ["worker"]), that is, make it call Serve.
	Exe  string
	Args []string
	// Env is added to each worker's environment (the server names the
	// directory its workers share the recognition models in).
	Env []string
	// Size bounds the conversions running at once, and with Spare the
	// workers alive at once, and so the memory they take.
	Size int
	// Spare is how many workers beyond Size probes and renders may use
	// when the Size workers are all busy: an upload's probe, which takes
	// milliseconds, does not wait behind conversions of scans that take
	// minutes. A short job that finds no free slot waits SpareAfter for
	// one before it takes a spare worker, so text conversions, which
	// free their slots within that, do not keep an extra process alive;
	// and of the workers that wait for jobs, those beyond Size are
	// stopped after SpareIdle.
	Spare      int
	SpareAfter time.Duration
	SpareIdle  time.Duration
	// MaxJobs is how many jobs a worker runs before it is replaced.
	MaxJobs int
	// IdleTimeout is how long a worker may wait for a job before it is stopped.
	IdleTimeout time.Duration
	// HeavyRSS and HeavyIdle retire big workers sooner: one whose resident
	// memory after a job was over HeavyRSS (it loaded Tesseract and its
	// model, or read a large document) is stopped once it has waited
	// HeavyIdle for a job, so an idle pool holds only small workers.
	HeavyRSS  int64
	HeavyIdle time.Duration
	Limits    Limits
	// Nice lowers the CPU priority of every thread of each worker by this
	// much (0 to 19). A server sets it so that conversions, which are
	// batch work, yield the CPU to its own answers: a status poll is not
	// kept waiting behind a page being read.
	Nice int
	// Log, when set, hears about workers that die or are replaced.
	Log *slog.Logger
}

// DefaultConfig runs exe args as size workers, and one spare for probes
// and renders, with the default limits. A worker ends a text job of up to
// 50 pages holding under 60 MB (200 pages: 100 MB), and holds about 38 MB
// once idle; one that has run Tesseract ends its jobs over 120 MB and
// holds 68 MB idle, so it is retired after half a second without a job,
// as is a spare beyond Size: when a worker would give its memory back
// (releaseAfter), the pool is back to Size small workers.
func DefaultConfig(exe string, args []string, size int) Config {
	return Config{Exe: exe, Args: args, Size: max(size, 1), Spare: 1, SpareAfter: 100 * time.Millisecond, SpareIdle: 500 * time.Millisecond, MaxJobs: 200, IdleTimeout: 2 * time.Minute,
		HeavyRSS: 128 << 20, HeavyIdle: 500 * time.Millisecond, Limits: DefaultLimits()}
}

// Pool runs jobs in a bounded set of long-lived child processes. A worker
// that crashes, hits a limit or overruns its time is killed with its whole
// process group and replaced on the next job; one that has run MaxJobs jobs
// or sat idle for IdleTimeout is stopped. It is safe for concurrent use.
type Pool struct {
	cfg   Config
	slots chan struct{} // one token per job that may run
	spare chan struct{} // one token per spare worker for short jobs; nil for none

	mu     sync.Mutex
	idle   []*proc // warmest last
	closed bool

	stop chan struct{}
	done chan struct{}
}

// NewPool starts a pool's idle reaper; workers start on demand. Close it.
func NewPool(cfg Config) *Pool {
	if cfg.Size < 1 {
		cfg.Size = 1
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	p := &Pool{cfg: cfg, slots: make(chan struct{}, cfg.Size), stop: make(chan struct{}), done: make(chan struct{})}
	if cfg.Spare > 0 {
		p.spare = make(chan struct{}, cfg.Spare)
	}
	go p.reap()
	return p
}

// Processes is the most worker processes the pool runs at once.
func (p *Pool) Processes() int { return p.cfg.Size + p.cfg.Spare }

// Close stops the idle workers and the reaper; workers running jobs stop
// when their jobs end. Jobs submitted after Close fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	close(p.stop)
	<-p.done
	for _, w := range idle {
		w.quit()
	}
	return nil
}

// Convert converts data in a worker. Its CPU budget grows with the page
// count the worker reports, up to Limits.CPUMax; one that the machine kept
// from using it in time fails with source.ErrBusy.
func (p *Pool) Convert(ctx context.Context, data []byte, opts extract.Options) (*ledger.Result, error) {
	raw, _, err := p.convert(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	var res ledger.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("worker sent a result that does not decode: %v: %w", err, source.ErrCrashed)
	}
	return &res, nil
}

// ConvertJSON is Convert for a caller that stores the result as JSON: it
// returns the JSON encoding of the extract.Result the worker wrote, as it
// came (decoding and encoding again 1,500 transactions costs ~10 ms), with
// its number of transactions and reconciliation status.
func (p *Pool) ConvertJSON(ctx context.Context, data []byte, opts extract.Options) (raw []byte, transactions int, reconciliation string, err error) {
	raw, sum, err := p.convert(ctx, data, opts)
	return raw, sum.Transactions, sum.Reconciliation, err
}

func (p *Pool) convert(ctx context.Context, data []byte, opts extract.Options) ([]byte, Summary, error) {
	m, err := p.do(ctx, request{Op: "convert", Password: opts.Password}, data, opts.Progress)
	if err != nil {
		return nil, Summary{}, err
	}
	if m.Result == nil || len(m.Result.raw) == 0 || m.Summary == nil {
		return nil, Summary{}, fmt.Errorf("worker sent no result: %w", source.ErrCrashed)
	}
	return m.Result.raw, *m.Summary, nil
}

// Probe reads a document's type and page count in a worker.
func (p *Pool) Probe(ctx context.Context, data []byte, password string) (source.Info, error) {
	m, err := p.do(ctx, request{Op: "probe", Password: password}, data, nil)
	if err != nil {
		return source.Info{}, err
	}
	if m.Info == nil {
		return source.Info{}, fmt.Errorf("worker sent no info: %w", source.ErrCrashed)
	}
	return *m.Info, nil
}

// RenderPage draws page (from 1) of a document width pixels wide (0: the
// engine's default) as a PNG, in a worker, with the page's size in points.
// A page or width the document cannot give fails with source.ErrNoPage.
func (p *Pool) RenderPage(ctx context.Context, data []byte, password string, page, width int) (source.Rendered, error) {
	m, err := p.do(ctx, request{Op: "render", Password: password, Page: page, Width: width}, data, nil)
	if err != nil {
		return source.Rendered{}, err
	}
	if m.Image == nil {
		return source.Rendered{}, fmt.Errorf("worker sent no image: %w", source.ErrCrashed)
	}
	return *m.Image, nil
}

// Redact makes a statement's shareable copy (extract/redact) in a worker:
// the copy's PDF and its sidecar, or why none could be made safe
// (redact.ErrRefused).
//
// pages, the document's page count, sets the job's CPU budget: as many
// conversions' as the copy may read (redact.ReadsAtMost); a busy machine that
// keeps it from using that in time fails it with source.ErrBusy.
func (p *Pool) Redact(ctx context.Context, data []byte, password string, pages int) ([]byte, redact.Sidecar, error) {
	m, err := p.do(ctx, request{Op: "redact", Password: password, Page: pages}, data, nil)
	if err != nil {
		return nil, redact.Sidecar{}, err
	}
	if m.Copy == nil || m.Sidecar == nil {
		return nil, redact.Sidecar{}, fmt.Errorf("worker sent no copy: %w", source.ErrCrashed)
	}
	return m.Copy, *m.Sidecar, nil
}

var errClosed = errors.New("worker pool closed")

// progressEvery is how often a job's progress is passed on at most.
const progressEvery = 100 * time.Millisecond

// do runs one job: take a slot, reuse an idle worker or start one, run,
// then keep the worker for the next job or stop it.
func (p *Pool) do(ctx context.Context, req request, data []byte, progress func(done, total int)) (message, error) {
	release, err := p.acquire(ctx, req.Op != "convert" && req.Op != "redact")
	if err != nil {
		return message{}, err
	}
	defer release()
	w, err := p.get()
	if err != nil {
		return message{}, err
	}
	req.Size = len(data)
	req.Limits = p.cfg.Limits
	m, err := w.run(ctx, req, data, progress)
	p.put(w)
	return m, err
}

// acquire waits for a slot to run a job in; a short job (a probe or a
// render) that has waited SpareAfter takes a spare one too.
func (p *Pool) acquire(ctx context.Context, short bool) (release func(), err error) {
	freeSlot := func() { <-p.slots }
	freeSpare := func() { <-p.spare }
	if short && p.spare != nil {
		wait := time.NewTimer(p.cfg.SpareAfter)
		defer wait.Stop()
		select {
		case p.slots <- struct{}{}:
			return freeSlot, nil
		case <-wait.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		select {
		case p.slots <- struct{}{}:
			return freeSlot, nil
		case p.spare <- struct{}{}:
			return freeSpare, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case p.slots <- struct{}{}:
		return freeSlot, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// get returns the warmest idle worker, or starts one.
func (p *Pool) get() (*proc, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return startProc(p.cfg)
}

// put keeps a worker that is sound and not worn out; stops the rest.
func (p *Pool) put(w *proc) {
	if w.broken || w.jobs >= p.cfg.MaxJobs {
		if w.broken {
			p.cfg.Log.Info("replacing a worker", "pid", w.cmd.Process.Pid, "jobs", w.jobs, "reason", w.why)
		}
		w.quit()
		return
	}
	w.idleSince = time.Now()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.quit()
		return
	}
	p.idle = append(p.idle, w)
	p.mu.Unlock()
}

// reap stops workers idle longer than IdleTimeout, heavy ones idle longer
// than HeavyIdle, and those beyond Size idle longer than SpareIdle.
func (p *Pool) reap() {
	defer close(p.done)
	every := p.cfg.IdleTimeout / 2
	if every <= 0 {
		every = time.Minute
	}
	if p.cfg.HeavyRSS > 0 && p.cfg.HeavyIdle > 0 {
		every = min(every, p.cfg.HeavyIdle/4)
	}
	if p.spare != nil && p.cfg.SpareIdle > 0 {
		every = min(every, p.cfg.SpareIdle/4)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		var old []*proc
		p.mu.Lock()
		// Workers beyond Size: those running jobs, and those waiting.
		extra := len(p.slots) + len(p.spare) + len(p.idle) - p.cfg.Size
		kept := p.idle[:0]
		for _, w := range p.idle { // longest idle first
			idle := time.Since(w.idleSince)
			heavy := p.cfg.HeavyRSS > 0 && w.rss > p.cfg.HeavyRSS && p.cfg.HeavyIdle > 0 && idle > p.cfg.HeavyIdle
			spare := extra > 0 && p.cfg.SpareIdle > 0 && idle > p.cfg.SpareIdle
			if heavy || spare || p.cfg.IdleTimeout > 0 && idle > p.cfg.IdleTimeout {
				extra--
				old = append(old, w)
			} else {
				kept = append(kept, w)
			}
		}
		p.idle = kept
		p.mu.Unlock()
		for _, w := range old {
			w.quit()
		}
	}
}

// proc is one worker process. Only the job that holds it touches it.
type proc struct {
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	stdout    *bufio.Reader
	stderr    *tailBuffer
	exited    chan struct{} // closed when the process has been waited for
	waitErr   error
	jobs      int
	idleSince time.Time
	rss       int64 // resident bytes after the last job, as the worker said
	broken    bool
	why       string
}

func startProc(cfg Config) (*proc, error) {
	cmd := exec.Command(cfg.Exe, cfg.Args...)
	cmd.Env = append(os.Environ(),
		// Tesseract's OpenMP threads must be limited before the process
		// starts; parallelism comes from running several workers, not threads.
		"OMP_THREAD_LIMIT=1",
		// glibc gives freed memory back as soon as 128 KB lie free at the
		// top of a heap; MuPDF frees and takes that much again on every
		// page, and each return costs a TLB shootdown: a quarter of a text
		// page's time. Workers keep up to 16 MB free, in one arena (cgo
		// calls hop threads, and each thread's arena would keep its own
		// 16 MB: 15–30 MB more in a worker that ran Tesseract), and give
		// it back when idle (Releaser).
		"MALLOC_TRIM_THRESHOLD_=16777216",
		"MALLOC_ARENA_MAX=1")
	cmd.Env = append(cmd.Env, cfg.Env...)
	// Its own process group, so a kill takes anything it started; killed
	// with the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	w := &proc{cmd: cmd, stderr: &tailBuffer{max: 4096}, exited: make(chan struct{})}
	cmd.Stderr = w.stderr
	var err error
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w.stdout = bufio.NewReaderSize(out, 64<<10)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	if cfg.Nice > 0 {
		// The worker leads its own process group, and PRIO_PGRP reaches
		// every thread of it (PRIO_PROCESS only the first); threads it
		// starts later inherit the priority. The value is absolute: below
		// the server's own, whatever that is (a server run under nice
		// must not have workers above it).
		if err := syscall.Setpriority(syscall.PRIO_PGRP, cmd.Process.Pid, min(ownNice()+cfg.Nice, 19)); err != nil {
			cfg.Log.Warn("worker keeps its CPU priority", "err", err)
		}
	}
	go func() {
		w.waitErr = cmd.Wait()
		close(w.exited)
	}()
	return w, nil
}

// ownNice is this process's nice value.
func ownNice() int {
	// The system call answers 20 - nice; Go passes it on as it is.
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return 0
	}
	return 20 - p
}

// kill ends the worker's whole process group.
func (w *proc) kill() {
	_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
}

// quit asks the worker to end (its input closes) and kills it if it does not.
func (w *proc) quit() {
	_ = w.stdin.Close()
	go func() {
		select {
		case <-w.exited:
		case <-time.After(5 * time.Second):
			w.kill()
		}
	}()
}

// run sends one job and reads its answer. On any failure of the process
// (a crash, a limit, the watchdog, a cancelled ctx) the worker is killed
// and marked broken.
func (w *proc) run(ctx context.Context, req request, data []byte, progress func(done, total int)) (message, error) {
	w.jobs++
	w.stderr.Reset()
	var budget time.Duration
	switch req.Op {
	case "probe":
		budget = req.Limits.Probe
	case "render":
		budget = req.Limits.Render
	case "redact":
		// The original read, then each copy made read again (a scan's
		// recognised): redact.ReadsAtMost conversions'.
		budget = redact.ReadsAtMost * req.Limits.convertCPU(req.Page)
	default:
		budget = req.Limits.convertCPU(0)
	}
	var dog *watchdog
	if budget > 0 {
		dog = newWatchdog(w.cmd.Process.Pid, req.Op == "convert" || req.Op == "redact", budget, req.Limits.BusyWall, w.kill)
	}
	stopCancel := context.AfterFunc(ctx, w.kill)
	defer stopCancel()
	start := time.Now()
	lastProgress := start

	m, err := w.exchange(req, data, func(done, total int) {
		if done == 0 && dog != nil && req.Op == "convert" {
			// The page count is known: the budget grows with it.
			dog.setBudget(req.Limits.convertCPU(total))
		}
		// Pass progress on at most every progressEvery, and the last page
		// of a job that has taken that long: each report is a write to the
		// data file, and a job that ends sooner has none to make (its end
		// records its pages).
		now := time.Now()
		if progress != nil && done > 0 && (now.Sub(lastProgress) >= progressEvery || done == total && now.Sub(start) >= progressEvery) {
			lastProgress = now
			progress(done, total)
		}
	})
	var killed error
	if dog != nil {
		killed = dog.stop()
	}
	if killed != nil || ctx.Err() != nil {
		// The answer came as the worker was being killed: it is sound
		// but for that, and is not kept.
		w.broken, w.why = true, "killed as it answered"
	}
	var ans *childAnswer
	if errors.As(err, &ans) {
		w.rss = ans.rss
		return message{}, ans.err // the job failed; the worker is sound
	}
	if err == nil {
		w.rss = m.RSS
		return m, nil
	}
	// The process failed us: make sure it is gone, then say why.
	w.broken = true
	w.kill()
	<-w.exited
	switch {
	case ctx.Err() != nil:
		w.why = "cancelled"
		return message{}, ctx.Err()
	case killed != nil:
		w.why = killed.Error()
		return message{}, killed
	}
	var ee *exec.ExitError
	if errors.As(w.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && (ws.Signaled() && ws.Signal() == syscall.SIGXCPU || ws.Exited() && ws.ExitStatus() == exitCPU) {
			w.why = "cpu limit"
			return message{}, source.ErrCPU
		}
	}
	stderr := bytes.TrimSpace(w.stderr.Bytes())
	if outOfMemory(w.stderr.Head()) || outOfMemory(stderr) {
		w.why = "memory limit"
		return message{}, source.ErrMemory
	}
	w.why = "crashed"
	return message{}, fmt.Errorf("%w (%v; %s)", source.ErrCrashed, w.waitErr, stderr)
}

// outOfMemory says a worker's last words are those of a process that hit
// its memory cap (RLIMIT_AS): Go's runtime, C++'s allocator, or a C
// library saying so.
func outOfMemory(stderr []byte) bool {
	for _, s := range []string{"runtime: out of memory", "std::bad_alloc", "Cannot allocate memory", "cannot allocate memory"} {
		if bytes.Contains(stderr, []byte(s)) {
			return true
		}
	}
	return false
}

// exchange writes the job and reads lines until the final one. An error
// means the process is no longer usable.
func (w *proc) exchange(req request, data []byte, progress func(done, total int)) (message, error) {
	header, err := json.Marshal(req)
	if err != nil {
		return message{}, err
	}
	if _, err := w.stdin.Write(append(header, '\n')); err != nil {
		return message{}, err
	}
	if _, err := w.stdin.Write(data); err != nil {
		return message{}, err
	}
	for {
		line, err := w.stdout.ReadBytes('\n')
		if err != nil {
			return message{}, err
		}
		var m message
		if json.Unmarshal(line, &m) != nil {
			continue // not ours: C libraries may print to stdout
		}
		if !m.final() {
			if m.Total > 0 {
				progress(m.Done, m.Total)
			}
			continue
		}
		if m.Code != "" || m.Error != "" {
			return message{}, &childAnswer{m.err(), m.RSS}
		}
		return m, nil
	}
}

// childAnswer is an error the child answered with: the job failed, but the
// worker is sound.
type childAnswer struct {
	err error
	rss int64
}

func (a *childAnswer) Error() string { return a.err.Error() }

// tailBuffer keeps the last max bytes written to it (a worker's stderr),
// and the first max: a crash's cause comes first, its stacks after.
type tailBuffer struct {
	mu   sync.Mutex
	buf  []byte
	head []byte
	max  int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := min(b.max-len(b.head), len(p)); n > 0 {
		b.head = append(b.head, p[:n]...)
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf...)
}

// Head is the first max bytes written since the last Reset.
func (b *tailBuffer) Head() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.head...)
}

func (b *tailBuffer) Reset() {
	b.mu.Lock()
	b.buf, b.head = b.buf[:0], b.head[:0]
	b.mu.Unlock()
}
