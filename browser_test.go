package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"passbook/extract/engine"
	"passbook/extract/ledger"
)

// chromiumPath is Debian's Chromium, which `make test` installs; CHROMIUM
// names another.
func chromiumPath(t *testing.T) string {
	p := os.Getenv("CHROMIUM")
	if p == "" {
		p = "chromium"
	}
	path, err := exec.LookPath(p)
	if err != nil {
		t.Fatalf("the browser test needs Chromium (%s): install Debian's chromium (make deps does) or set CHROMIUM: %v", p, err)
	}
	return path
}

// screens is where the test leaves screenshots of the main screens.
func screens(t *testing.T) string {
	dir := os.Getenv("PASSBOOK_SCREENS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "passbook-screens")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// apiJSON calls the API with key and decodes the JSON answer.
func apiJSON(t *testing.T, base, key, method, path string, body io.Reader, v any) int {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, body)
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

type docList struct {
	Documents []struct {
		FileID         string `json:"file_id"`
		OriginalName   string `json:"original_name"`
		Status         string `json:"status"`
		Reconciliation string `json:"reconciliation"`
	} `json:"documents"`
}

// TestBrowser drives the page in headless Chromium as an office would:
// sign in, upload three statements (one a scan, one password-protected),
// see them complete with the right badges, review one beside its page,
// correct it, download the correction, hit the quota and delete a document.
func TestBrowser(t *testing.T) {
	dir := t.TempDir()

	// The files: a generated statement, a scan of it, a protected PDF, and
	// one too long for what is left of the free plan's day.
	var gen bytes.Buffer
	if _, err := writeStatement(&gen, 1, 8); err != nil {
		t.Fatal(err)
	}
	scan, err := engine.New().RenderPage(gen.Bytes(), "", 1, 1654) // 200 dpi of A4
	if err != nil {
		t.Fatal(err)
	}
	enc, err := os.ReadFile("testdata/encrypted_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	long, err := os.ReadFile("testdata/statements/long_10p.pdf")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"generated.pdf": gen.Bytes(), "scan.png": scan.PNG, "protected.pdf": enc, "long.pdf": long}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The server, on port 0, and a free-plan account (5 pages a day).
	data := filepath.Join(dir, "passbook.db")
	srv := serve(t, data)
	ctx, addr := srv.ctx, srv.addr
	base := "http://" + addr
	var out bytes.Buffer
	if err := run(ctx, []string{"accounts", "create", "clerk@example.com", "--plan", "free", "--data", data}, os.Getenv, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	key := keyRE.FindString(out.String())
	password := resetPassword(t, data, "clerk@example.com")

	b := startBrowser(t, ctx)
	do, shot, click, text, a11y, waitJS := b.do, b.shot, click, b.text, b.a11y, b.waitJS

	// Sign in: a wrong password is refused in plain words, the right one opens the page.
	do("open", chromedp.Navigate(base+"/"), chromedp.WaitVisible("#email", chromedp.ByID))
	do("wrong password", chromedp.SendKeys("#email", "clerk@example.com", chromedp.ByID), chromedp.SendKeys("#password", "not the password", chromedp.ByID),
		click(`#signin-form button[type=submit]`))
	waitJS("refusal shown", `document.getElementById("signin-error").textContent.includes("wrong")`)
	shot("01-sign-in-refused.png")
	b.signIn("sign in", "", password)
	waitJS("quota shown", `document.getElementById("quota-label").textContent.includes("0 of 5")`)

	// Upload three files at once; the protected one asks for its password on its own line.
	do("choose files", chromedp.SetUploadFiles("#files", []string{
		filepath.Join(dir, "generated.pdf"), filepath.Join(dir, "scan.png"), filepath.Join(dir, "protected.pdf"),
	}, chromedp.ByID))
	waitJS("password asked", `!!document.querySelector('#uploads li[data-name="protected.pdf"] .pw-form input')`)
	if msg := text(`#uploads li[data-name="protected.pdf"] .msg`); !strings.Contains(msg, "password") || strings.Contains(msg, "curl") {
		t.Errorf("password message: %q", msg)
	}
	do("wrong password", chromedp.SendKeys(`#uploads li[data-name="protected.pdf"] .pw-form input`, "nope", chromedp.ByQuery),
		click(`#uploads li[data-name="protected.pdf"] .pw-form button`))
	waitJS("wrong password said", `document.querySelector('#uploads li[data-name="protected.pdf"] .msg').textContent.includes("did not open")`)
	do("password", chromedp.SendKeys(`#uploads li[data-name="protected.pdf"] .pw-form input`, "s3cret", chromedp.ByQuery),
		click(`#uploads li[data-name="protected.pdf"] .pw-form button`))

	// Each completes with the badge its reconciliation earns.
	waitJS("three converted", `document.querySelectorAll("#docs tr").length === 3 &&
		[...document.querySelectorAll("#docs tr")].every(r => !r.querySelector(".badge.processing"))`)
	var list docList
	apiJSON(t, base, key, "GET", "/api/v1/documents", nil, &list)
	badges := map[string]string{"ok": "✓ Reconciled", "unverified": "⚠ Unverified", "mismatch": "✗ Mismatch", "no_transactions": "∅ No transactions"}
	ids := map[string]string{}
	for _, d := range list.Documents {
		ids[d.OriginalName] = d.FileID
		if d.Status != "completed" {
			t.Errorf("%s: status %s", d.OriginalName, d.Status)
			continue
		}
		got := text(fmt.Sprintf(`#docs tr[data-id="%s"] .badge`, d.FileID))
		if got != badges[d.Reconciliation] {
			t.Errorf("%s: badge %q, want %q for %s", d.OriginalName, got, badges[d.Reconciliation], d.Reconciliation)
		}
	}
	for _, name := range []string{"generated.pdf", "protected.pdf"} {
		if got := text(fmt.Sprintf(`#docs tr[data-id="%s"] .badge`, ids[name])); got != "✓ Reconciled" {
			t.Errorf("%s: badge %q, want ✓ Reconciled", name, got)
		}
	}
	var green string
	do("badge colour", chromedp.Evaluate(`[...document.querySelectorAll("#docs .badge")].filter(b => getComputedStyle(b).backgroundColor === "rgb(226, 243, 231)").map(b => b.textContent).join("|")`, &green))
	for _, g := range strings.Split(green, "|") {
		if g != "✓ Reconciled" {
			t.Errorf("a badge other than ✓ is green: %q", g)
		}
	}
	waitJS("quota moved", `document.getElementById("quota-label").textContent.includes("3 of 5")`)
	shot("02-history.png")
	a11y("history")
	b.axe("signed-in page")

	// The quota refuses a 10-page file, in plain words.
	do("upload long", chromedp.SetUploadFiles("#files", []string{filepath.Join(dir, "long.pdf")}, chromedp.ByID))
	waitJS("refusal", `(document.querySelector('#uploads li[data-name="long.pdf"] .msg.error')||{}).textContent > ""`)
	refusal := text(`#uploads li[data-name="long.pdf"] .msg`)
	if !strings.Contains(refusal, "This file has 10 pages, but only 2 pages are left today") || !strings.Contains(refusal, "resets") ||
		strings.Contains(refusal, "Z") || strings.Contains(refusal, "1 pages") {
		t.Errorf("quota refusal: %q", refusal)
	}
	shot("03-quota-refused.png")

	// Review the generated statement. Rows carry their place on the page
	// once the engine fills it; until then a correction may carry it.
	genID := ids["generated.pdf"]
	var orig struct {
		Transactions []map[string]any `json:"transactions"`
	}
	apiJSON(t, base, key, "GET", "/api/v1/download?format=json&file_id="+genID, nil, &orig)
	if _, ok := orig.Transactions[0]["box"]; !ok {
		t.Log("the engine gives rows no box yet: placing them through a saved correction")
		const mm = 72 / 25.4
		for i, tx := range orig.Transactions {
			y := 45 + 6*float64(i+1)
			tx["page"], tx["box"] = 1, []float64{15 * mm, (y - 3.5) * mm, 190 * mm, (y + 1) * mm}
		}
		body, _ := json.Marshal(map[string]any{"transactions": orig.Transactions})
		if code := apiJSON(t, base, key, "PUT", "/api/v1/documents/"+genID+"/transactions", bytes.NewReader(body), nil); code != 200 {
			t.Fatalf("placing rows: %d", code)
		}
	}
	// A row recognition read with low confidence carries the provenance
	// and warning OCR gives it; the review marks it to be checked first.
	// What a client sends says nothing of a row's provenance, so the
	// stored conversion says it, as a scan's would.
	restore(t, data, genID, func(res *ledger.Result) {
		tx := &res.Transactions[3]
		tx.Provenance.LowConfidence = 41
		tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnLowConfidence, Confidence: 41, Message: "recognised with low confidence (41%): check this row first"})
	})
	do("open review", click(`#docs tr[data-id="`+genID+`"] button[aria-label^="Review"]`), chromedp.WaitVisible("#review", chromedp.ByID))
	waitJS("low-confidence row marked", `document.querySelector('#tx tr[data-row="3"]').classList.contains("lowconf") &&
		document.querySelectorAll('#tx tr.lowconf').length === 1 &&
		document.getElementById("recon").textContent.includes("1 row read with low confidence: check it first")`)
	waitJS("page image", `!!document.querySelector("#pages .page img") && document.querySelector("#pages .page img").complete && document.querySelectorAll("#pages .box").length === 8`)
	if s := text("#summary"); !strings.Contains(s, "12-3456-7890123") || !strings.Contains(s, "GBP") || !strings.Contains(s, "1,000.00 GBP") {
		t.Errorf("summary lacks account, currency or opening balance: %q", s)
	}
	do("choose row 3", click(`#tx tr[data-row="2"] td.idx`))
	waitJS("box 3 highlighted", `!!document.querySelector('#pages .box.sel[data-row="2"]') && document.querySelectorAll('#pages .box.sel').length === 1`)
	// And the other way: a spot on the page selects its row.
	var pt []float64
	do("find row 6 on the page", chromedp.Evaluate(`(() => { const b = document.querySelector('#pages .box[data-row="5"]'); b.scrollIntoView({block:"center"}); const r = b.getBoundingClientRect(); return [r.left + r.width/3, r.top + r.height/2]; })()`, &pt))
	do("click row 6 on the page", chromedp.MouseClickXY(pt[0], pt[1]))
	waitJS("row 6 selected", `document.querySelector('#tx tr.sel') && document.querySelector('#tx tr.sel').dataset.row === "5"`)
	shot("04-review.png")
	a11y("review")
	b.axe("review")

	// Correct an amount: the chain breaks there, saving keeps it, the CSV carries it.
	field := "amountOut"
	if orig.Transactions[2]["amountOut"] == nil {
		field = "amountIn"
	}
	sel := fmt.Sprintf(`#tx tr[data-row="2"] input[data-field="%s"]`, field)
	do("edit amount", chromedp.Evaluate(`document.querySelector('`+sel+`').value = ""`, nil), chromedp.SendKeys(sel, "999.99", chromedp.ByQuery))
	waitJS("mismatch shown", `document.getElementById("recon").classList.contains("mismatch") && document.getElementById("recon").textContent.includes("row 3")`)
	shot("05-correction-mismatch.png")
	do("save", click("#save"))
	waitJS("saved", `document.getElementById("edit-state").textContent.includes("Showing your corrections")`)
	download := b.downloads(dir)
	download("download CSV", click(`#review-downloads button[aria-label="Download as CSV"]`))
	csvPath := filepath.Join(dir, "generated.csv")
	raw, _ := os.ReadFile(csvPath)
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{"amountIn": 3, "amountOut": 4}[field]
	if len(recs) != 9 || recs[3][col] != "999.99" {
		t.Errorf("downloaded CSV does not carry the edit: %q", recs)
	}
	// A format from the list of others, named by the server, carries it too.
	download("download OFX", chromedp.SetValue("#more-format", "ofx", chromedp.ByID), click("#more-download"))
	ofxPath := filepath.Join(dir, "generated.ofx")
	if b, _ := os.ReadFile(ofxPath); !bytes.HasPrefix(b, []byte("<?xml")) || !bytes.Contains(b, []byte("999.99</TRNAMT>")) {
		t.Errorf("downloaded OFX is not OFX carrying the edit: %.300q", b)
	}
	// Share this layout: a copy named for the document's id, made and
	// checked on the server; the status line says what it reads.
	do("share layout", click("#share-layout"))
	layoutPath := filepath.Join(dir, "layout-"+genID+".pdf")
	waitFor(t, "the shared layout", func() string {
		if b, err := os.ReadFile(layoutPath); err == nil && bytes.HasPrefix(b, []byte("%PDF-")) && bytes.Contains(b, []byte("%%EOF")) {
			return "yes"
		}
		return ""
	})
	waitJS("share said", `document.getElementById("status").textContent.includes("reads the same")`)
	waitJS("history says mismatch, edited", `document.querySelector('#docs tr[data-id="`+genID+`"] .badge').textContent === "✗ Mismatch" && !!document.querySelector('#docs tr[data-id="`+genID+`"] .edited')`)

	// Undo goes back to the original in one step.
	do("undo", click("#undo"), chromedp.WaitVisible("#confirm", chromedp.ByID), click("#confirm-ok"))
	waitJS("undone", `document.getElementById("recon").classList.contains("ok") && document.getElementById("undo").hidden`)

	// A phone-width look at the history.
	do("phone width", chromedp.EmulateViewport(390, 844), chromedp.ScrollIntoView("#history", chromedp.ByID))
	var wide string
	do("phone overflow", chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth ?
		[...document.querySelectorAll("body *")].filter(e => !e.closest(".table-wrap *") && e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + "." + e.className + "#" + e.id + " " + Math.round(e.getBoundingClientRect().right)).join(", ") + " (page " + document.documentElement.scrollWidth + " px wide)" : ""`, &wide))
	if wide != "" {
		t.Errorf("at phone width the page is wider than the screen: %s", wide)
	}
	shot("06-phone-history.png")
	do("desktop width", chromedp.EmulateViewport(1366, 768))

	// Delete the scan after confirming; it is gone for the API too.
	scanID := ids["scan.png"]
	do("delete", click(`#docs tr[data-id="`+scanID+`"] button[aria-label^="Delete"]`),
		chromedp.WaitVisible("#confirm", chromedp.ByID))
	shot("07-delete-confirm.png")
	do("confirm delete", click("#confirm-ok"))
	waitJS("row gone", `!document.querySelector('#docs tr[data-id="`+scanID+`"]') && document.getElementById("status").textContent.includes("Deleted")`)
	if code := apiJSON(t, base, key, "GET", "/api/v1/status?file_id="+scanID, nil, &map[string]any{}); code != 404 {
		t.Errorf("status of a deleted document: %d, want 404", code)
	}
	t.Logf("screenshots in %s", b.shots)
}

// browserSession is headless Chromium with a fresh profile, and the steps
// the browser tests take in it. A failed step leaves a screenshot.
type browserSession struct {
	t     *testing.T
	ctx   context.Context
	shots string
}

// startBrowser starts Chromium for the test; it stops with ctx or the test.
func startBrowser(t *testing.T, ctx context.Context) *browserSession {
	t.Helper()
	chromium := chromiumPath(t)
	shots := screens(t)
	os.Remove(filepath.Join(shots, "failed.png"))
	// Chromium's helpers may still be writing to its profile as the test
	// ends, so it is removed on a best-effort basis.
	profile, err := os.MkdirTemp("", "passbook-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium), chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1366, 768),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(func(format string, args ...any) {
		// This chromedp predates some events Debian's Chromium sends.
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "unhandled node event") {
			t.Logf("chromedp: %s", msg)
		}
	}))
	t.Cleanup(bcancel)
	// No deadline of its own: on a busy machine a page takes what it
	// takes, and go test's -timeout ends one that hangs.
	return &browserSession{t: t, ctx: bctx, shots: shots}
}

// downloads has the browser save downloads in dir and returns a function
// that runs actions and waits for the browser to report the download
// they start completed: the file is then whole (issue 41 point 14: an
// event, not a pause).
func (b *browserSession) downloads(dir string) func(what string, actions ...chromedp.Action) {
	b.t.Helper()
	completed := make(chan struct{}, 16)
	// The events come to the session that allowed downloads: the tab's.
	chromedp.ListenTarget(b.ctx, func(ev any) {
		if e, ok := ev.(*browser.EventDownloadProgress); ok && e.State == browser.DownloadProgressStateCompleted {
			completed <- struct{}{}
		}
	})
	b.do("allow downloads", browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir).WithEventsEnabled(true))
	return func(what string, actions ...chromedp.Action) {
		b.t.Helper()
		b.do(what, actions...)
		select {
		case <-completed:
		case <-b.ctx.Done():
			b.t.Fatalf("%s: the browser stopped before the download completed", what)
		}
	}
}

// do runs actions, failing the test with a screenshot when one fails. An
// action that found its element replaced before it could act (the page
// drew the list again: on a busy machine, between chromedp's query and
// its use of the node) is run again, as a person would click again; only
// a single action, so that none that did act is repeated.
func (b *browserSession) do(what string, actions ...chromedp.Action) {
	b.t.Helper()
	err := chromedp.Run(b.ctx, actions...)
	for try := 0; err != nil && try < 10 && len(actions) == 1 && nodeGone(err); try++ {
		err = chromedp.Run(b.ctx, actions...)
	}
	if err != nil {
		shot := filepath.Join(b.shots, "failed.png")
		var buf []byte
		if chromedp.Run(b.ctx, chromedp.FullScreenshot(&buf, 100)) == nil {
			os.WriteFile(shot, buf, 0o644)
		}
		b.t.Fatalf("%s: %v (screenshot %s)", what, err, shot)
	}
}

// nodeGone says an action failed because its element left the page
// between being found and being used.
func nodeGone(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "No node with given id") || strings.Contains(msg, "Could not find node with given id")
}

// shot saves a screenshot of the whole page as name.
func (b *browserSession) shot(name string) {
	b.t.Helper()
	var buf []byte
	b.do("screenshot "+name, chromedp.FullScreenshot(&buf, 100))
	if err := os.WriteFile(filepath.Join(b.shots, name), buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// click brings an element to the middle of the window first, clear of the
// status line, then clicks it as a person would.
// A control in a view not shown is reached as a person would: by going to
// its view first.
func click(sel string) chromedp.Action {
	return chromedp.Tasks{
		inView(sel),
		chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "center"})`, sel), nil),
		chromedp.Click(sel, chromedp.ByQuery),
	}
}

// inView goes to the view of the page (Documents, Clients, Office) that
// holds the element sel names, when another is shown, and waits for it.
func inView(sel string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.WaitReady(sel, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q), v = e && e.closest("[data-view]"), now = document.body.dataset.view;
			if (v && now && !v.dataset.view.split(" ").includes(now)) location.hash = document.querySelector('#views a[data-view="' + v.dataset.view.split(" ")[0] + '"]').getAttribute("href"); })()`, sel), nil),
		chromedp.Poll(fmt.Sprintf(`(() => { const e = document.querySelector(%q), v = e && e.closest("[data-view]"), now = document.body.dataset.view;
			return !v || !now || v.dataset.view.split(" ").includes(now); })()`, sel), nil, chromedp.WithPollingTimeout(30*time.Second)),
	}
}

// text reads an element's text once it is shown, in one step in the page:
// a list drawn again between finding the element and reading it (a busy
// machine makes that likely) cannot fail the read.
func (b *browserSession) text(sel string) string {
	b.t.Helper()
	var got struct{ Text string }
	b.do("read "+sel, chromedp.Poll(fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		return e && e.getClientRects().length ? {Text: e.innerText} : null; })()`, sel), &got,
		chromedp.WithPollingTimeout(0), chromedp.WithPollingInterval(50*time.Millisecond)))
	return got.Text
}

// a11y lists, on the screen as it stands, text whose contrast with its
// background is under WCAG AA's 4.5:1, and form fields without a label.
func (b *browserSession) a11y(where string) {
	b.t.Helper()
	var problems []string
	b.do("check "+where, chromedp.Evaluate(a11yScript, &problems))
	for _, p := range problems {
		b.t.Errorf("%s: %s", where, p)
	}
}

// waitJS waits until expr is true in the page.
func (b *browserSession) waitJS(what, expr string) {
	b.t.Helper()
	b.do(what, chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(0), chromedp.WithPollingInterval(100*time.Millisecond)))
}

// a11yScript returns the problems a11y reports.
const a11yScript = `(() => {
  const lum = (c) => { const [r, g, b] = c.match(/[\d.]+/g).map(Number).slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const alpha = (c) => { const m = c.match(/[\d.]+/g); return m.length > 3 ? Number(m[3]) : 1; };
  const bg = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (alpha(c) > 0.5) return c; } return "rgb(255, 255, 255)"; };
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    if (!e.offsetParent && getComputedStyle(e).position !== "fixed") continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || e.closest("[disabled]")) continue;
    const s = getComputedStyle(e);
    const a = lum(s.color), b = lum(bg(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) out.push("contrast " + ratio.toFixed(2) + " for " + JSON.stringify(e.textContent.trim().slice(0, 40)));
  }
  for (const i of document.querySelectorAll("input, select, textarea")) {
    if (i.type === "hidden" || (!i.offsetParent && !i.classList.contains("visually-hidden"))) continue;
    const labelled = i.getAttribute("aria-label") || i.getAttribute("aria-labelledby") || (i.id && document.querySelector('label[for="' + i.id + '"]')) || i.closest("label");
    if (!labelled) out.push("no label for " + i.outerHTML.slice(0, 80));
  }
  return out;
})()`

// axeScript is axe-core, which `make test-deps` installs from npm at the
// version testdata/axe/package-lock.json pins.
const axeScript = "testdata/axe/node_modules/axe-core/axe.min.js"

// axe runs axe-core on the page as it stands and fails the test for every
// serious or critical violation (WCAG 2.x A and AA, and best practices).
func (b *browserSession) axe(where string) {
	b.t.Helper()
	src, err := os.ReadFile(axeScript)
	if err != nil {
		b.t.Fatalf("axe-core is not installed: run make test-deps (npm ci in testdata/axe): %v", err)
	}
	var loaded bool
	b.do("axe loaded?", chromedp.Evaluate(`typeof window.axe === "object"`, &loaded))
	if !loaded {
		b.do("load axe", chromedp.Evaluate(string(src)+";true", &loaded))
	}
	var found []string
	b.do("axe "+where, chromedp.Evaluate(`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.flatMap(v => v.nodes.slice(0, 3).map(n => v.impact + " " + v.id + ": " + v.help + " at " + n.target.join(" ") + " (" + (n.failureSummary || "").split("\n").slice(1, 2).join("") + ")")))`,
		&found, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	for _, f := range found {
		b.t.Errorf("axe on %s: %s", where, f)
	}
}

// restore rewrites the stored conversion of document id in the data file
// data with change, as a conversion that found what change says would
// have stored it: provenance comes from the conversion, never from a
// client, so tests of how the page shows it start there.
func restore(t *testing.T, data, id string, change func(*ledger.Result)) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+data+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var raw []byte
	if err := db.QueryRow("SELECT result FROM documents WHERE id = ?", id).Scan(&raw); err != nil {
		t.Fatalf("stored result of %s: %v", id, err)
	}
	var res ledger.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	change(&res)
	if raw, err = json.Marshal(res); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE documents SET result = ? WHERE id = ?", raw, id); err != nil {
		t.Fatalf("store result of %s: %v", id, err)
	}
}
