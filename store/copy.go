package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// copyTables are the tables Copy moves, each after those it refers to.
// A new table goes here or in ownTables: TestEveryTableIsCopied fails
// until it is in one of them.
var copyTables = []string{"accounts", "members", "api_keys", "documents", "jobs", "usage", "idempotency_keys", "folders",
	"folder_documents", "transaction_rows", "sessions", "invites", "upload_links", "audit"}

// ownTables are the tables each database keeps for itself: its migrations
// and the readiness check's row.
var ownTables = []string{"schema_migrations", "health"}

// TableCount is how many rows of a table a copy found and wrote.
type TableCount struct {
	Table string
	Rows  int
}

// HasSchema says whether the PostgreSQL database at dsn holds Passbook's
// tables, without creating them; administration commands refuse an empty
// database unless told to create them.
func HasSchema(ctx context.Context, dsn string) (bool, error) {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return false, fmt.Errorf("open %s: %w", redact(dsn), err)
	}
	defer p.Close()
	var name sql.NullString
	if err := p.QueryRowContext(ctx, "SELECT to_regclass('schema_migrations')::text").Scan(&name); err != nil {
		return false, fmt.Errorf("open database %s: %w", redact(dsn), err)
	}
	return name.Valid, nil
}

// Copy moves everything in a SQLite data file into an empty PostgreSQL
// database, in one transaction on each side (a consistent snapshot of the
// file, and all or nothing in the database): accounts, key hashes,
// documents with their bytes, results and edits, jobs, the quota ledger,
// Idempotency-Keys and folders, with their ids (and a folder's documents in
// the order they were added). Jobs left running become queued.
// It then counts each table on both sides and fails unless they agree.
func Copy(ctx context.Context, from, to *Store) ([]TableCount, error) {
	if from.d != sqliteDB || to.d != postgresDB {
		return nil, errors.New("copy: from a SQLite data file to a PostgreSQL database only")
	}
	var n int
	if err := to.r.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM documents)").Scan(&n); err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	if n > 0 {
		return nil, fmt.Errorf("copy: the database %s already holds accounts or documents: copy into an empty one", to.Describe())
	}
	src, err := from.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	defer src.Rollback()
	dst, err := to.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	defer dst.Rollback()
	var counts []TableCount
	for _, table := range copyTables {
		rows, err := copyTable(ctx, src, dst, table)
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", table, err)
		}
		counts = append(counts, TableCount{table, rows})
	}
	if _, err := dst.ExecContext(ctx, `UPDATE jobs SET state = 'queued', claimed_at = NULL, lease_until = NULL, claim = NULL
		WHERE state = 'running'`); err != nil {
		return nil, fmt.Errorf("copy: queue running jobs: %w", err)
	}
	if err := restartIdentities(ctx, dst); err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	for _, c := range counts {
		var n int
		if err := dst.QueryRowContext(ctx, "SELECT count(*) FROM "+c.Table).Scan(&n); err != nil {
			return nil, fmt.Errorf("copy: count %s: %w", c.Table, err)
		}
		if n != c.Rows {
			return nil, fmt.Errorf("copy: %s: %d rows read, %d in the database", c.Table, c.Rows, n)
		}
	}
	if err := dst.Commit(); err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	return counts, nil
}

// copyTable inserts every row of a SQLite table into the PostgreSQL table
// of the same name, column by column, each value converted to the target
// column's type (SQLite keeps booleans as integers, and may hold text in a
// blob column or the reverse). A source column the target lacks fails the
// copy: the two schemas have drifted.
func copyTable(ctx context.Context, src, dst *tx, table string) (int, error) {
	types, err := columnTypes(ctx, dst, table)
	if err != nil {
		return 0, err
	}
	rows, err := src.QueryContext(ctx, "SELECT * FROM "+table+" ORDER BY rowid")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	for _, c := range cols {
		if _, ok := types[c]; !ok {
			return 0, fmt.Errorf("column %s is not in the PostgreSQL table: a migration lacks its twin", c)
		}
	}
	insert := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		args := make([]any, len(cols))
		for i, c := range cols {
			args[i] = convert(vals[i], types[c])
		}
		if _, err := dst.ExecContext(ctx, insert, args...); err != nil {
			return n, fmt.Errorf("row %d: %w", n+1, err)
		}
		n++
	}
	return n, rows.Err()
}

// columnTypes lists a PostgreSQL table's columns with their types, less
// those the database always fills itself (jobs.seq).
func columnTypes(ctx context.Context, t *tx, table string) (map[string]string, error) {
	rows, err := t.QueryContext(ctx, `SELECT column_name, data_type FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER'
			AND coalesce(identity_generation, '') != 'ALWAYS'`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types := map[string]string{}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, err
		}
		types[name] = typ
	}
	if len(types) == 0 && rows.Err() == nil {
		return nil, fmt.Errorf("no table %s in the database", table)
	}
	return types, rows.Err()
}

// convert gives a SQLite value the Go type the PostgreSQL column takes.
func convert(v any, pgType string) any {
	if b, ok := v.([]byte); ok && b == nil {
		v = []byte{} // an empty blob, not NULL (which scans as nil itself)
	}
	switch pgType {
	case "boolean":
		if n, ok := v.(int64); ok {
			return n != 0
		}
	case "bytea":
		if s, ok := v.(string); ok {
			return []byte(s)
		}
	case "text":
		if b, ok := v.([]byte); ok {
			return string(b)
		}
	}
	return v
}

// restartIdentities moves each identity column's sequence past the ids
// copied in, so that new rows do not take them again.
func restartIdentities(ctx context.Context, t *tx) error {
	rows, err := t.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND identity_generation = 'BY DEFAULT'`)
	if err != nil {
		return err
	}
	var cols [][2]string
	for rows.Next() {
		var c [2]string
		if err := rows.Scan(&c[0], &c[1]); err != nil {
			rows.Close()
			return err
		}
		cols = append(cols, c)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, c := range cols {
		if _, err := t.ExecContext(ctx, fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', '%s'), coalesce(max(%s), 0) + 1, false) FROM %s",
			c[0], c[1], c[1], c[0])); err != nil {
			return fmt.Errorf("restart the ids of %s: %w", c[0], err)
		}
	}
	return nil
}
