package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dialect is the SQL database a Store runs on. The store's statements are
// written once, with ? placeholders, in the SQL both databases share; the
// few that cannot be (claiming a job, locking an account, migrations,
// backups) are chosen by dialect in the method that runs them.
type dialect int

const (
	// sqliteDB is the embedded default: one data file, one writer.
	sqliteDB dialect = iota
	// postgresDB is PostgreSQL through pgx: several nodes may share it.
	postgresDB
)

func (d dialect) String() string {
	if d == postgresDB {
		return "postgres"
	}
	return "sqlite"
}

// IsPostgres says whether a --data value names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a data file.
func IsPostgres(data string) bool {
	return strings.HasPrefix(data, "postgres://") || strings.HasPrefix(data, "postgresql://")
}

// rebind turns the ? placeholders of a query into PostgreSQL's $1, $2...
// The store's queries hold no ? inside string literals.
func (d dialect) rebind(q string) string {
	if d != postgresDB || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// forUpdate ends a SELECT that must lock the rows it reads until the
// transaction ends. SQLite needs nothing: its one writer already holds the
// whole file.
func (d dialect) forUpdate() string {
	if d == postgresDB {
		return " FOR UPDATE"
	}
	return ""
}

// isUnique says whether err is a unique constraint's refusal.
func (d dialect) isUnique(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// storageErr marks a "database or disk is full" error (SQLite's SQLITE_FULL,
// PostgreSQL's disk_full) with ErrFull, matched by its code; other errors
// pass unchanged.
func storageErr(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return fmt.Errorf("%w: %w", ErrFull, err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "53100" {
		return fmt.Errorf("%w: %w", ErrFull, err)
	}
	return err
}

// db is a connection pool that takes queries written with ? placeholders
// and hands them to the driver in the store's dialect.
type db struct {
	*sql.DB
	d dialect
}

func (p db) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return p.DB.ExecContext(ctx, p.d.rebind(q), args...)
}

func (p db) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return p.DB.QueryContext(ctx, p.d.rebind(q), args...)
}

func (p db) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return p.DB.QueryRowContext(ctx, p.d.rebind(q), args...)
}

// Exec, Query and QueryRow take ? placeholders too (tests use them).
func (p db) Exec(q string, args ...any) (sql.Result, error) {
	return p.ExecContext(context.Background(), q, args...)
}

func (p db) Query(q string, args ...any) (*sql.Rows, error) {
	return p.QueryContext(context.Background(), q, args...)
}

func (p db) QueryRow(q string, args ...any) *sql.Row {
	return p.QueryRowContext(context.Background(), q, args...)
}

func (p db) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	return p.DB.PrepareContext(ctx, p.d.rebind(q))
}

func (p db) BeginTx(ctx context.Context, opts *sql.TxOptions) (*tx, error) {
	t, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &tx{Tx: t, d: p.d}, nil
}

// tx is a transaction that takes queries written with ? placeholders.
type tx struct {
	*sql.Tx
	d dialect
}

func (t *tx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.d.rebind(q), args...)
}

func (t *tx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.d.rebind(q), args...)
}

func (t *tx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.d.rebind(q), args...)
}

// Kind names the database the store runs on: "sqlite" or "postgres".
func (s *Store) Kind() string { return s.d.String() }
