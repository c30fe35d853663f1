package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// Event is one line of an office's audit trail: who did what, when, from
// which address, to which document, folder or link. The trail is
// append-only: the database refuses to change or delete a line.
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

// Record appends an event to the trail; its time is the store's clock.
func (s *Store) Record(ctx context.Context, e Event) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO audit (account_id, member_id, actor, action, document_id, folder_id, link_id, address, detail, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		nullID(e.AccountID), nullID(e.MemberID), e.Actor, e.Action, nullText(e.DocumentID), nullText(e.FolderID), nullText(e.LinkID),
		e.Address, e.Detail, s.stamp())
	if err != nil {
		return fmt.Errorf("record %s: %w", e.Action, storageErr(err))
	}
	return nil
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
