package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"passbook/quota"
	"passbook/store/pgtest"
)

// clock is a settable time for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// kinds are the databases a store runs on. Every test that is not about
// one of them runs on each, as subtests named after it; the PostgreSQL
// server is started by pgtest (from Debian's postgresql package), and a
// test fails when it cannot be.
var kinds = []string{"sqlite", "postgres"}

// location makes a new, empty database of a kind for the test: a data
// file's path, or a PostgreSQL database's URL.
func location(t *testing.T, kind string) string {
	t.Helper()
	if kind == "postgres" {
		return pgtest.Database(t)
	}
	return filepath.Join(t.TempDir(), "test.db")
}

// openAt opens the store at loc with a test clock, closed when the test
// ends.
func openAt(t *testing.T, loc string) (*Store, *clock) {
	t.Helper()
	s, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := &clock{t: time.Date(2024, 3, 9, 12, 0, 0, 0, time.UTC)}
	s.Now = c.Now
	return s, c
}

// openTest opens a new SQLite store, for the tests about SQLite alone.
func openTest(t *testing.T) (*Store, *clock) {
	t.Helper()
	return openAt(t, location(t, "sqlite"))
}

// eachStore runs f as a subtest on a new store of each kind.
func eachStore(t *testing.T, f func(t *testing.T, s *Store, c *clock)) {
	t.Helper()
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s, c := openAt(t, location(t, kind))
			f(t, s, c)
		})
	}
}

// eachKind runs f as a subtest with a new, empty database of each kind.
func eachKind(t *testing.T, f func(t *testing.T, kind, loc string)) {
	t.Helper()
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) { f(t, kind, location(t, kind)) })
	}
}

func newAccount(t *testing.T, s *Store, email string, plan quota.Plan) Account {
	t.Helper()
	a, err := s.CreateAccount(context.Background(), email, plan)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func upload(s *Store, accountID int64, pages int) (Document, error) {
	return s.CreateDocument(context.Background(), NewDocument{AccountID: accountID, OriginalName: "s.pdf", Kind: "pdf",
		PageCount: pages, Content: []byte("%PDF-1.4 test")})
}

func used(t *testing.T, s *Store, id int64) int {
	t.Helper()
	u, err := s.Usage(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.Used
}

func TestOpenMigratesOnceAndKeepsData(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, path string) {
		ctx := context.Background()
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateAccount(ctx, "a@example.com", quota.Free); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s, err = Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		defer s.Close()
		var n int
		files, _ := fs.Glob(migrations, migrationDirs[s.d]+"/*.sql")
		if err := s.r.QueryRow("SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n != len(files) {
			t.Errorf("schema_migrations rows = %d, %v; want %d (one a migration)", n, err, len(files))
		}
		if _, err := s.AccountByEmail(ctx, "A@Example.com"); err != nil {
			t.Errorf("account lost across reopen: %v", err)
		}
		if kind == "sqlite" {
			if _, err := s.r.Exec("INSERT INTO accounts (email, plan, created_at) VALUES ('x@y', 'free', 'now')"); err == nil {
				t.Error("the read pool accepted a write")
			}
		}
	})
}

// TestMigrationsHaveTwins: a change to the schema is a migration for each
// dialect, under the same number, so that a branch that adds one to
// SQLite alone fails here rather than on the first PostgreSQL server.
func TestMigrationsHaveTwins(t *testing.T) {
	lite, _, err := migrationFiles(sqliteDB)
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := migrationFiles(postgresDB)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lite, pg) {
		t.Errorf("SQLite migrations %v, PostgreSQL migrations %v: each number needs a file in store/migrations and in store/migrations/postgres", lite, pg)
	}
}

// TestConcurrentUploadsFromTwoNodes races 50 one-page uploads of a free
// account (5 pages a day) through two stores on one database, as two
// nodes are: exactly 5 are taken.
func TestConcurrentUploadsFromTwoNodes(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, loc string) {
		a, _ := openAt(t, loc)
		b, _ := openAt(t, loc)
		acc := newAccount(t, a, "race@example.com", quota.Free)
		var wg sync.WaitGroup
		var ok, refused atomic.Int32
		for i := range 50 {
			node := []*Store{a, b}[i%2]
			wg.Go(func() {
				_, err := upload(node, acc.ID, 1)
				switch {
				case err == nil:
					ok.Add(1)
				case errors.Is(err, quota.ErrExceeded):
					refused.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var docs, charged int
		if err := a.r.QueryRow("SELECT count(*), (SELECT sum(quota_pages) FROM usage) FROM documents").Scan(&docs, &charged); err != nil {
			t.Fatal(err)
		}
		if ok.Load() != 5 || refused.Load() != 45 || used(t, b, acc.ID) != 5 || docs != 5 || charged != 5 {
			t.Errorf("accepted %d, refused %d, used %d, documents %d, pages charged %d; want 5, 45, 5, 5, 5",
				ok.Load(), refused.Load(), used(t, b, acc.ID), docs, charged)
		}
	})
}

func TestKeysAreHashedAndRevocable(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "k@example.com", quota.Free)
		key, k, err := s.CreateKey(ctx, a.ID, "laptop")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(key, "uk_") || len(key) < 3+32 {
			t.Errorf("key %q: want uk_ and at least 32 characters", key)
		}
		var stored int
		if err := s.r.QueryRow("SELECT count(*) FROM api_keys WHERE hash = ? OR prefix = ?", key, key).Scan(&stored); err != nil || stored != 0 {
			t.Errorf("the key is stored in clear (%d rows, %v)", stored, err)
		}
		got, err := s.AccountByKey(ctx, key)
		if err != nil || got.ID != a.ID {
			t.Fatalf("AccountByKey = %+v, %v", got, err)
		}
		if _, err := s.AccountByKey(ctx, key+"x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("wrong key: err = %v, want ErrNotFound", err)
		}
		if err := s.RevokeKey(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AccountByKey(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("revoked key still works: %v", err)
		}
	})
}

func TestQuotaBoundaryChargesNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		a := newAccount(t, s, "f@example.com", quota.Free)
		if _, err := upload(s, a.ID, 3); err != nil {
			t.Fatal(err)
		}
		if _, err := upload(s, a.ID, 2); err != nil {
			t.Fatalf("upload of the last 2 pages: %v", err)
		}
		_, err := upload(s, a.ID, 1)
		var qe *QuotaError
		if !errors.As(err, &qe) || !errors.Is(err, quota.ErrExceeded) {
			t.Fatalf("6th page: err = %v, want a QuotaError", err)
		}
		if want := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC); !qe.Usage.ResetsAt.Equal(want) {
			t.Errorf("ResetsAt = %v, want %v", qe.Usage.ResetsAt, want)
		}
		if got := used(t, s, a.ID); got != 5 {
			t.Errorf("used = %d after a refusal, want 5", got)
		}
		var docs int
		if err := s.r.QueryRow("SELECT count(*) FROM documents").Scan(&docs); err != nil || docs != 2 {
			t.Errorf("documents = %d, want 2 (the refused upload is not stored)", docs)
		}
	})
}

func TestPeriodsReset(t *testing.T) {
	tests := []struct {
		name        string
		plan        quota.Plan
		before, at  time.Time
		usedBefore  int
		usedAtReset int
	}{
		{"daily at midnight", quota.Free,
			time.Date(2024, 3, 9, 23, 59, 59, 0, time.UTC), time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), 5, 0},
		{"monthly at the month's start", quota.Professional,
			time.Date(2024, 3, 31, 23, 59, 0, 0, time.UTC), time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC), 5, 0},
		{"monthly not at midnight", quota.Professional,
			time.Date(2024, 3, 9, 23, 59, 0, 0, time.UTC), time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), 5, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c := openTest(t)
			a := newAccount(t, s, "p@example.com", tt.plan)
			c.Set(tt.before)
			if _, err := upload(s, a.ID, 5); err != nil {
				t.Fatal(err)
			}
			if got := used(t, s, a.ID); got != tt.usedBefore {
				t.Errorf("used before = %d, want %d", got, tt.usedBefore)
			}
			c.Set(tt.at)
			if got := used(t, s, a.ID); got != tt.usedAtReset {
				t.Errorf("used at %v = %d, want %d", tt.at, got, tt.usedAtReset)
			}
		})
	}
}

func TestCreditsAfterQuotaAndRefund(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "c@example.com", quota.Free)
		if err := s.GrantCredits(ctx, a.Email, 10); err != nil {
			t.Fatal(err)
		}
		if _, err := upload(s, a.ID, 4); err != nil {
			t.Fatal(err)
		}
		d, err := upload(s, a.ID, 3) // 1 from quota, 2 from credits
		if err != nil {
			t.Fatal(err)
		}
		acc, _ := s.AccountByID(ctx, a.ID)
		if acc.Credits != 8 || used(t, s, a.ID) != 5 {
			t.Fatalf("after spill: credits %d used %d, want 8 and 5", acc.Credits, used(t, s, a.ID))
		}
		job, err := s.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if job, err = s.ClaimJob(ctx); err != nil || job.DocumentID != d.ID {
			t.Fatalf("second claim = %q, %v; want %s", job.DocumentID, err, d.ID)
		}
		if err := s.FailJob(ctx, job, "unreadable_file", "bad"); err != nil {
			t.Fatal(err)
		}
		acc, _ = s.AccountByID(ctx, a.ID)
		if acc.Credits != 10 || used(t, s, a.ID) != 4 {
			t.Errorf("after refund: credits %d used %d, want 10 and 4", acc.Credits, used(t, s, a.ID))
		}
		if err := s.FailJob(ctx, job, "x", "again"); !errors.Is(err, ErrNotFound) {
			t.Errorf("failing twice: err = %v, want ErrNotFound (no double refund)", err)
		}
		doc, _ := s.Document(ctx, d.ID)
		if doc.Status != StatusFailed || doc.Error != "bad" || doc.ErrorCode != "unreadable_file" {
			t.Errorf("document = %+v", doc)
		}
	})
}

func TestJobLifecycle(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "j@example.com", quota.Business)
		d, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "x.pdf", Kind: "pdf", PageCount: 2,
			Content: []byte("bytes"), Encrypted: true})
		if err != nil {
			t.Fatal(err)
		}
		job, err := s.ClaimJob(ctx)
		if err != nil || !job.Encrypted || job.Password != "" || string(job.Content) != "bytes" || job.Attempts != 0 {
			t.Fatalf("claim = %+v, %v", job, err)
		}
		if _, err := s.ClaimJob(ctx); !errors.Is(err, ErrNoJob) {
			t.Errorf("claiming a running job again: %v, want ErrNoJob", err)
		}
		// A crash of the server leaves it running; start-up queues it again
		// without counting an attempt (on PostgreSQL, once its lease ran
		// out: another node may be running it).
		c.Set(c.Now().Add(s.Lease + time.Second))
		if n, err := s.RequeueInterrupted(ctx); err != nil || n != 1 {
			t.Fatalf("RequeueInterrupted = %d, %v", n, err)
		}
		if job, err = s.ClaimJob(ctx); err != nil || job.Attempts != 0 {
			t.Fatalf("reclaim = %+v, %v; want 0 attempts (the server died, not the converter)", job, err)
		}
		// A crash of the converter counts.
		if n, err := s.RetryJob(ctx, job); err != nil || n != 1 {
			t.Fatalf("RetryJob = %d, %v; want 1", n, err)
		}
		if job, err = s.ClaimJob(ctx); err != nil || job.Attempts != 1 {
			t.Fatalf("claim after retry = %+v, %v; want attempt 1", job, err)
		}
		if err := s.ReleaseJob(ctx, job); err != nil {
			t.Fatal(err)
		}
		if job, err = s.ClaimJob(ctx); err != nil || job.Attempts != 1 {
			t.Fatalf("claim after release = %+v, %v; a release must not count as an attempt", job, err)
		}
		if err := s.SetProgress(ctx, d.ID, 1); err != nil {
			t.Fatal(err)
		}
		if doc, _ := s.Document(ctx, d.ID); doc.PagesDone != 1 || doc.Status != StatusProcessing {
			t.Errorf("progress: %+v", doc)
		}
		if _, err := s.Result(ctx, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("result before completion: %v", err)
		}
		if err := s.CompleteJob(ctx, job, 7, "ok", []byte(`{"Transactions":[]}`)); err != nil {
			t.Fatal(err)
		}
		doc, _ := s.Document(ctx, d.ID)
		if doc.Status != StatusCompleted || doc.TransactionCount != 7 || doc.PagesDone != 2 || doc.FinishedAt == nil || doc.Reconciliation != "ok" {
			t.Errorf("completed document = %+v", doc)
		}
		if res, err := s.Result(ctx, d.ID); err != nil || string(res) != `{"Transactions":[]}` {
			t.Errorf("Result = %s, %v", res, err)
		}
		var pw int
		if err := s.r.QueryRow("SELECT count(*) FROM jobs WHERE password = 'secret'").Scan(&pw); err != nil || pw != 0 {
			t.Errorf("the PDF password outlived its job (%d rows)", pw)
		}
	})
}

func TestConcurrentUploadsNeverOverspend(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		a := newAccount(t, s, "race@example.com", quota.Free)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, refused := 0, 0
		for range 50 {
			wg.Go(func() {
				_, err := upload(s, a.ID, 1)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, quota.ErrExceeded):
					refused++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok != 5 || refused != 45 || used(t, s, a.ID) != 5 {
			t.Errorf("accepted %d, refused %d, used %d; want 5, 45, 5", ok, refused, used(t, s, a.ID))
		}
	})
}

func TestAccountsAdmin(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		newAccount(t, s, "a@example.com", quota.Free)
		if _, err := s.CreateAccount(ctx, "A@example.com", quota.Free); !errors.Is(err, ErrExists) {
			t.Errorf("duplicate e-mail: %v, want ErrExists", err)
		}
		if err := s.SetPlan(ctx, "a@example.com", quota.Business); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPlan(ctx, "nobody@example.com", quota.Business); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetPlan of nobody: %v", err)
		}
		if err := s.GrantCredits(ctx, "a@example.com", -3); err == nil {
			t.Error("negative credits accepted")
		}
		a, _ := s.AccountByEmail(ctx, "a@example.com")
		if a.Plan != quota.Business {
			t.Errorf("plan = %s", a.Plan)
		}
		backup := filepath.Join(t.TempDir(), "copy")
		if err := s.Backup(ctx, backup); err != nil {
			t.Fatal(err)
		}
		b, _ := openAt(t, restored(t, s.Kind(), backup))
		if _, err := b.AccountByEmail(ctx, "a@example.com"); err != nil {
			t.Errorf("backup lacks the account: %v", err)
		}
	})
}

// restored is where a test finds a backup again: the data file itself, or
// a new PostgreSQL database that pg_restore loaded the archive into.
func restored(t *testing.T, kind, backup string) string {
	t.Helper()
	if kind != "postgres" {
		return backup
	}
	dsn := location(t, kind)
	if out, err := exec.Command("pg_restore", "--no-owner", "--exit-on-error", "--dbname="+dsn, backup).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v: %s", err, out)
	}
	return dsn
}

// A key revoked by another process (here another Store on the same file,
// as `passbook keys revoke` is) stops working within a second, although
// lookups are cached.
func TestRevocationElsewhereWithinASecond(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, path string) {
		ctx := context.Background()
		server, _ := openAt(t, path)
		a := newAccount(t, server, "k@example.com", quota.Free)
		key, k, err := server.CreateKey(ctx, a.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := server.AccountByKey(ctx, key); err != nil {
			t.Fatal(err)
		}
		admin, _ := openAt(t, path)
		if err := admin.RevokeKey(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if _, err := server.AccountByKey(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("a second after revocation elsewhere: err = %v, want ErrNotFound", err)
		}
	})
}

// TestPostgresValueStorage: PostgreSQL keeps an upload's bytes as they
// come (a PDF or an image compresses no further) and compresses results
// with lz4, or with its default where the server was built without lz4.
func TestPostgresValueStorage(t *testing.T) {
	s, _ := openAt(t, location(t, "postgres"))
	ctx := context.Background()
	wantCompression := "l"
	if _, err := s.w.ExecContext(ctx, "CREATE TEMP TABLE lz4_probe (v TEXT COMPRESSION lz4)"); err != nil {
		wantCompression = ""
	}
	want := map[string][2]string{"content": {"e", ""}, "result": {"x", wantCompression}, "edited": {"x", wantCompression}}
	rows, err := s.r.QueryContext(ctx, `SELECT attname, attstorage::text, attcompression::text FROM pg_attribute
		WHERE attrelid = 'documents'::regclass AND attname IN ('content', 'result', 'edited')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var name, storage, compression string
		if err := rows.Scan(&name, &storage, &compression); err != nil {
			t.Fatal(err)
		}
		seen++
		if got := [2]string{storage, compression}; got != want[name] {
			t.Errorf("%s: storage %q, compression %q; want %q", name, storage, compression, want[name])
		}
	}
	if err := rows.Err(); err != nil || seen != 3 {
		t.Fatalf("read %d of 3 columns: %v", seen, err)
	}
}
