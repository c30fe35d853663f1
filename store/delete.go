package store

import (
	"context"
	"fmt"
	"time"
)

// DeleteDocument wipes a document's bytes, result and name at once, drops a
// queued conversion and its Idempotency-Key, and truncates the WAL so that
// no copy of the bytes is left in either file (secure_delete zeroes the
// freed pages of the data file). The row stays because the quota ledger
// points at it: charged pages stay charged. A processing document ends
// failed.
//
// The web engineer's DeleteDocument (GET/DELETE /api/v1/documents) is the
// full one; this small one serves retention until it lands, and gives way
// to it at merge.
func (s *Store) DeleteDocument(ctx context.Context, id string) (err error) {
	defer func() { err = storageErr(err) }()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE documents SET content = x'', result = NULL, original_name = '', error = NULL,
		status = CASE status WHEN 'processing' THEN 'failed' ELSE status END,
		error_code = CASE status WHEN 'processing' THEN 'deleted' ELSE error_code END
		WHERE id = ? AND length(content) > 0`, id)
	if err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("delete %s: %w", id, ErrNotFound)
	}
	for _, q := range []string{"DELETE FROM jobs WHERE document_id = ?", "DELETE FROM idempotency_keys WHERE document_id = ?"} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("delete %s: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
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

// ExpiredDocuments lists the documents uploaded before cutoff that still
// hold their bytes: what retention deletes.
func (s *Store) ExpiredDocuments(ctx context.Context, cutoff time.Time) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, "SELECT id FROM documents WHERE created_at < ? AND length(content) > 0 ORDER BY created_at",
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
