package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"passbook/quota"
)

func TestDocumentsPagesNewestFirst(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Enterprise)
		b := newAccount(t, s, "b@example.com", quota.Enterprise)
		var ids []string
		for i := range 5 {
			c.Set(time.Date(2024, 3, 9, 12, i/2, 0, 0, time.UTC)) // pairs share a time
			d, err := upload(s, a.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, d.ID)
		}
		if _, err := upload(s, b.ID, 1); err != nil {
			t.Fatal(err)
		}
		var got []string
		before, pages := "", 0
		for {
			docs, next, err := s.Documents(ctx, a.ID, 2, before)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, d := range docs {
				got = append(got, d.ID)
				if d.AccountID != a.ID {
					t.Errorf("listed another account's document %s", d.ID)
				}
			}
			if next == "" {
				break
			}
			before = next
		}
		if len(got) != 5 || pages != 3 {
			t.Fatalf("got %d documents in %d pages, want 5 in 3", len(got), pages)
		}
		for i := 1; i < len(got); i++ {
			if got[i] == got[i-1] {
				t.Fatalf("listed %s twice", got[i])
			}
		}
		if got[0] != ids[4] {
			t.Errorf("first: got %s, want the newest %s", got[0], ids[4])
		}
		if _, _, err := s.Documents(ctx, b.ID, 2, ids[0]); !errors.Is(err, ErrNotFound) {
			t.Errorf("before of another account: got %v, want ErrNotFound", err)
		}
	})
}

func TestDeleteKeepsTheCharge(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Free)
		d, err := upload(s, a.ID, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteDocument(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Document(ctx, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("document after delete: got %v, want ErrNotFound", err)
		}
		if _, err := s.Content(ctx, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("content after delete: got %v, want ErrNotFound", err)
		}
		if err := s.DeleteDocument(ctx, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("second delete: got %v, want ErrNotFound", err)
		}
		if got := used(t, s, a.ID); got != 2 {
			t.Errorf("used after delete: got %d, want 2 (charged pages stay charged)", got)
		}
		if _, err := s.ClaimJob(ctx); !errors.Is(err, ErrNoJob) {
			t.Errorf("claim after delete: got %v, want ErrNoJob", err)
		}
		var size int
		if err := s.r.QueryRowContext(ctx, "SELECT length(content) FROM documents WHERE id = ?", d.ID).Scan(&size); err != nil || size != 0 {
			t.Errorf("content left after delete: %d bytes (%v)", size, err)
		}
		docs, _, err := s.Documents(ctx, a.ID, 10, "")
		if err != nil || len(docs) != 0 {
			t.Errorf("listing after delete: %d documents (%v), want none", len(docs), err)
		}
	})
}

func TestEditIsKeptBesideTheOriginal(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Enterprise)
		d, err := upload(s, a.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveEdit(ctx, d.ID, []byte(`{}`), 1, "ok"); !errors.Is(err, ErrNotFound) {
			t.Errorf("edit while processing: got %v, want ErrNotFound", err)
		}
		job, err := s.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		orig := `{"Statement":{"Reconciliation":{"Status":"mismatch"}}}`
		if err := s.CompleteJob(ctx, job, 3, "mismatch", []byte(orig)); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Document(ctx, d.ID); got.Reconciliation != "mismatch" || got.EditedAt != nil {
			t.Errorf("before edit: reconciliation %q edited %v, want mismatch and nil", got.Reconciliation, got.EditedAt)
		}
		if err := s.SaveEdit(ctx, d.ID, []byte(`{"version":1}`), 4, "ok"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Document(ctx, d.ID); got.Reconciliation != "ok" || got.EditedAt == nil || got.TransactionCount != 4 {
			t.Errorf("after edit: reconciliation %q edited %v count %d, want ok, a time and 4", got.Reconciliation, got.EditedAt, got.TransactionCount)
		}
		if e, err := s.Edit(ctx, d.ID); err != nil || string(e) != `{"version":1}` {
			t.Errorf("edit: got %q, %v", e, err)
		}
		if r, _ := s.Result(ctx, d.ID); string(r) != orig {
			t.Errorf("original changed: %s", r)
		}
		if err := s.RevertEdit(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		if e, err := s.Edit(ctx, d.ID); err != nil || e != nil {
			t.Errorf("edit after revert: got %q, %v, want none", e, err)
		}
		if got, _ := s.Document(ctx, d.ID); got.Reconciliation != "mismatch" || got.TransactionCount != 3 {
			t.Errorf("after revert: reconciliation %q count %d, want mismatch and 3", got.Reconciliation, got.TransactionCount)
		}
	})
}

// TestProgressMatchesDocument: what GET /status reads agrees with the
// document through its life: processing with pages done, completed,
// edited, failed with its error, deleted.
func TestProgressMatchesDocument(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "p@example.com", quota.Enterprise)
		check := func(when, id string) {
			t.Helper()
			p, err := s.Progress(ctx, id)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			d, _ := s.Document(ctx, id)
			want := Progress{d.ID, d.AccountID, d.Status, d.PageCount, d.PagesDone, d.TransactionCount, d.ErrorCode, d.Error}
			if p != want {
				t.Errorf("%s: progress %+v, document says %+v", when, p, want)
			}
		}
		d, _ := upload(s, a.ID, 3)
		f, _ := upload(s, a.ID, 1)
		check("queued", d.ID)
		job, _ := s.ClaimJob(ctx)
		if err := s.SetProgress(ctx, d.ID, 2); err != nil {
			t.Fatal(err)
		}
		check("processing", d.ID)
		if err := s.CompleteJob(ctx, job, 5, "ok", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		check("completed", d.ID)
		if err := s.SaveEdit(ctx, d.ID, []byte(`{}`), 6, "mismatch"); err != nil {
			t.Fatal(err)
		}
		check("edited", d.ID)
		if p, _ := s.Progress(ctx, d.ID); p.TransactionCount != 6 {
			t.Errorf("edited: %d transactions, want the edit's 6", p.TransactionCount)
		}
		fj, _ := s.ClaimJob(ctx)
		if err := s.FailJob(ctx, fj, "unreadable_file", "bad"); err != nil {
			t.Fatal(err)
		}
		check("failed", f.ID)
		if err := s.DeleteDocument(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Progress(ctx, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted: %v, want ErrNotFound", err)
		}
	})
}

// TestStatusChangedElsewhere: a node that keeps a polled document's status
// in memory sees it change when another node (or, on SQLite, another
// process) completes, edits or deletes it, within a second.
func TestStatusChangedElsewhere(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, loc string) {
		ctx := context.Background()
		poller, _ := openAt(t, loc)
		worker, _ := openAt(t, loc)
		a := newAccount(t, worker, "s@example.com", quota.Enterprise)
		d, err := upload(worker, a.ID, 2)
		if err != nil {
			t.Fatal(err)
		}
		seen := func(what string, ok func(Progress, error) bool) {
			t.Helper()
			deadline := time.Now().Add(time.Second)
			for {
				p, err := poller.Progress(ctx, d.ID)
				if ok(p, err) {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s elsewhere: the poller still sees %+v, %v after a second", what, p, err)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		seen("queued", func(p Progress, err error) bool { return err == nil && p.Status == StatusProcessing })
		job, err := worker.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := worker.SetProgress(ctx, d.ID, 1); err != nil {
			t.Fatal(err)
		}
		seen("progress", func(p Progress, err error) bool { return p.PagesDone == 1 })
		if err := worker.CompleteJob(ctx, job, 9, "ok", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		seen("completed", func(p Progress, err error) bool { return p.Status == StatusCompleted && p.TransactionCount == 9 })
		if err := worker.SaveEdit(ctx, d.ID, []byte(`{}`), 10, "ok"); err != nil {
			t.Fatal(err)
		}
		seen("edited", func(p Progress, err error) bool { return p.TransactionCount == 10 })
		if err := worker.DeleteDocument(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		seen("deleted", func(p Progress, err error) bool { return errors.Is(err, ErrNotFound) })
	})
}
