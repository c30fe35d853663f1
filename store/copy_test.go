package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

// tables lists a store's tables.
func (s *Store) tables(t *testing.T) []string {
	t.Helper()
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if s.d == postgresDB {
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
	}
	rows, err := s.r.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// TestEveryTableIsCopied: each table of either dialect is one Copy moves
// or one each database keeps for itself, and both dialects have the same.
func TestEveryTableIsCopied(t *testing.T) {
	want := slices.Sorted(slices.Values(append(slices.Clone(copyTables), ownTables...)))
	eachStore(t, func(t *testing.T, s *Store, _ *clock) {
		if got := s.tables(t); !slices.Equal(got, want) {
			t.Errorf("tables %v; copyTables and ownTables name %v: put each new table in one of them", got, want)
		}
	})
}

// dump reads every row of a table as text, sorted, in the columns of the
// SQLite table: integers and booleans as numbers, blobs as their bytes.
func dump(t *testing.T, s *Store, table string, cols []string) []string {
	t.Helper()
	rows, err := s.r.Query("SELECT " + strings.Join(cols, ", ") + " FROM " + table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				b.WriteString("NULL")
			case bool:
				fmt.Fprintf(&b, "%q", map[bool]string{false: "0", true: "1"}[v])
			case []byte:
				fmt.Fprintf(&b, "%q", v)
			default:
				fmt.Fprintf(&b, "%q", fmt.Sprint(v))
			}
			if i < len(vals)-1 {
				b.WriteString("|")
			}
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func columns(t *testing.T, s *Store, table string) []string {
	t.Helper()
	rows, err := s.r.Query("SELECT * FROM " + table + " LIMIT 0")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

// TestCopyToPostgres fills a data file with 100 documents in every state
// (completed with results, edited, failed and refunded, queued, running,
// deleted), keys live and revoked, credits, Idempotency-Keys and folders
// (a deleted document leaves its folder), copies it into PostgreSQL and
// compares every row of every table, then uses the copy: keys, quota,
// results, edits, folders, the queue, and new ids.
func TestCopyToPostgres(t *testing.T) {
	ctx := context.Background()
	from, c := openAt(t, location(t, "sqlite"))
	accs := []Account{
		newAccount(t, from, "free@example.com", quota.Free),
		newAccount(t, from, "pro@example.com", quota.Professional),
		newAccount(t, from, "admin@localhost", quota.Admin),
	}
	if err := from.GrantCredits(ctx, "free@example.com", 200); err != nil {
		t.Fatal(err)
	}
	keys := map[string]int64{}
	for i, a := range accs {
		key, k, err := from.CreateKey(ctx, a.ID, fmt.Sprintf("key %d", i))
		if err != nil {
			t.Fatal(err)
		}
		keys[key] = a.ID
		if _, old, err := from.CreateKey(ctx, a.ID, "revoked"); err != nil || from.RevokeKey(ctx, old.ID) != nil {
			t.Fatalf("revoked key: %v", err)
		}
		_ = k
	}
	var ids []string
	for i := range 100 {
		c.Set(c.Now().Add(time.Minute))
		a := accs[i%3]
		nd := NewDocument{AccountID: a.ID, OriginalName: fmt.Sprintf("s%03d.pdf", i), Kind: "pdf", PageCount: 1 + i%3,
			Content: []byte(fmt.Sprintf("%%PDF-1.4 statement %d \x00\xff", i)), Encrypted: i%17 == 0}
		if i%4 == 0 {
			nd.IdempotencyKey = fmt.Sprintf("idem-%d", i)
		}
		d, err := from.CreateDocument(ctx, nd)
		if err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		ids = append(ids, d.ID)
	}
	// Claim 95 jobs: 60 complete (20 of them edited), 25 fail, 10 stay
	// running; 5 stay queued. Then 5 completed documents are deleted.
	for i := range 95 {
		job, err := from.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case i < 60:
			rec := []string{"ok", "mismatch", "unverified"}[i%3]
			res := fmt.Sprintf(`{"Transactions":[{"Description":"row %d"}],"Statement":{"Reconciliation":{"Status":%q}}}`, i, rec)
			if err := from.CompleteJob(ctx, job, i, rec, []byte(res)); err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				if err := from.SaveEdit(ctx, job.DocumentID, []byte(fmt.Sprintf(`{"edited":%d}`, i)), i+1, "ok"); err != nil {
					t.Fatal(err)
				}
			}
		case i < 85:
			if err := from.FailJob(ctx, job, "unreadable_file", fmt.Sprintf("bad %d", i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Two folders of the first account: one with 20 of its documents, 5
	// of them added in one instant (their order is the order added), and
	// an empty one.
	var folders []Folder
	for _, name := range []string{"Smith & Co 2024", "empty"} {
		f, err := from.CreateFolder(ctx, accs[0].ID, name)
		if err != nil {
			t.Fatal(err)
		}
		folders = append(folders, f)
	}
	for i := 0; i < 60; i += 3 {
		if i < 45 {
			c.Set(c.Now().Add(time.Second))
		}
		if err := from.AddToFolder(ctx, folders[0].ID, ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range ids[:5] {
		if err := from.DeleteDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}

	to, _ := openAt(t, location(t, "postgres"))
	to.Now = c.Now
	counts, err := Copy(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tc := range counts {
		got[tc.Table] = tc.Rows
	}
	if got["documents"] != 100 || got["accounts"] != 3 || got["api_keys"] != 6 || got["usage"] != 100 || got["jobs"] != 15 || got["idempotency_keys"] != 25-2 ||
		got["folders"] != 2 || got["folder_documents"] != 20-2 {
		t.Errorf("copied %v; want 100 documents, 3 accounts, 6 keys, 100 charges, 15 jobs, 23 idempotency keys, 2 folders holding 18 documents", got)
	}
	for _, table := range copyTables {
		cols := columns(t, from, table)
		if table == "jobs" {
			// Jobs that were running arrive queued, without their claim.
			cols = slices.DeleteFunc(cols, func(c string) bool {
				return c == "state" || c == "claimed_at" || c == "lease_until" || c == "claim"
			})
			var running, queued int
			if err := to.r.QueryRow("SELECT count(*) FILTER (WHERE state = 'running'), count(*) FILTER (WHERE state = 'queued' AND claim IS NULL) FROM jobs").Scan(&running, &queued); err != nil {
				t.Fatal(err)
			}
			if running != 0 || queued != 15 {
				t.Errorf("jobs in the copy: %d running, %d queued; want 0 and 15", running, queued)
			}
		}
		a, b := dump(t, from, table, cols), dump(t, to, table, cols)
		if !slices.Equal(a, b) {
			t.Errorf("%s differs after the copy:\nfrom %d rows, e.g. %.300v\nto   %d rows, e.g. %.300v", table, len(a), a, len(b), b)
		}
	}
	// The copy works as the data file did.
	for key, id := range keys {
		if a, err := to.AccountByKey(ctx, key); err != nil || a.ID != id {
			t.Errorf("key of account %d: %+v, %v", id, a, err)
		}
	}
	for _, a := range accs {
		u1, _ := from.Usage(ctx, a.ID)
		u2, err := to.Usage(ctx, a.ID)
		if err != nil || u1 != u2 {
			t.Errorf("usage of %s: %+v in the file, %+v, %v in the copy", a.Email, u1, u2, err)
		}
	}
	for _, id := range ids {
		d1, err1 := from.Document(ctx, id)
		d2, err2 := to.Document(ctx, id)
		if fmt.Sprint(d1, err1) != fmt.Sprint(d2, err2) {
			t.Errorf("document %s: %+v in the file, %+v in the copy", id, d1, d2)
		}
		r1, _ := from.Result(ctx, id)
		r2, _ := to.Result(ctx, id)
		e1, _ := from.Edit(ctx, id)
		e2, _ := to.Edit(ctx, id)
		if string(r1) != string(r2) || string(e1) != string(e2) {
			t.Errorf("document %s: result or edit differs", id)
		}
	}
	for _, f := range folders {
		f1, err1 := from.Folder(ctx, f.ID)
		f2, err2 := to.Folder(ctx, f.ID)
		d1, _ := from.FolderDocuments(ctx, f.ID)
		d2, err := to.FolderDocuments(ctx, f.ID)
		if fmt.Sprint(f1, err1) != fmt.Sprint(f2, err2) || err != nil || fmt.Sprint(d1) != fmt.Sprint(d2) {
			t.Errorf("folder %s: %+v, %d documents in the file; %+v, %d documents (%v) in the copy", f.Name, f1, len(d1), f2, len(d2), err)
		}
	}
	if d, err := to.FolderDocuments(ctx, folders[0].ID); err != nil || len(d) != 18 || d[0].ID != ids[6] || d[17].ID != ids[57] {
		t.Errorf("the copied folder holds %d documents (%v), want 18 from %s to %s in the order added", len(d), err, ids[6], ids[57])
	}
	fresh, err := to.CreateAccount(ctx, "new@example.com", quota.Free)
	if err != nil || fresh.ID <= accs[2].ID {
		t.Errorf("a new account after the copy: %+v, %v; want an id past %d", fresh, err, accs[2].ID)
	}
	if _, err := Copy(ctx, from, to); err == nil {
		t.Error("a second copy into a database that holds accounts was accepted")
	}
	claimed := 0
	for {
		if _, err := to.ClaimJob(ctx); err != nil {
			break
		}
		claimed++
	}
	if claimed != 15 {
		t.Errorf("claimed %d of the copied jobs, want 15", claimed)
	}
}
