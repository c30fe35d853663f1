package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"passbook/quota"
)

// TestFolders walks a folder's life: made, documents added (one at
// upload, in the same transaction), listed with their results, removed,
// a document deleted, the folder deleted with its documents kept. On
// SQLite and on PostgreSQL.
func TestFolders(t *testing.T) {
	eachStore(t, testFolders)
}

func testFolders(t *testing.T, s *Store, c *clock) {
	ctx := context.Background()
	a := newAccount(t, s, "a@example.com", quota.Enterprise)
	b := newAccount(t, s, "b@example.com", quota.Enterprise)
	f, err := s.CreateFolder(ctx, a.ID, "Smith & Co 2024")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(f.ID, "fld_") || len(f.ID) != 30 {
		t.Errorf("folder id %q", f.ID)
	}
	c.Set(c.Now().Add(time.Second))
	older, err := upload(s, a.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	withFolder, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "feb.pdf", Kind: "pdf", PageCount: 1,
		Content: []byte("%PDF-1.4 x"), FolderID: f.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddToFolder(ctx, f.ID, older.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.AddToFolder(ctx, f.ID, older.ID); err != nil {
		t.Errorf("adding a document twice: %v, want it left as it is", err)
	}
	// Another account's document, a missing one, a missing folder.
	other, err := upload(s, b.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddToFolder(ctx, f.ID, other.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("another account's document: %v, want ErrNotFound", err)
	}
	if err := s.AddToFolder(ctx, "fld_nope", older.ID); !errors.Is(err, ErrNoFolder) {
		t.Errorf("missing folder: %v, want ErrNoFolder", err)
	}
	if _, err := s.CreateDocument(ctx, NewDocument{AccountID: b.ID, OriginalName: "x.pdf", Kind: "pdf", PageCount: 2,
		Content: []byte("%PDF-1.4 x"), FolderID: f.ID}); !errors.Is(err, ErrNoFolder) {
		t.Errorf("upload into another account's folder: %v, want ErrNoFolder", err)
	}
	if got := used(t, s, b.ID); got != 1 {
		t.Errorf("the refused upload was charged: %d pages used, want 1", got)
	}

	// Complete one; the folder's documents come with what is served.
	job, err := s.ClaimJob(ctx)
	if err != nil || job.DocumentID != older.ID {
		t.Fatalf("claimed %s, %v; want the oldest upload, %s", job.DocumentID, err, older.ID)
	}
	if err := s.CompleteJob(ctx, job, 2, "", []byte(`{"Transactions":[]}`)); err != nil {
		t.Fatal(err)
	}
	docs, err := s.FolderDocuments(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].ID != withFolder.ID || docs[1].ID != older.ID {
		t.Fatalf("folder documents %+v, want feb.pdf then the one added after", docs)
	}
	if docs[0].Result != nil || docs[0].Status != StatusProcessing || string(docs[1].Result) != `{"Transactions":[]}` || docs[1].Status != StatusCompleted {
		t.Errorf("results: %q %s, %q %s", docs[0].Result, docs[0].Status, docs[1].Result, docs[1].Status)
	}
	list, err := s.Folders(ctx, a.ID)
	if err != nil || len(list) != 1 || list[0].Documents != 2 || list[0].Name != "Smith & Co 2024" {
		t.Errorf("folders: %+v, %v", list, err)
	}
	if list, _ := s.Folders(ctx, b.ID); len(list) != 0 {
		t.Errorf("b sees a's folders: %+v", list)
	}

	if err := s.RemoveFromFolder(ctx, f.ID, older.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveFromFolder(ctx, f.ID, older.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing twice: %v, want ErrNotFound", err)
	}
	if _, err := s.Document(ctx, older.ID); err != nil {
		t.Errorf("a removed document is gone: %v", err)
	}
	if err := s.DeleteDocument(ctx, withFolder.ID); err != nil {
		t.Fatal(err)
	}
	if docs, _ := s.FolderDocuments(ctx, f.ID); len(docs) != 0 {
		t.Errorf("a deleted document stays in its folder: %+v", docs)
	}
	if err := s.AddToFolder(ctx, f.ID, withFolder.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("adding a deleted document: %v, want ErrNotFound", err)
	}
	if err := s.AddToFolder(ctx, f.ID, older.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteFolder(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Folder(ctx, f.ID); !errors.Is(err, ErrNoFolder) {
		t.Errorf("folder after delete: %v, want ErrNoFolder", err)
	}
	if err := s.DeleteFolder(ctx, f.ID); !errors.Is(err, ErrNoFolder) {
		t.Errorf("second delete: %v, want ErrNoFolder", err)
	}
	if d, err := s.Document(ctx, older.ID); err != nil || d.Status != StatusCompleted {
		t.Errorf("the folder's document after the folder's delete: %+v, %v", d, err)
	}
}

// fillFolder puts n new documents of an account in a folder, in one
// transaction (faster than n uploads; the folder's room is what is tested).
func fillFolder(t *testing.T, s *Store, accountID int64, folderID string, n int) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	stamp := s.stamp()
	for i := range n {
		id, err := NewFileID()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO documents (id, account_id, original_name, kind, page_count, size, content, status, created_at)
			VALUES (?, ?, 'f.pdf', 'pdf', 1, 4, ?, 'completed', ?)`, id, accountID, []byte("%PDF"), stamp); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO folder_documents (folder_id, document_id, added_at) VALUES (?, ?, ?)", folderID, id, stamp); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestFolderFull: a folder takes MaxFolderDocuments and refuses one more,
// an upload into it included, which is then not charged.
func TestFolderFull(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Admin)
		f, err := s.CreateFolder(ctx, a.ID, "big")
		if err != nil {
			t.Fatal(err)
		}
		fillFolder(t, s, a.ID, f.ID, MaxFolderDocuments)
		before := used(t, s, a.ID)
		if _, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "x.pdf", Kind: "pdf", PageCount: 1,
			Content: []byte("%PDF-1.4 x"), FolderID: f.ID}); !errors.Is(err, ErrFolderFull) {
			t.Errorf("upload into a full folder: %v, want ErrFolderFull", err)
		}
		if got := used(t, s, a.ID); got != before {
			t.Errorf("the refused upload was charged: %d pages, want %d", got, before)
		}
		d, err := upload(s, a.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddToFolder(ctx, f.ID, d.ID); !errors.Is(err, ErrFolderFull) {
			t.Errorf("adding to a full folder: %v, want ErrFolderFull", err)
		}
	})
}

// TestFolderRoomUnderConcurrency: a folder with room for 5 more documents,
// and 80 of them sent at once, half as uploads into the folder and half
// added after their upload: exactly 5 get in, the others are refused
// ErrFolderFull (the refused uploads uncharged), on either store. On
// PostgreSQL the folder's row is locked while its room is counted.
func TestFolderRoomUnderConcurrency(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Admin)
		f, err := s.CreateFolder(ctx, a.ID, "nearly full")
		if err != nil {
			t.Fatal(err)
		}
		const room, each = 5, 40
		fillFolder(t, s, a.ID, f.ID, MaxFolderDocuments-room)
		var loose []string
		for range each {
			d, err := upload(s, a.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			loose = append(loose, d.ID)
		}
		before := used(t, s, a.ID)
		var mu sync.Mutex
		var in, full, uploadsIn int
		var others []error
		tally := func(err error, isUpload bool) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				in++
				if isUpload {
					uploadsIn++
				}
			case errors.Is(err, ErrFolderFull):
				full++
			default:
				others = append(others, err)
			}
		}
		var wg sync.WaitGroup
		for i := range each {
			wg.Go(func() {
				_, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "x.pdf", Kind: "pdf", PageCount: 1,
					Content: []byte("%PDF-1.4 x"), FolderID: f.ID})
				tally(err, true)
			})
			wg.Go(func() { tally(s.AddToFolder(ctx, f.ID, loose[i]), false) })
		}
		wg.Wait()
		if len(others) > 0 {
			t.Fatalf("errors other than a full folder: %v", others)
		}
		got, err := s.Folder(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		if in != room || full != 2*each-room || got.Documents != MaxFolderDocuments {
			t.Errorf("%d got in, %d refused; the folder holds %d; want %d in, %d refused, %d held", in, full, got.Documents,
				room, 2*each-room, MaxFolderDocuments)
		}
		if u := used(t, s, a.ID); u != before+uploadsIn {
			t.Errorf("%d pages used after %d uploads got in, want %d: refused uploads were charged", u, uploadsIn, before+uploadsIn)
		}
	})
}

// TestFolderAddWhileDeleting: a document deleted while it is being added
// to a folder ends up out of the folder, whichever goes first, and the
// folder counts only what it shows.
func TestFolderAddWhileDeleting(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Admin)
		f, err := s.CreateFolder(ctx, a.ID, "f")
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			d, err := upload(s, a.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var addErr, delErr error
			wg.Go(func() { addErr = s.AddToFolder(ctx, f.ID, d.ID) })
			wg.Go(func() { delErr = s.DeleteDocument(ctx, d.ID) })
			wg.Wait()
			if delErr != nil || addErr != nil && !errors.Is(addErr, ErrNotFound) {
				t.Fatalf("add: %v; delete: %v", addErr, delErr)
			}
		}
		got, err := s.Folder(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := s.FolderDocuments(ctx, f.ID)
		if err != nil || got.Documents != 0 || len(docs) != 0 {
			t.Errorf("the folder counts %d documents and shows %d (%v); want none", got.Documents, len(docs), err)
		}
	})
}
