// Package store owns Passbook's database and every SQL statement: accounts,
// API keys, documents with their bytes and results, the job queue and the
// quota ledger. The database is one SQLite data file (the default) or a
// PostgreSQL database that several nodes share; both take the same
// statements but for a few, chosen by dialect.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Sentinel errors of the store.
var (
	// ErrNotFound means no row matched.
	ErrNotFound = errors.New("not found")
	// ErrExists means a unique value (an e-mail address) is taken.
	ErrExists = errors.New("already exists")
	// ErrNoJob means the queue is empty.
	ErrNoJob = errors.New("no job queued")
	// ErrFull means the data file could not grow: the disk (or its quota)
	// is full.
	ErrFull = errors.New("the data file's disk is full")
)

// Each dialect has its own numbered migrations, side by side: a change to
// the schema is a file in each directory, under the same number.
//
//go:embed migrations/*.sql migrations/postgres/*.sql
var migrations embed.FS

// migrationDirs is where each dialect's migrations are.
var migrationDirs = map[dialect]string{sqliteDB: "migrations", postgresDB: "migrations/postgres"}

// DefaultLease is how long a claimed job stays its claimer's without a
// renewal (RenewLease): a node that dies holding a job loses it to another
// node this long after its last renewal. Its holder renews it every third
// of it (5 s), so a dead node's jobs move within 15 s of its last renewal
// and an idle node's next poll (issue 41 point 11: within 30 s in all).
const DefaultLease = 15 * time.Second

// Store is the database. On SQLite, writes go through one connection, so
// they are serialised and each write transaction sees the last one's
// effects, and reads use a pool. On PostgreSQL both are one pool, and the
// statements that must not interleave lock the rows they read.
type Store struct {
	w, r db
	d    dialect
	// path is the SQLite data file; dsn the PostgreSQL URL.
	path, dsn string
	// Now is the clock; tests replace it.
	Now func() time.Time
	// Loc is the time zone of quota periods (UTC by default).
	Loc *time.Location
	// Lease is how long ClaimJob gives a worker before another node may
	// take the job over (DefaultLease).
	Lease time.Duration
	// node names this store in the claims it makes: host, pid and a
	// random part (two stores of one process are two nodes).
	node string

	keys   keyCache
	status statusCache
	stmts  statusStmts
	// stopWatch ends the goroutine that keeps the status cache true.
	stopWatch func()
}

// Open opens the database that data names and migrates it: a postgres://
// URL is a PostgreSQL database (which must exist), anything else the path
// of a SQLite data file, created if need be.
func Open(ctx context.Context, data string) (*Store, error) {
	host, _ := os.Hostname()
	node, err := randomString(host+"/"+strconv.Itoa(os.Getpid())+"/", 6)
	if err != nil {
		return nil, err
	}
	s := &Store{Now: time.Now, Loc: time.UTC, Lease: DefaultLease, node: node}
	if IsPostgres(data) {
		err = s.openPostgres(ctx, data)
	} else {
		err = s.openSQLite(ctx, data)
	}
	if err != nil {
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("prepare: %w", err)
	}
	watchCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { defer close(done); s.watch(watchCtx) }()
	s.stopWatch = func() { cancel(); <-done }
	return s, nil
}

func (s *Store) openSQLite(ctx context.Context, path string) error {
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=secure_delete(1)"
	u := "file:" + (&url.URL{Path: path}).EscapedPath() + "?"
	w, err := sql.Open("sqlite", u+pragmas+"&_txlock=immediate")
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	s.d, s.path, s.w = sqliteDB, path, db{w, sqliteDB}
	if err := s.checkPragmas(ctx, w); err != nil {
		w.Close()
		return fmt.Errorf("open data file %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return fmt.Errorf("open data file %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", u+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return fmt.Errorf("open %s: %w", path, err)
	}
	// As many idle connections as open ones: database/sql keeps 2 by
	// default, and opening a connection (the file, its pragmas) for each
	// request past two in flight cost GET /status most of its time.
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	s.r = db{r, sqliteDB}
	return nil
}

// postgresConns bounds one node's connections to PostgreSQL (the server's
// default max_connections is 100).
const postgresConns = 16

func (s *Store) openPostgres(ctx context.Context, dsn string) error {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return fmt.Errorf("open %s: %w", redact(dsn), err)
	}
	p.SetMaxOpenConns(postgresConns)
	p.SetMaxIdleConns(postgresConns)
	p.SetConnMaxIdleTime(5 * time.Minute)
	s.d, s.dsn = postgresDB, dsn
	s.w, s.r = db{p, postgresDB}, db{p, postgresDB}
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return fmt.Errorf("open database %s: %w", redact(dsn), err)
	}
	if err := s.migrate(ctx); err != nil {
		p.Close()
		return fmt.Errorf("open database %s: %w", redact(dsn), err)
	}
	return nil
}

// redact is a database URL with its password hidden, for messages and logs.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(a database URL that does not parse)"
	}
	return u.Redacted()
}

// Describe names the database for the log: the data file's path, or the
// PostgreSQL URL without its password.
func (s *Store) Describe() string {
	if s.d == postgresDB {
		return redact(s.dsn)
	}
	return s.path
}

// Close closes the database.
func (s *Store) Close() error {
	if s.stopWatch != nil {
		s.stopWatch()
	}
	for _, st := range []*sql.Stmt{s.stmts.callerByKey, s.stmts.callerBySession, s.stmts.document, s.stmts.status} {
		if st != nil {
			st.Close()
		}
	}
	if s.d == postgresDB {
		return s.w.Close()
	}
	var rerr error
	if s.r.DB != nil {
		rerr = s.r.Close()
	}
	return errors.Join(rerr, s.w.Close())
}

// checkPragmas verifies the DSN's settings took effect: modernc ignores
// pragma keys it does not know, silently.
func (s *Store) checkPragmas(ctx context.Context, db *sql.DB) error {
	var mode string
	var fk, timeout, secure int
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("read journal_mode: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return fmt.Errorf("read foreign_keys: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&timeout); err != nil {
		return fmt.Errorf("read busy_timeout: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA secure_delete").Scan(&secure); err != nil {
		return fmt.Errorf("read secure_delete: %w", err)
	}
	if !strings.EqualFold(mode, "wal") || fk != 1 || timeout == 0 || secure != 1 {
		return fmt.Errorf("data file settings not applied (journal_mode=%s foreign_keys=%d busy_timeout=%d secure_delete=%d)", mode, fk, timeout, secure)
	}
	return nil
}

// migrationLock is the PostgreSQL advisory lock nodes take while they
// migrate, so that nodes started together apply each migration once.
const migrationLock = 0x70617373 // "pass"

// migrationFiles lists a dialect's migrations by version, checking that
// each name starts with its number and that no two share one.
func migrationFiles(d dialect) ([]int, map[int]string, error) {
	names, err := fs.Glob(migrations, migrationDirs[d]+"/*.sql")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	var versions []int
	byVersion := map[int]string{}
	for _, name := range names {
		base := filepath.Base(name)
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return nil, nil, fmt.Errorf("migration %s: name must start with its number", name)
		}
		// Two branches may each add the next number: the second would
		// be taken as applied and silently skipped.
		if other, ok := byVersion[version]; ok {
			return nil, nil, fmt.Errorf("migrations %s and %s share the number %d: renumber one", filepath.Base(other), base, version)
		}
		byVersion[version] = name
		versions = append(versions, version)
	}
	return versions, byVersion, nil
}

// migrate applies, in order, each embedded migration of the store's
// dialect not yet recorded, each in its own transaction. On SQLite foreign
// keys are off meanwhile, so a migration may rebuild a table others refer
// to (SQLite's documented way to change a constraint); each is checked
// with foreign_key_check before it commits. On PostgreSQL an advisory lock
// keeps nodes that start together from migrating at once.
func (s *Store) migrate(ctx context.Context) error {
	conn, err := s.w.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if s.d == postgresDB {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
			return fmt.Errorf("take the migration lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	versions, names, err := migrationFiles(s.d)
	if err != nil {
		return err
	}
	if s.d == sqliteDB {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return err
		}
	}
	for _, version := range versions {
		if err := s.apply(ctx, conn, version, names[version]); err != nil {
			return fmt.Errorf("migration %s: %w", filepath.Base(names[version]), err)
		}
	}
	if s.d == sqliteDB {
		var fk int
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err != nil {
			return err
		}
		if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
			return fmt.Errorf("foreign keys not back on after migrating (%d): %v", fk, err)
		}
	}
	return nil
}

func (s *Store) apply(ctx context.Context, conn *sql.Conn, version int, name string) error {
	sqlTx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	tx := &tx{Tx: sqlTx, d: s.d}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE version = ?", version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	body, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if s.d == sqliteDB {
		rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
		if err != nil {
			return err
		}
		broken := rows.Next()
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		if broken {
			return errors.New("leaves rows whose foreign keys point nowhere")
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", version, s.stamp()); err != nil {
		return err
	}
	return tx.Commit()
}

// what is what the store's database is called in messages.
func (s *Store) what() string {
	if s.d == postgresDB {
		return "database"
	}
	return "data file"
}

// CheckWritable proves the data file takes writes, by rewriting one row in
// a write transaction and committing it: a read-only mount, a full disk or
// a file the server may no longer write fails it; a full disk wraps ErrFull.
func (s *Store) CheckWritable(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s not writable: %w", s.what(), storageErr(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO health (id, checked_at) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`, s.stamp()); err != nil {
		return fmt.Errorf("%s not writable: %w", s.what(), storageErr(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s not writable: %w", s.what(), storageErr(err))
	}
	return nil
}

// ErrNoDisk says the database's disk is not this machine's to measure: a
// PostgreSQL server looks after its own.
var ErrNoDisk = errors.New("the database is not on a local disk")

// FreeBytes is the room left on the data file's disk for this process;
// ErrNoDisk on PostgreSQL.
func (s *Store) FreeBytes() (uint64, error) {
	if s.d == postgresDB {
		return 0, ErrNoDisk
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(s.path), &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", s.path, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// Backup writes a consistent copy of the database to path, while the
// server runs: for SQLite a data file (VACUUM INTO), for PostgreSQL an
// archive of pg_dump's custom format, which pg_restore reads back. The
// pg_dump command must be there (Debian: postgresql-client) and as new as
// the server.
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.d == postgresDB {
		out, err := exec.CommandContext(ctx, "pg_dump", "--format=custom", "--no-owner", "--file="+path, "--dbname="+s.dsn).CombinedOutput()
		if err != nil {
			return fmt.Errorf("backup to %s: pg_dump: %w: %s", path, err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	if _, err := s.w.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

// stamp is the current time as stored: UTC RFC 3339 text.
func (s *Store) stamp() string { return formatTime(s.Now()) }

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTime(v string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, v)
	return t
}

func parseNullTime(v sql.NullString) *time.Time {
	if !v.Valid {
		return nil
	}
	t := parseTime(v.String)
	return &t
}
