package store

// The attacks of issue 41's security review on the store itself, on both
// kinds of database.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

// TestAuditChain (issue 41, 7): the trail refuses a line written over
// another (INSERT OR REPLACE, ON CONFLICT) and a back-dated one, on both
// stores; a clock set back dates a line at the last one's time instead;
// and VerifyAudit names the first line someone changed behind the
// triggers' back.
func TestAuditChain(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Business)
		for _, act := range []string{ActSignIn, ActUpload, ActExport} {
			if err := s.Record(ctx, Event{AccountID: a.ID, Actor: "a@example.com", Action: act, Address: "10.0.0.1", Detail: act}); err != nil {
				t.Fatal(err)
			}
			c.Set(c.Now().Add(time.Minute))
		}
		// The clock goes back an hour: the line is dated as the last one.
		c.Set(c.Now().Add(-time.Hour))
		if err := s.Record(ctx, Event{AccountID: a.ID, Actor: "a@example.com", Action: ActSignOut}); err != nil {
			t.Fatal(err)
		}
		es, _, err := s.Audit(ctx, AuditQuery{AccountID: a.ID})
		if err != nil || len(es) != 4 {
			t.Fatalf("trail: %+v, %v", es, err)
		}
		if es[0].CreatedAt.Before(es[1].CreatedAt) {
			t.Errorf("a line written with the clock set back is dated %s, before the line above it (%s)", es[0].CreatedAt, es[1].CreatedAt)
		}
		if got, err := s.VerifyAudit(ctx); err != nil || got.BrokenAt != 0 || got.Lines != 4 || got.LastID != es[0].ID || len(got.LastHash) != 64 {
			t.Fatalf("verify a whole trail: %+v, %v", got, err)
		}

		var last struct {
			id         int64
			hash, when string
		}
		if err := s.r.QueryRowContext(ctx, "SELECT id, hash, created_at FROM audit ORDER BY id DESC LIMIT 1").Scan(&last.id, &last.hash, &last.when); err != nil {
			t.Fatal(err)
		}
		cols := "(id, account_id, actor, action, address, detail, created_at, prev_hash, hash)"
		replace := "INSERT OR REPLACE INTO audit " + cols + " VALUES (?, ?, 'a@example.com', 'upload', '10.0.0.1', 'rewritten', ?, ?, ?)"
		if s.d == postgresDB {
			replace = "INSERT INTO audit " + cols + " VALUES (?, ?, 'a@example.com', 'upload', '10.0.0.1', 'rewritten', ?, ?, ?)" +
				" ON CONFLICT (id) DO UPDATE SET detail = excluded.detail"
		}
		attacks := []struct {
			name string
			q    string
			args []any
		}{
			{"a line replaced", replace, []any{es[2].ID, a.ID, formatTime(es[2].CreatedAt), "", strings.Repeat("0", 64)}},
			{"a line back-dated", "INSERT INTO audit " + cols + " VALUES (?, ?, 'a@example.com', 'delete', '', 'back-dated', ?, ?, ?)",
				[]any{last.id + 1, a.ID, "2020-01-01T00:00:00Z", last.hash, strings.Repeat("1", 64)}},
			{"a line that names no last line", "INSERT INTO audit " + cols + " VALUES (?, ?, 'x', 'delete', '', '', ?, ?, ?)",
				[]any{last.id + 1, a.ID, formatTime(c.Now().Add(time.Hour)), strings.Repeat("2", 64), strings.Repeat("3", 64)}},
			{"a line put in between", "INSERT INTO audit " + cols + " VALUES (?, ?, 'x', 'delete', '', '', ?, ?, ?)",
				[]any{es[1].ID, a.ID, formatTime(c.Now().Add(time.Hour)), last.hash, strings.Repeat("4", 64)}},
		}
		for _, at := range attacks {
			if _, err := s.w.ExecContext(ctx, at.q, at.args...); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v, want refused as append-only", at.name, err)
			}
		}
		es2, _, _ := s.Audit(ctx, AuditQuery{AccountID: a.ID})
		if len(es2) != 4 || es2[2].Detail != es[2].Detail {
			t.Errorf("trail after the attacks: %+v", es2)
		}

		// A line written as the version before the chain wrote one: no id,
		// no hash, back-dated by a clock behind. SQLite (one process) refuses
		// it; PostgreSQL, where old and new nodes share the database during
		// a rolling upgrade, chains it at the end, dated no earlier than
		// the last line.
		_, err = s.w.ExecContext(ctx, `INSERT INTO audit (account_id, actor, action, address, detail, created_at)
			VALUES (?, 'old@example.com', 'export', '10.0.0.9', 'from an old node', ?)`, a.ID, "2020-01-01T00:00:00Z")
		if s.d == sqliteDB && (err == nil || !strings.Contains(err.Error(), "append-only")) {
			t.Errorf("an unchained line on SQLite: %v, want refused as append-only", err)
		}
		if s.d == postgresDB {
			es3, _, _ := s.Audit(ctx, AuditQuery{AccountID: a.ID})
			if err != nil || len(es3) != 5 || es3[0].Detail != "from an old node" || es3[0].CreatedAt.Before(es2[0].CreatedAt) {
				t.Errorf("an old node's line on PostgreSQL: %v, trail %+v; want it last, dated no earlier than the line before", err, es3)
			}
			if err := s.Record(ctx, Event{AccountID: a.ID, Actor: "a@example.com", Action: ActSignOut}); err != nil {
				t.Errorf("a line after the old node's: %v", err)
			}
			if got, err := s.VerifyAudit(ctx); err != nil || got.BrokenAt != 0 || got.Lines != 6 {
				t.Errorf("verify with an old node's line: %+v, %v", got, err)
			}
		}

		// Someone with the database's keys turns the triggers off and
		// changes a line: the chain names it.
		off, on := "DROP TRIGGER audit_no_update", ""
		if s.d == postgresDB {
			off, on = "ALTER TABLE audit DISABLE TRIGGER USER", "ALTER TABLE audit ENABLE TRIGGER USER"
		}
		if _, err := s.w.ExecContext(ctx, off); err != nil {
			t.Fatal(err)
		}
		if _, err := s.w.ExecContext(ctx, "UPDATE audit SET detail = 'nothing to see' WHERE id = ?", es[2].ID); err != nil {
			t.Fatal(err)
		}
		if on != "" {
			if _, err := s.w.ExecContext(ctx, on); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.VerifyAudit(ctx)
		if err != nil || got.BrokenAt != es[2].ID || got.Broken == "" {
			t.Errorf("verify a changed line %d: %+v, %v", es[2].ID, got, err)
		}
	})
}

// TestInvitesAndLinksOfAMemberGone (issue 41, 1, 6 and 8) on both stores:
// a removed or demoted owner's invitations take no one in; an owner
// withdraws one and renews another's link; another office's member is
// invited as anyone is; a removed member's live links are revoked, or
// pass to an owner.
func TestInvitesAndLinksOfAMemberGone(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "boss@a.example", quota.Business)
		b := newAccount(t, s, "boss@b.example", quota.Business)
		boss, _, err := s.MemberByEmail(ctx, "boss@a.example")
		if err != nil {
			t.Fatal(err)
		}
		removed, _ := s.AddMember(ctx, a.ID, "gone@a.example", RoleOwner, "")
		demoted, _ := s.AddMember(ctx, a.ID, "demoted@a.example", RoleOwner, "")
		t1, _, err := s.CreateInvite(ctx, a.ID, removed.ID, "alt1@evil.example", RoleOwner, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		t2, _, _ := s.CreateInvite(ctx, a.ID, demoted.ID, "alt2@evil.example", RoleOwner, time.Hour)
		if _, err := s.RemoveMember(ctx, a.ID, removed.ID, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetRole(ctx, a.ID, demoted.ID, RoleStaff); err != nil {
			t.Fatal(err)
		}
		for _, tok := range []string{t1, t2} {
			if _, _, err := s.InviteByToken(ctx, tok); !errors.Is(err, ErrExpired) {
				t.Errorf("an invitation of an owner since gone: %v, want ErrExpired", err)
			}
			if _, err := s.AcceptInvite(ctx, tok, "x"); !errors.Is(err, ErrExpired) {
				t.Errorf("taking an invitation of an owner since gone: %v, want ErrExpired", err)
			}
		}
		// Another office's member is invited as anyone is.
		if _, _, err := s.CreateInvite(ctx, b.ID, 0, "boss@a.example", RoleStaff, time.Hour); err != nil {
			t.Errorf("B invites A's owner: %v, want an invitation like any other", err)
		}
		w, wi, _ := s.CreateInvite(ctx, a.ID, boss.Member.ID, "w@a.example", RoleStaff, time.Hour)
		old, ri, _ := s.CreateInvite(ctx, a.ID, boss.Member.ID, "r@a.example", RoleStaff, time.Hour)
		if invs, err := s.Invites(ctx, a.ID); err != nil || len(invs) != 2 {
			t.Errorf("pending: %+v, %v; want the two of the present owner", invs, err)
		}
		if _, err := s.WithdrawInvite(ctx, b.ID, wi.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("B withdraws A's invitation: %v", err)
		}
		if _, err := s.WithdrawInvite(ctx, a.ID, wi.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.InviteByToken(ctx, w); !errors.Is(err, ErrExpired) {
			t.Errorf("a withdrawn invitation: %v", err)
		}
		renewed, _, err := s.RenewInviteLink(ctx, a.ID, ri.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.InviteByToken(ctx, old); !errors.Is(err, ErrNotFound) {
			t.Errorf("the link before renewal: %v, want ErrNotFound", err)
		}
		if inv, _, err := s.InviteByToken(ctx, renewed); err != nil || inv.Email != "r@a.example" {
			t.Errorf("the renewed link: %+v, %v", inv, err)
		}
		// Links: revoked with their maker, or passed to an owner.
		f, _ := s.CreateFolder(ctx, a.ID, "Client")
		for _, keep := range []bool{false, true} {
			m, _ := s.AddMember(ctx, a.ID, fmt.Sprintf("staff%v@a.example", keep), RoleStaff, "")
			_, l, err := s.CreateLink(ctx, NewLink{AccountID: a.ID, FolderID: f.ID, CreatedBy: m.ID, ExpiresAt: c.Now().Add(time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			heir := int64(0)
			if keep {
				heir = boss.Member.ID
			}
			rm, err := s.RemoveMember(ctx, a.ID, m.ID, heir)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := s.LinkByID(ctx, l.ID)
			if keep && (!got.Live(c.Now()) || got.CreatedBy != boss.Member.ID || rm.LinksPassed != 1) {
				t.Errorf("a link passed on: %+v, removal %+v", got, rm)
			}
			if !keep && (got.Live(c.Now()) || rm.LinksRevoked != 1) {
				t.Errorf("a link revoked with its maker: %+v, removal %+v", got, rm)
			}
		}
		m, _ := s.AddMember(ctx, a.ID, "nobody@a.example", RoleStaff, "")
		if _, err := s.RemoveMember(ctx, a.ID, m.ID, demoted.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("links passed to a member who is no owner: %v, want ErrNotFound", err)
		}
	})
}
