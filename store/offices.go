package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// An office is an Account: its documents, folders, quota and credits are
// the office's. Its people are Members, each with a Role; an API key or a
// sign-in session acts as one member.

// Role is what a member may do in the office.
type Role string

// The roles, from most to least allowed.
const (
	// RoleOwner manages members, plans and retention, and does all staff do.
	RoleOwner Role = "owner"
	// RoleStaff converts, corrects, exports and manages folders and links.
	RoleStaff Role = "staff"
	// RoleReadOnly views and downloads.
	RoleReadOnly Role = "read_only"
)

// ParseRole checks a role's name.
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.TrimSpace(strings.ToLower(strings.ReplaceAll(s, "-", "_")))); r {
	case RoleOwner, RoleStaff, RoleReadOnly:
		return r, nil
	}
	return "", fmt.Errorf("role %q: %w", s, ErrBadRole)
}

// Can says whether the role includes at least another's rights.
func (r Role) Can(need Role) bool { return r.rank() >= need.rank() }

func (r Role) rank() int {
	switch r {
	case RoleOwner:
		return 3
	case RoleStaff:
		return 2
	case RoleReadOnly:
		return 1
	}
	return 0
}

// More sentinel errors of offices.
var (
	// ErrBadRole means a role's name is not one of the three.
	ErrBadRole = errors.New("not a role (owner, staff or read_only)")
	// ErrLastOwner means a change would leave the office with no owner.
	ErrLastOwner = errors.New("the office would have no owner left")
	// ErrExpired means an invitation, session or link is past its time,
	// used, or revoked.
	ErrExpired = errors.New("expired or already used")
)

// Member is a person of an office.
type Member struct {
	ID        int64
	AccountID int64
	Email     string
	Role      Role
	// HasPassword says the member can sign in to the page.
	HasPassword bool
	CreatedAt   time.Time
	RemovedAt   *time.Time
}

// Caller is who a request acts as: the office and the member.
type Caller struct {
	Account Account
	Member  Member
}

const memberColumns = "m.id, m.account_id, m.email, m.role, m.password_hash != '', m.created_at, m.removed_at"

func scanMember(row interface{ Scan(...any) error }, extra ...any) (Member, error) {
	var m Member
	var role, created string
	var removed sql.NullString
	if err := row.Scan(append([]any{&m.ID, &m.AccountID, &m.Email, &role, &m.HasPassword, &created, &removed}, extra...)...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Member{}, ErrNotFound
		}
		return Member{}, err
	}
	m.Role, m.CreatedAt, m.RemovedAt = Role(role), parseTime(created), parseNullTime(removed)
	return m, nil
}

// callerColumns are an account's then a member's columns, for scanCaller.
const callerColumns = "a.id, a.email, a.plan, a.credits, a.created_at, a.name, " + memberColumns

func scanCaller(row interface{ Scan(...any) error }, extra ...any) (Caller, error) {
	var c Caller
	var plan, created string
	var role, mcreated string
	var removed sql.NullString
	a, m := &c.Account, &c.Member
	dest := append([]any{&a.ID, &a.Email, &plan, &a.Credits, &created, &a.Name,
		&m.ID, &m.AccountID, &m.Email, &role, &m.HasPassword, &mcreated, &removed}, extra...)
	if err := row.Scan(dest...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Caller{}, ErrNotFound
		}
		return Caller{}, err
	}
	a.Plan = planOf(plan)
	a.CreatedAt = parseTime(created)
	m.Role, m.CreatedAt, m.RemovedAt = Role(role), parseTime(mcreated), parseNullTime(removed)
	return c, nil
}

func normEmail(email string) string { return strings.TrimSpace(strings.ToLower(email)) }

// Members lists an office's members, removed ones too, oldest first.
func (s *Store) Members(ctx context.Context, accountID int64) ([]Member, error) {
	return list(ctx, s, "members", func(row interface{ Scan(...any) error }) (Member, error) { return scanMember(row) }, "SELECT "+memberColumns+" FROM members m WHERE m.account_id = ? ORDER BY m.id", accountID)
}

// MemberByID reads a member, of any office.
func (s *Store) MemberByID(ctx context.Context, id int64) (Member, error) {
	m, err := scanMember(s.r.QueryRowContext(ctx, "SELECT "+memberColumns+" FROM members m WHERE m.id = ?", id))
	if err != nil {
		return Member{}, fmt.Errorf("member %d: %w", id, err)
	}
	return m, nil
}

// MemberByEmail finds the present member with an address, with the
// password hash it signs in with ("" when it has none).
func (s *Store) MemberByEmail(ctx context.Context, email string) (Caller, string, error) {
	var hash string
	c, err := scanCaller(s.r.QueryRowContext(ctx, "SELECT "+callerColumns+`, m.password_hash
		FROM members m JOIN accounts a ON a.id = m.account_id
		WHERE m.email = ? AND m.removed_at IS NULL`, normEmail(email)), &hash)
	if err != nil {
		return Caller{}, "", fmt.Errorf("member %s: %w", email, err)
	}
	return c, hash, nil
}

// AddMember adds a member to an office (ErrExists when a present member
// already has the address); passwordHash may be "".
func (s *Store) AddMember(ctx context.Context, accountID int64, email string, role Role, passwordHash string) (Member, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Member{}, err
	}
	defer tx.Rollback()
	m, err := s.addMember(ctx, tx, accountID, email, role, passwordHash)
	if err != nil {
		return Member{}, err
	}
	return m, tx.Commit()
}

func (s *Store) addMember(ctx context.Context, tx *tx, accountID int64, email string, role Role, passwordHash string) (Member, error) {
	email = normEmail(email)
	if email == "" || !strings.Contains(email, "@") {
		return Member{}, fmt.Errorf("add member: %q is not an e-mail address", email)
	}
	if _, err := ParseRole(string(role)); err != nil {
		return Member{}, err
	}
	now := s.Now()
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO members (account_id, email, role, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, accountID, email, string(role), passwordHash, formatTime(now)).Scan(&id)
	if err != nil {
		if s.d.isUnique(err) {
			return Member{}, fmt.Errorf("member %s: %w", email, ErrExists)
		}
		return Member{}, fmt.Errorf("add member: %w", err)
	}
	return Member{ID: id, AccountID: accountID, Email: email, Role: role, HasPassword: passwordHash != "", CreatedAt: now.UTC()}, nil
}

// owners counts an office's present owners, locking them (PostgreSQL).
func (s *Store) owners(ctx context.Context, tx *tx, accountID int64) (int, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM members WHERE account_id = ? AND role = 'owner' AND removed_at IS NULL"+s.d.forUpdate(), accountID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

// officeMember reads a present member of an office, locked (PostgreSQL);
// ErrNotFound for a member of another office or a removed one.
func (s *Store) officeMember(ctx context.Context, tx *tx, accountID, memberID int64) (Member, error) {
	m, err := scanMember(tx.QueryRowContext(ctx, "SELECT "+memberColumns+" FROM members m WHERE m.id = ? AND m.account_id = ? AND m.removed_at IS NULL"+s.d.forUpdate(),
		memberID, accountID))
	if err != nil {
		return Member{}, fmt.Errorf("member %d: %w", memberID, err)
	}
	return m, nil
}

// SetRole changes a member's role; ErrLastOwner when that would leave the
// office without an owner.
func (s *Store) SetRole(ctx context.Context, accountID, memberID int64, role Role) (Member, error) {
	defer s.keys.clear()
	if _, err := ParseRole(string(role)); err != nil {
		return Member{}, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Member{}, err
	}
	defer tx.Rollback()
	n, err := s.owners(ctx, tx, accountID)
	if err != nil {
		return Member{}, err
	}
	m, err := s.officeMember(ctx, tx, accountID, memberID)
	if err != nil {
		return Member{}, err
	}
	if m.Role == RoleOwner && role != RoleOwner && n <= 1 {
		return Member{}, ErrLastOwner
	}
	if _, err := tx.ExecContext(ctx, "UPDATE members SET role = ? WHERE id = ?", string(role), memberID); err != nil {
		return Member{}, fmt.Errorf("set role: %w", err)
	}
	if role != RoleOwner {
		// Only owners invite: what an owner no longer is, its invitations
		// no longer make anyone.
		if err := s.withdrawInvitesBy(ctx, tx, memberID); err != nil {
			return Member{}, fmt.Errorf("set role: %w", err)
		}
	}
	m.Role = role
	return m, tx.Commit()
}

// Removed is what a member's removal did besides: how many of its upload
// links were revoked or passed on.
type Removed struct {
	Member
	LinksRevoked, LinksPassed int
}

// RemoveMember takes a member out of the office: its keys are revoked, its
// sessions end, its pending invitations are withdrawn, and its live upload
// links are revoked or, when linksTo names a present owner of the office,
// pass to that owner. Its row stays, so the trail and its documents still
// name it; ErrLastOwner for the office's last owner, ErrNotFound when
// linksTo is no present owner of the office.
func (s *Store) RemoveMember(ctx context.Context, accountID, memberID, linksTo int64) (Removed, error) {
	defer s.keys.clear()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Removed{}, err
	}
	defer tx.Rollback()
	n, err := s.owners(ctx, tx, accountID)
	if err != nil {
		return Removed{}, err
	}
	m, err := s.officeMember(ctx, tx, accountID, memberID)
	if err != nil {
		return Removed{}, err
	}
	if m.Role == RoleOwner && n <= 1 {
		return Removed{}, ErrLastOwner
	}
	if linksTo != 0 {
		heir, err := s.officeMember(ctx, tx, accountID, linksTo)
		if err != nil || heir.Role != RoleOwner || heir.ID == memberID {
			return Removed{}, fmt.Errorf("links to member %d, no other owner of the office: %w", linksTo, ErrNotFound)
		}
	}
	stamp := s.stamp()
	for _, q := range []string{
		"UPDATE members SET removed_at = ? WHERE id = ?",
		"UPDATE api_keys SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL",
	} {
		if _, err := tx.ExecContext(ctx, q, stamp, memberID); err != nil {
			return Removed{}, fmt.Errorf("remove member: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE member_id = ?", memberID); err != nil {
		return Removed{}, fmt.Errorf("remove member: %w", err)
	}
	if err := s.withdrawInvitesBy(ctx, tx, memberID); err != nil {
		return Removed{}, fmt.Errorf("remove member: %w", err)
	}
	rm := Removed{Member: m}
	// A link past its time takes nothing either way; passing it on or
	// revoking it changes nothing, and its record stays as it was.
	live := " WHERE created_by = ? AND account_id = ? AND revoked_at IS NULL"
	var res sql.Result
	if linksTo != 0 {
		res, err = tx.ExecContext(ctx, "UPDATE upload_links SET created_by = ?"+live, linksTo, memberID, accountID)
	} else {
		res, err = tx.ExecContext(ctx, "UPDATE upload_links SET revoked_at = ?"+live, stamp, memberID, accountID)
	}
	if err != nil {
		return Removed{}, fmt.Errorf("remove member: %w", err)
	}
	n64, err := res.RowsAffected()
	if err != nil {
		return Removed{}, fmt.Errorf("remove member: %w", err)
	}
	if linksTo != 0 {
		rm.LinksPassed = int(n64)
	} else {
		rm.LinksRevoked = int(n64)
	}
	rm.RemovedAt = parseNullTime(sql.NullString{String: stamp, Valid: true})
	return rm, tx.Commit()
}

// SetPassword sets a present member's password hash (see HashPassword) and
// ends every session it had.
func (s *Store) SetPassword(ctx context.Context, memberID int64, passwordHash string) error {
	defer s.keys.clear()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE members SET password_hash = ? WHERE id = ? AND removed_at IS NULL", passwordHash, memberID)
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("member %d: %w", memberID, ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE member_id = ?", memberID); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return tx.Commit()
}

// CreateMemberKey issues an API key that acts as a member.
func (s *Store) CreateMemberKey(ctx context.Context, memberID int64, label string) (string, Key, error) {
	m, err := s.MemberByID(ctx, memberID)
	if err != nil {
		return "", Key{}, err
	}
	if m.RemovedAt != nil {
		return "", Key{}, fmt.Errorf("member %d was removed: %w", memberID, ErrNotFound)
	}
	return s.createKey(ctx, m.AccountID, m.ID, label)
}

// CallerByKey finds the office and member a live API key acts as. Lookups
// are cached for keyCacheTTL, as AccountByKey's.
func (s *Store) CallerByKey(ctx context.Context, key string) (Caller, error) {
	h := hashKey(key)
	if e, ok := s.keys.get(h); ok {
		return e.caller, nil
	}
	c, err := scanCaller(s.stmts.callerByKey.QueryRowContext(ctx, h))
	if err != nil {
		return Caller{}, fmt.Errorf("caller by key: %w", err)
	}
	s.keys.put(h, cacheEntry{caller: c})
	return c, nil
}

const callerByKeySQL = `SELECT ` + callerColumns + `
	FROM api_keys k JOIN members m ON m.id = k.member_id JOIN accounts a ON a.id = m.account_id
	WHERE k.hash = ? AND k.revoked_at IS NULL AND m.removed_at IS NULL`

// Invite is an invitation to join an office, as listed.
type Invite struct {
	ID        int64
	AccountID int64
	Email     string
	Role      Role
	// InvitedBy is the owner who made it (0: the box's administrator).
	InvitedBy int64
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
	// WithdrawnAt is set when an owner withdrew it, or its maker was
	// removed or stopped being an owner.
	WithdrawnAt *time.Time
}

// CreateInvite makes a one-time invitation for an address to join an
// office with a role, and returns its token: the only time it exists in
// clear. ErrExists when a present member of this office has the address
// already (a member of another office is invited like anyone: accepting
// then fails, see AcceptInvite).
func (s *Store) CreateInvite(ctx context.Context, accountID, byMember int64, email string, role Role, ttl time.Duration) (string, Invite, error) {
	email = normEmail(email)
	if email == "" || !strings.Contains(email, "@") || len(email) > 254 {
		return "", Invite{}, fmt.Errorf("invite: %q is not an e-mail address: %w", email, ErrBadEmail)
	}
	if _, err := ParseRole(string(role)); err != nil {
		return "", Invite{}, err
	}
	// Only this office's members are named: whether an address belongs
	// to another office is not this office's to learn.
	var here int
	if err := s.r.QueryRowContext(ctx, "SELECT count(*) FROM members WHERE email = ? AND account_id = ? AND removed_at IS NULL",
		email, accountID).Scan(&here); err != nil {
		return "", Invite{}, fmt.Errorf("invite: %w", err)
	}
	if here > 0 {
		return "", Invite{}, fmt.Errorf("member %s: %w", email, ErrExists)
	}
	token, err := randomString("inv_", 40)
	if err != nil {
		return "", Invite{}, err
	}
	now := s.Now()
	var by any
	if byMember != 0 {
		by = byMember
	}
	var id int64
	if err := s.w.QueryRowContext(ctx, `INSERT INTO invites (hash, account_id, email, role, invited_by, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, hashKey(token), accountID, email, string(role), by,
		formatTime(now), formatTime(now.Add(ttl))).Scan(&id); err != nil {
		return "", Invite{}, fmt.Errorf("invite: %w", err)
	}
	return token, Invite{ID: id, AccountID: accountID, Email: email, Role: role, InvitedBy: byMember, CreatedAt: now.UTC(), ExpiresAt: now.Add(ttl).UTC()}, nil
}

// ErrBadEmail means an address is not one.
var ErrBadEmail = errors.New("not an e-mail address")

const inviteColumns = "i.id, i.account_id, i.email, i.role, coalesce(i.invited_by, 0), i.created_at, i.expires_at, i.used_at, i.withdrawn_at"

func scanInvite(row interface{ Scan(...any) error }, extra ...any) (Invite, error) {
	var inv Invite
	var role, created, expires string
	var used, withdrawn sql.NullString
	if err := row.Scan(append([]any{&inv.ID, &inv.AccountID, &inv.Email, &role, &inv.InvitedBy, &created, &expires, &used, &withdrawn}, extra...)...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Invite{}, ErrNotFound
		}
		return Invite{}, err
	}
	inv.Role, inv.CreatedAt, inv.ExpiresAt = Role(role), parseTime(created), parseTime(expires)
	inv.UsedAt, inv.WithdrawnAt = parseNullTime(used), parseNullTime(withdrawn)
	return inv, nil
}

// Pending says whether the invitation may still be taken at t.
func (inv Invite) Pending(t time.Time) bool {
	return inv.UsedAt == nil && inv.WithdrawnAt == nil && t.Before(inv.ExpiresAt)
}

// InviteByToken reads a live invitation; ErrExpired when it was used or
// withdrawn or its time is past, ErrNotFound when there is no such token.
func (s *Store) InviteByToken(ctx context.Context, token string) (Invite, Account, error) {
	var a Account
	inv, err := scanInvite(s.r.QueryRowContext(ctx, "SELECT "+inviteColumns+`, a.name
		FROM invites i JOIN accounts a ON a.id = i.account_id WHERE i.hash = ?`, hashKey(token)), &a.Name)
	if err != nil {
		return Invite{}, Account{}, fmt.Errorf("invite: %w", err)
	}
	a.ID = inv.AccountID
	if !inv.Pending(s.Now()) {
		return inv, a, fmt.Errorf("invite: %w", ErrExpired)
	}
	return inv, a, nil
}

// Invites lists an office's pending invitations, oldest first.
func (s *Store) Invites(ctx context.Context, accountID int64) ([]Invite, error) {
	all, err := list(ctx, s, "invites", func(row interface{ Scan(...any) error }) (Invite, error) { return scanInvite(row) },
		"SELECT "+inviteColumns+" FROM invites i WHERE i.account_id = ? AND i.used_at IS NULL AND i.withdrawn_at IS NULL ORDER BY i.id", accountID)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	out := all[:0]
	for _, inv := range all {
		if inv.Pending(now) {
			out = append(out, inv)
		}
	}
	return out, nil
}

// pendingInvite reads a pending invitation of the office, locked
// (PostgreSQL); ErrNotFound for another office's, a used, withdrawn or
// expired one.
func (s *Store) pendingInvite(ctx context.Context, tx *tx, accountID, id int64) (Invite, error) {
	inv, err := scanInvite(tx.QueryRowContext(ctx, "SELECT "+inviteColumns+" FROM invites i WHERE i.id = ? AND i.account_id = ?"+s.d.forUpdate(), id, accountID))
	if err == nil && !inv.Pending(s.Now()) {
		err = ErrNotFound
	}
	if err != nil {
		return Invite{}, fmt.Errorf("invite %d: %w", id, err)
	}
	return inv, nil
}

// WithdrawInvite withdraws a pending invitation of the office: its link
// takes no one in any more.
func (s *Store) WithdrawInvite(ctx context.Context, accountID, id int64) (Invite, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Invite{}, err
	}
	defer tx.Rollback()
	inv, err := s.pendingInvite(ctx, tx, accountID, id)
	if err != nil {
		return Invite{}, err
	}
	stamp := s.stamp()
	if _, err := tx.ExecContext(ctx, "UPDATE invites SET withdrawn_at = ? WHERE id = ?", stamp, id); err != nil {
		return Invite{}, fmt.Errorf("withdraw invite: %w", err)
	}
	inv.WithdrawnAt = parseNullTime(sql.NullString{String: stamp, Valid: true})
	return inv, tx.Commit()
}

// RenewInviteLink gives a pending invitation of the office a new link, to
// copy again: only a token's hash is kept, so the link shown when it was
// made cannot be shown twice, and it stops working now. The invitation
// keeps its address, role and expiry.
func (s *Store) RenewInviteLink(ctx context.Context, accountID, id int64) (string, Invite, error) {
	token, err := randomString("inv_", 40)
	if err != nil {
		return "", Invite{}, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return "", Invite{}, err
	}
	defer tx.Rollback()
	inv, err := s.pendingInvite(ctx, tx, accountID, id)
	if err != nil {
		return "", Invite{}, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE invites SET hash = ? WHERE id = ?", hashKey(token), id); err != nil {
		return "", Invite{}, fmt.Errorf("renew invite link: %w", err)
	}
	return token, inv, tx.Commit()
}

// withdrawInvitesBy withdraws the pending invitations a member made.
func (s *Store) withdrawInvitesBy(ctx context.Context, tx *tx, memberID int64) error {
	_, err := tx.ExecContext(ctx, "UPDATE invites SET withdrawn_at = ? WHERE invited_by = ? AND used_at IS NULL AND withdrawn_at IS NULL",
		s.stamp(), memberID)
	return err
}

// AcceptInvite uses an invitation once: the member it names joins the
// office with the password hash given.
func (s *Store) AcceptInvite(ctx context.Context, token, passwordHash string) (Member, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Member{}, err
	}
	defer tx.Rollback()
	inv, err := scanInvite(tx.QueryRowContext(ctx, "SELECT "+inviteColumns+" FROM invites i WHERE i.hash = ?"+s.d.forUpdate(), hashKey(token)))
	if err != nil {
		return Member{}, fmt.Errorf("invite: %w", err)
	}
	if !inv.Pending(s.Now()) {
		return Member{}, fmt.Errorf("invite: %w", ErrExpired)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE invites SET used_at = ? WHERE id = ?", s.stamp(), inv.ID); err != nil {
		return Member{}, fmt.Errorf("invite: %w", err)
	}
	m, err := s.addMember(ctx, tx, inv.AccountID, inv.Email, inv.Role, passwordHash)
	if err != nil {
		return Member{}, err
	}
	return m, tx.Commit()
}

// Session is a member's sign-in to the page.
type Session struct {
	ID int64
	// CSRF is the token the page must send back, in a header, with every
	// request that changes something.
	CSRF   string
	SeenAt time.Time
}

// sessionTouch is how stale a session's last-seen time may grow before a
// request writes it again: idle expiry need not be exact to the second,
// and a write on every status poll would cost the request path.
const sessionTouch = time.Minute

// CreateSession starts a session for a member and returns its cookie's
// token: only its hash is kept.
func (s *Store) CreateSession(ctx context.Context, memberID int64, address string) (string, Session, error) {
	token, err := randomString("ses_", 40)
	if err != nil {
		return "", Session{}, err
	}
	csrf, err := randomString("", 32)
	if err != nil {
		return "", Session{}, err
	}
	now := s.stamp()
	// Sessions unused for a month are long ended (SessionIdle is hours):
	// forget them, so the table holds about the sessions in use.
	if _, err := s.w.ExecContext(ctx, "DELETE FROM sessions WHERE seen_at < ?", formatTime(s.Now().Add(-30*24*time.Hour))); err != nil {
		return "", Session{}, fmt.Errorf("create session: %w", err)
	}
	var id int64
	if err := s.w.QueryRowContext(ctx, `INSERT INTO sessions (hash, member_id, csrf, address, created_at, seen_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, hashKey(token), memberID, csrf, address, now, now).Scan(&id); err != nil {
		return "", Session{}, fmt.Errorf("create session: %w", err)
	}
	return token, Session{ID: id, CSRF: csrf, SeenAt: parseTime(now)}, nil
}

// CallerBySession finds the member a live session acts as. A session idle
// longer than idle has ended (and is deleted); ErrNotFound either way.
func (s *Store) CallerBySession(ctx context.Context, token string, idle time.Duration) (Caller, Session, error) {
	h := hashKey(token)
	now := s.Now()
	e, ok := s.keys.get(h)
	if !ok {
		var seen string
		c, err := scanCaller(s.stmts.callerBySession.QueryRowContext(ctx, h), &e.session.ID, &e.session.CSRF, &seen)
		if err != nil {
			return Caller{}, Session{}, fmt.Errorf("session: %w", err)
		}
		e.caller, e.session.SeenAt = c, parseTime(seen)
	}
	if now.Sub(e.session.SeenAt) > idle {
		s.keys.clear()
		_, _ = s.w.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", e.session.ID)
		return Caller{}, Session{}, fmt.Errorf("session: %w", ErrNotFound)
	}
	if now.Sub(e.session.SeenAt) > sessionTouch {
		if _, err := s.w.ExecContext(ctx, "UPDATE sessions SET seen_at = ? WHERE id = ?", formatTime(now), e.session.ID); err != nil {
			return Caller{}, Session{}, fmt.Errorf("session: %w", err)
		}
		e.session.SeenAt = now
	}
	s.keys.put(h, e)
	return e.caller, e.session, nil
}

const callerBySessionSQL = `SELECT ` + callerColumns + `, s.id, s.csrf, s.seen_at
	FROM sessions s JOIN members m ON m.id = s.member_id JOIN accounts a ON a.id = m.account_id
	WHERE s.hash = ? AND m.removed_at IS NULL`

// EndSession ends one session (sign-out).
func (s *Store) EndSession(ctx context.Context, token string) error {
	defer s.keys.clear()
	if _, err := s.w.ExecContext(ctx, "DELETE FROM sessions WHERE hash = ?", hashKey(token)); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// EndSessions ends every session of a member (sign-out everywhere).
func (s *Store) EndSessions(ctx context.Context, memberID int64) error {
	defer s.keys.clear()
	if _, err := s.w.ExecContext(ctx, "DELETE FROM sessions WHERE member_id = ?", memberID); err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	return nil
}

// RenameOffice sets the name an office shows its clients.
func (s *Store) RenameOffice(ctx context.Context, id int64, name string) error {
	defer s.keys.clear()
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return fmt.Errorf("rename office: a name of 1 to 200 characters")
	}
	res, err := s.w.ExecContext(ctx, "UPDATE accounts SET name = ? WHERE id = ?", name, id)
	if err != nil {
		return fmt.Errorf("rename office: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("office %d: %w", id, ErrNotFound)
	}
	return nil
}
