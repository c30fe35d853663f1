package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"passbook/export"
	"passbook/extract"
	"passbook/extract/engine"
	"passbook/extract/ocr"
	"passbook/extract/pdf"
	"passbook/extract/worker"
	"passbook/quota"
	"passbook/server"
	"passbook/store"
)

const usage = `usage: passbook COMMAND [flags]

commands:
  serve     [--addr 127.0.0.1:8080] [--data passbook.db|postgres://...] [flags]
                                            run the API, the web page and the workers
  extract   [--format F] [--profile P] [--intu-bid N] [-o FILE] [--password P] STATEMENT
                                            convert one file, no server, no data file;
                                            F: json csv xlsx ofx qfx qbo qif camt053 mt940
                                            P (csv): xero quickbooks excel-eu
  extract   -d DIR | --combine [-o FILE] [flags] FILE|DIR...
                                            convert many in parallel, one output each or
                                            one for all, with a continuity report
  redact    [--password P] STATEMENT -o COPY.pdf
                                            a copy of a text statement that reads as it does,
                                            with nothing of its client, to report a layout
  accounts  create EMAIL [--plan P] | list | set-plan EMAIL PLAN | grant-credits EMAIL PAGES
  keys      create EMAIL [--label L] | list [EMAIL] | revoke ID
  documents list EMAIL [--limit N] | delete FILE_ID   an account's documents, newest first; delete one
  backup    FILE                            write a consistent copy of the data file (or pg_dump's archive)
  audit     verify                          check the audit trail's hash chain; name its first broken line
  migrate   --from passbook.db --to postgres://...   copy a data file into PostgreSQL
  version                                   print the version, commit and build date

The administration commands (accounts, keys, documents, backup, audit) take --data FILE or
PASSBOOK_DATA (default passbook.db; a postgres:// URL names a PostgreSQL
database) and open only a data file that exists, or a database that holds
Passbook's tables, unless given --create. 'passbook COMMAND --help' tells more.
`

// errHelp means help was asked for and given: the command succeeded.
var errHelp = errors.New("help shown")

// env is what a command may touch of the outside world.
type env struct {
	args   []string
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// run is the whole program; main only adds signals and the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	e := env{args: args[1:], getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	var err error
	switch args[0] {
	case "serve":
		err = cmdServe(ctx, e, nil)
	case "extract":
		err = cmdExtract(ctx, e)
	case "redact":
		err = cmdRedact(ctx, e)
	case workerCommand:
		if len(e.args) == 2 && e.args[0] == "--count-pages-to" {
			n, err := strconv.Atoi(e.args[1])
			if err != nil {
				return fmt.Errorf("worker: --count-pages-to %q: %w", e.args[1], err)
			}
			pdf.SetMaxPages(n)
		}
		return worker.Serve(stdin, stdout, workerEngine{engine.New()})
	case "accounts":
		err = cmdAccounts(ctx, e)
	case "keys":
		err = cmdKeys(ctx, e)
	case "documents":
		err = cmdDocuments(ctx, e)
	case "backup":
		err = cmdBackup(ctx, e)
	case "audit":
		err = cmdAudit(ctx, e)
	case "migrate":
		err = cmdMigrate(ctx, e)
	case "version", "--version", "-version":
		err = cmdVersion(e)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}

// workerCommand makes the binary a conversion child process.
const workerCommand = "worker"

// workerEngine is the engine a worker process serves: it also gives
// MuPDF's and Tesseract's free heap back when the worker goes idle.
type workerEngine struct{ *engine.Engine }

// ReleaseMemory implements worker.Releaser.
func (workerEngine) ReleaseMemory() { pdf.ReleaseMemory() }

// modelDir is where the workers of a server on data keep the recognition
// models as files: beside a data file, written once; "" on PostgreSQL,
// where workers use the user's cache directory.
func modelDir(data string) string {
	if store.IsPostgres(data) {
		return ""
	}
	return filepath.Join(filepath.Dir(data), "passbook-models")
}

// workerPool runs conversions in n warm children of this very binary;
// models, when set, is the directory they share the recognition models in.
func workerPool(log *slog.Logger, n int, models string, maxPages int) (*worker.Pool, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own binary for the worker: %w", err)
	}
	// The workers count a PDF's pages up to ten times the server's limit
	// (at least 10,000: a few tens of milliseconds), so a document over
	// the limit is refused with its true count, and one of 100,000 pages
	// as having more than the limit, at once, instead of after a walk of
	// its whole page tree that outlasts the probe's time (issue 41).
	cfg := worker.DefaultConfig(exe, []string{workerCommand, "--count-pages-to", strconv.Itoa(max(10*maxPages, 10000))}, n)
	cfg.Log = log
	if models != "" {
		cfg.Env = []string{ocr.ModelDirEnv + "=" + models}
	}
	// Conversions yield the CPU to the server's answers: while they run,
	// a status poll waits for no page (issue 22: p99 of GET /status).
	cfg.Nice = 10
	return worker.NewPool(cfg), nil
}

// newFlags makes the flag set of a command. It prints nothing itself:
// parse shows help on standard output when asked, and errors come back to
// main, which prints them once.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// help is a command's help text: its synopsis, then its flags.
type help struct {
	synopsis string // after "usage: passbook "
	about    string
}

func (h help) print(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: passbook %s\n\n%s\n", h.synopsis, h.about)
	if fs != nil && len(flagNames(fs)) > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// parse parses flags that may stand before or after positional arguments.
// With -h or --help it prints h on standard output and returns errHelp.
func parse(fs *flag.FlagSet, args []string, e env, h help) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			h.print(e.stdout, fs)
			return nil, errHelp
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w (see 'passbook %s --help')", fs.Name(), err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

var serveHelp = help{"serve [flags]", `Runs the HTTP API, the web page and the conversion workers until it is
stopped (SIGINT or SIGTERM). On a new data file it creates the account
admin@localhost on the admin plan and prints its API key once.

--data postgres://USER:PASSWORD@HOST/DB runs on a PostgreSQL database
instead (which must exist; the tables are made on first start): any number
of serve processes, on any machines, may share it, each taking jobs from
the one queue. A node that dies holding a job loses it to another after
--job-lease.

Every flag may instead be set by an environment variable: PASSBOOK_ and the
flag's name in capitals with _ for - (--max-pages is PASSBOOK_MAX_PAGES).
A flag on the command line wins over the variable.`}

// loadServeConfig reads serve's configuration from the environment, then
// from the command line.
func loadServeConfig(e env) (*config, error) {
	fs := newFlags("serve")
	c := serveFlags(fs)
	if err := applyEnv(fs, e.getenv, flagNames(fs)...); err != nil {
		return nil, err
	}
	pos, err := parse(fs, e.args, e, serveHelp)
	if err != nil {
		return nil, err
	}
	if len(pos) > 0 {
		return nil, fmt.Errorf("serve takes no arguments, only flags (got %q)", pos)
	}
	return c, nil
}

// cmdServe runs the server until ctx is done. ready, when set, receives the
// address it listens on (tests listen on port 0).
func cmdServe(ctx context.Context, e env, ready chan<- string) error {
	c, err := loadServeConfig(e)
	if err != nil {
		return err
	}
	log := newLogger(e.stderr, c)
	data := c.Data
	if !store.IsPostgres(data) {
		if data, err = filepath.Abs(c.Data); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Dir(data)); err != nil {
			return fmt.Errorf("data file %s: its directory is missing: %w", data, err)
		}
	}
	st, err := store.Open(ctx, data)
	if err != nil {
		return err
	}
	defer st.Close()
	st.Loc, st.Lease = c.TZ, c.JobLease
	if err := firstRun(ctx, st, e.stdout); err != nil {
		return err
	}
	pool, err := workerPool(log, c.Server.Workers, modelDir(data), c.Server.MaxPages)
	if err != nil {
		return err
	}
	defer pool.Close()
	srv := server.New(log, st, pool, c.Server)
	ln, err := listenDraining(c.Addr)
	if err != nil {
		return err
	}
	conns := &openConns{}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn), ConnState: conns.track}

	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	workDone := make(chan error, 1)
	go func() { workDone <- srv.RunWorkers(workCtx) }()
	serveDone := make(chan error, 1)
	go func() { serveDone <- hs.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "data", st.Describe(), "store", st.Kind(), "base_path", c.Server.BasePath,
		"workers", c.Server.Workers, "tz", c.TZ.String(), "version", buildVersion().Version)
	if ready != nil {
		ready <- ln.Addr().String()
	}

	var serveErr error
	select {
	case <-ctx.Done():
		log.Info("shutting down", "reason", "signal")
		// Stop accepting first, and answer what the kernel accepted
		// before: Serve returns once the backlog is empty. Answers from
		// now on close their connections.
		hs.SetKeepAlivesEnabled(false)
		if err := ln.StopAccepting(); err != nil {
			log.Error("stop accepting", "err", err)
		}
		if serveErr = <-serveDone; errors.Is(serveErr, net.ErrClosed) {
			serveErr = nil
		}
	case serveErr = <-serveDone:
		log.Error("shutting down", "reason", "http server stopped", "err", serveErr)
	}
	// Answer the requests under way and those of the connections taken
	// from the backlog (keep-alives are off: each connection closes after
	// its answer), then let workers hand back their jobs, then (deferred)
	// close the data file.
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := conns.wait(shutCtx); err != nil {
		log.Warn("connections still open at shutdown", "err", err)
	}
	if err := hs.Shutdown(shutCtx); err != nil {
		log.Error("http shutdown", "err", err)
	}
	stopWork()
	workErr := <-workDone
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	log.Info("stopped", "err", errors.Join(serveErr, workErr))
	return errors.Join(serveErr, workErr)
}

// firstRun makes an administrator account on an empty data file and prints
// its API key, the one time it can be seen. Of several nodes started
// together on a new PostgreSQL database, one makes it and prints the key.
func firstRun(ctx context.Context, st *store.Store, out io.Writer) error {
	accs, err := st.Accounts(ctx)
	if err != nil || len(accs) > 0 {
		return err
	}
	acc, err := st.CreateAccount(ctx, "admin@localhost", quota.Admin)
	if errors.Is(err, store.ErrExists) {
		return nil // another node made it first
	}
	if err != nil {
		return err
	}
	key, _, err := st.CreateKey(ctx, acc.ID, "first run")
	if err != nil {
		return err
	}
	pw, err := store.NewPassword()
	if err != nil {
		return err
	}
	hash, err := store.HashPassword(pw)
	if err != nil {
		return err
	}
	c, _, err := st.MemberByEmail(ctx, acc.Email)
	if err != nil {
		return err
	}
	if err := st.SetPassword(ctx, c.Member.ID, hash); err != nil {
		return err
	}
	what := "data file"
	if st.Kind() == "postgres" {
		what = "database"
	}
	fmt.Fprintf(out, "New %s: created account %s (admin plan, no page limit), the owner of its office.\n"+
		"Its API key and its password for the web page, shown only this once:\n\n    %s\n    %s\n\n", what, acc.Email, key, pw)
	return nil
}

var extractHelp = help{"extract [--format F] [--profile P] [--intu-bid N] [-o FILE] [--password P] [--explain] STATEMENT\n" +
	"       passbook extract -d DIR | --combine [-o FILE] [flags] FILE|DIR...",
	`Converts one statement (PDF, PNG, JPEG, TIFF or WebP) with no server and no
data file. Its JSON is the body of the API's JSON download. F is one of json,
csv, xlsx, ofx, qfx, qbo, qif, camt053, mt940; P, a CSV profile: xero,
quickbooks or excel-eu. It exits 0 when the document was converted, and 1
with the reason when it could not be. --explain prints instead how the
statement was read: the tables on each page, each column's role and why,
the readings weighed with their arithmetic scores, and the lines left out
and why (with -o, the document is still written to FILE).

Given several files or directories (searched through for PDF, PNG, JPEG,
TIFF and WebP files, hidden ones left out), it converts them in parallel,
a worker process per core (-j), with a progress bar on a terminal and a
line per file otherwise, all on standard error:
  -d DIR       writes one output per statement into DIR, named after it
               (a directory's layout is kept below DIR);
  --combine    writes one output for all of them to -o FILE (or standard
               output): every account over the whole period, the
               transactions two statements share counted once (as a
               folder's download: CSV with an account column, XLSX a sheet
               per account and a Continuity sheet, OFX/QFX/QBO one
               statement per account, CAMT.053 and MT940 one per statement).
Either way it then prints the continuity report of the statements on
standard error: per account its statements' period, and every gap,
balance break, overlap and duplicate. Its exit status is then the sum of:
  2  some file could not be converted
  4  some statement is not ok (its balances do not prove its rows)
  8  the statements are not continuous (a gap, balance break, overlap or
     duplicate)
so 0 means every statement converted, proved and continuous; 1 means the
command itself failed (bad arguments, an output it could not write).`}

func cmdExtract(ctx context.Context, e env) error {
	fs := newFlags("extract")
	format := fs.String("format", "json", "json, csv, xlsx, ofx, qfx, qbo, qif, camt053 or mt940")
	profile := fs.String("profile", "", "CSV profile: xero, quickbooks or excel-eu")
	intuBID := fs.String("intu-bid", "", "INTU.BID (Intuit bank id) to write into qfx and qbo")
	outPath := fs.String("o", "", "output file (default standard output)")
	password := fs.String("password", "", "password of an encrypted PDF (of every file given)")
	dir := fs.String("d", "", "write one output per statement into `DIR` (several files or directories)")
	combine := fs.Bool("combine", false, "write one output for all statements (-o FILE), with their continuity")
	jobs := fs.Int("j", runtime.NumCPU(), "conversions at once, each in a worker process (several files)")
	explain := fs.Bool("explain", false, "print how the statement was read (tables, column roles and why, readings tried, lines left out) instead of the document; with -o the document is written there too")
	pos, err := parse(fs, e.args, e, extractHelp)
	if err != nil {
		return err
	}
	f, err := export.ParseFormat(*format)
	if err != nil {
		return err
	}
	p, err := export.ParseProfile(*profile)
	if err != nil {
		return err
	}
	if *dir != "" || *combine {
		switch {
		case *dir != "" && *combine:
			return errors.New("extract: give -d DIR (one output each) or --combine (one for all), not both")
		case *explain:
			return errors.New("extract: --explain explains one statement; give it one file, without -d or --combine")
		case *dir != "" && *outPath != "":
			return errors.New("extract: -o names the one output of --combine; -d DIR names where each output goes")
		case len(pos) == 0:
			return errors.New("extract: name the statements, or directories of them (see 'passbook extract --help')")
		case *jobs < 1:
			return fmt.Errorf("extract: -j must be at least 1 (got %d)", *jobs)
		}
		opts := export.Options{Profile: p, IntuBID: *intuBID}
		if *combine {
			name := filepath.Base(*outPath)
			opts.FileID, opts.OriginalName = name, strings.TrimSuffix(name, filepath.Ext(name))
		}
		if err := export.Check(f, opts); err != nil {
			return err
		}
		inputs, err := collectInputs(pos)
		if err != nil {
			return err
		}
		return extractMany(ctx, e, inputs, batchConfig{format: f, opts: opts, password: *password, dir: *dir, out: *outPath, workers: *jobs})
	}
	if len(pos) != 1 {
		return errBatchUsage
	}
	if fi, err := os.Stat(pos[0]); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory: %w", pos[0], errBatchUsage)
	}
	name := filepath.Base(pos[0])
	opts := export.Options{FileID: name, OriginalName: name, Profile: p, IntuBID: *intuBID}
	if err := export.Check(f, opts); err != nil {
		return err
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	// In-process, not in a child: the file is the user's own, read with
	// the user's own rights, so a child would guard nothing that running
	// it does not already risk, and it would cost a second process start
	// (most of the command's time on a short statement). The memory cap
	// still applies, so a bomb ends in a clear error, not a swapping box.
	if err := worker.LimitMemory(worker.DefaultLimits().MemoryBytes); err != nil {
		return err
	}
	worker.TuneMemory()
	pdf.TuneMalloc()
	conv := extract.Options{Password: *password}
	if *explain {
		conv.Explain = e.stdout
	}
	res, err := engine.New().Convert(data, conv)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *explain && *outPath == "" {
		return nil
	}
	if *outPath == "" {
		return export.Write(e.stdout, f, opts, res)
	}
	file, err := os.Create(*outPath)
	if err != nil {
		return err
	}
	if err := export.Write(file, f, opts, res); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// dataFlags declares --data and, when create is set, --create. --data
// falls back on PASSBOOK_DATA, as serve's does.
type dataFlags struct {
	path   *string
	create *bool
}

func newDataFlags(fs *flag.FlagSet, e env, create bool) dataFlags {
	d := dataFlags{path: fs.String("data", "passbook.db", "data `file` or postgres:// URL (PASSBOOK_DATA)"), create: new(bool)}
	if v := e.getenv(envName("data")); v != "" {
		*d.path = v
	}
	if create {
		d.create = fs.Bool("create", false, "make a new data file if there is none at --data (or the tables, in an empty database)")
	}
	return d
}

// open opens the data file for an administration command. It opens only a
// file that exists, unless --create was given, so a command run from the
// wrong directory does not quietly work on a new, empty file; and it names
// the file it opened on standard error.
func (d dataFlags) open(ctx context.Context, e env) (*store.Store, error) {
	if store.IsPostgres(*d.path) {
		return openDatabase(ctx, e, *d.path, *d.create)
	}
	path, err := filepath.Abs(*d.path)
	if err != nil {
		return nil, err
	}
	switch _, err := os.Stat(path); {
	case errors.Is(err, os.ErrNotExist) && !*d.create:
		return nil, fmt.Errorf("no data file at %s: name it with --data FILE or PASSBOOK_DATA (the one 'passbook serve' uses), or add --create to make a new one", path)
	case errors.Is(err, os.ErrNotExist):
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			return nil, fmt.Errorf("cannot create %s: %w", path, err)
		}
		fmt.Fprintf(e.stderr, "creating data file %s\n", path)
	case err != nil:
		return nil, fmt.Errorf("data file %s: %w", path, err)
	default:
		fmt.Fprintf(e.stderr, "data file %s\n", path)
	}
	return store.Open(ctx, path)
}

// openDatabase opens a PostgreSQL database for an administration command:
// only one that holds Passbook's tables, unless create is set, so a URL that
// names the wrong database does not quietly get tables of its own.
func openDatabase(ctx context.Context, e env, dsn string, create bool) (*store.Store, error) {
	ok, err := store.HasSchema(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if !ok && !create {
		return nil, errors.New("the database holds no Passbook tables: name the one 'passbook serve' uses with --data or PASSBOOK_DATA, or add --create to make them")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(e.stderr, "database %s\n", st.Describe())
	return st, nil
}

// subcmd is one sub-command of accounts or keys: its name, the words it
// takes, and how many of them.
type subcmd struct {
	name, args string
	min, max   int
	about      string
}

// subcommand splits off the word after a command ("accounts create ...")
// and gives a flag set for what follows it. "accounts" alone, or with
// --help, prints the group's help.
func subcommand(e env, name string, subs []subcmd) (subcmd, *flag.FlagSet, env, error) {
	var groupHelp strings.Builder
	fmt.Fprintf(&groupHelp, "usage:\n")
	for _, sc := range subs {
		fmt.Fprintf(&groupHelp, "  %s\n      %s\n", strings.TrimSpace("passbook "+name+" "+sc.name+" "+sc.args), sc.about)
	}
	fmt.Fprintf(&groupHelp, "\n'passbook %s SUB-COMMAND --help' lists its flags.\n", name)
	if len(e.args) == 0 {
		fmt.Fprint(e.stderr, groupHelp.String())
		return subcmd{}, nil, e, fmt.Errorf("%s needs a sub-command", name)
	}
	word := e.args[0]
	if word == "-h" || word == "-help" || word == "--help" || word == "help" {
		fmt.Fprint(e.stdout, groupHelp.String())
		return subcmd{}, nil, e, errHelp
	}
	for _, sc := range subs {
		if sc.name == word {
			e.args = e.args[1:]
			return sc, newFlags(name + " " + word), e, nil
		}
	}
	fmt.Fprint(e.stderr, groupHelp.String())
	return subcmd{}, nil, e, fmt.Errorf("%s: unknown sub-command %q", name, word)
}

// parse parses a sub-command's flags and checks its words, before any data
// file is opened.
func (sc subcmd) parse(fs *flag.FlagSet, e env, group string) ([]string, error) {
	pos, err := parse(fs, e.args, e, help{strings.TrimSpace(group + " " + sc.name + " " + sc.args), sc.about})
	if err != nil {
		return nil, err
	}
	if len(pos) < sc.min || len(pos) > sc.max {
		return nil, fmt.Errorf("usage: %s (see 'passbook %s %s --help')", strings.TrimSpace("passbook "+group+" "+sc.name+" "+sc.args), group, sc.name)
	}
	return pos, nil
}

var accountsCommands = []subcmd{
	{"create", "EMAIL [--plan P] [--create]", 1, 1, "creates an account and prints its first API key"},
	{"list", "", 0, 0, "lists the accounts with their plan, use this period and credits"},
	{"set-plan", "EMAIL PLAN", 2, 2, "moves an account to free, professional, business, enterprise or admin"},
	{"grant-credits", "EMAIL PAGES", 2, 2, "gives an account extra pages, spent once its period's quota is used"},
	{"members", "EMAIL", 1, 1, "lists the members of the office that EMAIL (the account's or a member's) belongs to"},
	{"add-member", "EMAIL NEW-EMAIL [--role R]", 2, 2, "adds a member (staff, read_only or owner) to EMAIL's office and prints a password for them, once"},
	{"set-role", "EMAIL ROLE", 2, 2, "gives a member another role: owner, staff or read_only"},
	{"remove-member", "EMAIL", 1, 1, "takes a member out of their office: their keys, sessions, invitations and upload links stop at once"},
	{"reset-password", "EMAIL [--password-stdin]", 1, 1, "sets a new password for a member (printed once, or read from standard input) and signs them out everywhere"},
	{"rename", "EMAIL NAME", 2, 2, "names EMAIL's office, as its clients see it on their upload links"},
}

func cmdAccounts(ctx context.Context, e env) error {
	sc, fs, e, err := subcommand(e, "accounts", accountsCommands)
	if err != nil {
		return err
	}
	var plan, role *string
	var fromStdin *bool
	switch sc.name {
	case "create":
		plan = fs.String("plan", "free", "plan: free, professional, business, enterprise or admin")
	case "add-member":
		role = fs.String("role", "staff", "role: owner, staff or read_only")
	case "reset-password":
		fromStdin = fs.Bool("password-stdin", false, "read the new password from standard input's first line instead of making one")
	}
	data := newDataFlags(fs, e, sc.name == "create")
	pos, err := sc.parse(fs, e, "accounts")
	if err != nil {
		return err
	}
	st, err := data.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sc.name {
	case "create":
		p, err := quota.ParsePlan(*plan)
		if err != nil {
			return err
		}
		acc, err := st.CreateAccount(ctx, pos[0], p)
		if err != nil {
			return err
		}
		key, _, err := st.CreateKey(ctx, acc.ID, "created with the account")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "created %s (%s); API key, shown only this once:\n%s\n", acc.Email, acc.Plan, key)
		return nil
	case "list":
		accs, err := st.Accounts(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EMAIL\tPLAN\tUSED\tLIMIT\tPERIOD\tCREDITS")
		for _, a := range accs {
			u, err := st.Usage(ctx, a.ID)
			if err != nil {
				return err
			}
			limit := strconv.Itoa(u.Limit)
			if a.Plan.Unlimited() {
				limit = "none"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\n", a.Email, a.Plan, u.Used, limit, u.Period, a.Credits)
		}
		return tw.Flush()
	case "set-plan":
		p, err := quota.ParsePlan(pos[1])
		if err != nil {
			return err
		}
		if err := st.SetPlan(ctx, pos[0], p); err != nil {
			return err
		}
		if acc, err := st.AccountByEmail(ctx, pos[0]); err == nil {
			adminRecord(ctx, e, st, acc.ID, store.Event{Action: store.ActPlanChange, Detail: string(p)})
		}
		fmt.Fprintf(e.stdout, "%s is now on the %s plan\n", pos[0], p)
		return nil
	case "members", "add-member", "set-role", "remove-member", "reset-password", "rename":
		return officeCommand(ctx, e, st, sc.name, pos, role, fromStdin)
	default: // grant-credits
		n, err := strconv.Atoi(pos[1])
		if err != nil {
			return fmt.Errorf("grant-credits: %q is not a number of pages", pos[1])
		}
		if err := st.GrantCredits(ctx, pos[0], n); err != nil {
			return err
		}
		if acc, err := st.AccountByEmail(ctx, pos[0]); err == nil {
			adminRecord(ctx, e, st, acc.ID, store.Event{Action: store.ActCreditsGranted, Detail: strconv.Itoa(n) + " pages"})
		}
		fmt.Fprintf(e.stdout, "granted %d pages of credit to %s\n", n, pos[0])
		return nil
	}
}

// adminRecord writes what an administration command did to an office in
// its trail, as the box's administrator; a failure to is a warning.
func adminRecord(ctx context.Context, e env, st *store.Store, account int64, ev store.Event) {
	ev.AccountID, ev.Actor, ev.Address = account, "admin", "passbook command"
	if err := st.Record(ctx, ev); err != nil {
		fmt.Fprintf(e.stderr, "warning: not recorded in the audit trail: %v\n", err)
	}
}

// officeOf finds the office an address belongs to: a member's, or an
// account's own.
func officeOf(ctx context.Context, st *store.Store, email string) (store.Account, error) {
	if c, _, err := st.MemberByEmail(ctx, email); err == nil {
		return c.Account, nil
	}
	acc, err := st.AccountByEmail(ctx, email)
	if err != nil {
		return store.Account{}, fmt.Errorf("no member or account %s: %w", email, err)
	}
	return acc, nil
}

// officeCommand runs the accounts sub-commands about an office's members;
// each change is written to the office's trail as the administrator's.
func officeCommand(ctx context.Context, e env, st *store.Store, name string, pos []string, role *string, fromStdin *bool) error {
	record := func(acc store.Account, action, detail string) {
		adminRecord(ctx, e, st, acc.ID, store.Event{Action: action, Detail: detail})
	}
	switch name {
	case "members":
		acc, err := officeOf(ctx, st, pos[0])
		if err != nil {
			return err
		}
		ms, err := st.Members(ctx, acc.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "office %q (%s)\n", acc.Name, acc.Email)
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tEMAIL\tROLE\tPASSWORD\tSINCE\tREMOVED")
		for _, m := range ms {
			pw, removed := "no", ""
			if m.HasPassword {
				pw = "set"
			}
			if m.RemovedAt != nil {
				removed = m.RemovedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", m.ID, m.Email, m.Role, pw, m.CreatedAt.Format(time.RFC3339), removed)
		}
		return tw.Flush()
	case "add-member":
		acc, err := officeOf(ctx, st, pos[0])
		if err != nil {
			return err
		}
		r, err := store.ParseRole(*role)
		if err != nil {
			return err
		}
		pw, err := store.NewPassword()
		if err != nil {
			return err
		}
		hash, err := store.HashPassword(pw)
		if err != nil {
			return err
		}
		m, err := st.AddMember(ctx, acc.ID, pos[1], r, hash)
		if err != nil {
			return err
		}
		record(acc, store.ActMemberJoin, m.Email+" as "+string(m.Role))
		fmt.Fprintf(e.stdout, "added %s to %q as %s; password, shown only this once:\n%s\n", m.Email, acc.Name, m.Role, pw)
		return nil
	case "rename":
		acc, err := officeOf(ctx, st, pos[0])
		if err != nil {
			return err
		}
		if err := st.RenameOffice(ctx, acc.ID, pos[1]); err != nil {
			return err
		}
		record(acc, store.ActOfficeRename, pos[1])
		fmt.Fprintf(e.stdout, "%s's office is now %q\n", acc.Email, strings.TrimSpace(pos[1]))
		return nil
	}
	c, _, err := st.MemberByEmail(ctx, pos[0])
	if err != nil {
		return fmt.Errorf("no member %s: %w", pos[0], err)
	}
	switch name {
	case "set-role":
		r, err := store.ParseRole(pos[1])
		if err != nil {
			return err
		}
		if _, err := st.SetRole(ctx, c.Account.ID, c.Member.ID, r); err != nil {
			return err
		}
		record(c.Account, store.ActMemberRole, c.Member.Email+" is now "+string(r))
		fmt.Fprintf(e.stdout, "%s is now %s of %q\n", c.Member.Email, r, c.Account.Name)
	case "remove-member":
		rm, err := st.RemoveMember(ctx, c.Account.ID, c.Member.ID, 0)
		if err != nil {
			return err
		}
		record(c.Account, store.ActMemberRemove, fmt.Sprintf("%s; %d upload links revoked", c.Member.Email, rm.LinksRevoked))
		fmt.Fprintf(e.stdout, "removed %s from %q; their keys, sessions, invitations and %d upload links no longer work\n",
			c.Member.Email, c.Account.Name, rm.LinksRevoked)
	default: // reset-password
		var pw string
		if *fromStdin {
			line, err := bufio.NewReader(e.stdin).ReadString('\n')
			if err != nil && line == "" {
				return fmt.Errorf("reset-password: no password on standard input")
			}
			pw = strings.TrimRight(line, "\r\n")
		} else if pw, err = store.NewPassword(); err != nil {
			return err
		}
		hash, err := store.HashPassword(pw)
		if err != nil {
			return err
		}
		if err := st.SetPassword(ctx, c.Member.ID, hash); err != nil {
			return err
		}
		record(c.Account, store.ActPasswordReset, c.Member.Email)
		if *fromStdin {
			fmt.Fprintf(e.stdout, "new password set for %s; their sessions have ended\n", c.Member.Email)
		} else {
			fmt.Fprintf(e.stdout, "new password for %s, shown only this once (their sessions have ended):\n%s\n", c.Member.Email, pw)
		}
	}
	return nil
}

var keysCommands = []subcmd{
	{"create", "EMAIL [--label L]", 1, 1, "makes a new API key for an account and prints it once (also to recover a lost key)"},
	{"list", "[EMAIL]", 0, 1, "lists keys by their first characters, never whole"},
	{"revoke", "ID", 1, 1, "revokes a key at once (IDs from 'passbook keys list')"},
}

func cmdKeys(ctx context.Context, e env) error {
	sc, fs, e, err := subcommand(e, "keys", keysCommands)
	if err != nil {
		return err
	}
	label := new(string)
	if sc.name == "create" {
		label = fs.String("label", "", "a note on what the key is for")
	}
	data := newDataFlags(fs, e, false)
	pos, err := sc.parse(fs, e, "keys")
	if err != nil {
		return err
	}
	var id int64
	if sc.name == "revoke" {
		if id, err = strconv.ParseInt(pos[0], 10, 64); err != nil {
			return fmt.Errorf("revoke: %q is not a key ID (see 'passbook keys list')", pos[0])
		}
	}
	st, err := data.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sc.name {
	case "create":
		// A member's address makes a key that acts as that member; an
		// account's own address, one for its first owner.
		if c, _, err := st.MemberByEmail(ctx, pos[0]); err == nil {
			key, k, err := st.CreateMemberKey(ctx, c.Member.ID, *label)
			if err != nil {
				return err
			}
			adminRecord(ctx, e, st, c.Account.ID, store.Event{Action: store.ActKeyCreate, MemberID: c.Member.ID, Detail: k.Prefix + "… for " + c.Member.Email})
			fmt.Fprintf(e.stdout, "key %d for %s (%s of %q), shown only this once:\n%s\n", k.ID, c.Member.Email, c.Member.Role, c.Account.Name, key)
			return nil
		}
		acc, err := st.AccountByEmail(ctx, pos[0])
		if err != nil {
			return fmt.Errorf("account %s: %w", pos[0], err)
		}
		key, k, err := st.CreateKey(ctx, acc.ID, *label)
		if err != nil {
			return err
		}
		adminRecord(ctx, e, st, acc.ID, store.Event{Action: store.ActKeyCreate, MemberID: k.MemberID, Detail: k.Prefix + "… for " + acc.Email})
		fmt.Fprintf(e.stdout, "key %d for %s, shown only this once:\n%s\n", k.ID, acc.Email, key)
		return nil
	case "list":
		email := ""
		if len(pos) == 1 {
			email = pos[0]
		}
		keys, err := st.Keys(ctx, email)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tEMAIL\tKEY\tLABEL\tCREATED\tREVOKED")
		for _, k := range keys {
			revoked := ""
			if k.RevokedAt != nil {
				revoked = k.RevokedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s…\t%s\t%s\t%s\n", k.ID, k.Email, k.Prefix, k.Label, k.CreatedAt.Format(time.RFC3339), revoked)
		}
		return tw.Flush()
	default: // revoke
		if err := st.RevokeKey(ctx, id); err != nil {
			return err
		}
		if keys, err := st.Keys(ctx, ""); err == nil {
			for _, k := range keys {
				if k.ID == id {
					adminRecord(ctx, e, st, k.AccountID, store.Event{Action: store.ActKeyRevoke, MemberID: k.MemberID, Detail: k.Prefix + "… of " + k.Email})
				}
			}
		}
		fmt.Fprintf(e.stdout, "revoked key %d\n", id)
		return nil
	}
}

var backupHelp = help{"backup FILE [--data passbook.db|postgres://...]", `Writes a consistent copy of the data file to FILE, a new file, while the
server runs. To restore, stop the server and put the copy in the data
file's place (README.md, "Backup and restore").

On PostgreSQL, FILE is an archive of pg_dump's custom format (pg_dump must
be installed, as new as the server); pg_restore loads it into an empty
database (README.md says how).`}

func cmdBackup(ctx context.Context, e env) error {
	fs := newFlags("backup")
	data := newDataFlags(fs, e, false)
	pos, err := parse(fs, e.args, e, backupHelp)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("backup takes the path of the copy to write (see 'passbook backup --help')")
	}
	if _, err := os.Stat(pos[0]); err == nil {
		return fmt.Errorf("backup: %s exists; name a new file", pos[0])
	}
	st, err := data.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", pos[0])
	return nil
}

var auditHelp = help{"audit verify [--data passbook.db|postgres://...]", `Walks the whole audit trail in order and checks each line's hash against
its fields and the line before it. It exits 0 and prints the number of
lines and the last line's id and hash when the chain is whole, and exits
1 naming the first line that breaks it otherwise.

The database refuses to change, delete or replace a line, or to add one
anywhere but at the end; the chain shows what was done behind its back.
It cannot show a trail rewritten whole, with every hash computed again,
by someone who can write to the database: keep the last hash this prints
somewhere else, and compare it later. Lines written before this version
carry no hash; they are counted apart.`}

func cmdAudit(ctx context.Context, e env) error {
	fs := newFlags("audit")
	data := newDataFlags(fs, e, false)
	pos, err := parse(fs, e.args, e, auditHelp)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "verify" {
		return errors.New("audit takes one subcommand, verify (see 'passbook audit --help')")
	}
	st, err := data.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := st.VerifyAudit(ctx)
	if err != nil {
		return err
	}
	if c.BrokenAt != 0 {
		return fmt.Errorf("audit trail broken at line %d: %s (%d lines)", c.BrokenAt, c.Broken, c.Lines)
	}
	fmt.Fprintf(e.stdout, "audit trail whole: %d lines (%d from before the chain began); last line %d, hash %s\n",
		c.Lines, c.Unchained, c.LastID, c.LastHash)
	return nil
}

var migrateHelp = help{"migrate --from passbook.db --to postgres://...", `Copies everything in a data file into an empty PostgreSQL database:
accounts, key hashes (keys keep working), documents with their files,
results and corrections, the quota ledger, queued jobs and folders, with
their ids.
It makes the database's tables, copies in one transaction, and then checks
that every table holds as many rows as the file. Stop the server first:
what is uploaded to the file afterwards is not copied. The data file is
left as it was (brought up to this version's schema).`}

func cmdMigrate(ctx context.Context, e env) error {
	fs := newFlags("migrate")
	from := fs.String("from", "", "the SQLite data `file` to copy")
	to := fs.String("to", "", "the PostgreSQL database `URL` to copy into (an empty database)")
	pos, err := parse(fs, e.args, e, migrateHelp)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *from == "" || *to == "" {
		return errors.New("usage: passbook migrate --from passbook.db --to postgres://... (see 'passbook migrate --help')")
	}
	if store.IsPostgres(*from) || !store.IsPostgres(*to) {
		return errors.New("migrate copies a data file (--from FILE) into PostgreSQL (--to postgres://...)")
	}
	path, err := filepath.Abs(*from)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("migrate: no data file at %s: %w", path, err)
	}
	src, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := store.Open(ctx, *to)
	if err != nil {
		return err
	}
	defer dst.Close()
	fmt.Fprintf(e.stderr, "copying %s into %s\n", path, dst.Describe())
	counts, err := store.Copy(ctx, src, dst)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tROWS")
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%d\n", c.Table, c.Rows)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "copied and checked: every table holds as many rows as the data file. Serve with --data %s\n", dst.Describe())
	return nil
}

var documentsCommands = []subcmd{
	{"list", "EMAIL [--limit N]", 1, 1, "lists an account's documents, newest first, with their status and balance check"},
	{"delete", "FILE_ID", 1, 1, "deletes a document's file, results and corrections at once; its pages stay charged"},
}

func cmdDocuments(ctx context.Context, e env) error {
	sc, fs, e, err := subcommand(e, "documents", documentsCommands)
	if err != nil {
		return err
	}
	limit := new(int)
	if sc.name == "list" {
		limit = fs.Int("limit", 50, "how many documents to list")
	}
	data := newDataFlags(fs, e, false)
	pos, err := sc.parse(fs, e, "documents")
	if err != nil {
		return err
	}
	if sc.name == "list" && *limit < 1 {
		return fmt.Errorf("documents list: --limit must be at least 1 (got %d)", *limit)
	}
	st, err := data.open(ctx, e)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sc.name {
	case "list":
		acc, err := st.AccountByEmail(ctx, pos[0])
		if err != nil {
			return fmt.Errorf("account %s: %w", pos[0], err)
		}
		docs, next, err := st.Documents(ctx, acc.ID, *limit, "")
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "FILE_ID\tCREATED\tPAGES\tSTATUS\tTRANSACTIONS\tRECONCILIATION\tNAME")
		for _, d := range docs {
			rec := d.Reconciliation
			if d.EditedAt != nil {
				rec += " (edited)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%d\t%s\t%s\n", d.ID, d.CreatedAt.Format(time.RFC3339), d.PageCount, d.Status,
				d.TransactionCount, rec, d.OriginalName)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if next != "" {
			fmt.Fprintf(e.stdout, "(more: raise --limit)\n")
		}
		return nil
	default: // delete
		d, err := st.Document(ctx, pos[0])
		if err != nil {
			return err
		}
		if err := st.DeleteDocument(ctx, pos[0]); err != nil {
			return err
		}
		adminRecord(ctx, e, st, d.AccountID, store.Event{Action: store.ActDelete, DocumentID: d.ID, Detail: d.OriginalName})
		fmt.Fprintf(e.stdout, "deleted %s (its pages stay charged)\n", pos[0])
		return nil
	}
}
