// Package store owns Passbook's one SQLite file and every SQL statement:
// accounts, API keys, documents with their bytes and results, the job queue
// and the quota ledger.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
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

// storageErr marks an SQLite "database or disk is full" error with ErrFull,
// matched by its result code; other errors pass unchanged.
func storageErr(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return fmt.Errorf("%w: %w", ErrFull, err)
	}
	return err
}

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the data file. Writes go through one connection, so they are
// serialised and each write transaction sees the last one's effects; reads
// use a pool.
type Store struct {
	w, r *sql.DB
	path string
	// Now is the clock; tests replace it.
	Now func() time.Time
	// Loc is the time zone of quota periods (UTC by default).
	Loc *time.Location

	keys  keyCache
	stmts statusStmts
}

// Open opens (creating if need be) the data file at path and migrates it.
func Open(ctx context.Context, path string) (*Store, error) {
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=secure_delete(1)"
	u := "file:" + (&url.URL{Path: path}).EscapedPath() + "?"
	w, err := sql.Open("sqlite", u+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	s := &Store{w: w, path: path, Now: time.Now, Loc: time.UTC}
	if err := s.checkPragmas(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", u+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r.SetMaxOpenConns(8)
	s.r = r
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("prepare: %w", err)
	}
	return s, nil
}

// Close closes the data file.
func (s *Store) Close() error {
	for _, st := range []*sql.Stmt{s.stmts.accountByKey, s.stmts.document} {
		if st != nil {
			st.Close()
		}
	}
	return errors.Join(s.r.Close(), s.w.Close())
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

// migrate applies, in order, each embedded migration not yet recorded, each
// in its own transaction. Foreign keys are off meanwhile, so a migration may
// rebuild a table others refer to (SQLite's documented way to change a
// constraint); each is checked with foreign_key_check before it commits.
func (s *Store) migrate(ctx context.Context) error {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	seen := map[int]string{}
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: name must start with its number", name)
		}
		// Two branches may each add the next number: the second would
		// be taken as applied and silently skipped.
		if other, ok := seen[version]; ok {
			return fmt.Errorf("migrations %s and %s share the number %d: renumber one", other, base, version)
		}
		seen[version] = base
		if err := s.apply(ctx, conn, version, name); err != nil {
			return fmt.Errorf("migration %s: %w", base, err)
		}
	}
	var fk int
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		return fmt.Errorf("foreign keys not back on after migrating (%d): %v", fk, err)
	}
	return nil
}

func (s *Store) apply(ctx context.Context, conn *sql.Conn, version int, name string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
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
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", version, s.stamp()); err != nil {
		return err
	}
	return tx.Commit()
}

// CheckWritable proves the data file takes writes, by rewriting one row in
// a write transaction and committing it: a read-only mount, a full disk or
// a file the server may no longer write fails it; a full disk wraps ErrFull.
func (s *Store) CheckWritable(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("data file not writable: %w", storageErr(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO health (id, checked_at) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`, s.stamp()); err != nil {
		return fmt.Errorf("data file not writable: %w", storageErr(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("data file not writable: %w", storageErr(err))
	}
	return nil
}

// FreeBytes is the room left on the data file's disk for this process.
func (s *Store) FreeBytes() (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(s.path), &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", s.path, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// Backup writes a consistent copy of the data file to path.
func (s *Store) Backup(ctx context.Context, path string) error {
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
