package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"passbook/export"
	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/worker"
)

// Exit statuses of `passbook extract` given several files (-d or
// --combine). The three conditions add up: 14 is all three.
const (
	// exitFailed: the command itself failed (bad arguments, an output that
	// could not be written); main's default for any error.
	exitFailed = 1
	// exitNotConverted: some file could not be converted.
	exitNotConverted = 2
	// exitNotOK: some statement does not reconcile (not ok).
	exitNotOK = 4
	// exitNotContinuous: the statements are not continuous (a gap, a
	// balance break, an overlap or a duplicate).
	exitNotContinuous = 8
)

// exitStatus is an error that sets the process's exit status; main prints
// its message, when there is one, and exits with code.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

// statementExts are the file name extensions a directory's statements have;
// other files in it are left alone. A file named on the command line is
// always tried.
var statementExts = map[string]bool{".pdf": true, ".png": true, ".jpg": true, ".jpeg": true, ".tif": true, ".tiff": true, ".webp": true}

// batchInput is one statement file to convert.
type batchInput struct {
	path string
	// rel is the path an output is named after: relative to the
	// directory it was found in, or the file's base name.
	rel string
}

// collectInputs expands files and directories (recursively, skipping
// hidden files and folders) into statement files, each once, in the order
// given and, within a directory, by name.
func collectInputs(args []string) ([]batchInput, error) {
	var out []batchInput
	seen := map[string]bool{}
	add := func(path, rel string) {
		abs, err := filepath.Abs(path)
		if err != nil || seen[abs] {
			return
		}
		seen[abs] = true
		out = append(out, batchInput{path: path, rel: rel})
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			add(arg, filepath.Base(arg))
			continue
		}
		n := len(out)
		err = filepath.WalkDir(arg, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != arg && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && statementExts[strings.ToLower(filepath.Ext(p))] {
				rel, err := filepath.Rel(arg, p)
				if err != nil {
					return err
				}
				add(p, rel)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s holds no statements (PDF, PNG, JPEG, TIFF or WebP files)", arg)
		}
	}
	return out, nil
}

// batchConfig is what extractMany needs of the command line.
type batchConfig struct {
	format   export.Format
	opts     export.Options
	password string
	// dir, when set, takes one output per input; else out (or standard
	// output when "") takes them all together.
	dir, out string
	workers  int
}

// batchResult is one input's conversion.
type batchResult struct {
	in     batchInput
	res    *ledger.Result
	err    error
	output string
}

// extractMany converts inputs in parallel, a worker process each (so a
// file that crashes MuPDF or Tesseract fails alone, and scans are read on
// every core), writes one output each into cfg.dir or one for all into
// cfg.out, and reports the statements' continuity on standard error. Its
// exit status says what went wrong (exitNotConverted, exitNotOK,
// exitNotContinuous, added up).
func extractMany(ctx context.Context, e env, inputs []batchInput, cfg batchConfig) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own binary for the workers: %w", err)
	}
	pcfg := worker.DefaultConfig(exe, []string{workerCommand}, cfg.workers)
	pcfg.Spare = 0
	pool := worker.NewPool(pcfg)
	defer pool.Close()

	outputs := map[int]string{}
	if cfg.dir != "" {
		if outputs, err = outputNames(inputs, cfg.dir, cfg.format); err != nil {
			return err
		}
	}
	prog := newProgress(e.stderr, len(inputs))
	defer prog.stop()

	results := make([]batchResult, len(inputs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range cfg.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := batchResult{in: inputs[i], output: outputs[i]}
				r.res, r.err = convertFile(ctx, pool, inputs[i].path, cfg.password, prog)
				if r.err == nil && cfg.dir != "" {
					r.err = writeOutput(r.output, cfg.format, optsFor(cfg.opts, inputs[i]), r.res)
				}
				results[i] = r
				prog.done(r)
			}
		}()
	}
feed:
	for i := range inputs {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	prog.stop()
	if err := ctx.Err(); err != nil {
		return err
	}

	sources := make([]export.Source, len(results))
	for i, r := range results {
		sources[i] = export.Source{ID: r.in.path, Name: r.in.rel, Status: export.SourceCompleted, Result: r.res}
		if r.err != nil {
			sources[i].Status, sources[i].Error = export.SourceFailed, r.err.Error()
		}
	}
	set := export.NewSet(sources)
	if cfg.dir == "" {
		opts := cfg.opts
		if opts.FileID == "" {
			opts.FileID = "passbook-extract"
		}
		if cfg.out == "" {
			if err := export.WriteSet(e.stdout, cfg.format, opts, set); err != nil {
				return err
			}
		} else if err := writeSetFile(cfg.out, cfg.format, opts, set); err != nil {
			return err
		}
	}
	if err := set.WriteReport(e.stderr); err != nil {
		return err
	}
	return batchStatus(results, set)
}

// batchStatus is the exit status of a batch, with a line that says why.
func batchStatus(results []batchResult, set *export.Set) error {
	code := 0
	var why []string
	failed := 0
	for _, r := range results {
		if r.err != nil {
			failed++
		}
	}
	if failed > 0 {
		code |= exitNotConverted
		why = append(why, fmt.Sprintf("%d of %d files could not be converted", failed, len(results)))
	}
	notOK := 0
	for _, a := range set.Accounts {
		for _, st := range a.Statements {
			if st.Reconciliation != ledger.ReconcileOK {
				notOK++
			}
		}
	}
	if notOK > 0 {
		code |= exitNotOK
		why = append(why, fmt.Sprintf("%d statements are not ok", notOK))
	}
	if set.Findings() > 0 {
		code |= exitNotContinuous
		why = append(why, fmt.Sprintf("the statements are not continuous (%d findings)", set.Findings()))
	}
	if code == 0 {
		return nil
	}
	return &exitStatus{code: code, msg: strings.Join(why, "; ")}
}

// convertFile reads and converts one file in a pool worker.
func convertFile(ctx context.Context, pool *worker.Pool, path, password string, prog *progress) (*ledger.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return pool.Convert(ctx, data, extract.Options{Password: password, Progress: prog.pages(path)})
}

// optsFor are the export options of one input's own output.
func optsFor(o export.Options, in batchInput) export.Options {
	name := filepath.Base(in.path)
	o.FileID, o.OriginalName = name, name
	return o
}

// outputNames names each input's output in dir: its path below the
// directory it was found in (or its base name), with the format's
// extension; a name taken twice gets " (2)", " (3)"... An output may never
// be one of the inputs.
func outputNames(inputs []batchInput, dir string, f export.Format) (map[int]string, error) {
	inputPaths := map[string]bool{}
	for _, in := range inputs {
		if abs, err := filepath.Abs(in.path); err == nil {
			inputPaths[abs] = true
		}
	}
	out := map[int]string{}
	taken := map[string]bool{}
	for i, in := range inputs {
		base := strings.TrimSuffix(in.rel, filepath.Ext(in.rel))
		name := filepath.Join(dir, base+f.Ext())
		for k := 2; taken[name]; k++ {
			name = filepath.Join(dir, fmt.Sprintf("%s (%d)%s", base, k, f.Ext()))
		}
		abs, err := filepath.Abs(name)
		if err != nil {
			return nil, err
		}
		if inputPaths[abs] {
			return nil, fmt.Errorf("the output %s would replace an input: choose another -d", name)
		}
		taken[name] = true
		out[i] = name
	}
	return out, nil
}

// writeOutput writes one converted statement to path, through a temporary
// file renamed into place, so a failed or interrupted write never leaves
// half a file under the output's name.
func writeOutput(path string, f export.Format, opts export.Options, res *ledger.Result) error {
	return writeAtomic(path, func(w io.Writer) error { return export.Write(w, f, opts, res) })
}

// writeSetFile writes a set to path as writeOutput writes one statement.
func writeSetFile(path string, f export.Format, opts export.Options, set *export.Set) error {
	return writeAtomic(path, func(w io.Writer) error { return export.WriteSet(w, f, opts, set) })
}

func writeAtomic(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// progress reports a batch as it goes: on a terminal, one bar redrawn in
// place; otherwise a line per file as it is done.
type progress struct {
	w        io.Writer
	terminal bool
	total    int
	start    time.Time

	mu       sync.Mutex
	files    int
	inFlight map[string]int // pages done, by file being converted
	pagesSum int            // pages of the files done
	drawn    time.Time
	stopped  bool
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total, start: time.Now(), inFlight: map[string]int{}}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// pages is the conversion progress callback for one file.
func (p *progress) pages(path string) func(done, total int) {
	return func(done, _ int) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.inFlight[path] = done
		p.draw(false)
	}
}

// done reports a file converted (and written) or failed.
func (p *progress) done(r batchResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.inFlight, r.in.path)
	p.files++
	var line string
	switch {
	case r.err != nil:
		line = fmt.Sprintf("failed %s: %v", r.in.path, r.err)
	default:
		p.pagesSum += r.res.PageCount
		line = fmt.Sprintf("%s: %d transactions, %s", r.in.path, len(r.res.Transactions), r.res.Statement.Reconciliation.Status)
		if r.output != "" {
			line = fmt.Sprintf("%s -> %s: %d transactions, %s", r.in.path, r.output, len(r.res.Transactions), r.res.Statement.Reconciliation.Status)
		}
	}
	if !p.terminal {
		fmt.Fprintf(p.w, "[%d/%d] %s\n", p.files, p.total, line)
		return
	}
	if r.err != nil {
		// A failure stays on the screen above the bar.
		fmt.Fprintf(p.w, "\r\033[K%s\n", line)
	}
	p.draw(true)
}

// draw redraws the bar on a terminal, at most ten times a second unless
// forced.
func (p *progress) draw(force bool) {
	if !p.terminal || p.stopped || (!force && time.Since(p.drawn) < 100*time.Millisecond) {
		return
	}
	p.drawn = time.Now()
	pages := p.pagesSum
	for _, n := range p.inFlight {
		pages += n
	}
	const width = 30
	filled := width * p.files / max(p.total, 1)
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d files, %d pages, %.1f s", strings.Repeat("#", filled), strings.Repeat("-", width-filled),
		p.files, p.total, pages, time.Since(p.start).Seconds())
}

// stop ends the bar's line.
func (p *progress) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal && !p.stopped {
		p.draw(true)
		fmt.Fprintln(p.w)
	}
	p.stopped = true
}

var errBatchUsage = errors.New("extract takes one statement file; for several files or a directory give -d DIR (one output each) or --combine -o FILE (one for all) (see 'passbook extract --help')")
