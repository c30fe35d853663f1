package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// uploadTo uploads a file through the API, into folder when it is given,
// and returns its file_id.
func uploadTo(t *testing.T, base, key, name string, data []byte, folder string) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	if folder != "" {
		mw.WriteField("folder_id", folder)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/v1/extract", &body)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m struct {
		FileID string `json:"file_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != 200 {
		t.Fatalf("upload %s: %d %v", name, resp.StatusCode, err)
	}
	return m.FileID
}

// TestBrowserFolderFindings drives the folder view as a bookkeeper with a
// client's awkward year: four months of a pound account and a second copy
// of March whose balances are all 100.00 higher, uploaded first; April and
// June of a euro account, May missing and June twice. Each block names its
// file, period and balances without hovering; each finding names in words
// the files and balances concerned, with the currency, and sits between
// them (never between the good March and April); the download warns before
// it chooses; keeping one statement sets the other aside, the missing one
// is added beside its gap, and the folder is continuous. Then: the year on
// the page and in the XLSX, rename (a taken name refused), adding and
// removing an uploaded document, the same bytes uploaded again, and a
// conversion followed through a lost connection.
func TestBrowserFolderFindings(t *testing.T) {
	dir := t.TempDir()
	s := newSeries()
	faulty := s.gbp.month(3)
	faulty.opening = faulty.opening.Add(decimal.RequireFromString("100"))
	faultyPDF := faulty.pdf()

	srv := serve(t, filepath.Join(dir, "passbook.db"))
	base := "http://" + srv.addr
	key := waitFor(t, "the API key", func() string { return keyRE.FindString(srv.stdout.String()) })
	var made struct {
		FolderID string `json:"folder_id"`
	}
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Client 2024"}`), &made)
	fid := made.FolderID
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Other client"}`), nil)
	ids := map[string]string{}
	ids["faulty"] = uploadTo(t, base, key, "gbp-2024-03 bank copy.pdf", faultyPDF, fid)
	for _, n := range []string{"gbp-2024-01.pdf", "gbp-2024-02.pdf", "gbp-2024-03.pdf", "gbp-2024-04.pdf", "eur-2024-04.pdf", "eur-2024-06.pdf"} {
		ids[n] = uploadTo(t, base, key, n, s.files[n], fid)
	}
	ids["copy"] = uploadTo(t, base, key, "eur-2024-06 again.pdf", s.files["eur-2024-06.pdf"], fid)
	may := filepath.Join(dir, "eur-2024-05.pdf")
	os.WriteFile(may, s.files["eur-2024-05.pdf"], 0o644)
	gbpMay := filepath.Join(dir, "gbp-2024-05.pdf")
	os.WriteFile(gbpMay, s.files["gbp-2024-05.pdf"], 0o644)

	b := startBrowser(t, srv.ctx)
	pageSignIn(b, base, key, srv)
	b.waitJS("folders listed", `!!document.querySelector('#folder-list li[data-id="`+fid+`"] button')`)
	b.do("open folder", click(`#folder-list li[data-id="`+fid+`"] button`))
	b.waitJS("not continuous, everything converted", `document.getElementById("folder-status").textContent.startsWith("✗ Not continuous") &&
		document.querySelectorAll("#timeline .month").length === 8`)

	// Each block names its file, period and balances, in words on the page.
	blockText := func(id string) string {
		var s string
		b.do("block "+id, chromedp.Evaluate(`(() => { const e = document.querySelector('#timeline .month[data-id="`+id+`"]'); return e ? e.innerText : ""; })()`, &s))
		return s
	}
	jan := s.gbp.month(1)
	janClose := jan.opening
	for _, r := range jan.rows {
		janClose = janClose.Add(r.amount)
	}
	if got := blockText(ids["gbp-2024-01.pdf"]); !strings.Contains(got, "gbp-2024-01.pdf") || !strings.Contains(got, "Jan 1, 2024 – Jan 31, 2024") ||
		!strings.Contains(got, "Opens 2,500.00 GBP") || !strings.Contains(got, "Closes "+groupMoney(janClose)+" GBP") {
		t.Errorf("January's block reads %q; want its file, period, and balances with the currency", got)
	}
	if got := blockText(ids["faulty"]); !strings.Contains(got, "gbp-2024-03 bank copy.pdf") {
		t.Errorf("the bank copy's block reads %q", got)
	}

	// No red link between the good March and April, which chain exactly;
	// every red link of the pound account touches the bank copy, and
	// none April: the good March counts by the rule (its name sorts
	// before the copy's), so the copy's findings are with it alone.
	var reds []string
	b.do("red links", chromedp.Evaluate(`[...document.querySelectorAll("#timeline .link.bad")].map(l =>
		(l.previousElementSibling ? l.previousElementSibling.dataset.id : "") + ">" + (l.nextElementSibling ? l.nextElementSibling.dataset.id : "") + ">" + l.dataset.kind)`, &reds))
	good, april := ids["gbp-2024-03.pdf"], ids["gbp-2024-04.pdf"]
	var sawCopyMarch bool
	for _, r := range reds {
		p := strings.SplitN(r, ">", 3)
		if p[1] == april {
			t.Errorf("a red link before April: %s", r)
		}
		if (p[0] == good && p[1] == ids["faulty"] || p[0] == ids["faulty"] && p[1] == good) && strings.Contains(p[2], "balance_break") {
			sawCopyMarch = true
		}
	}
	if !sawCopyMarch {
		t.Errorf("no balance break drawn between the two Marches: %q", reds)
	}
	var words string
	b.do("finding words", chromedp.Evaluate(`document.querySelector('#timeline .month[data-id="`+april+`"]').previousElementSibling.innerText + "|" +
		document.querySelector('#timeline .month[data-id="`+april+`"]').previousElementSibling.previousElementSibling.dataset.id`, &words))
	if !strings.Contains(words, "Continuous: gbp-2024-04.pdf opens with") || !strings.Contains(words, "the closing balance of gbp-2024-03.pdf") || !strings.HasSuffix(words, "|"+good) {
		t.Errorf("the link before April reads %q; want April following the good March", words)
	}
	b.shot("20-folder-findings.png")
	b.a11y("folder with findings")
	b.axe("folder view")

	// The download warns that it would choose; Cancel has the focus.
	b.do("download", click("#folder-download"), chromedp.WaitVisible("#confirm", chromedp.ByID))
	var focused, asked string
	b.do("confirm", chromedp.Evaluate(`document.activeElement.id`, &focused), chromedp.Text("#confirm-text", &asked, chromedp.ByID))
	if focused != "confirm-cancel" || !strings.Contains(asked, "unresolved finding") {
		t.Errorf("before a download that chooses: focus on %q, asked %q", focused, asked)
	}
	b.do("go back", chromedp.KeyEvent("\r"))
	b.waitJS("nothing downloaded", `!document.getElementById("confirm").open && document.getElementById("status").textContent.startsWith("Nothing was downloaded")`)

	// Keep the good March: the bank copy is set aside, and the pound
	// account chains.
	b.do("keep March", click(`#timeline .link.bad button.keep[data-keep="`+good+`"]`))
	b.waitJS("copy set aside", `!!document.querySelector('.aside-list li[data-id="`+ids["faulty"]+`"]') && !document.querySelector('#timeline .month[data-id="`+ids["faulty"]+`"]')`)
	// Keep the first June; add May beside its gap.
	b.do("keep June", click(`#timeline .link.bad button.keep[data-keep="`+ids["eur-2024-06.pdf"]+`"]`))
	b.waitJS("June copy set aside", `!!document.querySelector('.aside-list li[data-id="`+ids["copy"]+`"]')`)
	var gapInput string
	b.do("gap input", chromedp.Evaluate(`document.querySelector('#timeline .link.bad[data-kind="gap"] input[type=file]').id`, &gapInput))
	b.do("add May", chromedp.SetUploadFiles("#"+gapInput, []string{may}, chromedp.ByID))
	b.waitJS("continuous", `document.getElementById("folder-status").textContent.startsWith("✓ Continuous") && document.querySelectorAll("#timeline .link.bad").length === 0 &&
		document.querySelectorAll("#timeline .month").length === 7`)
	b.shot("21-folder-resolved.png")

	// The year, on the page and in the XLSX, from the kept statements.
	var year string
	b.do("year", chromedp.Evaluate(`[...document.querySelectorAll("#timeline details.year summary")].map(s => s.textContent).join("|")`, &year))
	if !strings.Contains(year, "2024: opens with 2,500.00 GBP") || strings.Contains(year, "Year:") {
		t.Errorf("year summaries: %q", year)
	}
	download := b.downloads(dir)
	download("download xlsx", inView("#folder-format"), chromedp.SetValue("#folder-format", "xlsx", chromedp.ByID), click("#folder-download"))
	xlsx := filepath.Join(dir, "Client 2024.xlsx")
	x, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := x.GetRows("Year summary")
	x.Close()
	var sheet []string
	for _, r := range rows {
		sheet = append(sheet, strings.Join(r, ";"))
	}
	sum := strings.Join(sheet, "\n")
	if !strings.Contains(sum, "2024-03;") || !strings.Contains(sum, "gbp-2024-03.pdf") || strings.Contains(sum, "bank copy") || !strings.Contains(sum, "eur-2024-05.pdf") {
		t.Errorf("the year summary does not name the kept statements:\n%s", sum)
	}

	// Rename: a name another folder has is refused, a new one taken.
	b.do("rename", click("#folder-rename-btn"), chromedp.WaitVisible("#folder-new-name", chromedp.ByID))
	b.do("taken name", inView("#folder-new-name"), chromedp.SetValue("#folder-new-name", "other CLIENT", chromedp.ByID), click(`#folder-rename button[type=submit]`))
	b.waitJS("refused", `document.getElementById("status").textContent.includes("already called") && document.getElementById("folder-new-name").getAttribute("aria-invalid") === "true"`)
	b.do("new name", inView("#folder-new-name"), chromedp.SetValue("#folder-new-name", "Client 2024 (closed)", chromedp.ByID), click(`#folder-rename button[type=submit]`))
	b.waitJS("renamed", `document.getElementById("folder-h").textContent === "Folder: Client 2024 (closed)" && document.getElementById("folder-rename").hidden`)

	// A new folder may not take a name another has either.
	b.do("same name", inView("#folder-name"), chromedp.SendKeys("#folder-name", "other client", chromedp.ByID), click(`#folder-new button[type=submit]`))
	b.waitJS("refused", `document.getElementById("status").textContent.includes("already called") && document.querySelectorAll("#folder-list li[data-id]").length === 2`)
	b.do("clear the name", chromedp.Evaluate(`document.getElementById("folder-name").value = ""`, nil))

	// A statement that prints no currency: the review says "not found",
	// and the currency corrected there is the folder's.
	odd := newLedger("77-1234-5678", "", "100.00", 1, 3).month(1).pdf()
	oddID := uploadTo(t, base, key, "no-currency.pdf", odd, fid)
	b.do("refresh folder", chromedp.Evaluate(`import("./folders.js").then((m) => { m.refreshFolder(); })`, nil, awaitPromise))
	b.waitJS("its block", `!!document.querySelector('#timeline .month[data-id="`+oddID+`"] button.review')`)
	b.do("review it", click(`#timeline .month[data-id="`+oddID+`"] button.review`), chromedp.WaitVisible("#review", chromedp.ByID))
	b.waitJS("review open", `document.getElementById("review-h").textContent === "Review: no-currency.pdf"`)
	var cur string
	b.do("currency", chromedp.Evaluate(`[...document.querySelectorAll("#summary div")].find(d => d.querySelector("dt").textContent === "Currency").querySelector("dd").textContent`, &cur))
	if cur != "not found" {
		t.Errorf("the currency of a statement that prints none reads %q, want \"not found\"", cur)
	}
	b.do("correct details", click("#header-edit"), chromedp.WaitVisible(`#header-form [data-head="currency"]`, chromedp.ByQuery))
	b.do("type currency", chromedp.SendKeys(`#header-form [data-head="currency"]`, "chf", chromedp.ByQuery))
	b.waitJS("summary follows", `document.getElementById("summary").textContent.includes("CHF") && !document.getElementById("save").disabled`)
	b.shot("23-review-details.png")
	b.a11y("review with details")
	b.axe("review with details")
	b.do("save", click("#save"))
	b.waitJS("the folder has the CHF account", `[...document.querySelectorAll("#timeline h3")].some(h => h.textContent.startsWith("77-1234-5678 CHF"))`)
	var served struct {
		Statement map[string]any `json:"statement"`
	}
	apiJSON(t, base, key, "GET", "/api/v1/download?format=json&file_id="+oddID, nil, &served)
	if served.Statement["currency"] != "CHF" {
		t.Errorf("the served statement's currency is %v after the correction", served.Statement["currency"])
	}
	b.do("close review", chromedp.KeyEvent("\x1b"))
	b.waitJS("review closed by Escape", `document.getElementById("review").hidden`)

	// A document uploaded on its own, added from the folder; then removed.
	mayID := uploadTo(t, base, key, "gbp-2024-05.pdf", s.files["gbp-2024-05.pdf"], "")
	waitFor(t, "May converted", func() string {
		var st map[string]any
		apiJSON(t, base, key, "GET", "/api/v1/status?file_id="+mayID, nil, &st)
		if st["status"] == "completed" {
			return "yes"
		}
		return ""
	})
	b.do("refresh the list", click("#refresh"))
	b.waitJS("May offered", `!!document.querySelector('#folder-add-doc option[value="`+mayID+`"]')`)
	b.do("add May", inView("#folder-add-doc"), chromedp.SetValue("#folder-add-doc", mayID, chromedp.ByID), click(`#folder-add button[type=submit]`))
	b.waitJS("May in the folder", `!!document.querySelector('#timeline .month[data-id="`+mayID+`"]')`)
	b.do("remove May", click(`#timeline .month[data-id="`+mayID+`"] button.remove`))
	b.waitJS("May out", `!document.querySelector('#timeline .month[data-id="`+mayID+`"]') && document.getElementById("status").textContent.includes("still under Your documents")`)

	// The same bytes again: named, and the existing one offered.
	b.do("same file again", inView("#files"), chromedp.SetUploadFiles("#files", []string{gbpMay}, chromedp.ByID))
	b.waitJS("already uploaded", `(document.querySelector('#uploads li[data-name="gbp-2024-05.pdf"] .msg') || {}).textContent?.includes("was uploaded before")`)
	b.do("open it", click(`#uploads li[data-name="gbp-2024-05.pdf"] .repeat-actions button.primary`), chromedp.WaitVisible("#review", chromedp.ByID))
	b.waitJS("its review", `document.getElementById("review-h").textContent === "Review: gbp-2024-05.pdf"`)

	// A conversion followed through a lost connection: the page says so,
	// keeps trying, and shows the true state once it is back.
	long, err := os.ReadFile("testdata/statements/long_10p.pdf")
	if err != nil {
		t.Fatal(err)
	}
	longPath := filepath.Join(dir, "long.pdf")
	os.WriteFile(longPath, long, 0o644)
	// The status requests fail as if the server were gone, from before the
	// upload is answered, so the conversion cannot finish unseen.
	b.do("status unreachable", network.Enable(), network.SetBlockedURLs([]string{"*/api/v1/status*"}))
	b.do("upload long", inView("#files"), chromedp.SetUploadFiles("#files", []string{longPath}, chromedp.ByID))
	b.waitJS("accepted", `!!document.querySelector('#uploads li[data-name="long.pdf"][data-id]')`)
	b.waitJS("connection lost said", `(document.querySelector('#uploads li[data-name="long.pdf"] .msg') || {}).textContent?.startsWith("Connection lost, retrying") &&
		document.getElementById("status").textContent.includes("Connection to the server lost")`)
	b.shot("22-connection-lost.png")
	var lostBadge string
	b.do("history row", chromedp.Evaluate(`document.querySelector('#docs tr[data-id="' + document.querySelector('#uploads li[data-name="long.pdf"]').dataset.id + '"] .badge').textContent`, &lostBadge))
	if !strings.Contains(lostBadge, "Connection lost") {
		t.Errorf("the history row reads %q while the connection is lost", lostBadge)
	}
	b.do("reachable again", network.SetBlockedURLs([]string{}))
	b.waitJS("true state", `(() => { const li = document.querySelector('#uploads li[data-name="long.pdf"]'); return li.querySelector(".msg").textContent.startsWith("Converted") &&
		!!document.querySelector('#docs tr[data-id="' + li.dataset.id + '"] .badge:not(.processing):not(.lost)'); })()`)

	// A read-only member sees the folder, its set-aside statements and the
	// documents, and may download them, several as a zip; none of the
	// controls that change them is offered (the server refuses them too).
	data := filepath.Join(dir, "passbook.db")
	if err := run(t.Context(), []string{"accounts", "add-member", "admin@localhost", "reader@example.com", "--role", "read_only", "--data", data},
		os.Getenv, nil, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	readerPassword := resetPassword(t, data, "reader@example.com")
	b.do("admin signs out", click("#signout"), chromedp.WaitVisible("#email", chromedp.ByID))
	b.signIn("reader signs in", "reader@example.com", readerPassword)
	b.waitJS("read-only page", `document.body.dataset.role === "read_only" && !!document.querySelector('#folder-list li[data-id="`+fid+`"] button') &&
		!!document.querySelector("#docs tr input.pick")`)
	b.do("open folder as the reader", click(`#folder-list li[data-id="`+fid+`"] button`))
	b.waitJS("folder drawn for the reader", `!!document.querySelector('.aside-list li[data-id="`+ids["faulty"]+`"]') && document.querySelectorAll("#timeline .month").length > 0`)
	b.do("select a document", click(`#docs tr input.pick`))
	b.waitJS("selection bar", `!document.getElementById("bulk").hidden`)
	b.do("review as the reader", click(`#docs tr button[aria-label^="Review"]`))
	b.waitJS("review open for the reader", `!document.getElementById("review").hidden && document.querySelectorAll("#tx tr").length > 0`)
	// Each view (the review's Documents, the folder's Clients) is looked
	// at in turn: a reading control is offered when one of them shows it.
	type controls struct{ Missing, Shown, Hidden []string }
	var seen controls
	look := func(view string) controls {
		var c controls
		b.do("controls in "+view, inView(view), chromedp.Evaluate(`(() => {
		const shown = (e) => e.getClientRects().length > 0;
		// Each is on the page (so that hiding it is what is checked) ...
		const present = ["#folder-rename-btn", "#header-edit", "#bulk-put", "#bulk-delete", "#folder-add", '#docs button[aria-label^="Delete"]',
			'.aside-list li[data-id="`+ids["faulty"]+`"] button', '#timeline .month button.remove'];
		// ... and may be, as the folder's findings stand.
		const maybe = ["#folder .keep", '#folder button[aria-label^="Remove"]', "#folder .finding-actions label.button", "#header-form input"];
		const r = { Missing: [], Shown: [], Hidden: [] };
		for (const q of present) if (!document.querySelector(q)) r.Missing.push(q);
		for (const q of [...present, ...maybe]) for (const e of document.querySelectorAll(q)) if (shown(e)) r.Shown.push(q + " " + (e.getAttribute("aria-label") || e.textContent));
		// What a reader may do stays offered.
		for (const q of ["#bulk-zip", '#docs button[aria-label^="Download"]', "#folder-download"]) if (![...document.querySelectorAll(q)].some(shown)) r.Hidden.push(q);
		return r; })()`, &c))
		return c
	}
	docs, clients := look("#docs"), look("#folder-download")
	seen.Missing = append(docs.Missing, clients.Missing...)
	seen.Shown = append(docs.Shown, clients.Shown...)
	for _, h := range docs.Hidden {
		if slices.Contains(clients.Hidden, h) {
			seen.Hidden = append(seen.Hidden, h)
		}
	}
	if len(seen.Missing) > 0 || len(seen.Shown) > 0 || len(seen.Hidden) > 0 {
		t.Errorf("a read-only member's page: controls not on the page %q; changing controls offered %q; reading controls not offered %q", seen.Missing, seen.Shown, seen.Hidden)
	}
	b.shot("23-read-only.png")
}

// groupMoney writes d as the page does in an en-US browser: 1,234.50.
func groupMoney(d decimal.Decimal) string {
	s := d.StringFixed(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	i, f, _ := strings.Cut(s, ".")
	var out []byte
	for k := range i {
		if k > 0 && (len(i)-k)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, i[k])
	}
	if neg {
		return "−" + string(out) + "." + f
	}
	return string(out) + "." + f
}

// pageSignIn opens the page and signs in as the first run's admin, with
// the e-mail and password the first run printed (key, its API key, stays
// the tests' way into the API). It is the one place these tests sign in.
func pageSignIn(b *browserSession, base, key string, srv *serving) {
	b.t.Helper()
	b.do("open", chromedp.Navigate(base+"/"))
	b.signIn("sign in", "admin@localhost", firstRunPassword(b.t, srv.stdout.String()))
}
