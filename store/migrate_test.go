package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"passbook/quota"
)

// applyOnly builds a data file the way an older build left it: only the
// named migrations, recorded as applied.
func applyOnly(t *testing.T, path string, names ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		version, _ := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if _, err := db.Exec("INSERT INTO schema_migrations VALUES (?, '2024-01-01T00:00:00Z')", version); err != nil {
			t.Fatal(err)
		}
	}
	// A document queued with its password on the disk, as before 0005
	// (after it, the column is always empty).
	for _, q := range []string{
		"INSERT INTO accounts (id, email, plan, created_at) VALUES (1, 'old@example.com', 'business', '2024-01-01T00:00:00Z')",
		`INSERT INTO documents (id, account_id, original_name, kind, page_count, size, content, status, created_at)
			VALUES ('old', 1, 'old.pdf', 'pdf', 1, 4, x'25504446', 'processing', '2024-01-01T00:00:00Z')`,
		"INSERT INTO jobs (document_id, state, password, queued_at) VALUES ('old', 'queued', 'hunter2', '2024-01-01T00:00:00Z')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// Migrations from different branches (0005 reliability, 0011 edits and
// deletes) apply to a fresh data file and to one left by a build that had
// either of them only, whichever order they then run in.
func TestMigrationsApplyInEitherOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		had  []string
	}{
		{"fresh", nil},
		{"had 0011 (applies 0005 after it)", []string{"0001_init.sql", "0002_admin_plan_health.sql", "0011_edits_deletes.sql"}},
		{"had 0005", []string{"0001_init.sql", "0002_admin_plan_health.sql", "0005_reliability.sql"}},
		{"had 0002", []string{"0001_init.sql", "0002_admin_plan_health.sql"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "d.db")
			if c.had != nil {
				applyOnly(t, path, c.had...)
			}
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer s.Close()
			if c.had != nil && !strings.Contains(strings.Join(c.had, " "), "0005") {
				var pw string
				var enc bool
				if err := s.r.QueryRow("SELECT password, encrypted FROM jobs WHERE document_id = 'old'").Scan(&pw, &enc); err != nil {
					t.Fatal(err)
				}
				if pw != "" || !enc {
					t.Errorf("old job after upgrade: password %q, encrypted %v; want wiped and encrypted", pw, enc)
				}
			}
			// Both migrations' features work together.
			a := newAccount(t, s, "n@example.com", quota.Business)
			d, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "n.pdf", Kind: "pdf", PageCount: 1,
				Content: []byte("%PDF"), Encrypted: true, IdempotencyKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Idempotent(ctx, a.ID, "k"); err != nil {
				t.Errorf("idempotency key: %v", err)
			}
			docs, _, err := s.Documents(ctx, a.ID, 10, "")
			if err != nil || len(docs) != 1 || docs[0].ID != d.ID {
				t.Errorf("Documents = %v, %v", docs, err)
			}
			if err := s.DeleteDocument(ctx, d.ID); err != nil {
				t.Fatalf("delete: %v", err)
			}
			if _, err := s.Idempotent(ctx, a.ID, "k"); !errors.Is(err, ErrNotFound) {
				t.Errorf("idempotency key after delete: %v, want ErrNotFound", err)
			}
			var n int
			files, _, _ := migrationFiles(sqliteDB)
			if err := s.r.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n != len(files) {
				t.Errorf("schema_migrations rows = %d, %v; want %d", n, err, len(files))
			}
		})
	}
}

// TestReconciliationBackfilled: migration 0022 copies each completed
// document's reconciliation status out of its stored result into its own
// column, which GET /status and listings read from then on.
func TestReconciliationBackfilled(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "d.db")
	applyOnly(t, path, "0001_init.sql", "0002_admin_plan_health.sql", "0005_reliability.sql", "0011_edits_deletes.sql")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for id, result := range map[string]string{
		"mismatch": `{"Transactions":[],"Statement":{"Reconciliation":{"Status":"mismatch"}}}`,
		"ok":       `{"Statement":{"Reconciliation":{"Status":"ok","Detail":"x"}},"Transactions":[{"Date":"2024-01-02T00:00:00Z"}]}`,
		"broken":   `{"Statement":`,
	} {
		if _, err := db.Exec(`INSERT INTO documents (id, account_id, original_name, kind, page_count, size, content, status,
			transaction_count, result, created_at) VALUES (?, 1, 'x.pdf', 'pdf', 1, 1, x'00', 'completed', 3, ?, '2024-01-02T00:00:00Z')`, id, result); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer s.Close()
	for id, want := range map[string]string{"mismatch": "mismatch", "ok": "ok", "broken": "", "old": ""} {
		d, err := s.Document(ctx, id)
		if err != nil || d.Reconciliation != want {
			t.Errorf("%s: reconciliation %q, %v; want %q", id, d.Reconciliation, err, want)
		}
	}
}
