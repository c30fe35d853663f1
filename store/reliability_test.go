package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

func TestClaimIsFairBetweenAccounts(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		batch := newAccount(t, s, "batch@example.com", quota.Enterprise)
		other := newAccount(t, s, "other@example.com", quota.Enterprise)
		var batchDocs []string
		for i := range 5 {
			c.Set(c.Now().Add(time.Second))
			d, err := upload(s, batch.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			batchDocs = append(batchDocs, d.ID)
			_ = i
		}
		c.Set(c.Now().Add(time.Second))
		late, err := upload(s, other.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		first, err := s.ClaimJob(ctx)
		if err != nil || first.DocumentID != batchDocs[0] {
			t.Fatalf("first claim = %q, %v; want the batch's oldest %s", first.DocumentID, err, batchDocs[0])
		}
		// The batch holds a worker; the other account's job, queued last, goes next.
		second, err := s.ClaimJob(ctx)
		if err != nil || second.DocumentID != late.ID {
			t.Fatalf("second claim = %q, %v; want the other account's %s", second.DocumentID, err, late.ID)
		}
		third, err := s.ClaimJob(ctx)
		if err != nil || third.DocumentID != batchDocs[1] {
			t.Fatalf("third claim = %q, %v; want %s", third.DocumentID, err, batchDocs[1])
		}
	})
}

func TestRequeuedJobsGoToTheBack(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "q@example.com", quota.Enterprise)
		d1, _ := upload(s, a.ID, 1)
		c.Set(c.Now().Add(time.Second))
		d2, _ := upload(s, a.ID, 1)
		if j, err := s.ClaimJob(ctx); err != nil || j.DocumentID != d1.ID {
			t.Fatalf("claim = %q, %v", j.DocumentID, err)
		}
		c.Set(c.Now().Add(s.Lease + time.Second))
		if n, err := s.RequeueInterrupted(ctx); err != nil || n != 1 {
			t.Fatalf("RequeueInterrupted = %d, %v", n, err)
		}
		if j, err := s.ClaimJob(ctx); err != nil || j.DocumentID != d2.ID {
			t.Fatalf("claim after requeue = %q, %v; want %s (the requeued job goes to the back)", j.DocumentID, err, d2.ID)
		}
	})
}

func TestIdempotencyKey(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "i@example.com", quota.Professional)
		b := newAccount(t, s, "j@example.com", quota.Professional)
		nd := NewDocument{AccountID: a.ID, OriginalName: "s.pdf", Kind: "pdf", PageCount: 3, Content: []byte("%PDF"), IdempotencyKey: "k1"}
		d, err := s.CreateDocument(ctx, nd)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.CreateDocument(ctx, nd)
		var ie *IdempotentError
		if !errors.As(err, &ie) || ie.Document.ID != d.ID {
			t.Fatalf("repeat = %v; want an IdempotentError naming %s", err, d.ID)
		}
		if got := used(t, s, a.ID); got != 3 {
			t.Errorf("used after a repeated key = %d, want 3 (charged once)", got)
		}
		if got, err := s.Idempotent(ctx, a.ID, "k1"); err != nil || got.ID != d.ID {
			t.Errorf("Idempotent = %q, %v", got.ID, err)
		}
		// Another account's same key is its own.
		nd.AccountID = b.ID
		if _, err := s.CreateDocument(ctx, nd); err != nil {
			t.Errorf("other account, same key: %v", err)
		}
		// After 24 hours the key is new again.
		c.Set(c.Now().Add(IdempotencyWindow + time.Minute))
		nd.AccountID = a.ID
		d2, err := s.CreateDocument(ctx, nd)
		if err != nil || d2.ID == d.ID {
			t.Fatalf("after the window = %q, %v; want a new document", d2.ID, err)
		}
	})
}

func TestSecureDeleteIsOn(t *testing.T) {
	s, _ := openTest(t)
	var on int
	if err := s.w.QueryRow("PRAGMA secure_delete").Scan(&on); err != nil || on != 1 {
		t.Fatalf("secure_delete = %d, %v; want 1", on, err)
	}
}

// TestFullDiskIsErrFull fills the data file's page budget (max_page_count)
// so SQLite answers SQLITE_FULL, as a full disk does.
func TestFullDiskIsErrFull(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "full.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	a := newAccount(t, s, "f@example.com", quota.Enterprise)
	var pages int
	if err := s.w.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec("PRAGMA max_page_count = " + itoa(pages+2)); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "big.pdf", Kind: "pdf", PageCount: 1,
		Content: []byte(strings.Repeat("x", 1<<20))})
	if !errors.Is(err, ErrFull) {
		t.Fatalf("CreateDocument on a full file: %v; want ErrFull", err)
	}
	if _, err := s.w.Exec("PRAGMA max_page_count = 1000000"); err != nil {
		t.Fatal(err)
	}
	if _, err := upload(s, a.ID, 1); err != nil {
		t.Fatalf("after space is freed: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDeleteLeavesNoCopy deletes a document and looks for its bytes in the
// data file and the WAL.
func TestDeleteLeavesNoCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	a := newAccount(t, s, "d@example.com", quota.Enterprise)
	marker := []byte("SECRET-STATEMENT-BYTES-" + strings.Repeat("z", 6000)) // spans overflow pages
	d, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "private-name.pdf", Kind: "pdf", PageCount: 1,
		Content: marker, IdempotencyKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	job, err := s.ClaimJob(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteJob(ctx, job, 1, "ok", []byte(`{"secret":"SECRET-RESULT"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveEdit(ctx, d.ID, []byte(`{"secret":"SECRET-EDIT"}`), 1, "ok"); err != nil {
		t.Fatal(err)
	}
	// A checkpoint copies the bytes into the data file, as time would.
	if _, err := s.w.Exec("PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
		t.Fatal(err)
	}
	expired, err := s.ExpiredDocuments(ctx, s.Now().Add(time.Second))
	if err != nil || len(expired) != 1 || expired[0] != d.ID {
		t.Fatalf("ExpiredDocuments = %v, %v; want [%s]", expired, err, d.ID)
	}
	if err := s.DeleteDocument(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal"} {
		b, _ := os.ReadFile(f)
		for _, secret := range []string{"SECRET-STATEMENT-BYTES", "SECRET-RESULT", "SECRET-EDIT", "private-name"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s still holds %q after the delete", filepath.Base(f), secret)
			}
		}
	}
	if err := s.DeleteDocument(ctx, d.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting twice: %v, want ErrNotFound", err)
	}
	if expired, _ := s.ExpiredDocuments(ctx, s.Now().Add(time.Second)); len(expired) != 0 {
		t.Errorf("a deleted document is still listed as expired: %v", expired)
	}
	if _, err := s.Idempotent(ctx, a.ID, "k"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the idempotency key outlived its document: %v", err)
	}
	if used(t, s, a.ID) != 1 {
		t.Errorf("a delete refunded pages")
	}
}
