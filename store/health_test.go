package store

import (
	"context"
	"database/sql"
	"os/exec"
	"path/filepath"
	"testing"

	"passbook/quota"
)

// TestMigrationToAdminPlanKeepsData opens a data file made by the first
// migration alone, with an account, a key and a document, and checks the
// rebuild of accounts keeps them and lets an account take the admin plan.
func TestMigrationToAdminPlanKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	v1, err := migrations.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		string(v1),
		"CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
		"INSERT INTO schema_migrations VALUES (1, '2024-01-01T00:00:00Z')",
		"INSERT INTO accounts (id, email, plan, credits, created_at) VALUES (7, 'old@example.com', 'enterprise', 3, '2024-01-01T00:00:00Z')",
		"INSERT INTO api_keys (account_id, hash, prefix, created_at) VALUES (7, x'00', 'uk_abc', '2024-01-01T00:00:00Z')",
		`INSERT INTO documents (id, account_id, original_name, kind, page_count, size, content, status, created_at)
			VALUES ('doc_1', 7, 's.pdf', 'pdf', 1, 1, x'00', 'completed', '2024-01-01T00:00:00Z')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%.40s: %v", q, err)
		}
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open a first-migration data file: %v", err)
	}
	defer s.Close()
	acc, err := s.AccountByEmail(ctx, "old@example.com")
	if err != nil || acc.ID != 7 || acc.Plan != quota.Enterprise || acc.Credits != 3 {
		t.Fatalf("account after migration = %+v, %v; want id 7, enterprise, 3 credits", acc, err)
	}
	if err := s.SetPlan(ctx, "old@example.com", quota.Admin); err != nil {
		t.Fatalf("set the admin plan: %v", err)
	}
	var keys, docs, fk int
	if err := s.r.QueryRow("SELECT (SELECT count(*) FROM api_keys WHERE account_id = 7), (SELECT count(*) FROM documents WHERE account_id = 7)").Scan(&keys, &docs); err != nil || keys != 1 || docs != 1 {
		t.Errorf("keys, documents of the account = %d, %d, %v; want 1, 1", keys, docs, err)
	}
	if err := s.w.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys after migrating = %d, %v; want 1", fk, err)
	}
	if _, err := s.w.Exec("INSERT INTO api_keys (account_id, hash, prefix, created_at) VALUES (99, x'01', 'uk_x', 'now')"); err == nil {
		t.Error("a key for a missing account was accepted: foreign keys are not enforced")
	}
}

func TestAdminPlanHasNoLimit(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		a := newAccount(t, s, "admin@localhost", quota.Admin)
		for range 3 {
			if _, err := upload(s, a.ID, 1000); err != nil {
				t.Fatalf("upload of 1,000 pages on the admin plan: %v", err)
			}
		}
		if got := used(t, s, a.ID); got != 3000 {
			t.Errorf("used = %d, want 3000", got)
		}
	})
}

func TestCheckWritable(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		if err := s.CheckWritable(context.Background()); err != nil {
			t.Fatalf("CheckWritable on a fresh data file: %v", err)
		}
	})
}

// TestCheckWritableFailsOnImmutableFile makes the open data file and its
// journal immutable (chattr +i: as root, a mode bit is not enough) and
// wants the write probe to fail.
func TestCheckWritableFailsOnImmutableFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CheckWritable(context.Background()); err != nil {
		t.Fatal(err)
	}
	files := []string{path, path + "-wal", path + "-shm", dir}
	if out, err := exec.Command("chattr", append([]string{"+i"}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("chattr +i (needs root and a file system with attributes, e.g. ext4): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("chattr", append([]string{"-i"}, files...)...).CombinedOutput(); err != nil {
			t.Errorf("chattr -i: %v: %s", err, out)
		}
	})
	if err := s.CheckWritable(context.Background()); err == nil {
		t.Fatal("CheckWritable succeeded on an immutable data file")
	} else {
		t.Logf("as wanted: %v", err)
	}
}
