package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passbook/quota"
	"passbook/store"
)

const testPassword = "correct horse battery"

// officeFix is two offices: A with an owner, a staff member and a
// read-only member (each with a key and a password), a folder, a link and
// a converted document; B with its owner, a folder and a document.
type officeFix struct {
	e                       *testEnv
	a, b                    store.Account
	owner, staff, reader    string // keys of A's members
	ownerM, staffM, readerM store.Member
	other                   string // B's owner's key
	linkToken, linkID       string
	folder, doc             string // A's
	otherFolder, otherDoc   string // B's
	folders                 int    // folders made so far
}

func (e *testEnv) member(acc store.Account, email string, role store.Role) (string, store.Member) {
	e.t.Helper()
	ctx := context.Background()
	hash, err := store.HashPassword(testPassword)
	if err != nil {
		e.t.Fatal(err)
	}
	m, err := e.store.AddMember(ctx, acc.ID, email, role, hash)
	if err != nil {
		e.t.Fatal(err)
	}
	key, _, err := e.store.CreateMemberKey(ctx, m.ID, "")
	if err != nil {
		e.t.Fatal(err)
	}
	return key, m
}

func newOffices(t *testing.T, opts ...option) *officeFix {
	opts = append(opts, func(c *Config, _ *Converter) { c.AuthFailures = 10000; c.SignInFailures = 10000 })
	e := newEnv(t, true, opts...)
	ctx := context.Background()
	f := &officeFix{e: e}
	var err error
	if f.a, err = e.store.CreateAccount(ctx, "boss@a.example", quota.Business); err != nil {
		t.Fatal(err)
	}
	if f.b, err = e.store.CreateAccount(ctx, "boss@b.example", quota.Business); err != nil {
		t.Fatal(err)
	}
	c, _, err := e.store.MemberByEmail(ctx, "boss@a.example")
	if err != nil {
		t.Fatal(err)
	}
	f.ownerM = c.Member
	hash, _ := store.HashPassword(testPassword)
	if err := e.store.SetPassword(ctx, f.ownerM.ID, hash); err != nil {
		t.Fatal(err)
	}
	if f.owner, _, err = e.store.CreateKey(ctx, f.a.ID, ""); err != nil {
		t.Fatal(err)
	}
	if f.other, _, err = e.store.CreateKey(ctx, f.b.ID, ""); err != nil {
		t.Fatal(err)
	}
	f.staff, f.staffM = e.member(f.a, "clerk@a.example", store.RoleStaff)
	f.reader, f.readerM = e.member(f.a, "auditor@a.example", store.RoleReadOnly)
	f.folder = f.newFolder(f.a)
	f.otherFolder = f.newFolder(f.b)
	f.doc = f.newDoc(f.owner)
	f.otherDoc = f.newDoc(f.other)
	f.linkToken, f.linkID = f.newLink(0)
	return f
}

func (f *officeFix) newFolder(acc store.Account) string {
	f.folders++ // names are unique in an office
	fo, err := f.e.store.CreateFolder(context.Background(), acc.ID, fmt.Sprintf("Folder %d", f.folders))
	if err != nil {
		f.e.t.Fatal(err)
	}
	return fo.ID
}

func (f *officeFix) newDoc(key string) string {
	f.e.t.Helper()
	resp, m := f.e.upload(key, map[string][]byte{"file": sample})
	if resp.StatusCode != 200 {
		f.e.t.Fatalf("upload: %d %v", resp.StatusCode, m)
	}
	id := m["file_id"].(string)
	if st := f.e.waitDone(key, id); st["status"] != store.StatusCompleted {
		f.e.t.Fatalf("conversion: %v", st)
	}
	return id
}

func (f *officeFix) newLink(pages int) (string, string) {
	f.e.t.Helper()
	token, l, err := f.e.store.CreateLink(context.Background(), store.NewLink{AccountID: f.a.ID, FolderID: f.folder,
		CreatedBy: f.staffM.ID, PageLimit: pages, ExpiresAt: f.e.store.Now().Add(24 * time.Hour)})
	if err != nil {
		f.e.t.Fatal(err)
	}
	return token, l.ID
}

// newInvite has A's owner invite an address as staff, and returns the
// invitation's id.
func (f *officeFix) newInvite(email string) int64 {
	f.e.t.Helper()
	_, inv, err := f.e.store.CreateInvite(context.Background(), f.a.ID, f.ownerM.ID, email, store.RoleStaff, time.Hour)
	if err != nil {
		f.e.t.Fatal(err)
	}
	return inv.ID
}

// send makes a request with an Authorization header (or none) and
// returns its status and JSON body.
func (e *testEnv) send(method, path, auth, body, ctype string) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.http.URL+path, rd)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	} else if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &m)
	return resp.StatusCode, m
}

// The actors of the matrix, in the order of each row's statuses.
var actors = []string{"owner", "staff", "read_only", "other_office", "client_link", "none"}

// TestAuthorisationMatrix: every endpoint, for each of an owner, a staff
// member, a read-only member, another office's owner, a client link's
// token and no credentials, answers exactly the status it should. Each
// row makes what it changes afresh for each actor, so that no actor's
// answer depends on another's.
func TestAuthorisationMatrix(t *testing.T) {
	f := newOffices(t)
	e := f.e
	ctx := context.Background()
	uploadForm := func() (string, string) {
		body, ctype := form(map[string][]byte{"file": sample})
		b, _ := io.ReadAll(body)
		return string(b), ctype
	}
	type req struct{ method, path, body, ctype string }
	n := 0
	fresh := func() string { n++; return fmt.Sprintf("new%d@new.example", n) }
	rows := []struct {
		name string
		make func() req
		want [6]int
	}{
		{"user", func() req { return req{"GET", "/api/v1/user", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
		{"documents", func() req { return req{"GET", "/api/v1/documents", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
		// The list searched and filtered: by A's folder, which another
		// office may not name.
		{"documents searched", func() req {
			return req{"GET", "/api/v1/documents?q=march&status=ok&from=2024-01-01&to=2024-12-31&sort=name&folder_id=none", "", ""}
		}, [6]int{200, 200, 200, 200, 401, 401}},
		{"folders searched", func() req { return req{"GET", "/api/v1/folders?q=march", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
		{"documents in a folder", func() req { return req{"GET", "/api/v1/documents?folder_id=" + f.folder, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"status", func() req { return req{"GET", "/api/v1/status?file_id=" + f.doc, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"download", func() req { return req{"GET", "/api/v1/download?format=csv&file_id=" + f.doc, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"page image", func() req { return req{"GET", "/api/v1/documents/" + f.doc + "/pages/1", "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"history", func() req { return req{"GET", "/api/v1/documents/" + f.doc + "/history", "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"review", func() req { return req{"GET", "/api/v1/documents/" + f.doc, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"find transactions", func() req { return req{"GET", "/api/v1/transactions?q=x", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
		{"find a folder's transactions", func() req { return req{"GET", "/api/v1/transactions?folder_id=" + f.folder, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"check a correction", func() req {
			return req{"POST", "/api/v1/documents/" + f.doc + "/transactions/check", `{"transactions":[]}`, ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"correct", func() req {
			return req{"PUT", "/api/v1/documents/" + f.doc + "/transactions", `{"transactions":[]}`, ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"revert", func() req { return req{"DELETE", "/api/v1/documents/" + f.doc + "/transactions", "", ""} }, [6]int{200, 200, 403, 403, 401, 401}},
		{"delete document", func() req { return req{"DELETE", "/api/v1/documents/" + f.newDoc(f.owner), "", ""} }, [6]int{200, 200, 403, 403, 401, 401}},
		{"upload", func() req { b, c := uploadForm(); return req{"POST", "/api/v1/extract", b, c} }, [6]int{200, 200, 403, 200, 401, 401}},
		{"upload into A's folder", func() req {
			// A folder of its own, so that folder's conversions keep no
			// other row's folder processing.
			body, ctype := form(map[string][]byte{"file": sample, "folder_id": []byte(f.newFolder(f.a))})
			b, _ := io.ReadAll(body)
			return req{"POST", "/api/v1/extract", string(b), ctype}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"folders", func() req { return req{"GET", "/api/v1/folders", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
		{"create folder", func() req { n++; return req{"POST", "/api/v1/folders", fmt.Sprintf(`{"name":"Client %d"}`, n), ""} }, [6]int{200, 200, 403, 200, 401, 401}},
		{"folder", func() req { return req{"GET", "/api/v1/folders/" + f.folder, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"folder download", func() req { return req{"GET", "/api/v1/folders/" + f.folder + "/download?format=csv", "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"delete folder", func() req { return req{"DELETE", "/api/v1/folders/" + f.newFolder(f.a), "", ""} }, [6]int{200, 200, 403, 403, 401, 401}},
		{"add to folder", func() req {
			return req{"PUT", "/api/v1/folders/" + f.newFolder(f.a) + "/documents/" + f.doc, "", ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"take out of folder", func() req {
			fo := f.newFolder(f.a)
			if err := e.store.AddToFolder(ctx, fo, f.doc); err != nil {
				t.Fatal(err)
			}
			return req{"DELETE", "/api/v1/folders/" + fo + "/documents/" + f.doc, "", ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		// Issue 30's routes: a zip of documents, a header corrected, a
		// folder renamed, a statement set aside and taken back.
		// Issue 43's shareable copy: roles as for downloads. The test
		// engine makes no copies, so those allowed are refused by it.
		{"redact", func() req { return req{"GET", "/api/v1/redact?file_id=" + f.doc, "", ""} }, [6]int{422, 422, 422, 403, 401, 401}},
		{"zip", func() req { return req{"GET", "/api/v1/documents/zip?format=csv&file_id=" + f.doc, "", ""} }, [6]int{200, 200, 200, 403, 401, 401}},
		{"correct header", func() req {
			return req{"PUT", "/api/v1/documents/" + f.doc + "/statement", `{"currency":"EUR"}`, ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"rename folder", func() req {
			n++
			return req{"PATCH", "/api/v1/folders/" + f.newFolder(f.a), fmt.Sprintf(`{"name":"Renamed %d"}`, n), ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"set aside", func() req {
			fo := f.newFolder(f.a)
			if err := e.store.AddToFolder(ctx, fo, f.doc); err != nil {
				t.Fatal(err)
			}
			return req{"PATCH", "/api/v1/folders/" + fo + "/documents/" + f.doc, `{"set_aside":true}`, ""}
		}, [6]int{200, 200, 403, 403, 401, 401}},
		{"session", func() req { return req{"GET", "/api/v1/session", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
		{"links", func() req { return req{"GET", "/api/v1/links", "", ""} }, [6]int{200, 200, 403, 200, 401, 401}},
		{"create link", func() req {
			return req{"POST", "/api/v1/links", `{"folder_id":"` + f.folder + `","expires_in_days":3}`, ""}
		}, [6]int{201, 201, 403, 403, 401, 401}},
		{"revoke link", func() req { _, id := f.newLink(0); return req{"DELETE", "/api/v1/links/" + id, "", ""} }, [6]int{200, 200, 403, 404, 401, 401}},
		{"members", func() req { return req{"GET", "/api/v1/members", "", ""} }, [6]int{200, 403, 403, 200, 401, 401}},
		{"invite", func() req { return req{"POST", "/api/v1/members", `{"email":"` + fresh() + `","role":"staff"}`, ""} }, [6]int{201, 403, 403, 201, 401, 401}},
		{"set role", func() req {
			_, m := e.member(f.a, fresh(), store.RoleStaff)
			return req{"PUT", fmt.Sprintf("/api/v1/members/%d", m.ID), `{"role":"read_only"}`, ""}
		}, [6]int{200, 403, 403, 404, 401, 401}},
		{"remove member", func() req {
			_, m := e.member(f.a, fresh(), store.RoleStaff)
			return req{"DELETE", fmt.Sprintf("/api/v1/members/%d", m.ID), "", ""}
		}, [6]int{200, 403, 403, 404, 401, 401}},
		{"invitations", func() req { return req{"GET", "/api/v1/invitations", "", ""} }, [6]int{200, 403, 403, 200, 401, 401}},
		{"withdraw invitation", func() req {
			return req{"DELETE", fmt.Sprintf("/api/v1/invitations/%d", f.newInvite(fresh())), "", ""}
		}, [6]int{200, 403, 403, 404, 401, 401}},
		{"invitation's link again", func() req {
			return req{"POST", fmt.Sprintf("/api/v1/invitations/%d/link", f.newInvite(fresh())), "", ""}
		}, [6]int{200, 403, 403, 404, 401, 401}},
		{"rename office", func() req { return req{"PUT", "/api/v1/office", `{"name":"Office"}`, ""} }, [6]int{200, 403, 403, 200, 401, 401}},
		{"audit", func() req { return req{"GET", "/api/v1/audit", "", ""} }, [6]int{200, 403, 403, 200, 401, 401}},
		{"sign out", func() req { return req{"POST", "/api/v1/signout", "", ""} }, [6]int{200, 200, 200, 200, 401, 401}},
	}
	auth := map[string]string{"owner": "Bearer " + f.owner, "staff": "Bearer " + f.staff, "read_only": "Bearer " + f.reader,
		"other_office": "Bearer " + f.other, "client_link": "Bearer " + f.linkToken, "none": ""}
	// The page's members: the same answers through a signed-in session
	// (its cookie, and its CSRF token on changes) as through a key.
	sessions := []*browserClient{e.browser(), e.browser(), e.browser()}
	for i, email := range []string{"boss@a.example", "clerk@a.example", "auditor@a.example"} {
		if resp, m := sessions[i].signIn(email, testPassword); resp.StatusCode != 200 {
			t.Fatalf("sign in %s: %d %v", email, resp.StatusCode, m)
		}
	}
	for _, row := range rows {
		for i, b := range sessions {
			r := row.make()
			req, _ := http.NewRequest(r.method, e.http.URL+r.path, strings.NewReader(r.body))
			ctype := r.ctype
			if ctype == "" && r.body != "" {
				ctype = "application/json"
			}
			if ctype != "" {
				req.Header.Set("Content-Type", ctype)
			}
			if changes(r.method) {
				req.Header.Set(CSRFHeader, b.csrf)
			}
			resp, err := b.c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != row.want[i] {
				t.Errorf("%s (%s %s) as %s through the page's session: %d, want %d", row.name, r.method, r.path, actors[i], resp.StatusCode, row.want[i])
			}
		}
		for i, actor := range actors {
			r := row.make()
			got, m := e.send(r.method, r.path, auth[actor], r.body, r.ctype)
			if got != row.want[i] {
				t.Errorf("%s (%s %s) as %s: %d %v, want %d", row.name, r.method, r.path, actor, got, m, row.want[i])
			}
		}
	}

	// What another office may list holds nothing of A's.
	for _, path := range []string{"/api/v1/documents", "/api/v1/folders", "/api/v1/members", "/api/v1/audit", "/api/v1/links"} {
		_, m := e.send("GET", path, "Bearer "+f.other, "", "")
		raw, _ := json.Marshal(m)
		for _, secret := range []string{f.doc, f.folder, "a.example", f.linkID} {
			if strings.Contains(string(raw), secret) {
				t.Errorf("GET %s as another office shows %s: %s", path, secret, raw)
			}
		}
	}
	// The client link reaches no API at all, in any header or as a cookie.
	for _, path := range []string{"/api/v1/documents", "/api/v1/folders/" + f.folder, "/api/v1/download?file_id=" + f.doc} {
		req, _ := http.NewRequest("GET", e.http.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: f.linkToken})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("GET %s with the link's token as the session cookie: %d, want 401", path, resp.StatusCode)
		}
	}
}

// TestIDsGuessedAndSwapped: ids another office owns, or that no one does,
// reach nothing through any path that names them, whoever asks.
func TestIDsGuessedAndSwapped(t *testing.T) {
	f := newOffices(t)
	e := f.e
	_, otherLink, err := e.store.CreateLink(context.Background(), store.NewLink{AccountID: f.b.ID, FolderID: f.otherFolder,
		ExpiresAt: e.store.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	_, bm := e.member(f.b, "clerk@b.example", store.RoleStaff)
	for _, c := range []struct {
		name, method, path, body string
		want                     int
	}{
		{"B's document's status", "GET", "/api/v1/status?file_id=" + f.otherDoc, "", 403},
		{"B's document in A's folder", "PUT", "/api/v1/folders/" + f.folder + "/documents/" + f.otherDoc, "", 403},
		{"A's document in B's folder", "PUT", "/api/v1/folders/" + f.otherFolder + "/documents/" + f.doc, "", 403},
		{"B's document's history", "GET", "/api/v1/documents/" + f.otherDoc + "/history", "", 403},
		{"B's document corrected", "PUT", "/api/v1/documents/" + f.otherDoc + "/transactions", `{"transactions":[]}`, 403},
		{"B's document deleted", "DELETE", "/api/v1/documents/" + f.otherDoc, "", 403},
		{"B's document in a zip", "GET", "/api/v1/documents/zip?format=csv&file_id=" + f.doc + "&file_id=" + f.otherDoc, "", 403},
		{"B's document's header corrected", "PUT", "/api/v1/documents/" + f.otherDoc + "/statement", `{"currency":"EUR"}`, 403},
		{"A's documents filtered by B's folder", "GET", "/api/v1/documents?folder_id=" + f.otherFolder, "", 403},
		{"B's folder renamed", "PATCH", "/api/v1/folders/" + f.otherFolder, `{"name":"Mine now"}`, 403},
		{"B's document set aside in A's folder", "PATCH", "/api/v1/folders/" + f.folder + "/documents/" + f.otherDoc, `{"set_aside":true}`, 403},
		{"A's document set aside in B's folder", "PATCH", "/api/v1/folders/" + f.otherFolder + "/documents/" + f.doc, `{"set_aside":true}`, 403},
		{"B's link revoked", "DELETE", "/api/v1/links/" + otherLink.ID, "", 404},
		{"a link for B's folder", "POST", "/api/v1/links", `{"folder_id":"` + f.otherFolder + `"}`, 403},
		{"B's member's role", "PUT", fmt.Sprintf("/api/v1/members/%d", bm.ID), `{"role":"owner"}`, 404},
		{"B's member removed", "DELETE", fmt.Sprintf("/api/v1/members/%d", bm.ID), "", 404},
		{"a guessed document", "GET", "/api/v1/documents/doc_AAAAAAAAAAAAAAAAAAAAAAAAAA/history", "", 404},
		{"a guessed folder", "GET", "/api/v1/folders/fld_AAAAAAAAAAAAAAAAAAAAAAAAAA", "", 404},
		{"a guessed link", "DELETE", "/api/v1/links/lnk_AAAAAAAAAAAAAAAAAAAA", "", 404},
		{"a guessed member", "DELETE", "/api/v1/members/999999", "", 404},
		{"a member id that is no number", "DELETE", "/api/v1/members/1%20OR%201=1", "", 404},
		{"B's events by member", "GET", fmt.Sprintf("/api/v1/audit?member_id=%d", bm.ID), "", 200},
	} {
		got, m := e.send(c.method, c.path, "Bearer "+f.owner, c.body, "")
		if got != c.want {
			t.Errorf("%s: %d %v, want %d", c.name, got, m, c.want)
		}
		if c.name == "B's events by member" && len(m["events"].([]any)) != 0 {
			t.Errorf("A's owner reads B's member's events: %v", m["events"])
		}
	}
	// B's staff member was not touched by A's owner.
	if got, err := e.store.MemberByID(context.Background(), bm.ID); err != nil || got.Role != store.RoleStaff || got.RemovedAt != nil {
		t.Errorf("B's member after A's attempts: %+v, %v", got, err)
	}
	// The spec's user endpoint names the calling member, with the office's quota.
	_, mo := e.send("GET", "/api/v1/user", "Bearer "+f.owner, "", "")
	_, ms := e.send("GET", "/api/v1/user", "Bearer "+f.staff, "", "")
	if mo["email"] != "boss@a.example" || ms["email"] != "clerk@a.example" || fmt.Sprint(mo["quota"]) != fmt.Sprint(ms["quota"]) || len(ms) != 5 {
		t.Errorf("user as owner %v and as staff %v: want each member's address, the office's one quota, the spec's five fields", mo, ms)
	}
	// The last owner can neither be removed nor demoted.
	if got, m := e.send("DELETE", fmt.Sprintf("/api/v1/members/%d", f.ownerM.ID), "Bearer "+f.owner, "", ""); got != 409 || m["code"] != "last_owner" {
		t.Errorf("removing the last owner: %d %v", got, m)
	}
	if got, m := e.send("PUT", fmt.Sprintf("/api/v1/members/%d", f.ownerM.ID), "Bearer "+f.owner, `{"role":"staff"}`, ""); got != 409 {
		t.Errorf("demoting the last owner: %d %v", got, m)
	}
	// A removed member's key stops at once.
	if got, _ := e.send("DELETE", fmt.Sprintf("/api/v1/members/%d", f.staffM.ID), "Bearer "+f.owner, "", ""); got != 200 {
		t.Fatalf("remove staff: %d", got)
	}
	if got, m := e.send("GET", "/api/v1/documents", "Bearer "+f.staff, "", ""); got != 401 {
		t.Errorf("a removed member's key: %d %v, want 401", got, m)
	}
}

// browserClient is a member's browser: a cookie jar, and the CSRF token
// the page would hold.
type browserClient struct {
	e    *testEnv
	c    *http.Client
	csrf string
}

func (e *testEnv) browser() *browserClient {
	jar, _ := cookiejar.New(nil)
	return &browserClient{e: e, c: &http.Client{Jar: jar}}
}

// do sends a request as the page would, with the CSRF token on changes
// when withCSRF is set, and extra headers.
func (b *browserClient) do(method, path, body string, withCSRF bool, hdr map[string]string) (*http.Response, map[string]any) {
	b.e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, b.e.http.URL+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if withCSRF && b.csrf != "" {
		req.Header.Set(CSRFHeader, b.csrf)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &m)
	return resp, m
}

func (b *browserClient) signIn(email, password string) (*http.Response, map[string]any) {
	b.e.t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	resp, m := b.do("POST", "/api/v1/signin", string(body), false, nil)
	if resp.StatusCode == 200 {
		b.csrf, _ = m["csrf_token"].(string)
	}
	return resp, m
}

// TestSessions: sign-in sets a cookie with the right flags; a forged
// cross-site request is refused; a cookie from before sign-out is refused;
// sign-out everywhere ends every session; idle sessions end; guessing
// passwords is throttled per address and per account.
func TestSessions(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.SessionIdle = time.Hour })
	ctx := context.Background()
	acc, err := e.store.CreateAccount(ctx, "boss@a.example", quota.Business)
	if err != nil {
		t.Fatal(err)
	}
	_, staff := e.member(acc, "clerk@a.example", store.RoleStaff)

	b := e.browser()
	resp, m := b.signIn("Clerk@A.example ", testPassword)
	if resp.StatusCode != 200 || m["role"] != "staff" || b.csrf == "" || m["email"] != "clerk@a.example" {
		t.Fatalf("sign in: %d %v", resp.StatusCode, m)
	}
	var ck *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			ck = c
		}
	}
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure || ck.Path != "/" || ck.MaxAge != 0 {
		t.Errorf("session cookie over plain HTTP = %+v; want HttpOnly, SameSite=Lax, not Secure, path /, for the browser's session", ck)
	}
	if strings.Contains(ck.Value, b.csrf) || len(ck.Value) < 40 {
		t.Errorf("cookie %q", ck.Value)
	}
	// A sign-in another site's page could send is refused (login CSRF).
	for name, hdr := range map[string]map[string]string{
		"a form's body":      {"Content-Type": "text/plain"},
		"another origin":     {"Content-Type": "application/json", "Origin": "https://evil.example"},
		"a cross-site fetch": {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
	} {
		body, _ := json.Marshal(map[string]string{"email": "clerk@a.example", "password": testPassword})
		req, _ := http.NewRequest("POST", e.http.URL+"/api/v1/signin", strings.NewReader(string(body)))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 || len(resp.Cookies()) != 0 {
			t.Errorf("sign-in from %s: %d %v, want 403 and no cookie", name, resp.StatusCode, resp.Cookies())
		}
	}
	// Behind a TLS proxy the cookie is Secure.
	b2 := e.browser()
	body, _ := json.Marshal(map[string]string{"email": "clerk@a.example", "password": testPassword})
	resp2, _ := b2.do("POST", "/api/v1/signin", string(body), false, map[string]string{"X-Forwarded-Proto": "https"})
	if c := resp2.Cookies(); len(c) != 1 || !c[0].Secure || !c[0].HttpOnly {
		t.Errorf("cookie over TLS = %+v, want Secure", c)
	}

	// Reading works with the cookie alone; changing needs the CSRF token.
	if resp, m := b.do("GET", "/api/v1/documents", "", false, nil); resp.StatusCode != 200 {
		t.Errorf("GET with the cookie: %d %v", resp.StatusCode, m)
	}
	if resp, m := b.do("POST", "/api/v1/folders", `{"name":"forged"}`, false, nil); resp.StatusCode != 403 || m["code"] != "csrf_failed" {
		t.Errorf("a POST without the CSRF token (a forged cross-site form): %d %v, want 403 csrf_failed", resp.StatusCode, m)
	}
	if resp, m := b.do("POST", "/api/v1/folders", `{"name":"forged"}`, false, map[string]string{CSRFHeader: "guess"}); resp.StatusCode != 403 {
		t.Errorf("a POST with a wrong CSRF token: %d %v", resp.StatusCode, m)
	}
	if resp, m := b.do("POST", "/api/v1/folders", `{"name":"forged"}`, true, map[string]string{"Origin": "https://evil.example"}); resp.StatusCode != 403 {
		t.Errorf("a POST from another origin, with the token: %d %v", resp.StatusCode, m)
	}
	if resp, m := b.do("DELETE", "/api/v1/documents/doc_x", "", true, map[string]string{"Sec-Fetch-Site": "cross-site"}); resp.StatusCode != 403 {
		t.Errorf("a cross-site DELETE, with the token: %d %v", resp.StatusCode, m)
	}
	if fs, _ := e.store.Folders(ctx, acc.ID); len(fs) != 0 {
		t.Errorf("a forged request made a folder: %v", fs)
	}
	if resp, m := b.do("POST", "/api/v1/folders", `{"name":"real"}`, true, map[string]string{"Origin": e.http.URL, "Sec-Fetch-Site": "same-origin"}); resp.StatusCode != 200 {
		t.Errorf("the page's own POST: %d %v", resp.StatusCode, m)
	}
	// Behind a reverse proxy that rewrites Host and says what the browser used.
	if resp, m := b.do("POST", "/api/v1/folders", `{"name":"proxied"}`, true, map[string]string{"Origin": "https://books.example",
		"X-Forwarded-Host": "books.example"}); resp.StatusCode != 200 {
		t.Errorf("the page's own POST through a proxy: %d %v", resp.StatusCode, m)
	}
	// Another session's token does not do for this one.
	b3 := e.browser()
	b3.signIn("clerk@a.example", testPassword)
	b3.csrf, b.csrf = b.csrf, b3.csrf
	if resp, _ := b3.do("POST", "/api/v1/folders", `{"name":"swapped"}`, true, nil); resp.StatusCode != 403 {
		t.Errorf("a session's request with another session's CSRF token: %d", resp.StatusCode)
	}
	b3.csrf, b.csrf = b.csrf, b3.csrf

	// Sign-out: the old cookie, replayed, is refused.
	old := ck.Value
	if resp, m := b.do("POST", "/api/v1/signout", "", true, nil); resp.StatusCode != 200 {
		t.Fatalf("sign out: %d %v", resp.StatusCode, m)
	}
	replay := e.browser()
	u, _ := url.Parse(e.http.URL)
	replay.c.Jar.SetCookies(u, []*http.Cookie{{Name: SessionCookie, Value: old}})
	if resp, m := replay.do("GET", "/api/v1/documents", "", false, nil); resp.StatusCode != 401 || m["code"] != "session_expired" {
		t.Errorf("a cookie from before sign-out: %d %v, want 401 session_expired", resp.StatusCode, m)
	}
	// b2 and b3 still work, until sign-out everywhere from one of them.
	if resp, _ := b3.do("GET", "/api/v1/session", "", false, nil); resp.StatusCode != 200 {
		t.Errorf("another session after one signed out: %d", resp.StatusCode)
	}
	if resp, _ := b3.do("POST", "/api/v1/signout", `{"everywhere":true}`, true, nil); resp.StatusCode != 200 {
		t.Errorf("sign out everywhere: %d", resp.StatusCode)
	}
	for i, c := range []*browserClient{b2, b3} {
		if resp, _ := c.do("GET", "/api/v1/session", "", false, nil); resp.StatusCode != 401 {
			t.Errorf("session %d after sign-out everywhere: %d", i, resp.StatusCode)
		}
	}

	// Idle expiry: used within the hour it lives on; idle past it, it ends.
	b4 := e.browser()
	b4.signIn("clerk@a.example", testPassword)
	for i := 0; i < 3; i++ {
		e.mu.Lock()
		e.now = e.now.Add(50 * time.Minute)
		e.mu.Unlock()
		if resp, _ := b4.do("GET", "/api/v1/session", "", false, nil); resp.StatusCode != 200 {
			t.Fatalf("a session used every 50 minutes ended at use %d", i)
		}
	}
	e.mu.Lock()
	e.now = e.now.Add(61 * time.Minute)
	e.mu.Unlock()
	if resp, m := b4.do("GET", "/api/v1/session", "", false, nil); resp.StatusCode != 401 {
		t.Errorf("a session idle 61 minutes: %d %v, want 401", resp.StatusCode, m)
	}

	// A new password ends every session.
	b5 := e.browser()
	b5.signIn("clerk@a.example", testPassword)
	hash, _ := store.HashPassword("another long password")
	if err := e.store.SetPassword(ctx, staff.ID, hash); err != nil {
		t.Fatal(err)
	}
	if resp, _ := b5.do("GET", "/api/v1/session", "", false, nil); resp.StatusCode != 401 {
		t.Errorf("a session after a password reset: %d", resp.StatusCode)
	}
	if resp, _ := e.browser().signIn("clerk@a.example", testPassword); resp.StatusCode != 401 {
		t.Errorf("the old password after a reset: %d", resp.StatusCode)
	}
	if resp, _ := e.browser().signIn("clerk@a.example", "another long password"); resp.StatusCode != 200 {
		t.Errorf("the new password: %d", resp.StatusCode)
	}
}

// TestSignInThrottled: wrong passwords for one account are refused with
// 429 after SignInFailures, even with the right password and from
// anywhere; wrong passwords from one address are refused after
// AuthFailures, for any account.
func TestSignInThrottled(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.SignInFailures = 3; c.AuthFailures = 6 })
	ctx := context.Background()
	acc, _ := e.store.CreateAccount(ctx, "boss@a.example", quota.Business)
	e.member(acc, "clerk@a.example", store.RoleStaff)
	e.member(acc, "other@a.example", store.RoleStaff)
	b := e.browser()
	for i := 0; i < 3; i++ {
		if resp, m := b.signIn("clerk@a.example", fmt.Sprintf("wrong password %d", i)); resp.StatusCode != 401 || m["code"] != "invalid_credentials" {
			t.Fatalf("wrong password %d: %d %v", i, resp.StatusCode, m)
		}
	}
	resp, m := b.signIn("clerk@a.example", testPassword)
	if resp.StatusCode != 429 || m["code"] != "too_many_failures" || resp.Header.Get("Retry-After") == "" {
		t.Errorf("the right password after 3 wrong ones: %d %v, want 429 with Retry-After", resp.StatusCode, m)
	}
	// Another account from the same address still signs in (3 of 6 used).
	if resp, m := b.signIn("other@a.example", testPassword); resp.StatusCode != 200 {
		t.Errorf("another account: %d %v", resp.StatusCode, m)
	}
	// Unknown addresses count against the address, too.
	for i := 0; i < 3; i++ {
		b.signIn(fmt.Sprintf("nobody%d@a.example", i), "whatever it is")
	}
	if resp, _ := b.signIn("other@a.example", testPassword); resp.StatusCode != 429 {
		t.Errorf("after 6 failures from the address: %d, want 429", resp.StatusCode)
	}
	// The window passes.
	e.mu.Lock()
	e.now = e.now.Add(2 * time.Minute)
	e.mu.Unlock()
	if resp, m := b.signIn("clerk@a.example", testPassword); resp.StatusCode != 200 {
		t.Errorf("after the window: %d %v", resp.StatusCode, m)
	}
	// Each failure is in the office's trail, with the address.
	es, _, err := e.store.Audit(ctx, store.AuditQuery{AccountID: acc.ID})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, ev := range es {
		if ev.Action == store.ActSignInFailed && ev.Actor == "clerk@a.example" && ev.Address == "127.0.0.1" {
			failed++
		}
	}
	if failed != 3 {
		t.Errorf("failed sign-ins recorded = %d, want 3: %+v", failed, es)
	}
}

// TestInvitation: an owner's invitation link is used once; it makes a
// member with the role it names, signed in; a second use, an expired link
// and a guessed one are refused.
func TestInvitation(t *testing.T) {
	f := newOffices(t)
	e := f.e
	code, m := e.send("POST", "/api/v1/members", "Bearer "+f.owner, `{"email":"New@A.example","role":"read_only"}`, "")
	if code != 201 {
		t.Fatalf("invite: %d %v", code, m)
	}
	u := m["invite_url"].(string)
	token := u[strings.Index(u, "#invite=")+len("#invite="):]
	if !strings.HasPrefix(u, e.http.URL+"/#invite=inv_") {
		t.Errorf("invite_url %q", u)
	}
	if code, m := e.send("GET", "/api/v1/invites/"+token, "", "", ""); code != 200 || m["email"] != "new@a.example" || m["role"] != "read_only" {
		t.Errorf("invitation: %d %v", code, m)
	}
	b := e.browser()
	if resp, m := b.do("POST", "/api/v1/invites/"+token, `{"password":"short"}`, false, nil); resp.StatusCode != 400 || m["code"] != "weak_password" {
		t.Errorf("a short password: %d %v", resp.StatusCode, m)
	}
	resp, m2 := b.do("POST", "/api/v1/invites/"+token, `{"password":"`+testPassword+`"}`, false, nil)
	if resp.StatusCode != 200 || m2["role"] != "read_only" {
		t.Fatalf("accept: %d %v", resp.StatusCode, m2)
	}
	b.csrf = m2["csrf_token"].(string)
	if resp, _ := b.do("GET", "/api/v1/documents", "", false, nil); resp.StatusCode != 200 {
		t.Errorf("the new member reads: %d", resp.StatusCode)
	}
	if resp, _ := b.do("POST", "/api/v1/folders", `{"name":"x"}`, true, nil); resp.StatusCode != 403 {
		t.Errorf("the new read-only member makes a folder: %d, want 403", resp.StatusCode)
	}
	// Replayed: the link is used.
	if resp, m := e.browser().do("POST", "/api/v1/invites/"+token, `{"password":"`+testPassword+`x"}`, false, nil); resp.StatusCode != 410 || m["code"] != "invite_expired" {
		t.Errorf("the invitation used again: %d %v, want 410", resp.StatusCode, m)
	}
	// Expired.
	_, m = e.send("POST", "/api/v1/members", "Bearer "+f.owner, `{"email":"late@a.example","role":"staff"}`, "")
	u = m["invite_url"].(string)
	late := u[strings.Index(u, "#invite=")+len("#invite="):]
	e.mu.Lock()
	e.now = e.now.Add(8 * 24 * time.Hour)
	e.mu.Unlock()
	if code, m := e.send("POST", "/api/v1/invites/"+late, "", `{"password":"`+testPassword+`"}`, ""); code != 410 || m["code"] != "invite_expired" {
		t.Errorf("an expired invitation: %d %v", code, m)
	}
	if code, _ := e.send("GET", "/api/v1/invites/inv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "", "", ""); code != 404 {
		t.Errorf("a guessed invitation: %d", code)
	}
	// An address already a member of the office is not invited again.
	if code, m := e.send("POST", "/api/v1/members", "Bearer "+f.owner, `{"email":"clerk@a.example","role":"staff"}`, ""); code != 409 || m["code"] != "member_exists" {
		t.Errorf("inviting the office's own member: %d %v", code, m)
	}
}

// linkPost uploads through a link's page as a browser's form would
// (accept says HTML or JSON), and returns the status, body and headers.
func (e *testEnv) linkPost(token string, parts map[string][]byte, accept string) (int, string, http.Header) {
	e.t.Helper()
	body, ctype := form(parts)
	req, _ := http.NewRequest("POST", e.http.URL+"/l/"+token, body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw), resp.Header
}

// TestClientLinks: a link's page names the office and shows nothing of
// its work; an upload through it lands in its folder, charged to the
// office and marked with the link; its page limit, expiry and revocation
// hold, each with a clear page; the token reads nothing anywhere else.
func TestClientLinks(t *testing.T) {
	f := newOffices(t)
	e := f.e
	ctx := context.Background()
	if err := e.store.RenameOffice(ctx, f.a.ID, "Smith & Partners"); err != nil {
		t.Fatal(err)
	}
	token, id := f.newLink(2)
	resp, err := http.Get(e.http.URL + "/l/" + token)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "Smith &amp; Partners") || !strings.Contains(string(page), `type="file"`) ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("link page: %d %s", resp.StatusCode, page)
	}
	for _, secret := range []string{f.doc, f.folder, "boss@a.example", "march statement"} {
		if strings.Contains(string(page), secret) {
			t.Errorf("the link's page shows %q", secret)
		}
	}
	before, _ := e.store.Usage(ctx, f.a.ID)

	// An upload, as a browser's form sends it: the page says it was received.
	code, html, _ := e.linkPost(token, map[string][]byte{"file": sample}, "text/html")
	if code != 200 || !strings.Contains(html, "Received march statement.pdf (1 page)") || !strings.Contains(html, "1 more page.") {
		t.Fatalf("upload through the link: %d %s", code, html)
	}
	// As JSON it says no more than what was sent: no file_id.
	code, js, _ := e.linkPost(token, map[string][]byte{"file": sample}, "application/json")
	if code != 200 || strings.Contains(js, "doc_") || !strings.Contains(js, `"page_count":1`) {
		t.Errorf("upload through the link as JSON: %d %s", code, js)
	}
	after, _ := e.store.Usage(ctx, f.a.ID)
	if after.Used != before.Used+2 {
		t.Errorf("office's pages used %d → %d, want 2 more", before.Used, after.Used)
	}
	// Both landed in the link's folder, marked with the link.
	fd, err := e.store.FolderDocuments(ctx, f.folder)
	if err != nil {
		t.Fatal(err)
	}
	var viaLink []string
	for _, d := range fd {
		if _, l, _ := e.store.DocumentUploader(ctx, d.Document.ID); l == id {
			viaLink = append(viaLink, d.Document.ID)
		}
	}
	if len(viaLink) != 2 {
		t.Errorf("documents in the folder by the link = %v, want 2", viaLink)
	}
	// The page limit: a third page is refused, with a clear page, and nothing charged.
	code, html, _ = e.linkPost(token, map[string][]byte{"file": sample}, "text/html")
	if code != 413 || !strings.Contains(html, "takes 0 more pages") {
		t.Errorf("past the page limit: %d %s", code, html)
	}
	if u, _ := e.store.Usage(ctx, f.a.ID); u.Used != after.Used {
		t.Errorf("a refused upload was charged: %d → %d", after.Used, u.Used)
	}
	// A folder_id in the form does not move the upload elsewhere.
	token2, _ := f.newLink(0)
	code, _, _ = e.linkPost(token2, map[string][]byte{"file": sample, "folder_id": []byte(f.otherFolder)}, "application/json")
	if code != 200 {
		t.Errorf("upload naming another folder: %d", code)
	}
	if fd, _ := e.store.FolderDocuments(ctx, f.otherFolder); len(fd) != 0 {
		t.Errorf("a link's upload reached another office's folder: %v", fd)
	}
	// No read access of any kind: the token as a key, a cookie, a path.
	for _, path := range []string{"/api/v1/documents", "/api/v1/folders/" + f.folder, "/api/v1/status?file_id=" + f.doc,
		"/api/v1/download?file_id=" + f.doc, "/api/v1/links", "/api/v1/user"} {
		if code, _ := e.send("GET", path, "Bearer "+token, "", ""); code != 401 {
			t.Errorf("GET %s with the link's token: %d, want 401", path, code)
		}
	}
	for _, path := range []string{"/l/" + token + "/documents", "/l/" + token + "/" + f.doc, "/l/" + id} {
		resp, err := http.Get(e.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && strings.Contains(string(b), "Send your statements") {
			t.Errorf("GET %s opens the link's page", path)
		}
		if strings.Contains(string(b), "march statement") || strings.Contains(string(b), "doc_") {
			t.Errorf("GET %s shows a document: %s", path, b)
		}
	}

	// Revoked: a clear page that says so, for the page and for uploads.
	if code, m := e.send("DELETE", "/api/v1/links/"+id, "Bearer "+f.staff, "", ""); code != 200 {
		t.Fatalf("revoke: %d %v", code, m)
	}
	resp, _ = http.Get(e.http.URL + "/l/" + token)
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 410 || !strings.Contains(string(page), "withdrawn") || strings.Contains(string(page), `type="file"`) {
		t.Errorf("a revoked link's page: %d %s", resp.StatusCode, page)
	}
	if code, html, _ := e.linkPost(token, map[string][]byte{"file": sample}, "text/html"); code != 410 || !strings.Contains(html, "withdrawn") {
		t.Errorf("upload through a revoked link: %d %s", code, html)
	}
	if n := len(auditOf(t, e, f.a.ID, store.ActLinkRefused)); n != 1 {
		t.Errorf("refused uploads through the dead link in the trail: %d, want 1", n)
	}
	// Expired: the same, once its time is past.
	e.mu.Lock()
	e.now = e.now.Add(25 * time.Hour)
	e.mu.Unlock()
	resp, _ = http.Get(e.http.URL + "/l/" + token2)
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 410 || !strings.Contains(string(page), "expired") {
		t.Errorf("an expired link's page: %d %s", resp.StatusCode, page)
	}
	if code, _, _ := e.linkPost(token2, map[string][]byte{"file": sample}, "application/json"); code != 410 {
		t.Errorf("upload through an expired link: %d", code)
	}
	// Guessed: a page that says the link does not work.
	resp, _ = http.Get(e.http.URL + "/l/ul_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.Contains(string(page), "does not work") {
		t.Errorf("a guessed link: %d %s", resp.StatusCode, page)
	}
	// The trail has each upload by the link, with the document.
	es, _, _ := e.store.Audit(ctx, store.AuditQuery{AccountID: f.a.ID})
	n := 0
	for _, ev := range es {
		if ev.Action == store.ActLinkUpload && ev.LinkID == id && ev.DocumentID != "" && ev.Address != "" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("link uploads in the trail = %d, want 2", n)
	}
}

// TestAuditTrail: each action writes its line, with who, from where and
// which document; owners filter it by member, document and date; a
// document's history is its own; deleting the document (by hand or by
// retention) removes none of it, and the database refuses to.
func TestAuditTrail(t *testing.T) {
	f := newOffices(t)
	e := f.e
	ctx := context.Background()
	doc := f.newDoc(f.staff)
	steps := []struct {
		method, path, auth, body, action string
	}{
		{"GET", "/api/v1/download?format=xlsx&file_id=" + doc, f.reader, "", store.ActExport},
		{"PUT", "/api/v1/documents/" + doc + "/transactions", f.staff, `{"transactions":[]}`, store.ActCorrect},
		{"DELETE", "/api/v1/documents/" + doc + "/transactions", f.staff, "", store.ActRevert},
		{"PUT", "/api/v1/documents/" + doc + "/statement", f.staff, `{"currency":"EUR"}`, store.ActCorrectHeader},
		{"GET", "/api/v1/documents/zip?format=csv&file_id=" + doc, f.staff, "", store.ActExportZip},
		{"PATCH", "/api/v1/folders/" + f.folder, f.staff, `{"name":"Smith 2024"}`, store.ActFolderRename},
		{"PUT", "/api/v1/folders/" + f.folder + "/documents/" + doc, f.staff, "", store.ActFolderAdd},
		{"PATCH", "/api/v1/folders/" + f.folder + "/documents/" + doc, f.staff, `{"set_aside":true}`, store.ActFolderSetAside},
		{"PATCH", "/api/v1/folders/" + f.folder + "/documents/" + doc, f.staff, `{"set_aside":false}`, store.ActFolderTakeBack},
		{"DELETE", "/api/v1/folders/" + f.folder + "/documents/" + doc, f.staff, "", store.ActFolderRemove},
		{"POST", "/api/v1/folders", f.staff, `{"name":"Jones"}`, store.ActFolderCreate},
		{"POST", "/api/v1/links", f.staff, `{"folder_id":"` + f.folder + `"}`, store.ActLinkCreate},
		{"POST", "/api/v1/members", f.owner, `{"email":"x@new.example","role":"staff"}`, store.ActMemberInvite},
		{"PUT", fmt.Sprintf("/api/v1/members/%d", f.readerM.ID), f.owner, `{"role":"staff"}`, store.ActMemberRole},
		{"DELETE", "/api/v1/documents/" + doc, f.staff, "", store.ActDelete},
	}
	for _, s := range steps {
		if code, m := e.send(s.method, s.path, "Bearer "+s.auth, s.body, ""); code >= 300 {
			t.Fatalf("%s %s: %d %v", s.method, s.path, code, m)
		}
	}
	b := e.browser()
	b.signIn("clerk@a.example", testPassword)
	b.do("POST", "/api/v1/signout", "", true, nil)
	e.browser().signIn("clerk@a.example", "not the password")

	es, _, err := e.store.Audit(ctx, store.AuditQuery{AccountID: f.a.ID, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]store.Event{}
	for _, ev := range es {
		have[ev.Action] = ev
	}
	for _, action := range []string{store.ActUpload, store.ActConvert, store.ActExport, store.ActCorrect, store.ActRevert, store.ActFolderAdd,
		store.ActFolderRemove, store.ActFolderCreate, store.ActLinkCreate, store.ActMemberInvite, store.ActMemberRole, store.ActDelete,
		store.ActSignIn, store.ActSignOut, store.ActSignInFailed,
		store.ActCorrectHeader, store.ActExportZip, store.ActFolderRename, store.ActFolderSetAside, store.ActFolderTakeBack} {
		ev, ok := have[action]
		if !ok {
			t.Errorf("no %s in the trail", action)
			continue
		}
		if ev.Actor == "" || ev.CreatedAt.IsZero() || (ev.Address == "" && action != store.ActConvert) {
			t.Errorf("%s line lacks who, when or where: %+v", action, ev)
		}
	}
	if ev := have[store.ActExport]; ev.Actor != "auditor@a.example" || ev.MemberID != f.readerM.ID || ev.DocumentID != doc || ev.Detail != "xlsx" {
		t.Errorf("export line %+v", ev)
	}
	if ev := have[store.ActDelete]; ev.Actor != "clerk@a.example" || ev.DocumentID != doc {
		t.Errorf("delete line %+v", ev)
	}
	// Issue 30's changes and its zip: who, and to which document or folder.
	if ev := have[store.ActCorrectHeader]; ev.Actor != "clerk@a.example" || ev.DocumentID != doc {
		t.Errorf("header correction line %+v", ev)
	}
	if ev := have[store.ActExportZip]; ev.Actor != "clerk@a.example" || ev.DocumentID != doc || ev.Detail != "csv" {
		t.Errorf("zip line %+v", ev)
	}
	if ev := have[store.ActFolderRename]; ev.Actor != "clerk@a.example" || ev.FolderID != f.folder || !strings.HasSuffix(ev.Detail, "Smith 2024") {
		t.Errorf("rename line %+v", ev)
	}
	for _, a := range []string{store.ActFolderSetAside, store.ActFolderTakeBack} {
		if ev := have[a]; ev.Actor != "clerk@a.example" || ev.FolderID != f.folder || ev.DocumentID != doc {
			t.Errorf("%s line %+v", a, ev)
		}
	}

	// Through the API, filtered: by member, by document, by date.
	code, m := e.send("GET", fmt.Sprintf("/api/v1/audit?member_id=%d", f.readerM.ID), "Bearer "+f.owner, "", "")
	if evs, _ := m["events"].([]any); code != 200 || len(evs) != 1 || evs[0].(map[string]any)["action"] != "export" {
		t.Errorf("by member: %d %v", code, m)
	}
	code, m = e.send("GET", "/api/v1/audit?file_id="+doc, "Bearer "+f.owner, "", "")
	evs, _ := m["events"].([]any)
	if code != 200 || len(evs) < 8 {
		t.Errorf("by document: %d %d events %v", code, len(evs), m)
	}
	for _, x := range evs {
		if x.(map[string]any)["file_id"] != doc {
			t.Errorf("by document, another's line: %v", x)
		}
	}
	if code, m := e.send("GET", "/api/v1/audit?from=2024-03-10", "Bearer "+f.owner, "", ""); code != 200 || len(m["events"].([]any)) != 0 {
		t.Errorf("from tomorrow: %d %v", code, m)
	}
	if code, m := e.send("GET", "/api/v1/audit?to=2024-03-09&limit=2", "Bearer "+f.owner, "", ""); code != 200 || len(m["events"].([]any)) != 2 || m["next"] == nil {
		t.Errorf("to today, 2 a page: %d %v", code, m)
	}
	if code, m := e.send("GET", "/api/v1/audit?from=yesterday", "Bearer "+f.owner, "", ""); code != 400 {
		t.Errorf("a bad date: %d %v", code, m)
	}

	// The document is deleted, and its history still reads in the trail.
	if code, _ := e.send("GET", "/api/v1/documents/"+doc+"/history", "Bearer "+f.owner, "", ""); code != 404 {
		t.Errorf("history of a deleted document: %d, want 404 like the document", code)
	}
	after, _, _ := e.store.Audit(ctx, store.AuditQuery{AccountID: f.a.ID, DocumentID: doc, Limit: 500})
	if len(after) < 8 {
		t.Errorf("the trail of a deleted document has %d lines", len(after))
	}
	// A document's history, oldest first, for any member.
	code, m = e.send("GET", "/api/v1/documents/"+f.doc+"/history", "Bearer "+f.reader, "", "")
	evs, _ = m["events"].([]any)
	if code != 200 || len(evs) < 2 || evs[0].(map[string]any)["action"] != "upload" || evs[1].(map[string]any)["action"] != "convert" {
		t.Errorf("history: %d %v", code, m)
	}

	// Retention deletes documents, not the trail.
	n0 := countAudit(t, e)
	e.srv.cfg.Retention = time.Hour
	e.mu.Lock()
	e.now = e.now.Add(2 * time.Hour)
	e.mu.Unlock()
	if got := e.srv.retentionPass(ctx); got == 0 {
		t.Fatal("retention deleted nothing")
	}
	if n1 := countAudit(t, e); n1 <= n0 {
		t.Errorf("trail lines %d → %d after retention, want more (its own lines), none fewer", n0, n1)
	}
	// No API call removes a line (the database refuses to: store's
	// TestAuditAppendOnly).
	for _, p := range []string{"/api/v1/audit", "/api/v1/audit/1"} {
		for _, method := range []string{"DELETE", "PUT", "POST"} {
			if code, _ := e.send(method, p, "Bearer "+f.owner, "{}", ""); code != 405 && code != 404 {
				t.Errorf("%s %s: %d", method, p, code)
			}
		}
	}
	if n2 := countAudit(t, e); n2 < n0 {
		t.Errorf("trail lines fell to %d", n2)
	}
}

func countAudit(t *testing.T, e *testEnv) int {
	t.Helper()
	n := 0
	for _, acc := range []int64{1, 2} {
		es, _, err := e.store.Audit(context.Background(), store.AuditQuery{AccountID: acc, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		n += len(es)
	}
	return n
}

// TestOldDataFileThroughTheAPI: a data file made by the build before
// offices (store/testdata/main-c45a732.db), opened by this one, answers
// every old key through the API exactly as before: its documents, its
// folder and its correction, and nothing of another account's.
func TestOldDataFileThroughTheAPI(t *testing.T) {
	b, err := os.ReadFile("../store/testdata/main-c45a732.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, store: st, now: time.Now(), keys: map[string]string{}}
	cfg := DefaultConfig()
	e.serve(slog.New(slog.NewTextHandler(io.Discard, nil)), nil, cfg, false)
	office := "Bearer uk_syxXIuW1t9KWJ22CmKBEgrGLNSd1HU1EjGR4WbPC"
	second := "Bearer uk_wd2qAY1o43joBdGH8yWqBsDU5r4HRHKkZq5vQwcn"
	solo := "Bearer uk_RGXHgoxECCgHucueyuuhZYtCK6VGAf7OAiF2SbkF"
	code, m := e.send("GET", "/api/v1/download?format=json&file_id=doc_MhdAGZqeHGiLR6CQWOFDVKTk6P", second, "", "")
	if code != 200 {
		t.Fatalf("download: %d %v", code, m)
	}
	if tx := m["transactions"].([]any); len(tx) != 26 || tx[0].(map[string]any)["description"] != "EDITED BY MAIN" ||
		m["statement"].(map[string]any)["edited"] != true {
		t.Errorf("the corrected download lost its correction: %v", tx[0])
	}
	code, m = e.send("GET", "/api/v1/folders/fld_Ufr25ZvyXg55j0czb28zgH1Rc4", office, "", "")
	if code != 200 || m["name"] != "Client Müller" {
		t.Errorf("folder: %d %v", code, m)
	}
	code, m = e.send("GET", "/api/v1/user", solo, "", "")
	if code != 200 || m["email"] != "solo@old.example" || m["plan"] != "free" {
		t.Errorf("user: %d %v", code, m)
	}
	if code, _ := e.send("GET", "/api/v1/status?file_id=doc_0IE1DVm73tk5Ljs1TNAvscU9yb", solo, "", ""); code != 200 {
		t.Errorf("solo's document: %d", code)
	}
	if code, _ := e.send("GET", "/api/v1/status?file_id=doc_0IE1DVm73tk5Ljs1TNAvscU9yb", office, "", ""); code != 403 {
		t.Errorf("solo's document by the other office: %d, want 403", code)
	}
	if code, m := e.send("GET", "/api/v1/session", office, "", ""); code != 200 || m["role"] != "owner" {
		t.Errorf("the old key's member: %d %v", code, m)
	}
}

// auditOf is an office's lines of one action.
func auditOf(t *testing.T, e *testEnv, account int64, action string) []store.Event {
	t.Helper()
	es, _, err := e.store.Audit(context.Background(), store.AuditQuery{AccountID: account, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Event
	for _, ev := range es {
		if ev.Action == action {
			out = append(out, ev)
		}
	}
	return out
}
