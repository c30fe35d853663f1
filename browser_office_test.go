package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// passwordRE finds a password the commands print on a line of its own.
var passwordRE = regexp.MustCompile(`(?m)^\s*([0-9A-Za-z]{20})\s*$`)

// resetPassword sets a new password for a member with `passbook accounts
// reset-password` and returns it.
func resetPassword(t *testing.T, data, email string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(t.Context(), []string{"accounts", "reset-password", email, "--data", data}, os.Getenv, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	m := passwordRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("reset-password printed no password: %q", out.String())
	}
	return m[1]
}

// firstRunPassword is the admin's password the first run prints.
func firstRunPassword(t *testing.T, stdout string) string {
	t.Helper()
	m := passwordRE.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("the first run printed no password: %q", stdout)
	}
	return m[1]
}

// signIn fills the sign-in form (the e-mail only when email is not "")
// and waits for the office's page.
func (b *browserSession) signIn(what, email, password string) {
	b.t.Helper()
	acts := []chromedp.Action{chromedp.WaitVisible("#email", chromedp.ByID)}
	if email != "" {
		acts = append(acts, clear("email"), chromedp.SendKeys("#email", email, chromedp.ByID))
	}
	acts = append(acts, clear("password"), chromedp.SendKeys("#password", password, chromedp.ByID),
		click(`#signin-form button[type=submit]`), chromedp.WaitVisible("#app", chromedp.ByID))
	b.do(what, acts...)
}

// clear empties a form field by its id.
func clear(id string) chromedp.Action {
	return chromedp.Evaluate(`document.getElementById("`+id+`").value = ""`, nil)
}

// TestBrowserOffice drives the office's page in headless Chromium: the
// owner invites a member by link; the member joins through it, converts a
// statement and corrects it; the owner makes a client upload link and a
// client sends a statement through it, seeing nothing else; the owner
// reads the trail, filtered by the member. The page never stores a key or
// a session token where a script could read it.
func TestBrowserOffice(t *testing.T) {
	dir := t.TempDir()
	var gen bytes.Buffer
	if _, err := writeStatement(&gen, 1, 8); err != nil {
		t.Fatal(err)
	}
	stmt := filepath.Join(dir, "march.pdf")
	if err := os.WriteFile(stmt, gen.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "passbook.db")
	srv := serve(t, data)
	base := "http://" + srv.addr
	password := firstRunPassword(t, srv.stdout.String())
	b := startBrowser(t, srv.ctx)

	// The owner signs in, names the office, makes a folder and invites a member.
	b.do("open", chromedp.Navigate(base+"/"))
	b.signIn("owner signs in", "admin@localhost", password)
	b.waitJS("members shown", `!document.getElementById("members").hidden && document.querySelector('#member-list tr[data-member="admin@localhost"]') !== null`)
	b.do("rename", inView("#office-name"), clear("office-name"), chromedp.SendKeys("#office-name", "Smith & Partners", chromedp.ByID),
		click(`#office-name-form button[type=submit]`))
	b.waitJS("renamed", `document.getElementById("acct-office").textContent === "Smith & Partners"`)
	b.do("new folder", inView("#folder-name"), chromedp.SendKeys("#folder-name", "Jones Ltd", chromedp.ByID), click(`#folder-new button[type=submit]`))
	b.waitJS("folder listed", `document.getElementById("folder-list").textContent.includes("Jones Ltd")`)
	b.do("invite", inView("#invite-email"), chromedp.SendKeys("#invite-email", "clerk@example.com", chromedp.ByID), chromedp.SetValue("#invite-role", "staff", chromedp.ByID),
		click(`#invite-new button[type=submit]`))
	b.waitJS("invitation link shown", `!!document.getElementById("invite-url")`)
	var inviteURL string
	b.do("read the link", chromedp.Value("#invite-url", &inviteURL, chromedp.ByID))
	if !strings.Contains(inviteURL, "/#invite=inv_") {
		t.Fatalf("invitation link %q", inviteURL)
	}
	// The pending invitation is listed under the members (issue 41, 1).
	b.waitJS("pending invitation listed", `!document.getElementById("invite-pending").hidden && document.querySelector('#invite-list tr[data-invite="clerk@example.com"]') !== null`)
	b.shot("office-01-invited.png")
	b.do("owner signs out", click("#signout"), chromedp.WaitVisible("#email", chromedp.ByID))

	// The member opens the link, chooses a password, and is in, as staff.
	b.do("open the invitation", chromedp.Navigate("about:blank"), chromedp.Navigate(inviteURL), chromedp.WaitVisible("#invite-form", chromedp.ByID))
	if txt := b.text("#invite-text"); !strings.Contains(txt, "Smith & Partners") || !strings.Contains(txt, "clerk@example.com") {
		t.Errorf("invitation reads %q", txt)
	}
	b.do("join", inView("#invite-password"), chromedp.SendKeys("#invite-password", "clerk's long password", chromedp.ByID),
		chromedp.SendKeys("#invite-password2", "clerk's long password", chromedp.ByID), click(`#invite-form button[type=submit]`),
		chromedp.WaitVisible("#app", chromedp.ByID))
	b.waitJS("staff page", `document.body.dataset.role === "staff" && document.getElementById("members").hidden && !document.getElementById("links").hidden`)
	b.a11y("the member's page")

	// The member converts a statement and corrects it.
	b.do("upload", inView("#files"), chromedp.SetUploadFiles("#files", []string{stmt}, chromedp.ByID))
	b.waitJS("converted", `[...document.querySelectorAll('#docs tr')].some((r) => r.textContent.includes("march.pdf") && r.textContent.includes("Reconciled"))`)
	b.do("review", click(`#docs tr button`))
	b.waitJS("review open", `!document.getElementById("review").hidden && document.querySelectorAll('#tx tr').length > 0`)
	b.waitJS("history shown", `document.getElementById("doc-history-list").textContent.includes("uploaded")`)
	b.do("correct a description", chromedp.Evaluate(`(() => {
		const ta = document.querySelector('#tx tr [data-field="description"]');
		ta.value = "CORRECTED BY CLERK"; ta.dispatchEvent(new Event("input", {bubbles: true})); ta.dispatchEvent(new Event("change", {bubbles: true}));
	})()`, nil))
	b.waitJS("save enabled", `!document.getElementById("save").disabled`)
	b.do("save", click("#save"))
	b.waitJS("saved", `document.getElementById("doc-history-list").textContent !== "" && !document.getElementById("undo").hidden`)
	b.shot("office-02-member-corrected.png")

	// The member makes a client upload link for the folder.
	b.waitJS("folder offered", `[...document.getElementById("link-folder").options].some((o) => o.textContent === "Jones Ltd")`)
	b.do("make link", inView("#link-label"), chromedp.SendKeys("#link-label", "March statements", chromedp.ByID), clear("link-pages"), chromedp.SendKeys("#link-pages", "5", chromedp.ByID),
		click(`#link-new button[type=submit]`))
	b.waitJS("link shown", `!!document.getElementById("link-url")`)
	var linkURL string
	b.do("read the link", chromedp.Value("#link-url", &linkURL, chromedp.ByID))
	// Nothing the page's script can read holds a credential.
	var stored string
	b.do("storage", chromedp.Evaluate(`JSON.stringify([localStorage, sessionStorage, document.cookie])`, &stored))
	if strings.Contains(stored, "uk_") || strings.Contains(stored, "ses_") || strings.Contains(stored, "passbook_session") {
		t.Errorf("the page keeps a credential where scripts read it: %s", stored)
	}
	b.do("member signs out", click("#signout"), chromedp.WaitVisible("#email", chromedp.ByID))

	// A client, with no account, sends a statement through the link.
	b.do("open the client link", chromedp.Navigate(linkURL), chromedp.WaitVisible("#file", chromedp.ByID))
	if title := b.text("#title"); !strings.Contains(title, "Smith & Partners") {
		t.Errorf("link page title %q", title)
	}
	b.do("client uploads", inView("#file"), chromedp.SetUploadFiles("#file", []string{stmt}, chromedp.ByID))
	b.waitJS("received", `!!document.querySelector('#sent li.ok[data-name="march.pdf"]')`)
	b.a11y("the client's link page")
	b.shot("office-03-client-uploaded.png")
	var page string
	b.do("client page", chromedp.OuterHTML("html", &page))
	if strings.Contains(page, "doc_") || strings.Contains(page, "CORRECTED") || strings.Contains(page, "clerk@") {
		t.Errorf("the client's page shows the office's work: %s", page)
	}
	// The client's browser reaches nothing else.
	resp, err := http.Get(base + "/api/v1/documents")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("documents without a session: %d", resp.StatusCode)
	}

	// The owner reads the trail, then only the member's part of it.
	b.do("back", chromedp.Navigate(base+"/"))
	b.signIn("owner signs in again", "admin@localhost", password)
	b.waitJS("trail shown", `document.querySelectorAll('#trail-list tr').length > 0`)
	for _, action := range []string{"link_upload", "correct", "upload", "member_join", "member_invite", "link_create", "sign_in"} {
		b.waitJS("trail has "+action, `!!document.querySelector('#trail-list td[data-action="`+action+`"]')`)
	}
	var memberID string
	b.do("pick the member", chromedp.Evaluate(`(() => { const o = [...document.getElementById("trail-member").options].find((o) => o.textContent === "clerk@example.com"); return o ? o.value : ""; })()`, &memberID))
	if memberID == "" {
		t.Fatal("the member is not offered as a filter")
	}
	b.do("filter by member", inView("#trail-member"), chromedp.SetValue("#trail-member", memberID, chromedp.ByID), click(`#trail-filter button[type=submit]`))
	b.waitJS("only the member", `[...document.querySelectorAll('#trail-list tr')].length > 0 && [...document.querySelectorAll('#trail-list tr')].every((r) => r.cells[1].textContent === "clerk@example.com" || r.cells[1].textContent === "converter")`)
	b.shot("office-04-trail.png")

	// The same trail through the API, with the owner's key.
	key := keyRE.FindString(srv.stdout.String())
	req, _ := http.NewRequest("GET", base+"/api/v1/audit?member_id="+memberID, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var trail struct {
		Events []struct{ Action, Actor string } `json:"events"`
	}
	json.NewDecoder(resp.Body).Decode(&trail)
	got := map[string]bool{}
	for _, e := range trail.Events {
		got[e.Action] = true
	}
	for _, a := range []string{"member_join", "upload", "convert", "correct", "link_create", "sign_out"} {
		if !got[a] {
			t.Errorf("the member's trail lacks %s: %+v", a, trail.Events)
		}
	}

	// The owner removes the member and keeps the upload link they made
	// (issue 41, 6): the client's link still works.
	b.do("remove the member", chromedp.Evaluate(`document.querySelector('#member-list tr[data-member="clerk@example.com"] button').click()`, nil))
	b.waitJS("asked to remove", `document.getElementById("confirm").open && document.getElementById("confirm-text").textContent.includes("Remove clerk@example.com")`)
	b.do("yes, remove", click("#confirm-ok"))
	b.waitJS("asked about the links", `document.getElementById("confirm").open && document.getElementById("confirm-text").textContent.includes("1 upload link")`)
	b.do("keep the link", click("#confirm-ok"))
	b.waitJS("member removed", `!document.querySelector('#member-list tr[data-member="clerk@example.com"]')`)
	resp, err = http.Get(linkURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the removed member's link, kept by the owner: %d, want 200", resp.StatusCode)
	}
}
