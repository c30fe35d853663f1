package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Documents lists an account's documents, newest first, at most limit of
// them, starting after the document before (the last one of the previous
// page; "" for the first page). next is the before of the following page,
// "" when there is none. A before that is not one of the account's
// documents is ErrNotFound.
func (s *Store) Documents(ctx context.Context, accountID int64, limit int, before string) (docs []Document, next string, err error) {
	return s.SearchDocuments(ctx, accountID, DocumentQuery{Limit: limit, Before: before})
}

// DeleteDocument removes a document's bytes, results and edits at once,
// forgets its name and its Idempotency-Key and takes it out of its
// folders; a queued conversion is
// dropped, and a processing document ends failed ("deleted"). The row
// stays, unseen, because the quota ledger points at it: charged pages stay
// charged. No copy is left in either file: secure_delete zeroes the freed
// pages of the data file, and the WAL is truncated after the commit.
// PostgreSQL has no secure_delete: there the old bytes are unreachable at
// once, and their space is reclaimed and reused by (auto)vacuum.
func (s *Store) DeleteDocument(ctx context.Context, id string) (err error) {
	defer func() { err = storageErr(err) }()
	defer s.changed(id)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE documents SET content = ?, result = NULL, edited = NULL, edited_count = NULL,
		edited_reconciliation = NULL, edited_at = NULL, original_name = '', error = NULL, deleted_at = ?,
		status = CASE status WHEN 'processing' THEN 'failed' ELSE status END,
		error_code = CASE status WHEN 'processing' THEN 'deleted' ELSE error_code END
		WHERE id = ? AND deleted_at IS NULL`, []byte{}, s.stamp(), id)
	if err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("delete %s: %w", id, ErrNotFound)
	}
	for _, q := range []string{"DELETE FROM jobs WHERE document_id = ?", "DELETE FROM idempotency_keys WHERE document_id = ?",
		"DELETE FROM folder_documents WHERE document_id = ?", "DELETE FROM transaction_rows WHERE document_id = ?"} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("delete %s: %w", id, err)
		}
	}
	if err := s.notify(ctx, tx, id); err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	if s.d == postgresDB {
		return nil
	}
	return s.truncateWAL(ctx)
}

// truncateWAL copies the WAL into the data file and empties it: the WAL is
// otherwise reused from its start but keeps old frames (old bytes) beyond
// the point written since.
func (s *Store) truncateWAL(ctx context.Context) error {
	var busy, logFrames, done int
	if err := s.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done); err != nil {
		return fmt.Errorf("truncate the WAL: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("truncate the WAL: readers kept it busy")
	}
	return nil
}

// ExpiredDocuments lists the documents uploaded before cutoff that are not
// deleted yet: what retention deletes.
func (s *Store) ExpiredDocuments(ctx context.Context, cutoff time.Time) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, "SELECT id FROM documents WHERE created_at < ? AND deleted_at IS NULL ORDER BY created_at",
		formatTime(cutoff))
	if err != nil {
		return nil, fmt.Errorf("expired documents: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("expired documents: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("expired documents: %w", err)
	}
	return ids, nil
}

// Content reads a document's uploaded bytes.
func (s *Store) Content(ctx context.Context, id string) ([]byte, error) {
	var b []byte
	err := s.r.QueryRowContext(ctx, "SELECT content FROM documents WHERE id = ? AND deleted_at IS NULL", id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("content of %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("content of %s: %w", id, err)
	}
	return b, nil
}

// SaveEdit stores a person's corrected transactions (as the server encodes
// them) beside a completed document's original result, with their count
// and the status of their balance check for listings. The original is kept.
func (s *Store) SaveEdit(ctx context.Context, id string, edited []byte, count int, reconciliation string) error {
	err := s.statusWrite(ctx, id, func(tx *tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE documents SET edited = ?, edited_count = ?, edited_reconciliation = ?, edited_at = ?
			WHERE id = ? AND status = ? AND deleted_at IS NULL`, string(edited), count, reconciliation, s.stamp(), id, StatusCompleted)
		return oneRow(res, err)
	})
	if err != nil {
		return fmt.Errorf("save edit of %s: %w", id, err)
	}
	return nil
}

// oneRow is an update's error, or ErrNotFound when it changed no row.
func oneRow(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNotFound
	}
	return nil
}

// RevertEdit drops a document's corrections, so the original is served again.
func (s *Store) RevertEdit(ctx context.Context, id string) error {
	err := s.statusWrite(ctx, id, func(tx *tx) error {
		return oneRow(tx.ExecContext(ctx, `UPDATE documents SET edited = NULL, edited_count = NULL, edited_reconciliation = NULL, edited_at = NULL
			WHERE id = ? AND deleted_at IS NULL`, id))
	})
	if err != nil {
		return fmt.Errorf("revert edit of %s: %w", id, err)
	}
	return nil
}

// Edit reads a document's corrected transactions; nil when it has none.
func (s *Store) Edit(ctx context.Context, id string) ([]byte, error) {
	var e sql.NullString
	err := s.r.QueryRowContext(ctx, "SELECT edited FROM documents WHERE id = ? AND deleted_at IS NULL", id).Scan(&e)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("edit of %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("edit of %s: %w", id, err)
	}
	if !e.Valid {
		return nil, nil
	}
	return []byte(e.String), nil
}
