package extract

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// ErrCrashed means the converter process died on the document (a crash in
// the C libraries, or a resource limit the kernel enforced).
var ErrCrashed = errors.New("the converter stopped on this file: it may be damaged or hostile")

// ErrNoPage means a page number beyond the document's pages was asked for.
var ErrNoPage = errors.New("the document has no such page")

// Limits bound one child conversion.
type Limits struct {
	// Wall is the wall-clock time allowed for the whole conversion.
	Wall time.Duration
	// CPU is the CPU time allowed (RLIMIT_CPU), in seconds.
	CPUSeconds uint64
	// MemoryBytes caps the child's address space (RLIMIT_AS).
	MemoryBytes uint64
}

// DefaultLimits suit a statement of up to a few hundred pages.
var DefaultLimits = Limits{Wall: 10 * time.Minute, CPUSeconds: 600, MemoryBytes: 4 << 30}

// Isolated runs conversions in a child process: the same binary, re-executed
// with Args (e.g. ["worker"]), which must call ServeWorker. A crash, hang or
// memory bomb in MuPDF or Tesseract then fails one document, never the caller.
type Isolated struct {
	Exe    string   // path of the binary, usually os.Executable()
	Args   []string // arguments that make it a worker
	Limits Limits
}

// request is the header the parent writes before the document's bytes.
type request struct {
	Op       string `json:"op"` // "convert", "probe" or "render"
	Password string `json:"password,omitempty"`
	Page     int    `json:"page,omitempty"`  // render: from 1
	Width    int    `json:"width,omitempty"` // render: pixels
	Size     int    `json:"size"`
	Limits   Limits `json:"limits"`
}

// message is one line the child writes: progress, then a result or an error.
type message struct {
	Done   int       `json:"done,omitempty"`
	Total  int       `json:"total,omitempty"`
	Result *Result   `json:"result,omitempty"`
	Info   *Info     `json:"info,omitempty"`
	Image  *Rendered `json:"image,omitempty"`
	Code   string    `json:"code,omitempty"`
	Error  string    `json:"error,omitempty"`
}

// errorCodes carries sentinel errors across the process boundary.
var errorCodes = map[string]error{
	"password":    ErrPassword,
	"corrupt":     ErrCorrupt,
	"unsupported": ErrUnsupported,
	"too_large":   ErrTooLarge,
	"limit":       ErrLimit,
	"no_page":     ErrNoPage,
}

// Convert converts data in a child process.
func (iso Isolated) Convert(ctx context.Context, data []byte, opts Options) (*Result, error) {
	m, err := iso.run(ctx, request{Op: "convert", Password: opts.Password}, data, opts.Progress)
	if err != nil {
		return nil, err
	}
	if m.Result == nil {
		return nil, fmt.Errorf("worker sent no result: %w", ErrCrashed)
	}
	return m.Result, nil
}

// Probe reads a document's type and page count in a child process.
func (iso Isolated) Probe(ctx context.Context, data []byte, password string) (Info, error) {
	m, err := iso.run(ctx, request{Op: "probe", Password: password}, data, nil)
	if err != nil {
		return Info{}, err
	}
	if m.Info == nil {
		return Info{}, fmt.Errorf("worker sent no info: %w", ErrCrashed)
	}
	return *m.Info, nil
}

// RenderPage draws page n (from 1) of a document in a child process.
func (iso Isolated) RenderPage(ctx context.Context, data []byte, password string, n, width int) (Rendered, error) {
	m, err := iso.run(ctx, request{Op: "render", Password: password, Page: n, Width: width}, data, nil)
	if err != nil {
		return Rendered{}, err
	}
	if m.Image == nil {
		return Rendered{}, fmt.Errorf("worker sent no image: %w", ErrCrashed)
	}
	return *m.Image, nil
}

func (iso Isolated) run(ctx context.Context, req request, data []byte, progress func(done, total int)) (message, error) {
	req.Size = len(data)
	req.Limits = iso.Limits
	if iso.Limits.Wall > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, iso.Limits.Wall)
		defer cancel()
	}
	header, err := json.Marshal(req)
	if err != nil {
		return message{}, err
	}
	cmd := exec.CommandContext(ctx, iso.Exe, iso.Args...)
	// Tesseract's OpenMP threads must be limited before the process starts;
	// parallelism comes from running several workers, not threads.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Stdin = io.MultiReader(bytes.NewReader(append(header, '\n')), bytes.NewReader(data))
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 4096}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return message{}, err
	}
	if err := cmd.Start(); err != nil {
		return message{}, fmt.Errorf("start worker: %w", err)
	}
	var final message
	got := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue // not ours: C libraries may print to stdout
		}
		if m.Result == nil && m.Info == nil && m.Image == nil && m.Code == "" && m.Error == "" {
			if progress != nil && m.Total > 0 {
				progress(m.Done, m.Total)
			}
			continue
		}
		final, got = m, true
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return message{}, fmt.Errorf("conversion took longer than %s: %w", iso.Limits.Wall, ErrLimit)
		}
		return message{}, ctx.Err()
	}
	if got && (final.Code != "" || final.Error != "") {
		if sentinel, ok := errorCodes[final.Code]; ok {
			return message{}, sentinel
		}
		return message{}, fmt.Errorf("%s: %w", final.Error, ErrCorrupt)
	}
	if waitErr != nil || !got {
		var ee *exec.ExitError
		if errors.As(waitErr, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGXCPU {
				return message{}, fmt.Errorf("conversion used more than %ds of CPU: %w", iso.Limits.CPUSeconds, ErrLimit)
			}
		}
		return message{}, fmt.Errorf("%w (%v; %s)", ErrCrashed, waitErr, bytes.TrimSpace(stderr.Bytes()))
	}
	return final, nil
}

// ServeWorker is the child's side: it reads one request and the document
// from in, applies the limits to its own process, converts, and writes
// progress lines and one final line to out.
func ServeWorker(in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	line, err := br.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("read request: %w", err)
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return fmt.Errorf("decode request: %w", err)
	}
	if req.Size < 0 || req.Size > 1<<30 {
		return fmt.Errorf("bad request size %d", req.Size)
	}
	data := make([]byte, req.Size)
	if _, err := io.ReadFull(br, data); err != nil {
		return fmt.Errorf("read document: %w", err)
	}
	if err := applyLimits(req.Limits); err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	var final message
	switch req.Op {
	case "probe":
		info, err := Probe(data, req.Password)
		final = message{Info: &info}
		if err != nil {
			final = errorMessage(err)
		}
	case "convert":
		opts := Options{Password: req.Password, Progress: func(done, total int) {
			_ = enc.Encode(message{Done: done, Total: total})
		}}
		res, err := Convert(data, opts)
		final = message{Result: res}
		if err != nil {
			final = errorMessage(err)
		}
	case "render":
		img, err := RenderPage(data, req.Password, req.Page, req.Width)
		final = message{Image: &img}
		if err != nil {
			final = errorMessage(err)
		}
	default:
		return fmt.Errorf("unknown op %q", req.Op)
	}
	return enc.Encode(final)
}

func errorMessage(err error) message {
	for code, sentinel := range errorCodes {
		if errors.Is(err, sentinel) {
			return message{Code: code, Error: err.Error()}
		}
	}
	return message{Code: "corrupt", Error: err.Error()}
}

func applyLimits(l Limits) error {
	if l.MemoryBytes > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: l.MemoryBytes, Max: l.MemoryBytes}); err != nil {
			return fmt.Errorf("limit memory: %w", err)
		}
	}
	if l.CPUSeconds > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: l.CPUSeconds, Max: l.CPUSeconds + 5}); err != nil {
			return fmt.Errorf("limit cpu: %w", err)
		}
	}
	return nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}
