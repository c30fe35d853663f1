package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Event is one line of an office's audit trail: who did what, when, from
// which address, to which document, folder or link. The trail is
// append-only: the database refuses to change, delete or replace a line,
// or to add one anywhere but at the end, dated before the last; and it is
// a hash chain that VerifyAudit checks.
type Event struct {
	ID        int64
	AccountID int64
	// MemberID is the member who acted; 0 for a client's link, the box's
	// administrator or an unknown address.
	MemberID int64
	// Actor names who acted as they were then: a member's e-mail, "link
	// lnk_..." or "admin".
	Actor      string
	Action     string
	DocumentID string
	FolderID   string
	LinkID     string
	Address    string
	Detail     string
	CreatedAt  time.Time
}

// Audit actions.
const (
	ActUpload         = "upload"
	ActConvert        = "convert"
	ActConvertFailed  = "convert_failed"
	ActCorrect        = "correct"
	ActCorrectHeader  = "correct_statement"
	ActRevert         = "revert"
	ActExport         = "export"
	ActReview         = "review"
	ActExportZip      = "export_zip"
	ActDelete         = "delete"
	ActRetry          = "retry"
	ActRetentionDel   = "retention_delete"
	ActFolderCreate   = "folder_create"
	ActFolderDelete   = "folder_delete"
	ActFolderAdd      = "folder_add"
	ActFolderRemove   = "folder_remove"
	ActFolderRename   = "folder_rename"
	ActFolderSetAside = "folder_set_aside"
	ActFolderTakeBack = "folder_take_back"
	ActSignIn         = "sign_in"
	ActSignInFailed   = "sign_in_failed"
	ActSignOut        = "sign_out"
	ActMemberInvite   = "member_invite"
	ActMemberJoin     = "member_join"
	ActMemberRole     = "member_role"
	ActMemberRemove   = "member_remove"
	ActInviteWithdraw = "invite_withdraw"
	ActInviteRenew    = "invite_renew"
	ActPasswordReset  = "password_reset"
	ActLinkCreate     = "link_create"
	ActLinkRevoke     = "link_revoke"
	ActLinkUpload     = "link_upload"
	ActLinkRefused    = "link_refused"
	ActOfficeRename   = "office_rename"
	ActKeyCreate      = "key_create"
	ActKeyRevoke      = "key_revoke"
	ActPlanChange     = "plan_change"
	ActCreditsGranted = "credits_granted"
)

// auditLock is the PostgreSQL advisory lock a node holds while it appends
// to the trail, so lines from several nodes form one chain.
const auditLock = 0x61756474 // "audt"

// Record appends an event to the trail; its time is the store's clock, or
// the last line's time when the clock is behind it (another node's, or a
// clock set back): a line is never dated before the one above it. Each
// line carries the hash of the line before and its own (see lineHash), so
// a line changed, removed or put in between breaks the chain that
// VerifyAudit walks.
func (s *Store) Record(ctx context.Context, e Event) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record %s: %w", e.Action, storageErr(err))
	}
	defer tx.Rollback()
	if s.d == postgresDB {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", auditLock); err != nil {
			return fmt.Errorf("record %s: %w", e.Action, err)
		}
	}
	var lastID int64
	var lastHash, lastAt sql.NullString
	err = tx.QueryRowContext(ctx, "SELECT id, hash, created_at FROM audit ORDER BY id DESC LIMIT 1").Scan(&lastID, &lastHash, &lastAt)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("record %s: %w", e.Action, err)
	}
	e.ID, e.CreatedAt = lastID+1, s.Now().UTC()
	if at := parseTime(lastAt.String); lastAt.Valid && at.After(e.CreatedAt) {
		e.CreatedAt = at
	}
	created := formatTime(e.CreatedAt)
	prev := lastHash.String
	_, err = tx.ExecContext(ctx, `INSERT INTO audit (id, account_id, member_id, actor, action, document_id, folder_id, link_id, address, detail, created_at, prev_hash, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, nullID(e.AccountID), nullID(e.MemberID), e.Actor, e.Action, nullText(e.DocumentID), nullText(e.FolderID), nullText(e.LinkID),
		e.Address, e.Detail, created, nullText(prev), lineHash(e, created, prev))
	if err != nil {
		return fmt.Errorf("record %s: %w", e.Action, storageErr(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record %s: %w", e.Action, storageErr(err))
	}
	return nil
}

// lineHash is a line's hash: SHA-256, in hex, over each of its fields and
// the previous line's hash, each written as its length, a colon and its
// bytes, so that no two lines' fields run together alike. created is the
// time as stored.
func lineHash(e Event, created, prev string) string {
	h := sha256.New()
	for _, f := range []string{strconv.FormatInt(e.ID, 10), strconv.FormatInt(e.AccountID, 10), strconv.FormatInt(e.MemberID, 10),
		e.Actor, e.Action, e.DocumentID, e.FolderID, e.LinkID, e.Address, e.Detail, created, prev} {
		fmt.Fprintf(h, "%d:%s", len(f), f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// AuditCheck is what VerifyAudit found.
type AuditCheck struct {
	// Lines is how many lines the trail holds; Unchained how many of the
	// first ones come from before the chain began (before migration 41).
	Lines, Unchained int
	// LastID and LastHash are the last line's: an administrator who keeps
	// them elsewhere can later tell that the chain up to there is whole.
	LastID   int64
	LastHash string
	// BrokenAt is the id of the first line that does not fit the chain (0
	// when every line does), and Broken says how.
	BrokenAt int64
	Broken   string
}

// VerifyAudit walks the whole trail in order and checks each line's hash
// against its fields and the line before it. It proves the trail was not
// changed by someone who could not also rewrite every line after the
// change: anyone with write access to the database can compute a whole
// new chain, which only a LastHash kept elsewhere reveals.
func (s *Store) VerifyAudit(ctx context.Context) (AuditCheck, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, coalesce(account_id, 0), coalesce(member_id, 0), actor, action, coalesce(document_id, ''),
		coalesce(folder_id, ''), coalesce(link_id, ''), address, detail, created_at, prev_hash, hash FROM audit ORDER BY id`)
	if err != nil {
		return AuditCheck{}, fmt.Errorf("verify audit: %w", err)
	}
	defer rows.Close()
	var c AuditCheck
	var prevHash string
	var prevAt time.Time
	chained := false
	for rows.Next() {
		var e Event
		var created string
		var prev, hash sql.NullString
		if err := rows.Scan(&e.ID, &e.AccountID, &e.MemberID, &e.Actor, &e.Action, &e.DocumentID, &e.FolderID, &e.LinkID,
			&e.Address, &e.Detail, &created, &prev, &hash); err != nil {
			return AuditCheck{}, fmt.Errorf("verify audit: %w", err)
		}
		c.Lines++
		c.LastID, c.LastHash = e.ID, hash.String
		if c.BrokenAt != 0 {
			continue
		}
		at := parseTime(created)
		switch {
		case !hash.Valid && !chained:
			c.Unchained++
		case !hash.Valid:
			c.BrokenAt, c.Broken = e.ID, "it has no hash, below lines that have"
		case prev.String != prevHash:
			c.BrokenAt, c.Broken = e.ID, "its prev_hash is not the hash of the line before it: a line was removed, put in between or changed"
		case lineHash(e, created, prev.String) != hash.String:
			c.BrokenAt, c.Broken = e.ID, "its hash does not match its fields: the line was changed"
		case chained && at.Before(prevAt):
			c.BrokenAt, c.Broken = e.ID, "it is dated before the line above it"
		}
		if hash.Valid {
			chained = true
		}
		prevHash, prevAt = hash.String, at
	}
	if err := rows.Err(); err != nil {
		return AuditCheck{}, fmt.Errorf("verify audit: %w", err)
	}
	return c, nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func nullText(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// AuditQuery filters an office's trail; zero fields do not filter.
type AuditQuery struct {
	AccountID  int64
	MemberID   int64
	DocumentID string
	// From and To bound the events' times: From <= created_at < To.
	From, To time.Time
	// Before pages back: only events with a smaller id.
	Before int64
	Limit  int
}

// Audit reads an office's trail, newest first, and the Before value of the
// page after it (0 when there is none).
func (s *Store) Audit(ctx context.Context, q AuditQuery) ([]Event, int64, error) {
	if q.Limit <= 0 || q.Limit > 500 {
		q.Limit = 100
	}
	sqlq := `SELECT id, coalesce(account_id, 0), coalesce(member_id, 0), actor, action, coalesce(document_id, ''),
		coalesce(folder_id, ''), coalesce(link_id, ''), address, detail, created_at FROM audit WHERE account_id = ?`
	args := []any{q.AccountID}
	if q.MemberID != 0 {
		sqlq += " AND member_id = ?"
		args = append(args, q.MemberID)
	}
	if q.DocumentID != "" {
		sqlq += " AND document_id = ?"
		args = append(args, q.DocumentID)
	}
	if !q.From.IsZero() {
		sqlq += " AND created_at >= ?"
		args = append(args, formatTime(q.From))
	}
	if !q.To.IsZero() {
		sqlq += " AND created_at < ?"
		args = append(args, formatTime(q.To))
	}
	if q.Before > 0 {
		sqlq += " AND id < ?"
		args = append(args, q.Before)
	}
	sqlq += " ORDER BY id DESC LIMIT " + strconv.Itoa(q.Limit+1)
	rows, err := s.r.QueryContext(ctx, sqlq, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("read audit: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		var created string
		if err := rows.Scan(&e.ID, &e.AccountID, &e.MemberID, &e.Actor, &e.Action, &e.DocumentID, &e.FolderID, &e.LinkID,
			&e.Address, &e.Detail, &created); err != nil {
			return nil, 0, err
		}
		e.CreatedAt = parseTime(created)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	var next int64
	if len(out) > q.Limit {
		out = out[:q.Limit]
		next = out[len(out)-1].ID
	}
	return out, next, nil
}

// SetAsideBy is, for each document of folderID that someone set aside in
// it, who did so last, as the trail of the folder's office records it.
func (s *Store) SetAsideBy(ctx context.Context, accountID int64, folderID string) (map[string]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT document_id, actor FROM audit
		WHERE account_id = ? AND folder_id = ? AND action = ? AND document_id IS NOT NULL ORDER BY id`, accountID, folderID, ActFolderSetAside)
	if err != nil {
		return nil, fmt.Errorf("set aside by: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var doc, actor string
		if err := rows.Scan(&doc, &actor); err != nil {
			return nil, fmt.Errorf("set aside by: %w", err)
		}
		out[doc] = actor
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("set aside by: %w", err)
	}
	return out, nil
}

// DocumentUploader is who put a document in: its member (0 for none) and
// the link it came by ("" for none).
func (s *Store) DocumentUploader(ctx context.Context, id string) (int64, string, error) {
	var m sql.NullInt64
	var l sql.NullString
	if err := s.r.QueryRowContext(ctx, "SELECT member_id, link_id FROM documents WHERE id = ?", id).Scan(&m, &l); err != nil {
		return 0, "", fmt.Errorf("document %s: %w", id, err)
	}
	return m.Int64, l.String, nil
}
