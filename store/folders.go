package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Errors of folders.
var (
	// ErrNoFolder means no folder has the id, or it is another account's.
	ErrNoFolder = errors.New("no such folder")
	// ErrFolderFull means a folder holds MaxFolderDocuments already.
	ErrFolderFull = errors.New("the folder holds as many documents as it may")
)

// MaxFolderDocuments bounds the documents of one folder: a client's year is
// a few dozen statements, and a folder's page reads every one of them.
const MaxFolderDocuments = 1000

// Folder is a named set of an account's documents.
type Folder struct {
	ID        string
	AccountID int64
	Name      string
	CreatedAt time.Time
	// Documents counts the folder's documents.
	Documents int
	// ChangedAt is when the folder last changed: a document put in, taken
	// out, set aside, converted or corrected, or the folder renamed (the
	// latest of its trail and its documents' own times).
	ChangedAt time.Time
}

// FolderDocument is a document of a folder with what downloads serve of
// it: the result as the worker encoded it and a person's corrections (nil
// when none, and both nil until it is completed).
type FolderDocument struct {
	Document
	Result, Edit []byte
	// SetAside says a person set the document aside in the folder: it
	// stays listed, out of the folder's continuity and downloads; since
	// SetAsideAt.
	SetAside   bool
	SetAsideAt time.Time
}

// NewFolderID makes a folder_id: "fld_" and 26 random base62 characters.
func NewFolderID() (string, error) {
	return randomString("fld_", 26)
}

const folderColumns = `f.id, f.account_id, f.name, f.created_at,
	(SELECT count(*) FROM folder_documents fd WHERE fd.folder_id = f.id),
	(SELECT max(a.created_at) FROM audit a WHERE a.account_id = f.account_id AND a.folder_id = f.id),
	(SELECT max(coalesce(d.deleted_at, d.edited_at, d.finished_at, fd.added_at)) FROM folder_documents fd JOIN documents d ON d.id = fd.document_id
		WHERE fd.folder_id = f.id)`

func scanFolder(row interface{ Scan(...any) error }) (Folder, error) {
	var f Folder
	var created string
	var trail, docs sql.NullString
	if err := row.Scan(&f.ID, &f.AccountID, &f.Name, &created, &f.Documents, &trail, &docs); err != nil {
		return Folder{}, err
	}
	f.CreatedAt = parseTime(created)
	f.ChangedAt = f.CreatedAt
	for _, v := range []sql.NullString{trail, docs} {
		if t := parseTime(v.String); v.Valid && t.After(f.ChangedAt) {
			f.ChangedAt = t
		}
	}
	return f, nil
}

// CreateFolder makes an empty folder for an account.
func (s *Store) CreateFolder(ctx context.Context, accountID int64, name string) (Folder, error) {
	id, err := NewFolderID()
	if err != nil {
		return Folder{}, err
	}
	now := s.Now()
	if _, err := s.w.ExecContext(ctx, "INSERT INTO folders (id, account_id, name, created_at) VALUES (?, ?, ?, ?)",
		id, accountID, name, formatTime(now)); err != nil {
		return Folder{}, fmt.Errorf("create folder: %w", storageErr(err))
	}
	return Folder{ID: id, AccountID: accountID, Name: name, CreatedAt: now.UTC()}, nil
}

// Folders lists an account's folders, newest first.
func (s *Store) Folders(ctx context.Context, accountID int64) ([]Folder, error) {
	return s.SearchFolders(ctx, accountID, "")
}

// SearchFolders lists an account's folders, newest first, that text's
// words all find: each in the folder's name or in one of its documents
// (file name, account, bank, holder, as SearchDocuments finds them).
func (s *Store) SearchFolders(ctx context.Context, accountID int64, text string) ([]Folder, error) {
	where, args := "f.account_id = ?", []any{accountID}
	for _, w := range searchWords(text) {
		like := "%" + likeEscape(w) + "%"
		where += ` AND (lower(f.name) LIKE ? ESCAPE '\' OR EXISTS (SELECT 1 FROM folder_documents fd JOIN documents d ON d.id = fd.document_id
			WHERE fd.folder_id = f.id AND d.deleted_at IS NULL AND (coalesce(d.search_text, '') LIKE ? ESCAPE '\'
				OR coalesce(d.search_text, '') LIKE ? ESCAPE '\' OR lower(d.original_name) LIKE ? ESCAPE '\')))`
		args = append(args, like, like, "%"+likeEscape(bareAccount(w))+"%", like)
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+folderColumns+" FROM folders f WHERE "+where+" ORDER BY f.created_at DESC, f.id DESC", args...)
	if err != nil {
		return nil, fmt.Errorf("list folders: %w", err)
	}
	defer rows.Close()
	out := []Folder{}
	for rows.Next() {
		f, err := scanFolder(rows)
		if err != nil {
			return nil, fmt.Errorf("list folders: %w", err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list folders: %w", err)
	}
	return out, nil
}

// Folder reads a folder; ErrNoFolder when there is none.
func (s *Store) Folder(ctx context.Context, id string) (Folder, error) {
	f, err := scanFolder(s.r.QueryRowContext(ctx, "SELECT "+folderColumns+" FROM folders f WHERE f.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Folder{}, fmt.Errorf("folder %s: %w", id, ErrNoFolder)
	}
	if err != nil {
		return Folder{}, fmt.Errorf("folder %s: %w", id, err)
	}
	return f, nil
}

// DeleteFolder deletes a folder; its documents stay.
func (s *Store) DeleteFolder(ctx context.Context, id string) error {
	res, err := s.w.ExecContext(ctx, "DELETE FROM folders WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete folder %s: %w", id, storageErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("delete folder %s: %w", id, ErrNoFolder)
	}
	return nil
}

// AddToFolder puts a document in a folder; a document already in it stays
// as it is. The document must be the folder's account's and not deleted
// (else ErrNotFound); the folder must exist (else ErrNoFolder) and have
// room (else ErrFolderFull).
func (s *Store) AddToFolder(ctx context.Context, folderID, documentID string) (err error) {
	defer func() { err = storageErr(err) }()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add to folder: %w", err)
	}
	defer tx.Rollback()
	account, err := s.lockFolder(ctx, tx, folderID)
	if err != nil {
		return err
	}
	// On PostgreSQL the document's row is locked too: a delete of it
	// waits, and then takes it out of the folder, or went first, and the
	// document is not found.
	var id string
	err = tx.QueryRowContext(ctx, "SELECT id FROM documents WHERE id = ? AND account_id = ? AND deleted_at IS NULL"+s.d.forUpdate(),
		documentID, account).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("document %s: %w", documentID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("add to folder: %w", err)
	}
	if err := addToFolder(ctx, tx, folderID, documentID, s.stamp()); err != nil {
		return err
	}
	return tx.Commit()
}

// lockFolder reads a folder's account (ErrNoFolder when there is no such
// folder) and, on PostgreSQL, locks the folder's row until tx ends, so that
// documents added to one folder from any number of nodes are counted
// against its room one at a time (SQLite's one writer holds the whole file).
func (s *Store) lockFolder(ctx context.Context, tx *tx, folderID string) (int64, error) {
	var account int64
	err := tx.QueryRowContext(ctx, "SELECT account_id FROM folders WHERE id = ?"+s.d.forUpdate(), folderID).Scan(&account)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("folder %s: %w", folderID, ErrNoFolder)
	}
	if err != nil {
		return 0, fmt.Errorf("folder %s: %w", folderID, err)
	}
	return account, nil
}

// addToFolder inserts the link, checking the folder's room; the caller
// holds the folder's row (lockFolder).
func addToFolder(ctx context.Context, tx *tx, folderID, documentID, stamp string) error {
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM folder_documents WHERE folder_id = ? AND document_id != ?", folderID, documentID).Scan(&n); err != nil {
		return fmt.Errorf("add to folder: %w", err)
	}
	if n >= MaxFolderDocuments {
		return fmt.Errorf("folder %s: %w", folderID, ErrFolderFull)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO folder_documents (folder_id, document_id, added_at) VALUES (?, ?, ?)
		ON CONFLICT (folder_id, document_id) DO NOTHING`, folderID, documentID, stamp); err != nil {
		return fmt.Errorf("add to folder: %w", err)
	}
	return nil
}

// RemoveFromFolder takes a document out of a folder (the document stays);
// ErrNotFound when it is not in it.
func (s *Store) RemoveFromFolder(ctx context.Context, folderID, documentID string) error {
	res, err := s.w.ExecContext(ctx, "DELETE FROM folder_documents WHERE folder_id = ? AND document_id = ?", folderID, documentID)
	if err != nil {
		return fmt.Errorf("remove from folder: %w", storageErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("document %s in folder %s: %w", documentID, folderID, ErrNotFound)
	}
	return nil
}

// addedOrder breaks ties between rows of folder_documents added in the
// same instant, in the order they were added: SQLite's rowid, or the seq
// that stands in for it on PostgreSQL.
func (d dialect) addedOrder(alias string) string {
	if d == postgresDB {
		return alias + ".seq"
	}
	return alias + ".rowid"
}

// FolderDocuments reads a folder's documents in the order they were added,
// each with its result and corrections when it is completed, in one read
// transaction (so a folder's page sees one moment of it).
func (s *Store) FolderDocuments(ctx context.Context, folderID string) ([]FolderDocument, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("folder documents: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, "SELECT "+documentColumns+`, CASE status WHEN 'completed' THEN result END, edited, fd.set_aside_at
		FROM documents JOIN folder_documents fd ON fd.document_id = documents.id
		WHERE fd.folder_id = ? AND deleted_at IS NULL ORDER BY fd.added_at, `+s.d.addedOrder("fd"), folderID)
	if err != nil {
		return nil, fmt.Errorf("folder documents: %w", err)
	}
	defer rows.Close()
	var out []FolderDocument
	for rows.Next() {
		var result, edit, aside sql.NullString
		d, err := scanDocument(rows, &result, &edit, &aside)
		if err != nil {
			return nil, fmt.Errorf("folder documents: %w", err)
		}
		fd := FolderDocument{Document: d, SetAside: aside.Valid}
		if aside.Valid {
			fd.SetAsideAt = parseTime(aside.String)
		}
		if result.Valid {
			fd.Result = []byte(result.String)
		}
		if edit.Valid {
			fd.Edit = []byte(edit.String)
		}
		out = append(out, fd)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("folder documents: %w", err)
	}
	return out, nil
}

// contentSHA256 is the hex SHA-256 of an upload's bytes.
func contentSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// RenameFolder gives a folder a new name; ErrNoFolder when there is none.
func (s *Store) RenameFolder(ctx context.Context, id, name string) error {
	res, err := s.w.ExecContext(ctx, "UPDATE folders SET name = ? WHERE id = ?", name, id)
	if err != nil {
		return fmt.Errorf("rename folder %s: %w", id, storageErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("rename folder %s: %w", id, ErrNoFolder)
	}
	return nil
}

// SetAside sets a document of a folder aside (aside true) or puts it back:
// a statement set aside stays in the folder but is left out of its
// continuity and downloads. ErrNotFound when it is not in the folder.
func (s *Store) SetAside(ctx context.Context, folderID, documentID string, aside bool) error {
	var at any
	if aside {
		at = s.stamp()
	}
	res, err := s.w.ExecContext(ctx, "UPDATE folder_documents SET set_aside_at = ? WHERE folder_id = ? AND document_id = ?", at, folderID, documentID)
	if err != nil {
		return fmt.Errorf("set aside: %w", storageErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("document %s in folder %s: %w", documentID, folderID, ErrNotFound)
	}
	return nil
}

// DocumentBySHA256 is the account's newest document (not deleted, and not
// failed: those may well be tried again, with a password say) whose bytes
// have the hex SHA-256 sum; ErrNotFound when there is none.
func (s *Store) DocumentBySHA256(ctx context.Context, accountID int64, sum string) (Document, error) {
	d, err := scanDocument(s.r.QueryRowContext(ctx, "SELECT "+documentColumns+
		" FROM documents WHERE account_id = ? AND content_sha256 = ? AND deleted_at IS NULL AND status != ? ORDER BY created_at DESC, id DESC LIMIT 1",
		accountID, sum, StatusFailed))
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, fmt.Errorf("document with sha256 %s: %w", sum, ErrNotFound)
	}
	if err != nil {
		return Document{}, fmt.Errorf("document by sha256: %w", err)
	}
	return d, nil
}

// FolderRef names a folder.
type FolderRef struct {
	ID, Name string
}

// DocumentFolders is, for each of an account's documents in a folder, the
// folders it is in, by name.
func (s *Store) DocumentFolders(ctx context.Context, accountID int64) (map[string][]FolderRef, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT fd.document_id, f.id, f.name FROM folder_documents fd JOIN folders f ON f.id = fd.folder_id
		WHERE f.account_id = ? ORDER BY f.name, f.id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("document folders: %w", err)
	}
	defer rows.Close()
	out := map[string][]FolderRef{}
	for rows.Next() {
		var doc string
		var f FolderRef
		if err := rows.Scan(&doc, &f.ID, &f.Name); err != nil {
			return nil, fmt.Errorf("document folders: %w", err)
		}
		out[doc] = append(out[doc], f)
	}
	return out, rows.Err()
}

// Unlabelled lists up to n of an account's converted documents whose
// account label is not known yet.
func (s *Store) Unlabelled(ctx context.Context, accountID int64, n int) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, "SELECT id FROM documents WHERE account_id = ? AND status = ? AND account_label IS NULL AND deleted_at IS NULL ORDER BY created_at DESC LIMIT ?",
		accountID, StatusCompleted, n)
	if err != nil {
		return nil, fmt.Errorf("unlabelled documents: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("unlabelled documents: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
