package main

import (
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
	"strconv"
	"text/tabwriter"
	"time"

	"passbook/export"
	"passbook/extract"
	"passbook/quota"
	"passbook/server"
	"passbook/store"
)

const usage = `usage: passbook COMMAND [flags]

commands:
  serve     [--addr :8080] [--data passbook.db] [--tz UTC]   run the API, the web page and the workers
  extract   [--format json|csv|xlsx] [-o FILE] [--password P] STATEMENT
                                                             convert one file, no server, no data file
  accounts  create EMAIL [--plan P] | list | set-plan EMAIL PLAN | grant-credits EMAIL PAGES
  keys      create EMAIL [--label L] | list [EMAIL] | revoke ID
  documents list EMAIL [--limit N] | delete FILE_ID          an account's documents, newest first; delete one
  backup    FILE [--data passbook.db]                        write a consistent copy of the data file

Administration commands take --data (default passbook.db).
`

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
	switch args[0] {
	case "serve":
		return cmdServe(ctx, e, nil)
	case "extract":
		return cmdExtract(ctx, e)
	case workerCommand:
		return extract.ServeWorker(stdin, stdout)
	case "accounts":
		return cmdAccounts(ctx, e)
	case "keys":
		return cmdKeys(ctx, e)
	case "documents":
		return cmdDocuments(ctx, e)
	case "backup":
		return cmdBackup(ctx, e)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// workerCommand makes the binary a conversion child process.
const workerCommand = "worker"

// converter runs conversions in children of this very binary.
func converter() (extract.Isolated, error) {
	exe, err := os.Executable()
	if err != nil {
		return extract.Isolated{}, fmt.Errorf("find own binary for the worker: %w", err)
	}
	return extract.Isolated{Exe: exe, Args: []string{workerCommand}, Limits: extract.DefaultLimits}, nil
}

func newFlags(name string, e env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

// parse parses flags that may stand before or after positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// cmdServe runs the server until ctx is done. ready, when set, receives the
// address it listens on (tests listen on port 0).
func cmdServe(ctx context.Context, e env, ready chan<- string) error {
	fs := newFlags("serve", e)
	addr := fs.String("addr", ":8080", "address to listen on")
	data := fs.String("data", "passbook.db", "data file")
	tz := fs.String("tz", "UTC", "time zone of quota periods")
	if _, err := parse(fs, e.args); err != nil {
		return err
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fmt.Errorf("--tz: %w", err)
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	st, err := store.Open(ctx, *data)
	if err != nil {
		return err
	}
	defer st.Close()
	st.Loc = loc
	if err := firstRun(ctx, st, e.stdout); err != nil {
		return err
	}
	conv, err := converter()
	if err != nil {
		return err
	}
	srv := server.New(log, st, conv, server.DefaultConfig())
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}

	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	workDone := make(chan error, 1)
	go func() { workDone <- srv.RunWorkers(workCtx) }()
	serveDone := make(chan error, 1)
	go func() { serveDone <- hs.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "data", *data)
	if ready != nil {
		ready <- ln.Addr().String()
	}

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-serveDone:
	}
	// Stop taking requests, then let workers hand back their jobs, then
	// (deferred) close the data file.
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutCtx); err != nil {
		log.Error("http shutdown", "err", err)
	}
	stopWork()
	workErr := <-workDone
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	return errors.Join(serveErr, workErr)
}

// firstRun makes an administrator account on an empty data file and prints
// its API key, the one time it can be seen.
func firstRun(ctx context.Context, st *store.Store, out io.Writer) error {
	accs, err := st.Accounts(ctx)
	if err != nil || len(accs) > 0 {
		return err
	}
	acc, err := st.CreateAccount(ctx, "admin@localhost", quota.Enterprise)
	if err != nil {
		return err
	}
	key, _, err := st.CreateKey(ctx, acc.ID, "first run")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "New data file: created account %s (enterprise plan).\nIts API key, shown only this once:\n\n    %s\n\n", acc.Email, key)
	return nil
}

func cmdExtract(ctx context.Context, e env) error {
	fs := newFlags("extract", e)
	format := fs.String("format", "json", "json, csv or xlsx")
	outPath := fs.String("o", "", "output file (default standard output)")
	password := fs.String("password", "", "password of an encrypted PDF")
	pos, err := parse(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("extract takes one statement file")
	}
	f, err := export.ParseFormat(*format)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	conv, err := converter()
	if err != nil {
		return err
	}
	res, err := conv.Convert(ctx, data, extract.Options{Password: *password})
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *outPath == "" {
		return export.Write(e.stdout, f, filepath.Base(pos[0]), res)
	}
	file, err := os.Create(*outPath)
	if err != nil {
		return err
	}
	if err := export.Write(file, f, filepath.Base(pos[0]), res); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// openStore opens the data file named by --data for an administration command.
func openStore(ctx context.Context, fs *flag.FlagSet, e env) (*store.Store, []string, error) {
	data := fs.String("data", "passbook.db", "data file")
	pos, err := parse(fs, e.args)
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(ctx, *data)
	return st, pos, err
}

// subcommand splits off the word after a command ("accounts create ...")
// and gives a flag set for what follows it.
func subcommand(e env, name, choices string) (string, *flag.FlagSet, env, error) {
	if len(e.args) == 0 {
		return "", nil, e, fmt.Errorf("%s: %s", name, choices)
	}
	sub := e.args[0]
	e.args = e.args[1:]
	return sub, newFlags(name+" "+sub, e), e, nil
}

func cmdAccounts(ctx context.Context, e env) error {
	sub, fs, e, err := subcommand(e, "accounts", "create, list, set-plan or grant-credits")
	if err != nil {
		return err
	}
	plan := fs.String("plan", "free", "plan: free, professional, business or enterprise")
	st, pos, err := openStore(ctx, fs, e)
	if err != nil {
		return err
	}
	defer st.Close()
	switch {
	case sub == "create" && len(pos) == 1:
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
	case sub == "list" && len(pos) == 0:
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
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\n", a.Email, a.Plan, u.Used, u.Limit, u.Period, a.Credits)
		}
		return tw.Flush()
	case sub == "set-plan" && len(pos) == 2:
		p, err := quota.ParsePlan(pos[1])
		if err != nil {
			return err
		}
		if err := st.SetPlan(ctx, pos[0], p); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is now on the %s plan\n", pos[0], p)
		return nil
	case sub == "grant-credits" && len(pos) == 2:
		n, err := strconv.Atoi(pos[1])
		if err != nil {
			return fmt.Errorf("grant-credits: %q is not a number of pages", pos[1])
		}
		if err := st.GrantCredits(ctx, pos[0], n); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "granted %d pages of credit to %s\n", n, pos[0])
		return nil
	}
	return fmt.Errorf("accounts %s: wrong arguments\n%s", sub, usage)
}

func cmdKeys(ctx context.Context, e env) error {
	sub, fs, e, err := subcommand(e, "keys", "create, list or revoke")
	if err != nil {
		return err
	}
	label := fs.String("label", "", "a note on what the key is for")
	st, pos, err := openStore(ctx, fs, e)
	if err != nil {
		return err
	}
	defer st.Close()
	switch {
	case sub == "create" && len(pos) == 1:
		acc, err := st.AccountByEmail(ctx, pos[0])
		if err != nil {
			return err
		}
		key, k, err := st.CreateKey(ctx, acc.ID, *label)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "key %d for %s, shown only this once:\n%s\n", k.ID, acc.Email, key)
		return nil
	case sub == "list" && len(pos) <= 1:
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
	case sub == "revoke" && len(pos) == 1:
		id, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil {
			return fmt.Errorf("revoke: %q is not a key ID (see 'passbook keys list')", pos[0])
		}
		if err := st.RevokeKey(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "revoked key %d\n", id)
		return nil
	}
	return fmt.Errorf("keys %s: wrong arguments\n%s", sub, usage)
}

func cmdBackup(ctx context.Context, e env) error {
	fs := newFlags("backup", e)
	st, pos, err := openStore(ctx, fs, e)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(pos) != 1 {
		return errors.New("backup takes the path of the copy to write")
	}
	if _, err := os.Stat(pos[0]); err == nil {
		return fmt.Errorf("backup: %s exists; name a new file", pos[0])
	}
	if err := st.Backup(ctx, pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", pos[0])
	return nil
}

func cmdDocuments(ctx context.Context, e env) error {
	sub, fs, e, err := subcommand(e, "documents", "list or delete")
	if err != nil {
		return err
	}
	limit := fs.Int("limit", 50, "how many documents to list")
	st, pos, err := openStore(ctx, fs, e)
	if err != nil {
		return err
	}
	defer st.Close()
	switch {
	case sub == "list" && len(pos) == 1:
		acc, err := st.AccountByEmail(ctx, pos[0])
		if err != nil {
			return err
		}
		docs, next, err := st.Documents(ctx, acc.ID, max(*limit, 1), "")
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
	case sub == "delete" && len(pos) == 1:
		if err := st.DeleteDocument(ctx, pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "deleted %s (its pages stay charged)\n", pos[0])
		return nil
	}
	return fmt.Errorf("documents %s: wrong arguments\n%s", sub, usage)
}
