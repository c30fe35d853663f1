package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"passbook/quota"
)

// Account is a customer of the service: an office. Its documents,
// folders, quota and credits are the office's; its people are Members.
type Account struct {
	ID int64
	// Email is the address the account was made with (its first owner's).
	Email     string
	Plan      quota.Plan
	Credits   int
	CreatedAt time.Time
	// Name is the office's name, shown to its clients on an upload link's
	// page; the e-mail until an owner names it.
	Name string
}

// Key is an API key as listed: never the key itself, only its first
// characters, which identify it to a person.
type Key struct {
	ID        int64
	AccountID int64
	// MemberID is the member the key acts as; Email is that member's.
	MemberID  int64
	Email     string
	Prefix    string
	Label     string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// KeyPrefix is the start of every API key the service issues.
const KeyPrefix = "uk_"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewKey returns a fresh API key: "uk_" and 40 random base62 characters
// (about 238 bits).
func NewKey() (string, error) {
	return randomString(KeyPrefix, 40)
}

// NewFileID returns a fresh document handle: "doc_" and 26 base62
// characters (about 154 bits).
func NewFileID() (string, error) {
	return randomString("doc_", 26)
}

func randomString(prefix string, n int) (string, error) {
	b := make([]byte, n)
	out := make([]byte, 0, n)
	for len(out) < n {
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		for _, c := range b {
			// 248 = 4*62: rejecting the rest keeps the choice uniform.
			if c < 248 && len(out) < n {
				out = append(out, base62[c%62])
			}
		}
	}
	return prefix + string(out), nil
}

func hashKey(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// CreateAccount adds an account, an office whose one owner has the
// e-mail address (and no password yet); ErrExists when the e-mail is taken
// by an account or a member.
func (s *Store) CreateAccount(ctx context.Context, email string, plan quota.Plan) (Account, error) {
	email = strings.TrimSpace(strings.ToLower(email))
	if email == "" || !strings.Contains(email, "@") {
		return Account{}, fmt.Errorf("create account: %q is not an e-mail address", email)
	}
	if _, err := quota.ParsePlan(string(plan)); err != nil {
		return Account{}, err
	}
	now := s.Now()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Account{}, fmt.Errorf("create account: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, "INSERT INTO accounts (email, plan, credits, created_at, name) VALUES (?, ?, 0, ?, ?) RETURNING id",
		email, string(plan), formatTime(now), email).Scan(&id)
	if err != nil {
		if s.d.isUnique(err) {
			return Account{}, fmt.Errorf("create account %s: %w", email, ErrExists)
		}
		return Account{}, fmt.Errorf("create account: %w", err)
	}
	if _, err := s.addMember(ctx, tx, id, email, RoleOwner, ""); err != nil {
		return Account{}, fmt.Errorf("create account: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Account{}, fmt.Errorf("create account: %w", err)
	}
	return Account{ID: id, Email: email, Plan: plan, CreatedAt: now.UTC(), Name: email}, nil
}

const accountColumns = "id, email, plan, credits, created_at, name"

func planOf(s string) quota.Plan { return quota.Plan(s) }

func scanAccount(row interface{ Scan(...any) error }) (Account, error) {
	var a Account
	var plan, created string
	if err := row.Scan(&a.ID, &a.Email, &plan, &a.Credits, &created, &a.Name); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Account{}, ErrNotFound
		}
		return Account{}, err
	}
	a.Plan = quota.Plan(plan)
	a.CreatedAt = parseTime(created)
	return a, nil
}

// AccountByEmail finds an account by its e-mail address.
func (s *Store) AccountByEmail(ctx context.Context, email string) (Account, error) {
	row := s.r.QueryRowContext(ctx, "SELECT "+accountColumns+" FROM accounts WHERE email = ?",
		strings.TrimSpace(strings.ToLower(email)))
	a, err := scanAccount(row)
	if err != nil {
		return Account{}, fmt.Errorf("account %s: %w", email, err)
	}
	return a, nil
}

// AccountByID finds an account by its id.
func (s *Store) AccountByID(ctx context.Context, id int64) (Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx, "SELECT "+accountColumns+" FROM accounts WHERE id = ?", id))
	if err != nil {
		return Account{}, fmt.Errorf("account %d: %w", id, err)
	}
	return a, nil
}

// Accounts lists every account, oldest first.
func (s *Store) Accounts(ctx context.Context) ([]Account, error) {
	return list(ctx, s, "accounts", scanAccount, "SELECT "+accountColumns+" FROM accounts ORDER BY id")
}

// list runs a query of rows that scan reads, in order; what names them in
// an error.
func list[T any](ctx context.Context, s *Store, what string, scan func(row interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// SetPlan moves an account to another plan.
func (s *Store) SetPlan(ctx context.Context, email string, plan quota.Plan) error {
	defer s.keys.clear()
	if _, err := quota.ParsePlan(string(plan)); err != nil {
		return err
	}
	return s.updateAccount(ctx, email, "UPDATE accounts SET plan = ? WHERE email = ?", string(plan))
}

// GrantCredits adds extra pages to an account; they are spent only once the
// period's quota is used up, and they do not expire.
func (s *Store) GrantCredits(ctx context.Context, email string, pages int) error {
	defer s.keys.clear()
	if pages <= 0 {
		return fmt.Errorf("grant credits: %d is not a positive number of pages", pages)
	}
	return s.updateAccount(ctx, email, "UPDATE accounts SET credits = credits + ? WHERE email = ?", pages)
}

func (s *Store) updateAccount(ctx context.Context, email, query string, arg any) error {
	res, err := s.w.ExecContext(ctx, query, arg, strings.TrimSpace(strings.ToLower(email)))
	if err != nil {
		return fmt.Errorf("update account %s: %w", email, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("account %s: %w", email, ErrNotFound)
	}
	return nil
}

// CreateKey issues a new API key for an account and returns it: this is
// the only time the key exists in clear. The key acts as the office's
// first owner; CreateMemberKey makes one for another member.
func (s *Store) CreateKey(ctx context.Context, accountID int64, label string) (string, Key, error) {
	var n sql.NullInt64
	err := s.r.QueryRowContext(ctx, "SELECT min(id) FROM members WHERE account_id = ? AND role = 'owner' AND removed_at IS NULL",
		accountID).Scan(&n)
	if err == nil && !n.Valid {
		err = fmt.Errorf("account %d has no owner: %w", accountID, ErrNotFound)
	}
	if err != nil {
		return "", Key{}, fmt.Errorf("create key: %w", err)
	}
	return s.createKey(ctx, accountID, n.Int64, label)
}

func (s *Store) createKey(ctx context.Context, accountID, memberID int64, label string) (string, Key, error) {
	key, err := NewKey()
	if err != nil {
		return "", Key{}, err
	}
	now := s.Now()
	prefix := key[:len(KeyPrefix)+6]
	var id int64
	err = s.w.QueryRowContext(ctx, "INSERT INTO api_keys (account_id, member_id, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
		accountID, memberID, hashKey(key), prefix, label, formatTime(now)).Scan(&id)
	if err != nil {
		return "", Key{}, fmt.Errorf("create key: %w", err)
	}
	return key, Key{ID: id, AccountID: accountID, MemberID: memberID, Prefix: prefix, Label: label, CreatedAt: now.UTC()}, nil
}

// Keys lists the keys of one account, or of all when email is empty: an
// account's address lists the whole office's keys, a member's its own.
func (s *Store) Keys(ctx context.Context, email string) ([]Key, error) {
	q := `SELECT k.id, k.account_id, coalesce(k.member_id, 0), coalesce(m.email, a.email), k.prefix, k.label, k.created_at, k.revoked_at
		FROM api_keys k JOIN accounts a ON a.id = k.account_id LEFT JOIN members m ON m.id = k.member_id`
	var args []any
	if email != "" {
		q += " WHERE a.email = ? OR m.email = ?"
		args = append(args, strings.TrimSpace(strings.ToLower(email)), strings.TrimSpace(strings.ToLower(email)))
	}
	rows, err := s.r.QueryContext(ctx, q+" ORDER BY k.id", args...)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	var out []Key
	for rows.Next() {
		var k Key
		var created string
		var revoked sql.NullString
		if err := rows.Scan(&k.ID, &k.AccountID, &k.MemberID, &k.Email, &k.Prefix, &k.Label, &created, &revoked); err != nil {
			return nil, err
		}
		k.CreatedAt = parseTime(created)
		k.RevokedAt = parseNullTime(revoked)
		out = append(out, k)
	}
	return out, rows.Err()
}

// RevokeKey stops a key from working.
func (s *Store) RevokeKey(ctx context.Context, id int64) error {
	defer s.keys.clear()
	res, err := s.w.ExecContext(ctx, "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", s.stamp(), id)
	if err != nil {
		return fmt.Errorf("revoke key %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("key %d (or it is already revoked): %w", id, ErrNotFound)
	}
	return nil
}

// AccountByKey finds the account (the office) a live API key acts in.
func (s *Store) AccountByKey(ctx context.Context, key string) (Account, error) {
	c, err := s.CallerByKey(ctx, key)
	if err != nil {
		return Account{}, fmt.Errorf("account by key: %w", err)
	}
	return c.Account, nil
}
