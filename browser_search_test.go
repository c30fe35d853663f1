package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	"passbook/extract/synth"
)

// TestBrowserSearchAndHeaders drives what issue 30 left open, in
// Chromium: the documents list searched on the server by bank, holder,
// account and name and filtered by the statement's period; the client
// folders found by the bank of their statements, whose blocks name it;
// and, on a document that holds two accounts, the details of one account
// corrected on the page (its balance check and the whole's recomputed at
// once and by the server), an account renamed with its rows, and the bank
// corrected and then found by its corrected name. axe-core finds nothing
// serious on the list, the folder and the review; the list and the
// review's header form are shot at 390, 1366 and 1920 px.
func TestBrowserSearchAndHeaders(t *testing.T) {
	dir := t.TempDir()
	s := newSeries()
	srv := serve(t, filepath.Join(dir, "passbook.db"))
	base := "http://" + srv.addr
	key := waitFor(t, "the API key", func() string { return keyRE.FindString(srv.stdout.String()) })
	var made struct {
		FolderID string `json:"folder_id"`
	}
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Harbour client"}`), &made)
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Community client"}`), nil)
	may := s.eur.month(5)
	may.bank = "Harbour Savings Bank"
	ids := map[string]string{
		"gbp-2024-01.pdf": uploadTo(t, base, key, "gbp-2024-01.pdf", s.files["gbp-2024-01.pdf"], ""),
		"gbp-2024-02.pdf": uploadTo(t, base, key, "gbp-2024-02.pdf", s.files["gbp-2024-02.pdf"], ""),
		"harbour-may.pdf": uploadTo(t, base, key, "harbour-may.pdf", may.pdf(), made.FolderID),
	}
	two, err := synth.GenerateWith(1, []string{"two-accounts"}, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids["two-accounts.pdf"] = uploadTo(t, base, key, "two-accounts.pdf", two.PDF, "")
	for n, id := range ids {
		waitFor(t, n+" converted", func() string {
			var st map[string]any
			apiJSON(t, base, key, "GET", "/api/v1/status?file_id="+id, nil, &st)
			if st["status"] == "completed" {
				return "yes"
			}
			return ""
		})
	}
	type account struct {
		AccountNumber  string `json:"account_number"`
		OpeningBalance string `json:"opening_balance"`
		Reconciliation struct{ Status string }
	}
	type served struct {
		Statement struct {
			Bank, Holder   string
			Reconciliation struct{ Status string }
			Accounts       []account
		}
		Transactions []map[string]any
	}
	download := func(id string) served {
		var d served
		apiJSON(t, base, key, "GET", "/api/v1/download?format=json&file_id="+id, nil, &d)
		return d
	}
	orig := download(ids["two-accounts.pdf"])
	if len(orig.Statement.Accounts) != 2 || orig.Statement.Bank != two.Truth.Statement.Bank || orig.Statement.Holder != two.Truth.Statement.Holder {
		t.Fatalf("the two-account statement as converted: %+v; want two accounts, bank %q, holder %q", orig.Statement, two.Truth.Statement.Bank, two.Truth.Statement.Holder)
	}

	b := startBrowser(t, srv.ctx)
	pageSignIn(b, base, key, srv)
	b.do("ISO dates", inView("#date-style"), chromedp.SetValue("#date-style", "iso", chromedp.ByID), chromedp.Evaluate(`document.getElementById("date-style").dispatchEvent(new Event("change"))`, nil))
	const rowsJS = `[...document.querySelectorAll("#docs tr")].map(r => r.querySelector("td.name").textContent + "@" + r.querySelector("td.bank").textContent).join("|")`
	waitRows := func(what, predicate string) { t.Helper(); b.waitFor(what, rowsJS, predicate) }
	// typeIn sets a field as typing does: its input and change events.
	typeIn := func(sel, v string) {
		t.Helper()
		b.do("type in "+sel, chromedp.Evaluate(`(() => { const q = document.querySelector(`+jsString(sel)+`); q.value = `+jsString(v)+`;
			q.dispatchEvent(new Event("input", {bubbles: true})); q.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil))
	}
	waitRows("four documents", `rows.split("|").length === 4`)
	// By bank, on the server: the list has each document's bank.
	typeIn("#docs-q", "harbour")
	waitRows("searching harbour", `rows === "harbour-may.pdf@Harbour Savings Bank"`)
	typeIn("#docs-q", "community BANK")
	waitRows("searching community bank", `rows === "gbp-2024-02.pdf@Sample Community Bank|gbp-2024-01.pdf@Sample Community Bank"`)
	typeIn("#docs-q", strings.ToLower(two.Truth.Statement.Holder))
	waitRows("searching the holder", `rows === "two-accounts.pdf@`+two.Truth.Statement.Bank+`"`)
	typeIn("#docs-q", "nothing like it")
	b.waitJS("nothing found", `document.querySelectorAll("#docs tr").length === 0 && document.getElementById("docs-empty").textContent.startsWith("No documents match")`)
	typeIn("#docs-q", "")
	// By the statement's period: May 2024 holds the Harbour statement
	// (and the generated one, if its period meets May 2024).
	want := "harbour-may.pdf@Harbour Savings Bank"
	if two.Truth.Statement.PeriodStart <= "2024-05-31" && two.Truth.Statement.PeriodEnd >= "2024-05-01" {
		want = "two-accounts.pdf@" + two.Truth.Statement.Bank + "|" + want
	}
	typeIn("#docs-from", "2024-05-01")
	typeIn("#docs-to", "2024-05-31")
	waitRows("May 2024", `rows === `+jsString(want))
	typeIn("#docs-to", "2024-13-01")
	b.waitJS("a bad date is marked and not used", `document.getElementById("docs-to").getAttribute("aria-invalid") === "true"`)
	waitRows("from May on", `rows.split("|").length === `+map[bool]string{true: "2", false: "1"}[two.Truth.Statement.PeriodEnd >= "2024-05-01"])
	typeIn("#docs-from", "")
	typeIn("#docs-to", "")
	waitRows("all again", `rows.split("|").length === 4`)
	b.a11y("documents list searched")
	b.axe("documents list searched")
	for _, w := range []int64{390, 1920, 1366} {
		b.do("viewport", chromedp.EmulateViewport(w, 900))
		if w == 390 {
			var wide bool
			b.do("measure", chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth`, &wide))
			if wide {
				t.Error("at 390 px the documents list is wider than the screen")
			}
		}
	}
	b.sixShots("#history", "list")

	// Client folders found by their statements' bank; the block names it.
	typeIn("#folders-q", "harbour savings")
	b.waitJS("the Harbour folder found", `[...document.querySelectorAll("#folder-list li")].map(l => l.dataset.id).join() === "`+made.FolderID+`"`)
	typeIn("#folders-q", "no such bank")
	b.waitJS("no folder found", `document.querySelector("#folder-list li").textContent === "No folder holds “no such bank”."`)
	typeIn("#folders-q", "harbour")
	b.waitJS("found again", `!!document.querySelector('#folder-list li[data-id="`+made.FolderID+`"] button')`)
	b.do("open the folder", click(`#folder-list li[data-id="`+made.FolderID+`"] button`))
	b.waitJS("the block names the bank", `(document.querySelector('#timeline .month[data-id="`+ids["harbour-may.pdf"]+`"] .party') || {}).textContent === "Harbour Savings Bank"`)
	b.a11y("folder")
	b.axe("folder")
	b.do("close the folder", click("#folder-close"))

	// A document of two accounts: the second account's opening balance
	// corrected 1.00 lower breaks its chain, on the page at once and on
	// the server; the first account renamed takes its rows along.
	id := ids["two-accounts.pdf"]
	b.do("review", click(`#docs tr[data-id="`+id+`"] button[aria-label^="Review"]`), chromedp.WaitVisible("#review", chromedp.ByID))
	b.waitJS("review shown", `document.getElementById("review-h").textContent === "Review: two-accounts.pdf" && document.querySelectorAll("#tx tr").length === `+itoa(int64(len(orig.Transactions))))
	if got := b.text("#summary"); !strings.Contains(got, two.Truth.Statement.Bank) || !strings.Contains(got, two.Truth.Statement.Holder) {
		t.Errorf("the summary does not name the bank and holder: %q", got)
	}
	b.waitJS("reconciled on the page", `document.getElementById("recon").classList.contains("ok")`)
	b.do("correct details", click("#header-edit"), chromedp.WaitVisible("#head-account", chromedp.ByID))
	var options int
	b.do("accounts offered", chromedp.Evaluate(`document.querySelectorAll("#head-account option").length`, &options))
	if options != 2 {
		t.Fatalf("%d accounts offered, want 2", options)
	}
	b.do("second account", inView("#head-account"), chromedp.SetValue("#head-account", "1", chromedp.ByID), chromedp.Evaluate(`document.getElementById("head-account").dispatchEvent(new Event("change"))`, nil))
	var shown string
	b.do("its opening", chromedp.Value(`#header-form [data-head="opening_balance"]`, &shown, chromedp.ByQuery))
	if shown != orig.Statement.Accounts[1].OpeningBalance {
		t.Errorf("the second account's opening balance shows %q, want %q", shown, orig.Statement.Accounts[1].OpeningBalance)
	}
	lower := decimal.RequireFromString(orig.Statement.Accounts[1].OpeningBalance).Sub(decimal.NewFromInt(1)).StringFixed(2)
	typeIn(`#header-form [data-head="opening_balance"]`, lower)
	b.waitJS("a mismatch on the page at once", `document.getElementById("recon").classList.contains("mismatch") && !document.getElementById("save").disabled`)
	b.sixShots("#review > .head-row, #summary, #review .head-tools, #header-form, #recon", "review-accounts")
	b.a11y("review of two accounts")
	b.do("save", click("#save"))
	b.waitJS("saved", `document.getElementById("status").textContent.startsWith("Corrections saved")`)
	got := download(id)
	if a := got.Statement.Accounts; a[1].OpeningBalance != lower || a[1].Reconciliation.Status != "mismatch" || a[0].Reconciliation.Status != "ok" || got.Statement.Reconciliation.Status != "mismatch" {
		t.Errorf("served after the correction: %+v", got.Statement)
	}
	// Put right; the first account renamed and the bank corrected.
	typeIn(`#header-form [data-head="opening_balance"]`, orig.Statement.Accounts[1].OpeningBalance)
	b.do("first account", inView("#head-account"), chromedp.SetValue("#head-account", "0", chromedp.ByID), chromedp.Evaluate(`document.getElementById("head-account").dispatchEvent(new Event("change"))`, nil))
	typeIn(`#header-form [data-head="account_number"]`, "ACC-ONE-2024")
	typeIn(`#header-form [data-head="bank"]`, "Corrected Mutual Bank")
	b.waitJS("reconciled again on the page", `document.getElementById("recon").classList.contains("ok") && !document.getElementById("save").disabled &&
		document.querySelector("#head-account option").textContent.startsWith("ACC-ONE-2024")`)
	b.do("save", click("#save"))
	b.waitJS("saved again", `document.getElementById("status").textContent.startsWith("Corrections saved") && document.getElementById("save").disabled`)
	got = download(id)
	first := 0
	for _, tx := range got.Transactions {
		if tx["account"] == "ACC-ONE-2024" {
			first++
		}
	}
	before := 0
	for _, tx := range orig.Transactions {
		if tx["account"] == orig.Statement.Accounts[0].AccountNumber {
			before++
		}
	}
	if got.Statement.Accounts[0].AccountNumber != "ACC-ONE-2024" || first != before || first == 0 || got.Statement.Reconciliation.Status != "ok" ||
		got.Statement.Accounts[1].OpeningBalance != orig.Statement.Accounts[1].OpeningBalance || got.Statement.Bank != "Corrected Mutual Bank" {
		t.Errorf("served after renaming: %+v, %d rows of ACC-ONE-2024 (want %d)", got.Statement, first, before)
	}
	b.do("close review", click("#review-close"))
	typeIn("#docs-q", "corrected mutual")
	waitRows("the corrected bank found", `rows === "two-accounts.pdf@Corrected Mutual Bank"`)
	typeIn("#docs-q", "acc-one")
	waitRows("the corrected account found", `rows === "two-accounts.pdf@Corrected Mutual Bank"`)

	// Dark: the list with its new controls is still clean for axe.
	b.do("dark", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	b.a11y("dark documents list")
	b.axe("dark documents list")
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	return "\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + "\""
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
