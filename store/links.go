package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Link is a client's upload link: whoever holds its token may add
// statements to one folder of the office, and see nothing.
type Link struct {
	ID        string
	AccountID int64
	FolderID  string
	// OfficeName and FolderName are for the link's own page.
	OfficeName string
	FolderName string
	CreatedBy  int64
	Label      string
	// PageLimit bounds the pages uploaded through the link; 0 is no bound
	// beyond the office's quota.
	PageLimit int
	PagesUsed int
	CreatedAt time.Time
	ExpiresAt time.Time
	RevokedAt *time.Time
}

// Live says whether the link still takes uploads at t.
func (l Link) Live(t time.Time) bool { return l.RevokedAt == nil && t.Before(l.ExpiresAt) }

// NewLink is a link to make.
type NewLink struct {
	AccountID int64
	FolderID  string
	CreatedBy int64
	Label     string
	PageLimit int
	ExpiresAt time.Time
}

// ErrLinkFull means an upload would take a link past its page limit.
var ErrLinkFull = errors.New("the link's page limit is reached")

// LinkPrefix starts every upload link's token.
const LinkPrefix = "ul_"

const linkColumns = `l.id, l.account_id, l.folder_id, a.name, f.name, coalesce(l.created_by, 0), l.label,
	coalesce(l.page_limit, 0), l.pages_used, l.created_at, l.expires_at, l.revoked_at`

const linkFrom = ` FROM upload_links l JOIN accounts a ON a.id = l.account_id JOIN folders f ON f.id = l.folder_id`

func scanLink(row interface{ Scan(...any) error }) (Link, error) {
	var l Link
	var created, expires string
	var revoked sql.NullString
	if err := row.Scan(&l.ID, &l.AccountID, &l.FolderID, &l.OfficeName, &l.FolderName, &l.CreatedBy, &l.Label,
		&l.PageLimit, &l.PagesUsed, &created, &expires, &revoked); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Link{}, ErrNotFound
		}
		return Link{}, err
	}
	l.CreatedAt, l.ExpiresAt, l.RevokedAt = parseTime(created), parseTime(expires), parseNullTime(revoked)
	return l, nil
}

// CreateLink makes an upload link for a folder of the office and returns
// its token: the only time it exists in clear.
func (s *Store) CreateLink(ctx context.Context, nl NewLink) (string, Link, error) {
	if nl.PageLimit < 0 {
		return "", Link{}, errors.New("create link: a negative page limit")
	}
	token, err := randomString(LinkPrefix, 40)
	if err != nil {
		return "", Link{}, err
	}
	id, err := randomString("lnk_", 20)
	if err != nil {
		return "", Link{}, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return "", Link{}, err
	}
	defer tx.Rollback()
	account, err := s.lockFolder(ctx, tx, nl.FolderID)
	if err != nil {
		return "", Link{}, err
	}
	if account != nl.AccountID {
		return "", Link{}, fmt.Errorf("folder %s: %w", nl.FolderID, ErrNoFolder)
	}
	var limit, by any
	if nl.PageLimit > 0 {
		limit = nl.PageLimit
	}
	if nl.CreatedBy != 0 {
		by = nl.CreatedBy
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO upload_links (id, hash, account_id, folder_id, created_by, label, page_limit, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, hashKey(token), nl.AccountID, nl.FolderID, by, strings.TrimSpace(nl.Label), limit,
		s.stamp(), formatTime(nl.ExpiresAt)); err != nil {
		return "", Link{}, fmt.Errorf("create link: %w", err)
	}
	l, err := scanLink(tx.QueryRowContext(ctx, "SELECT "+linkColumns+linkFrom+" WHERE l.id = ?", id))
	if err != nil {
		return "", Link{}, fmt.Errorf("create link: %w", err)
	}
	return token, l, tx.Commit()
}

// Links lists an office's links, newest first.
func (s *Store) Links(ctx context.Context, accountID int64) ([]Link, error) {
	return list(ctx, s, "links", scanLink, "SELECT "+linkColumns+linkFrom+" WHERE l.account_id = ? ORDER BY l.created_at DESC, l.id", accountID)
}

// LinkByID reads a link by its id, of any office.
func (s *Store) LinkByID(ctx context.Context, id string) (Link, error) {
	l, err := scanLink(s.r.QueryRowContext(ctx, "SELECT "+linkColumns+linkFrom+" WHERE l.id = ?", id))
	if err != nil {
		return Link{}, fmt.Errorf("link %s: %w", id, err)
	}
	return l, nil
}

// LinkByToken reads the link a token opens, live or not (Live says which).
func (s *Store) LinkByToken(ctx context.Context, token string) (Link, error) {
	l, err := scanLink(s.r.QueryRowContext(ctx, "SELECT "+linkColumns+linkFrom+" WHERE l.hash = ?", hashKey(token)))
	if err != nil {
		return Link{}, fmt.Errorf("link: %w", err)
	}
	return l, nil
}

// RevokeLink stops a link of the office from taking uploads.
func (s *Store) RevokeLink(ctx context.Context, accountID int64, id string) (Link, error) {
	res, err := s.w.ExecContext(ctx, "UPDATE upload_links SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL",
		s.stamp(), id, accountID)
	if err != nil {
		return Link{}, fmt.Errorf("revoke link: %w", err)
	}
	l, err := s.LinkByID(ctx, id)
	if err != nil || l.AccountID != accountID {
		return Link{}, fmt.Errorf("link %s: %w", id, ErrNotFound)
	}
	if n, _ := res.RowsAffected(); n == 0 && l.RevokedAt == nil {
		return Link{}, fmt.Errorf("link %s: %w", id, ErrNotFound)
	}
	return l, nil
}

// chargeLink counts an upload's pages against its link, in the upload's
// transaction: ErrExpired for a link revoked or past its time (or whose
// folder is gone), ErrLinkFull past its page limit.
func (s *Store) chargeLink(ctx context.Context, tx *tx, linkID string, accountID int64, folderID string, pages int) error {
	var account int64
	var folder, expires string
	var limit sql.NullInt64
	var used int
	var revoked sql.NullString
	err := tx.QueryRowContext(ctx, "SELECT account_id, folder_id, page_limit, pages_used, expires_at, revoked_at FROM upload_links WHERE id = ?"+s.d.forUpdate(),
		linkID).Scan(&account, &folder, &limit, &used, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("link %s: %w", linkID, ErrExpired)
	}
	if err != nil {
		return fmt.Errorf("link %s: %w", linkID, err)
	}
	if account != accountID || folder != folderID {
		return fmt.Errorf("link %s is for another folder: %w", linkID, ErrNoFolder)
	}
	if revoked.Valid || !s.Now().Before(parseTime(expires)) {
		return fmt.Errorf("link %s: %w", linkID, ErrExpired)
	}
	if limit.Valid && used+pages > int(limit.Int64) {
		return fmt.Errorf("link %s (%d of %d pages used): %w", linkID, used, limit.Int64, ErrLinkFull)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE upload_links SET pages_used = pages_used + ? WHERE id = ?", pages, linkID); err != nil {
		return fmt.Errorf("link %s: %w", linkID, err)
	}
	return nil
}
