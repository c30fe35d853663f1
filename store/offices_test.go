package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

// oldFile describes store/testdata/main-c45a732.db, a data file made by
// the build before offices (c45a732) through its own commands and API.
type oldFile struct {
	Accounts map[string]struct {
		Plan      string   `json:"plan"`
		Keys      []string `json:"keys"`
		Documents []string `json:"documents"`
	} `json:"accounts"`
	Folder struct {
		ID        string   `json:"id"`
		Name      string   `json:"name"`
		Documents []string `json:"documents"`
	} `json:"folder"`
	Edited struct {
		ID               string `json:"id"`
		FirstDescription string `json:"first_description"`
	} `json:"edited"`
}

// CopyOldFile copies the data file made before offices to dir and says
// what it holds (the server's tests open it too).
func copyOldFile(t *testing.T) (string, oldFile) {
	t.Helper()
	var want oldFile
	raw, err := os.ReadFile("testdata/main-c45a732.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/main-c45a732.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// TestMigrateFileFromBeforeOffices: every account of a data file made by
// the build before offices becomes an office whose one owner has its
// address; every key still works and acts as that owner; every document,
// folder and correction is still there, the office's, and reachable by
// the key; and the office then takes members.
func TestMigrateFileFromBeforeOffices(t *testing.T) {
	ctx := context.Background()
	path, want := copyOldFile(t)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	accs, err := s.Accounts(ctx)
	if err != nil || len(accs) != len(want.Accounts) {
		t.Fatalf("accounts %v, %v; want %d", accs, err, len(want.Accounts))
	}
	for email, w := range want.Accounts {
		acc, err := s.AccountByEmail(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		if string(acc.Plan) != w.Plan || acc.Name != email {
			t.Errorf("%s: plan %s, name %q", email, acc.Plan, acc.Name)
		}
		ms, err := s.Members(ctx, acc.ID)
		if err != nil || len(ms) != 1 || ms[0].Email != email || ms[0].Role != RoleOwner || ms[0].HasPassword {
			t.Errorf("%s: members %+v, %v; want one owner with its address and no password yet", email, ms, err)
		}
		for _, key := range w.Keys {
			c, err := s.CallerByKey(ctx, key)
			if err != nil || c.Account.ID != acc.ID || c.Member.ID != ms[0].ID || c.Member.Role != RoleOwner {
				t.Errorf("%s: key %s… acts as %+v, %v", email, key[:9], c, err)
			}
		}
		docs, _, err := s.Documents(ctx, acc.ID, 50, "")
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range docs {
			ids = append(ids, d.ID)
			if d.Status != StatusCompleted || d.AccountID != acc.ID {
				t.Errorf("%s: %s is %s of account %d", email, d.ID, d.Status, d.AccountID)
			}
			if res, err := s.Result(ctx, d.ID); err != nil || len(res) == 0 {
				t.Errorf("%s: result lost: %v", d.ID, err)
			}
		}
		for _, id := range w.Documents {
			if !strings.Contains(strings.Join(ids, " "), id) {
				t.Errorf("%s: document %s missing from %v", email, id, ids)
			}
		}
		if u, err := s.Usage(ctx, acc.ID); err != nil || u.Used != 0 && u.Period == "" {
			t.Errorf("%s: usage %+v, %v", email, u, err)
		}
	}
	f, err := s.Folder(ctx, want.Folder.ID)
	if err != nil || f.Name != want.Folder.Name {
		t.Fatalf("folder: %+v, %v", f, err)
	}
	fd, err := s.FolderDocuments(ctx, f.ID)
	if err != nil || len(fd) != len(want.Folder.Documents) {
		t.Errorf("folder documents %d, %v; want %d", len(fd), err, len(want.Folder.Documents))
	}
	edit, err := s.Edit(ctx, want.Edited.ID)
	if err != nil || !strings.Contains(string(edit), want.Edited.FirstDescription) {
		t.Errorf("the correction: %.80s, %v", edit, err)
	}
	d, err := s.Document(ctx, want.Edited.ID)
	if err != nil || d.EditedAt == nil {
		t.Errorf("edited document %+v, %v", d, err)
	}

	// The migrated office works as any: a member joins, new ids do not
	// collide with the owners', a key of the member acts as the member.
	acc, _ := s.AccountByEmail(ctx, "office@old.example")
	m, err := s.AddMember(ctx, acc.ID, "clerk@old.example", RoleStaff, "")
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := s.CreateMemberKey(ctx, m.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.CallerByKey(ctx, key); err != nil || c.Member.ID != m.ID || c.Account.ID != acc.ID || c.Member.Role != RoleStaff {
		t.Errorf("the new member's key: %+v, %v", c, err)
	}
	if _, err := s.CreateAccount(ctx, "new@example.com", quota.Free); err != nil {
		t.Errorf("a new account after the migration: %v", err)
	}
}

// TestOfficeMigrationOnPostgres: on PostgreSQL, too, accounts and keys from
// before offices become offices of one owner whose keys act as it.
func TestOfficeMigrationOnPostgres(t *testing.T) {
	ctx := context.Background()
	path, want := copyOldFile(t)
	old, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	pg, _ := openAt(t, location(t, "postgres"))
	if _, err := Copy(ctx, old, pg); err != nil {
		t.Fatal(err)
	}
	for email, w := range want.Accounts {
		for _, key := range w.Keys {
			c, err := pg.CallerByKey(ctx, key)
			if err != nil || c.Member.Email != email || c.Member.Role != RoleOwner {
				t.Errorf("%s: key on PostgreSQL acts as %+v, %v", email, c, err)
			}
		}
	}
	acc, _ := pg.AccountByEmail(ctx, "office@old.example")
	if _, err := pg.AddMember(ctx, acc.ID, "clerk@old.example", RoleStaff, ""); err != nil {
		t.Errorf("a member after the copy (identity restarted past the copied ids): %v", err)
	}
}

// TestAuditAppendOnly: the database itself refuses to change or delete a
// line of the trail, on both stores; deleting a document leaves its lines.
func TestAuditAppendOnly(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Business)
		d, err := upload(s, a.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Record(ctx, Event{AccountID: a.ID, Actor: "a@example.com", Action: ActUpload, DocumentID: d.ID, Address: "10.0.0.1"}); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"UPDATE audit SET actor = 'someone else'", "DELETE FROM audit", "DELETE FROM audit WHERE document_id = ?"} {
			var err error
			if strings.Contains(q, "?") {
				_, err = s.w.ExecContext(ctx, q, d.ID)
			} else {
				_, err = s.w.ExecContext(ctx, q)
			}
			if err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v, want refused as append-only", q, err)
			}
		}
		if err := s.DeleteDocument(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		es, _, err := s.Audit(ctx, AuditQuery{AccountID: a.ID, DocumentID: d.ID})
		if err != nil || len(es) != 1 || es[0].Actor != "a@example.com" || es[0].Address != "10.0.0.1" {
			t.Errorf("trail after deleting the document: %+v, %v", es, err)
		}
	})
}

// TestMembersSessionsInvites: roles, the last owner, sessions' idle end and
// sign-out, invitations used once, on both stores.
func TestMembersSessionsInvites(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "boss@example.com", quota.Business)
		owner, _, err := s.MemberByEmail(ctx, "boss@example.com")
		if err != nil || owner.Member.Role != RoleOwner || owner.Account.ID != a.ID {
			t.Fatalf("owner %+v, %v", owner, err)
		}
		if _, err := s.RemoveMember(ctx, a.ID, owner.Member.ID, 0); !errors.Is(err, ErrLastOwner) {
			t.Errorf("removing the last owner: %v", err)
		}
		if _, err := s.SetRole(ctx, a.ID, owner.Member.ID, RoleStaff); !errors.Is(err, ErrLastOwner) {
			t.Errorf("demoting the last owner: %v", err)
		}
		other := newAccount(t, s, "other@example.com", quota.Free)
		if _, err := s.SetRole(ctx, other.ID, owner.Member.ID, RoleStaff); !errors.Is(err, ErrNotFound) {
			t.Errorf("another office changes the owner's role: %v", err)
		}
		// An invitation, used once, makes a member with its role.
		token, _, err := s.CreateInvite(ctx, a.ID, owner.Member.ID, "Clerk@Example.com", RoleStaff, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := HashPassword("a long enough password")
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.AcceptInvite(ctx, token, hash)
		if err != nil || m.Email != "clerk@example.com" || m.Role != RoleStaff || m.AccountID != a.ID {
			t.Fatalf("accept: %+v, %v", m, err)
		}
		if _, err := s.AcceptInvite(ctx, token, hash); !errors.Is(err, ErrExpired) {
			t.Errorf("an invitation used twice: %v", err)
		}
		if _, _, err := s.CreateInvite(ctx, a.ID, 0, "clerk@example.com", RoleStaff, time.Hour); !errors.Is(err, ErrExists) {
			t.Errorf("inviting a member of the office again: %v", err)
		}
		_, h, err := s.MemberByEmail(ctx, "clerk@example.com")
		if err != nil || !CheckPassword(h, "a long enough password") || CheckPassword(h, "a long enough passworD") {
			t.Errorf("password check: %v", err)
		}
		// Sessions: idle past the limit, they end; sign-out ends them.
		tok, sess, err := s.CreateSession(ctx, m.ID, "10.0.0.2")
		if err != nil {
			t.Fatal(err)
		}
		if got, gs, err := s.CallerBySession(ctx, tok, time.Hour); err != nil || got.Member.ID != m.ID || gs.CSRF != sess.CSRF {
			t.Errorf("session: %+v %+v, %v", got, gs, err)
		}
		c.Set(c.Now().Add(59 * time.Minute))
		if _, _, err := s.CallerBySession(ctx, tok, time.Hour); err != nil {
			t.Errorf("a session idle 59 minutes: %v", err)
		}
		c.Set(c.Now().Add(61 * time.Minute))
		if _, _, err := s.CallerBySession(ctx, tok, time.Hour); !errors.Is(err, ErrNotFound) {
			t.Errorf("a session idle 61 minutes: %v", err)
		}
		tok2, _, _ := s.CreateSession(ctx, m.ID, "")
		if err := s.EndSession(ctx, tok2); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.CallerBySession(ctx, tok2, time.Hour); !errors.Is(err, ErrNotFound) {
			t.Errorf("a session after sign-out: %v", err)
		}
		// A removed member's key and sessions stop at once.
		key, _, _ := s.CreateMemberKey(ctx, m.ID, "")
		tok3, _, _ := s.CreateSession(ctx, m.ID, "")
		if _, err := s.RemoveMember(ctx, a.ID, m.ID, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CallerByKey(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("a removed member's key: %v", err)
		}
		if _, _, err := s.CallerBySession(ctx, tok3, time.Hour); !errors.Is(err, ErrNotFound) {
			t.Errorf("a removed member's session: %v", err)
		}
		// Its address may be invited again.
		if _, _, err := s.CreateInvite(ctx, other.ID, 0, "clerk@example.com", RoleReadOnly, time.Hour); err != nil {
			t.Errorf("inviting a removed member's address again: %v", err)
		}
	})
}

// TestLinkCharges: a link's uploads count against its page limit in the
// upload's transaction; a revoked or expired link takes none.
func TestLinkCharges(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "boss@example.com", quota.Business)
		f, err := s.CreateFolder(ctx, a.ID, "Client")
		if err != nil {
			t.Fatal(err)
		}
		_, l, err := s.CreateLink(ctx, NewLink{AccountID: a.ID, FolderID: f.ID, PageLimit: 3, ExpiresAt: c.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		up := func(pages int) error {
			_, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: "s.pdf", Kind: "pdf", PageCount: pages,
				Content: []byte("%PDF"), FolderID: f.ID, LinkID: l.ID})
			return err
		}
		if err := up(2); err != nil {
			t.Fatal(err)
		}
		if err := up(2); !errors.Is(err, ErrLinkFull) {
			t.Errorf("past the page limit: %v", err)
		}
		if err := up(1); err != nil {
			t.Errorf("up to the page limit: %v", err)
		}
		if u, _ := s.Usage(ctx, a.ID); u.Used != 3 {
			t.Errorf("office used %d pages, want 3", u.Used)
		}
		if _, err := s.RevokeLink(ctx, a.ID+1, l.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("another office revokes the link: %v", err)
		}
		_, l2, _ := s.CreateLink(ctx, NewLink{AccountID: a.ID, FolderID: f.ID, ExpiresAt: c.Now().Add(time.Hour)})
		if _, err := s.RevokeLink(ctx, a.ID, l2.ID); err != nil {
			t.Fatal(err)
		}
		l = l2
		if err := up(1); !errors.Is(err, ErrExpired) {
			t.Errorf("through a revoked link: %v", err)
		}
		_, l3, _ := s.CreateLink(ctx, NewLink{AccountID: a.ID, FolderID: f.ID, ExpiresAt: c.Now().Add(time.Hour)})
		l = l3
		c.Set(c.Now().Add(2 * time.Hour))
		if err := up(1); !errors.Is(err, ErrExpired) {
			t.Errorf("through an expired link: %v", err)
		}
	})
}
