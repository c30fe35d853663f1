// Package worker runs conversions in child processes, so that a crash, hang
// or memory bomb in the C libraries that read documents fails one document
// and never the server. It is pure Go: the parent side (Pool) keeps a
// bounded set of warm children of the same binary and hands them jobs over
// a pipe, and the child side (Serve) reads jobs from its pipe and runs them
// on an Engine that the binary's main wires in (extract/engine).
package worker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/redact"
	"passbook/extract/source"
)

// Engine is what a child process runs: extract/engine's Engine, or a small
// stand-in in tests.
type Engine interface {
	Probe(data []byte, password string) (source.Info, error)
	Convert(data []byte, opts extract.Options) (*ledger.Result, error)
	RenderPage(data []byte, password string, page, width int) (source.Rendered, error)
}

// Redacter is an Engine that makes shareable copies (extract/redact):
// the op "redact" needs one.
type Redacter interface {
	Redact(data []byte, password string) ([]byte, redact.Sidecar, error)
}

// Releaser is an Engine that can give memory it holds but does not need
// back to the system (the C libraries' free heap). Serve calls it when
// the worker goes idle.
type Releaser interface {
	ReleaseMemory()
}

// Limits bound one job and the process that runs it.
type Limits struct {
	// CPUBase is the CPU time a conversion may use before its page count
	// is known, and on top of CPUPerPage for each page.
	CPUBase time.Duration
	// CPUPerPage is the CPU time added for each page of a conversion.
	CPUPerPage time.Duration
	// CPUMax caps a conversion's CPU time, whatever its pages.
	CPUMax time.Duration
	// BusyWall is the wall-clock time a conversion may take, in times its
	// CPU budget: one that has used less than its budget by then spent
	// its time waiting for a processor (the machine was busy) and ends
	// with source.ErrBusy, for its job to be queued again. Budgets count
	// CPU time so that a busy machine fails no good document.
	BusyWall int
	// Probe bounds reading a document's type and page count, and Render
	// drawing one page, in wall-clock time.
	Probe, Render time.Duration
	// CPUSeconds is the CPU time one job may use (RLIMIT_CPU, counted from
	// the job's start in a worker that has run others): the kernel's
	// backstop behind the CPU budget.
	CPUSeconds uint64
	// MemoryBytes caps a worker's address space (RLIMIT_AS).
	MemoryBytes uint64
}

// DefaultLimits suit statements up to the server's 500 pages of scans: a
// scanned page reads in about 2 s of CPU, so 4 s a page leaves room for a
// page that is hard to read, and the cap (40 min) covers 500 scanned
// pages. A conversion may wait for a processor four times as long as its
// budget before it is queued again.
func DefaultLimits() Limits {
	return Limits{
		CPUBase:     30 * time.Second,
		CPUPerPage:  4 * time.Second,
		CPUMax:      40 * time.Minute,
		BusyWall:    4,
		Probe:       10 * time.Second,
		Render:      30 * time.Second,
		CPUSeconds:  40 * 60,
		MemoryBytes: 4 << 30,
	}
}

// convertCPU is the CPU budget of a conversion of pages pages (0: not
// known yet).
func (l Limits) convertCPU(pages int) time.Duration {
	d := l.CPUBase + time.Duration(pages)*l.CPUPerPage
	if l.CPUMax > 0 && d > l.CPUMax {
		d = l.CPUMax
	}
	return d
}

// request is the header the parent writes before the document's bytes.
type request struct {
	Op       string `json:"op"` // "convert", "probe", "render" or "redact"
	Password string `json:"password,omitempty"`
	Size     int    `json:"size"`
	Page     int    `json:"page,omitempty"` // render: the page; redact: the page count
	Width    int    `json:"width,omitempty"`
	Limits   Limits `json:"limits"`
}

// message is one line the child writes: progress, then a result (with its
// summary) or an error, with the worker's resident memory as the job ended.
type message struct {
	Done    int              `json:"done,omitempty"`
	Total   int              `json:"total,omitempty"`
	Result  *result          `json:"result,omitempty"`
	Summary *Summary         `json:"summary,omitempty"`
	Info    *source.Info     `json:"info,omitempty"`
	Image   *source.Rendered `json:"image,omitempty"`
	Copy    []byte           `json:"copy,omitempty"`
	Sidecar *redact.Sidecar  `json:"sidecar,omitempty"`
	Code    string           `json:"code,omitempty"`
	Error   string           `json:"error,omitempty"`
	RSS     int64            `json:"rss,omitempty"`
}

// Summary is what the caller of a conversion learns without decoding its
// result.
type Summary struct {
	Transactions   int    `json:"transactions"`
	Reconciliation string `json:"reconciliation"`
}

// result is a conversion's result on the pipe: the child encodes value,
// and the parent keeps the JSON as it came, for a caller that stores it as
// it is (Pool.ConvertJSON) rather than decode and encode every transaction.
type result struct {
	value *ledger.Result
	raw   []byte
}

func (r *result) MarshalJSON() ([]byte, error) { return json.Marshal(r.value) }

func (r *result) UnmarshalJSON(b []byte) error {
	r.raw = append(r.raw[:0], b...)
	return nil
}

func (m message) final() bool {
	return m.Result != nil || m.Info != nil || m.Image != nil || m.Copy != nil || m.Code != "" || m.Error != ""
}

// errorCodes carries sentinel errors across the process boundary.
var errorCodes = map[string]error{
	"password":       source.ErrPassword,
	"corrupt":        source.ErrCorrupt,
	"unsupported":    source.ErrUnsupported,
	"too_large":      source.ErrTooLarge,
	"too_many_pages": source.ErrTooManyPages,
	"limit":          source.ErrLimit,
	"no_page":        source.ErrNoPage,
	"refused":        redact.ErrRefused,
}

// childError is an error the child reported: its own text, and the
// sentinel its code names, so errors.Is works in the parent.
type childError struct {
	text     string
	sentinel error
}

func (e *childError) Error() string { return e.text }
func (e *childError) Unwrap() error { return e.sentinel }

func (m message) err() error {
	sentinel, ok := errorCodes[m.Code]
	if !ok {
		sentinel = source.ErrCorrupt
	}
	text := m.Error
	if text == "" {
		text = sentinel.Error()
	}
	return &childError{text: text, sentinel: sentinel}
}

// exitCPU is the status a worker exits with when a job used up its CPU time.
const exitCPU = 86

// maxDocument bounds the size of a document a child accepts.
const maxDocument = 1 << 30

// releaseAfter is how long a worker waits without a job before it gives
// the memory of its last one back: between the jobs of a burst it keeps
// its heap (regrowing it costs a third of a small job), and an idle
// worker holds little.
const releaseAfter = 500 * time.Millisecond

// gcPercent is the workers' GOGC: a job's garbage is short-lived and the
// process is capped by Limits.MemoryBytes, so collecting less often is
// cheaper (about a tenth of a text conversion) for a little more memory.
const gcPercent = 200

// softMemoryLimit caps the Go heap of a conversion process softly (Go's
// memory limit): past it the collector runs as often as it takes to stay
// under, whatever gcPercent allows. A short statement never comes near it,
// so it costs small jobs nothing. A 500-page statement holds ~45 MB of
// live lines and readings (~60 MB before the pages' words were let go
// after grouping), which gcPercent alone would let peak near 180 MB of
// heap. At 96 MB the command line peaked at 135 MB resident on it; at
// 80 MB, 119 MB for the same CPU; at 64 MB, 105 MB for ~40% more CPU
// (dynamic build, /usr/bin/time, alternating in one run).
const softMemoryLimit = 80 << 20

// TuneMemory sets this process's garbage collector for conversions
// (gcPercent, softMemoryLimit). Serve calls it; so does a conversion run
// in-process, such as the command line's.
func TuneMemory() {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(softMemoryLimit)
}

// Serve is the child's side: it reads jobs from in (a JSON header line and
// the document's bytes), runs each on eng under the limits the header
// carries, and writes progress lines and one final line per job to out. It
// returns nil when in ends.
func Serve(in io.Reader, out io.Writer, eng Engine) error {
	br := bufio.NewReaderSize(in, 64<<10)
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	memSet := false
	TuneMemory()
	idle := newIdler(releaseAfter, func() {
		// Nothing of the last job is needed any more: give its pages and
		// pixels back to the system.
		debug.FreeOSMemory()
		if r, ok := eng.(Releaser); ok {
			r.ReleaseMemory()
		}
	})
	defer idle.stop()
	// Go ignores SIGXCPU, which the kernel sends past the soft CPU limit:
	// end the process, with a status the parent reads as the CPU limit.
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, syscall.SIGXCPU)
	defer signal.Stop(xcpu)
	go func() {
		if _, ok := <-xcpu; ok {
			os.Stderr.WriteString("worker: CPU time limit reached\n")
			os.Exit(exitCPU)
		}
	}()
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read request: %w", err)
		}
		idle.busy()
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("decode request: %w", err)
		}
		if req.Size < 0 || req.Size > maxDocument {
			return fmt.Errorf("bad request size %d", req.Size)
		}
		data := make([]byte, req.Size)
		if _, err := io.ReadFull(br, data); err != nil {
			return fmt.Errorf("read document: %w", err)
		}
		if !memSet {
			if err := LimitMemory(req.Limits.MemoryBytes); err != nil {
				return err
			}
			memSet = true
		}
		if err := limitCPU(req.Limits.CPUSeconds); err != nil {
			return err
		}
		final := run(eng, req, data, func(done, total int) {
			_ = enc.Encode(message{Done: done, Total: total})
			_ = bw.Flush()
		})
		final.RSS = residentBytes()
		if err := enc.Encode(final); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		data, final = nil, message{}
		idle.done()
	}
}

// idler runs release once a worker has had no job for a while.
type idler struct {
	mu      sync.Mutex
	working bool
	after   time.Duration
	timer   *time.Timer
}

func newIdler(after time.Duration, release func()) *idler {
	i := &idler{after: after}
	i.timer = time.AfterFunc(after, func() {
		i.mu.Lock()
		defer i.mu.Unlock()
		if !i.working {
			release()
		}
	})
	i.timer.Stop()
	return i
}

// busy marks a job started: a release under way finishes first.
func (i *idler) busy() {
	i.timer.Stop()
	i.mu.Lock()
	i.working = true
	i.mu.Unlock()
}

// done marks a job ended, and starts the wait for the next.
func (i *idler) done() {
	i.mu.Lock()
	i.working = false
	i.mu.Unlock()
	i.timer.Reset(i.after)
}

func (i *idler) stop() { i.timer.Stop() }

// residentBytes is the process's resident memory (VmRSS), 0 if unknown.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

func run(eng Engine, req request, data []byte, progress func(done, total int)) message {
	switch req.Op {
	case "probe":
		info, err := eng.Probe(data, req.Password)
		if err != nil {
			return errorMessage(err)
		}
		return message{Info: &info}
	case "convert":
		res, err := eng.Convert(data, extract.Options{Password: req.Password, Progress: progress})
		if err != nil {
			return errorMessage(err)
		}
		return message{Result: &result{value: res},
			Summary: &Summary{Transactions: len(res.Transactions), Reconciliation: res.Statement.Reconciliation.Status}}
	case "render":
		img, err := eng.RenderPage(data, req.Password, req.Page, req.Width)
		if err != nil {
			return errorMessage(err)
		}
		return message{Image: &img}
	case "redact":
		r, ok := eng.(Redacter)
		if !ok {
			return errorMessage(fmt.Errorf("this worker's engine makes no copies: %w", redact.ErrRefused))
		}
		out, side, err := r.Redact(data, req.Password)
		if err != nil {
			return errorMessage(err)
		}
		return message{Copy: out, Sidecar: &side}
	}
	return message{Code: "corrupt", Error: fmt.Sprintf("unknown op %q", req.Op)}
}

func errorMessage(err error) message {
	for code, sentinel := range errorCodes {
		if errors.Is(err, sentinel) {
			return message{Code: code, Error: err.Error()}
		}
	}
	return message{Code: "corrupt", Error: err.Error()}
}

// LimitMemory caps the calling process's address space at bytes (RLIMIT_AS;
// 0 leaves it as it is). It cannot be raised again.
func LimitMemory(bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: bytes, Max: bytes}); err != nil {
		return fmt.Errorf("limit memory: %w", err)
	}
	return nil
}

// limitCPU lets the coming job use seconds of CPU from now: the soft limit
// (SIGXCPU, which kills) is moved past what the process has used so far.
func limitCPU(seconds uint64) error {
	if seconds == 0 {
		return nil
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return fmt.Errorf("limit cpu: %w", err)
	}
	used := uint64(ru.Utime.Sec + ru.Stime.Sec + 1)
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CPU, &cur); err != nil {
		return fmt.Errorf("limit cpu: %w", err)
	}
	soft := used + seconds
	if soft > cur.Max {
		soft = cur.Max
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: soft, Max: cur.Max}); err != nil {
		return fmt.Errorf("limit cpu: %w", err)
	}
	return nil
}
