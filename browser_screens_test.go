package main

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"passbook/extract/ledger"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/shopspring/decimal"
)

// TestBrowserScreens looks at the folder view and the review on a phone
// (390 px), a laptop (1366 px) and a wide screen (1920 px), in light and
// dark: nothing wider than the phone's screen (rows become cards), the
// statement's image using a wide screen, a status line that covers
// nothing, text that follows the browser's size, one date style chosen
// once, rows that move like a spreadsheet, and marks only on rows that
// need an eye. The screenshots are left in PASSBOOK_SCREENS.
func TestBrowserScreens(t *testing.T) {
	dir := t.TempDir()
	s := newSeries()
	faulty := s.gbp.month(3)
	faulty.opening = faulty.opening.Add(decimal.RequireFromString("100"))
	srv := serve(t, filepath.Join(dir, "passbook.db"))
	base := "http://" + srv.addr
	key := waitFor(t, "the API key", func() string { return keyRE.FindString(srv.stdout.String()) })
	var made struct {
		FolderID string `json:"folder_id"`
	}
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Client 2024"}`), &made)
	fid := made.FolderID
	uploadTo(t, base, key, "gbp-2024-03 bank copy.pdf", faulty.pdf(), fid)
	ids := map[string]string{}
	for _, n := range []string{"gbp-2024-01.pdf", "gbp-2024-02.pdf", "gbp-2024-03.pdf", "gbp-2024-04.pdf", "eur-2024-04.pdf", "eur-2024-06.pdf"} {
		ids[n] = uploadTo(t, base, key, n, s.files[n], fid)
	}
	loose := uploadTo(t, base, key, "gbp-2024-05.pdf", s.files["gbp-2024-05.pdf"], "")
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Other client"}`), nil)
	jan := ids["gbp-2024-01.pdf"]
	waitFor(t, "January converted", func() string {
		var st map[string]any
		apiJSON(t, base, key, "GET", "/api/v1/status?file_id="+jan, nil, &st)
		if st["status"] == "completed" {
			return "yes"
		}
		return ""
	})
	// Two balances computed from the rows, which the printed ones confirm,
	// and one amount recognition misread that the running balance
	// corrected: what a scan's conversion stores.
	restore(t, filepath.Join(dir, "passbook.db"), jan, func(res *ledger.Result) {
		for _, i := range []int{1, 2} {
			res.Transactions[i].Provenance.BalanceComputed = true
			res.Transactions[i].Warnings = append(res.Transactions[i].Warnings, ledger.Warning{Kind: ledger.WarnBalanceComputed, Message: "balance not printed: computed from the running balance"})
		}
		res.Transactions[3].Warnings = append(res.Transactions[3].Warnings, ledger.Warning{Kind: ledger.WarnOCRCorrection, Message: "OCR correction: amount read as 8O.00, corrected to 80.00 (letter O for zero) by the running balance"})
	})

	b := startBrowser(t, srv.ctx)
	pageSignIn(b, base, key, srv)
	b.waitJS("folders listed", `!!document.querySelector('#folder-list li[data-id="`+fid+`"] button')`)
	var focus string
	b.do("focus after sign-in", chromedp.Evaluate(`document.activeElement.id`, &focus))
	if focus != "files" {
		t.Errorf("after sign-in the focus is on %q, want the upload area's file chooser", focus)
	}
	b.do("month-day-year", inView("#date-style"), chromedp.SetValue("#date-style", "mdy", chromedp.ByID), chromedp.Evaluate(`document.getElementById("date-style").dispatchEvent(new Event("change"))`, nil))
	b.do("open folder", click(`#folder-list li[data-id="`+fid+`"] button`))
	b.waitJS("folder drawn", `document.getElementById("folder-status").textContent.startsWith("✗ Not continuous") && document.querySelectorAll("#timeline .month").length === 7`)

	// The documents list: search, filters, sort, a folder column, and
	// several documents at once.
	b.waitJS("eight documents", `document.querySelectorAll("#docs tr").length === 8 && ![...document.querySelectorAll("#docs .badge")].some(b => b.classList.contains("processing"))`)
	// The server searches, filters and sorts: each change is waited for.
	const rowsJS = `[...document.querySelectorAll("#docs tr")].map(r => r.querySelector("td.name").textContent + "@" + r.querySelector("td.folders").textContent).join("|")`
	waitRows := func(what, predicate string) { b.t.Helper(); b.waitFor(what, rowsJS, predicate) }
	b.do("search", inView("#docs-q"), chromedp.SendKeys("#docs-q", "bank copy", chromedp.ByID))
	waitRows(`searching "bank copy"`, `rows === "gbp-2024-03 bank copy.pdf@Client 2024"`)
	b.do("search an account", chromedp.Evaluate(`(() => { const q = document.getElementById("docs-q"); q.value = "1234567890"; q.dispatchEvent(new Event("input")); })()`, nil))
	b.waitJS("searching the account 1234567890", `((a) => a.split("12-3456-7890 GBP").length === 7 && !a.includes("EUR"))([...document.querySelectorAll("#docs tr td.acct")].map(td => td.textContent).join("|"))`)
	b.do("clear search", chromedp.Evaluate(`(() => { const q = document.getElementById("docs-q"); q.value = ""; q.dispatchEvent(new Event("input")); })()`, nil))
	waitRows("all again", `rows.split("|").length === 8`)
	change := func(sel, v string) {
		b.do("choose "+sel, inView(sel), chromedp.SetValue(sel, v, chromedp.ByQuery), chromedp.Evaluate(`document.querySelector("`+sel+`").dispatchEvent(new Event("change"))`, nil))
	}
	change("#docs-folder", "-")
	waitRows("documents in no folder", `rows === "gbp-2024-05.pdf@—"`)
	change("#docs-folder", "")
	change("#docs-sort", "name")
	waitRows("sorted by name", `rows.startsWith("eur-2024-04.pdf@Client 2024|eur-2024-06.pdf@") && rows.endsWith("gbp-2024-05.pdf@—")`)
	change("#docs-status", "mismatch")
	waitRows("no mismatches", `rows === "" && !document.getElementById("docs-empty").hidden`)
	change("#docs-status", "")
	change("#docs-sort", "newest")
	waitRows("all, newest first", `rows.split("|").length === 8`)
	// Two ticked: one zip with both.
	download := b.downloads(dir)
	b.do("tick one", click(`#docs tr[data-id="`+jan+`"] input.pick`))
	b.do("tick another", click(`#docs tr[data-id="`+ids["gbp-2024-02.pdf"]+`"] input.pick`))
	if got := b.text("#bulk-count"); got != "2 documents selected" {
		t.Errorf("bulk bar: %q", got)
	}
	change("#bulk-format", "csv")
	download("zip", click("#bulk-zip"))
	zipPath := filepath.Join(dir, "statements.zip")
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for _, f := range zr.File {
		entries = append(entries, f.Name)
	}
	zr.Close()
	sort.Strings(entries)
	if got := strings.Join(entries, ","); got != "gbp-2024-01.csv,gbp-2024-02.csv" {
		t.Errorf("the zip holds %s", got)
	}
	b.do("clear", click("#bulk-clear"))
	// One put in another folder, then deleted.
	b.do("tick May", click(`#docs tr[data-id="`+loose+`"] input.pick`))
	b.waitJS("folders offered", `[...document.querySelectorAll("#bulk-folder option")].some(o => o.textContent === "Other client")`)
	b.do("choose Other", chromedp.Evaluate(`(() => { const s = document.getElementById("bulk-folder"); s.value = [...s.options].find(o => o.textContent === "Other client").value; })()`, nil))
	b.do("put", click("#bulk-put"))
	b.waitJS("in Other", `(document.querySelector('#docs tr[data-id="`+loose+`"] td.folders') || {}).textContent === "Other client"`)
	b.do("delete", click("#bulk-delete"), chromedp.WaitVisible("#confirm", chromedp.ByID), click("#confirm-ok"))
	b.waitJS("deleted", `!document.querySelector('#docs tr[data-id="`+loose+`"]') && document.getElementById("status").textContent === "Deleted 1 document." && document.getElementById("bulk").hidden`)
	b.a11y("documents list")
	b.axe("documents list")

	// The status line sits in the header, which keeps its own room.
	var status struct {
		InHeader, Sticky, Covers bool
	}
	b.do("say", chromedp.Evaluate(`import("./util.js").then((m) => { m.say("A message long enough to have covered the bottom of the page before, when it was drawn over it."); })`, nil, awaitPromise))
	b.do("status place", chromedp.Evaluate(`(() => { const s = document.getElementById("status"); const low = document.elementFromPoint(innerWidth / 2, innerHeight - 8);
		return { InHeader: !!s.closest("header"), Sticky: getComputedStyle(s.closest("header")).position === "sticky", Covers: !!(low && low.closest("#status")) }; })()`, &status))
	if !status.InHeader || !status.Sticky || status.Covers {
		t.Errorf("the status line: %+v; want it in the sticky header, over nothing", status)
	}
	// Text follows the browser's size: rem, not px.
	var sizes []float64
	b.do("text size", chromedp.Evaluate(`(() => { const a = parseFloat(getComputedStyle(document.body).fontSize); document.documentElement.style.fontSize = "20px";
		const b = parseFloat(getComputedStyle(document.body).fontSize); document.documentElement.style.fontSize = ""; return [a, b]; })()`, &sizes))
	if len(sizes) != 2 || sizes[1] <= sizes[0] {
		t.Errorf("body text does not follow the root size: %v", sizes)
	}

	shots := func(name string) {
		b.do("to the folder", chromedp.Evaluate(`document.getElementById("folder").scrollIntoView()`, nil))
		b.shot("folder-" + name + ".png")
		b.shotOf("#folder", "docs-folder-"+name+".png")
	}
	review := func() {
		b.do("review January", click(`#timeline .month[data-id="`+jan+`"] button.review`), chromedp.WaitVisible("#review", chromedp.ByID))
		b.waitJS("review shown", `document.getElementById("review-h").textContent === "Review: gbp-2024-01.pdf" && document.querySelectorAll("#tx tr").length === 6 &&
			!!document.querySelector("#pages .page img") && document.querySelector("#pages .page img").complete`)
	}
	shots("1366")
	review()

	// Marks only where a person must look: the computed balances the
	// printed ones confirm are information; the corrected amount is
	// marked.
	var marks struct{ Warned, Info, Notes []int }
	b.do("marks", chromedp.Evaluate(`(() => { const rows = [...document.querySelectorAll("#tx tr")]; const idx = (f) => rows.map((r, i) => f(r) ? i : -1).filter(i => i >= 0);
		return { Warned: idx(r => r.querySelector(".warn")), Info: idx(r => r.querySelector(".info")), Notes: idx(r => r.querySelector(".notes")) }; })()`, &marks))
	if fmtInts(marks.Warned) != "3" || fmtInts(marks.Notes) != "3" || fmtInts(marks.Info) != "1,2" {
		t.Errorf("marks: warned rows %v, notes %v, information %v; want 3, 3 and 1,2", marks.Warned, marks.Notes, marks.Info)
	}

	// One date style: the summary and the rows, then day-month-year.
	if got := b.text("#summary"); !strings.Contains(got, "Jan 1, 2024 – Jan 31, 2024") {
		t.Errorf("summary in month-day-year: %q", got)
	}
	var rowDate string
	b.do("row date", chromedp.Value(`#tx tr[data-row="0"] [data-field="date"]`, &rowDate, chromedp.ByQuery))
	if rowDate != "01/02/2024" {
		t.Errorf("row date in month-day-year: %q", rowDate)
	}
	b.do("day-month-year", inView("#date-style"), chromedp.SetValue("#date-style", "dmy", chromedp.ByID), chromedp.Evaluate(`document.getElementById("date-style").dispatchEvent(new Event("change"))`, nil))
	b.do("row date", chromedp.Value(`#tx tr[data-row="0"] [data-field="date"]`, &rowDate, chromedp.ByQuery))
	if got := b.text("#summary"); !strings.Contains(got, "1 Jan 2024 – 31 Jan 2024") || rowDate != "02/01/2024" {
		t.Errorf("day-month-year: summary %q, row date %q", got, rowDate)
	}
	b.do("type a date", chromedp.Evaluate(`(() => { const i = document.querySelector('#tx tr[data-row="0"] [data-field="date"]'); i.value = "05/01/2024"; i.dispatchEvent(new Event("input")); })()`, nil))
	var typed string
	b.do("read it", chromedp.Evaluate(`import("./review.js").then((m) => m.currentReview().txs[0].date)`, &typed, awaitPromise))
	if typed != "2024-01-05" {
		t.Errorf("05/01/2024 typed in day-month-year is %q", typed)
	}
	b.do("undo it", chromedp.Evaluate(`(() => { const i = document.querySelector('#tx tr[data-row="0"] [data-field="date"]'); i.value = "02/01/2024"; i.dispatchEvent(new Event("input")); })()`, nil))

	// Like a spreadsheet: Enter and the arrows move down and up a column;
	// a row has six stops for Tab, no more.
	field := `[data-field="balance"]`
	active := func() string {
		var s string
		b.do("active", chromedp.Evaluate(`(() => { const a = document.activeElement; const tr = a.closest("tr"); return (tr ? tr.dataset.row : "-") + ":" + (a.dataset.field || a.tagName); })()`, &s))
		return s
	}
	b.do("focus row 1", chromedp.Focus(`#tx tr[data-row="0"] `+field, chromedp.ByQuery))
	var walk []string
	for _, k := range []string{"\r", kb.ArrowDown, kb.ArrowUp} {
		b.do("key", chromedp.KeyEvent(k))
		walk = append(walk, active())
	}
	if got := strings.Join(walk, " "); got != "1:balance 2:balance 1:balance" {
		t.Errorf("Enter, down, up from row 1's balance: %s", got)
	}
	var stops int
	b.do("tab stops", chromedp.Evaluate(`[...document.querySelectorAll('#tx tr[data-row="0"] input, #tx tr[data-row="0"] textarea, #tx tr[data-row="0"] button, #tx tr[data-row="0"] select')].filter(e => e.tabIndex >= 0).length`, &stops))
	if stops > 6 {
		t.Errorf("a row has %d Tab stops", stops)
	}
	b.do("to the review", chromedp.Evaluate(`document.getElementById("review").scrollIntoView()`, nil))
	b.shot("review-1366.png")
	b.shotOf("#review", "docs-review-1366.png")

	// A phone: nothing wider than the screen; the rows are cards.
	b.do("phone", chromedp.EmulateViewport(390, 844))
	var phone struct {
		Page, Screen, Wrap, WrapClient float64
		Card, Wider                    string
	}
	// Wider names the outermost elements that reach past the screen, so
	// that a failure says what widens the page.
	measure := func() {
		b.do("measure", chromedp.Evaluate(`(() => { const w = document.querySelector("#review .table-wrap");
			const wider = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > innerWidth + 1))
				.map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "")).join(", ");
			return { Page: document.documentElement.scrollWidth, Screen: innerWidth,
			Wrap: w.scrollWidth, WrapClient: w.clientWidth, Card: getComputedStyle(document.querySelector("#tx tr")).display, Wider: wider }; })()`, &phone))
	}
	measure()
	if phone.Page > phone.Screen || phone.Wrap > phone.WrapClient+1 || phone.Card != "grid" {
		t.Errorf("at 390 px: page %v px on a %v px screen (wider: %s), rows %v px in %v px, rows displayed as %s", phone.Page, phone.Screen, phone.Wider, phone.Wrap, phone.WrapClient, phone.Card)
	}
	// The owner's audit trail, its lines on the page, scrolls inside its
	// card: it is what once made the page 405 px wide.
	var trail struct {
		Rows             int
		Right, CardRight float64
		OverflowX        string
	}
	b.do("measure the trail", inView("#trail-list"), chromedp.Evaluate(`(() => { const t = document.getElementById("trail-list").closest("table"), c = document.getElementById("trail");
		return { Rows: c.hidden ? 0 : document.querySelectorAll("#trail-list tr").length, Right: t.getBoundingClientRect().right, CardRight: c.getBoundingClientRect().right,
			OverflowX: getComputedStyle(t).overflowX }; })()`, &trail))
	if trail.Rows == 0 || trail.Right > trail.CardRight || trail.CardRight > phone.Screen || trail.OverflowX != "auto" {
		t.Errorf("at 390 px the audit trail (%d lines) reaches %v px in a card reaching %v px on a %v px screen, overflow-x %s; want it inside its card, scrolling", trail.Rows, trail.Right, trail.CardRight, phone.Screen, trail.OverflowX)
	}
	b.shot("review-390.png")
	b.shotOf("#review", "docs-review-390.png")
	shots("390")

	// A wide screen: the page is wider, and so is the statement's image.
	b.do("wide", chromedp.EmulateViewport(1920, 1080))
	var wide struct{ Main, Image float64 }
	b.do("to the review", inView("#review"), chromedp.Evaluate(`document.getElementById("review").scrollIntoView()`, nil))
	b.do("measure wide", chromedp.Evaluate(`({ Main: document.querySelector("main").getBoundingClientRect().width, Image: document.querySelector("#pages .page img").getBoundingClientRect().width })`, &wide))
	if wide.Main < 1700 || wide.Image < 800 {
		t.Errorf("at 1920 px the page is %v px wide and the statement's image %v px; want the width used", wide.Main, wide.Image)
	}
	b.shot("review-1920.png")
	b.shotOf("#review", "docs-review-1920.png")
	shots("1920")

	// Dark, as the system asks: still readable, still clean for axe.
	b.do("laptop", chromedp.EmulateViewport(1366, 768))
	b.do("dark", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	var bg string
	b.do("background", chromedp.Evaluate(`getComputedStyle(document.body).backgroundColor`, &bg))
	if bg == "rgb(246, 247, 249)" || bg == "rgb(255, 255, 255)" {
		t.Errorf("dark mode: the page's background is %s", bg)
	}
	b.a11y("dark review and folder")
	b.axe("dark review and folder")
	b.shot("review-dark.png")
	b.shotOf("#review", "docs-review-dark.png")
	shots("dark")
	// The review and the folder at the three widths, light and dark,
	// checked by axe in both schemes.
	b.do("light", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
	b.sixShots("#review", "review")
	b.sixShots("#folder", "folder")
}

// waitFor waits until predicate holds of rows, what the expression
// rowsJS reads from the page (the documents shown, say): the page asks the
// server and draws its answer in its own time.
func (b *browserSession) waitFor(what, rowsJS, predicate string) {
	b.t.Helper()
	b.waitJS(what, `((rows) => `+predicate+`)(`+rowsJS+`)`)
}

func fmtInts(v []int) string {
	var s []string
	for _, i := range v {
		s = append(s, strconv.Itoa(i))
	}
	return strings.Join(s, ",")
}

// shotOf saves a PNG of the elements sel matches (the box around them
// all), whole, as name.
func (b *browserSession) shotOf(sel, name string) {
	b.t.Helper()
	b.do("the view of "+sel, inView(sel))
	var r struct{ X, Y, W, H float64 }
	b.do("measure "+sel, chromedp.Evaluate(`(() => { const es = [...document.querySelectorAll(`+strconv.Quote(sel)+`)].map(x => x.getBoundingClientRect()).filter(x => x.width && x.height);
		const e = { left: Math.min(...es.map(x => x.left)), top: Math.min(...es.map(x => x.top)) };
		e.width = Math.max(...es.map(x => x.right)) - e.left; e.height = Math.max(...es.map(x => x.bottom)) - e.top;
		const r = { X: e.left + scrollX, Y: e.top + scrollY, W: e.width, H: e.height };
		// The sticky header is drawn where the window is: keep it above the element.
		scrollTo(0, Math.max(0, r.Y - 120)); return r; })()`, &r))
	var buf []byte
	b.do("shoot "+sel, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		buf, err = page.CaptureScreenshot().WithFormat(page.CaptureScreenshotFormatPng).WithCaptureBeyondViewport(true).
			WithClip(&page.Viewport{X: r.X, Y: r.Y, Width: r.W, Height: r.H, Scale: 1}).Do(ctx)
		return err
	}))
	if err := os.WriteFile(filepath.Join(b.shots, name), buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
