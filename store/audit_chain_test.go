package store

import (
	"context"
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
			{"a line without a hash", "INSERT INTO audit (id, account_id, actor, action, created_at) VALUES (?, ?, 'x', 'delete', ?)",
				[]any{last.id + 1, a.ID, formatTime(c.Now().Add(time.Hour))}},
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
