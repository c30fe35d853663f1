package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFolders drives the folder view in headless Chromium as an
// accountant closing a client's year would: as the admin (no page limit),
// make a folder and choose the directory of a year's twelve months for it,
// see eleven green links;
// drop a year with May missing into another, see the red link that says
// so; open a statement's review from its block, its long description
// wrapped; download the first year as XLSX and open it with LibreOffice.
func TestBrowserFolders(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Fatalf("the browser test opens the download with LibreOffice: install Debian's libreoffice-calc-nogui (make test does): %v", err)
	}
	dir := t.TempDir()
	s := newSeries()
	year := filepath.Join(dir, "year")
	broken := filepath.Join(dir, "broken")
	var yearFiles, brokenFiles []string
	for m := 1; m <= 12; m++ {
		n := fmt.Sprintf("eur-2024-%02d.pdf", m)
		yearFiles = append(yearFiles, filepath.Join(year, n))
		if m != 5 {
			brokenFiles = append(brokenFiles, filepath.Join(broken, n))
		}
	}
	for _, p := range append(append([]string(nil), yearFiles...), brokenFiles...) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, s.files[filepath.Base(p)], 0o644); err != nil {
			t.Fatal(err)
		}
	}

	srv := serve(t, filepath.Join(dir, "passbook.db"))
	base := "http://" + srv.addr
	key := keyRE.FindString(srv.stdout.String())
	password := firstRunPassword(t, srv.stdout.String())
	b := startBrowser(t, srv.ctx)

	b.do("open", chromedp.Navigate(base+"/"), chromedp.WaitVisible("#email", chromedp.ByID))
	b.signIn("sign in", "admin@localhost", password)
	b.waitJS("quota shown", `document.getElementById("quota-label").textContent.includes("no page limit")`)
	if q := b.text("#account"); strings.Contains(q, "2147483647") || !strings.Contains(q, "no page limit") {
		t.Errorf("the admin plan's quota reads %q", q)
	}

	// A folder, and the directory of twelve months put into it.
	b.do("new folder", inView("#folder-name"), chromedp.SendKeys("#folder-name", "Client 2024", chromedp.ByID), click(`#folder-new button[type=submit]`),
		chromedp.WaitVisible("#folder", chromedp.ByID))
	b.waitJS("folder open", `document.getElementById("folder-h").textContent === "Folder: Client 2024"`)
	// The year chosen as a directory (it holds a note, left alone).
	if err := os.WriteFile(filepath.Join(year, "notes.txt"), []byte("not a statement"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.do("choose the year's directory", inView("#folder-dir"), chromedp.SetUploadFiles("#folder-dir", []string{year}, chromedp.ByID))
	b.waitJS("twelve months continuous", `document.querySelectorAll("#timeline .month").length === 12 &&
		document.getElementById("folder-status").textContent.startsWith("✓ Continuous")`)
	var noted bool
	b.do("the note", chromedp.Evaluate(`!!document.querySelector('#folder-uploads li[data-name="notes.txt"]')`, &noted))
	if noted {
		t.Errorf("the directory's notes.txt was uploaded")
	}
	var green, red int
	b.do("count links", chromedp.Evaluate(`document.querySelectorAll("#timeline .link.good").length`, &green),
		chromedp.Evaluate(`document.querySelectorAll("#timeline .link.bad").length`, &red))
	if green != 11 || red != 0 {
		t.Errorf("twelve chained months: %d green links and %d red, want 11 and 0", green, red)
	}
	var labels string
	b.do("month labels", chromedp.Evaluate(`[...document.querySelectorAll("#timeline .month .when")].map(e => e.textContent).join(",")`, &labels))
	if !strings.HasPrefix(labels, "Jan 2024,Feb 2024,") || !strings.HasSuffix(labels, "Dec 2024") {
		t.Errorf("blocks are not a month each, in order: %s", labels)
	}
	b.shot("11-folder-continuous.png")
	b.a11y("folder")

	// The year as XLSX, opened by LibreOffice: a sheet for the account with
	// every transaction, and the continuity sheet.
	download := b.downloads(dir)
	download("download xlsx", inView("#folder-format"), chromedp.SetValue("#folder-format", "xlsx", chromedp.ByID), click("#folder-download"))
	xlsx := filepath.Join(dir, "Client 2024.xlsx")
	out := filepath.Join(dir, "lo")
	run := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.Join(dir, "lo-profile"), "--headless", "--norestore",
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", "--outdir", out, xlsx)
	if b, err := run.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice: %v\n%s", err, b)
	}
	sheet := func(name string) [][]string {
		t.Helper()
		f, err := os.Open(filepath.Join(out, "Client 2024-"+name+".csv"))
		if err != nil {
			entries, _ := os.ReadDir(out)
			t.Fatalf("LibreOffice read no sheet %q: %v (it wrote %v)", name, err, entries)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	rows := sheet(seriesIBAN + " EUR")
	if len(rows) != 1+len(s.eur.rows) || rows[0][0] != "Date" || rows[0][7] != "File" {
		t.Errorf("account sheet: %d rows (want %d), header %q", len(rows), 1+len(s.eur.rows), rows[0])
	}
	for i, r := range s.eur.rows {
		if i+1 >= len(rows) {
			break
		}
		if got := rows[i+1]; got[0] != r.date.Format("2006-01-02") || got[2] != r.desc {
			t.Errorf("account sheet row %d = %q, want %s %s", i+1, got, r.date.Format("2006-01-02"), r.desc)
			break
		}
	}
	cont := sheet("Continuity")
	if len(cont) < 2 || strings.Join(cont[1][:2], " ") != "Status continuous" {
		t.Errorf("continuity sheet: %q", cont)
	}

	// Another folder, a year with May missing dropped on it as files.
	b.do("second folder", inView("#folder-name"), chromedp.SendKeys("#folder-name", "Broken 2024", chromedp.ByID), click(`#folder-new button[type=submit]`))
	b.waitJS("second folder open", `document.getElementById("folder-h").textContent === "Folder: Broken 2024"`)
	b.do("stage files", chromedp.Evaluate(`(() => { const i = document.createElement("input"); i.type = "file"; i.multiple = true; i.id = "staging"; i.hidden = true; document.body.append(i); })()`, nil),
		chromedp.SetUploadFiles("#staging", brokenFiles, chromedp.ByID))
	b.do("drop them", chromedp.Evaluate(`(() => {
		const dt = new DataTransfer();
		for (const f of document.getElementById("staging").files) dt.items.add(f);
		const zone = document.getElementById("folder-drop");
		zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
		zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
		document.getElementById("staging").remove();
	})()`, nil))
	b.waitJS("eleven months, not continuous", `document.querySelectorAll("#timeline .month").length === 11 &&
		document.getElementById("folder-status").textContent.startsWith("✗ Not continuous")`)
	b.do("count links", chromedp.Evaluate(`document.querySelectorAll("#timeline .link.good").length`, &green),
		chromedp.Evaluate(`document.querySelectorAll("#timeline .link.bad").length`, &red))
	gap := b.text("#timeline .link.bad")
	var between string
	b.do("around the red link", chromedp.Evaluate(`(() => { const l = document.querySelector("#timeline .link.bad"); return l.previousElementSibling.querySelector(".when").textContent + "|" + l.nextElementSibling.querySelector(".when").textContent; })()`, &between))
	if green != 9 || red != 1 || !strings.Contains(gap, "Gap: no statement covers") || !strings.Contains(gap, "May 1, 2024") ||
		!strings.Contains(gap, "May 31, 2024") || between != "Apr 2024|Jun 2024" {
		t.Errorf("May missing: %d green, %d red, red link %q between %s; want 9, 1 and a gap for May between April and June", green, red, gap, between)
	}
	b.shot("12-folder-gap.png")

	// A statement's review from its block, its long description wrapped.
	var f struct {
		Accounts []struct {
			Statements []struct {
				FileID string `json:"file_id"`
				Name   string `json:"original_name"`
			} `json:"statements"`
		} `json:"accounts"`
	}
	var list struct {
		Folders []struct {
			FolderID string `json:"folder_id"`
			Name     string `json:"name"`
		} `json:"folders"`
	}
	apiJSON(t, base, key, "GET", "/api/v1/folders", nil, &list)
	apiJSON(t, base, key, "GET", "/api/v1/folders/"+list.Folders[0].FolderID, nil, &f)
	march := f.Accounts[0].Statements[2]
	var served struct {
		Transactions []map[string]any `json:"transactions"`
	}
	apiJSON(t, base, key, "GET", "/api/v1/download?format=json&file_id="+march.FileID, nil, &served)
	long := "STANDING ORDER TO THE LANDLORD OF THE OFFICE AT 12 HIGH STREET FOR THE RENT OF MARCH AND THE SERVICE CHARGE OF THE FIRST QUARTER REF 2024-Q1-0042"
	served.Transactions[1]["description"] = long
	body, _ := json.Marshal(map[string]any{"transactions": served.Transactions})
	if code := apiJSON(t, base, key, "PUT", "/api/v1/documents/"+march.FileID+"/transactions", strings.NewReader(string(body)), nil); code != 200 {
		t.Fatalf("saving a long description: %d", code)
	}
	b.do("review March", click(`#timeline .month[data-id="`+march.FileID+`"] button`), chromedp.WaitVisible("#review", chromedp.ByID))
	b.waitJS("review shown", `document.getElementById("review-h").textContent === "Review: `+march.Name+`" && document.querySelectorAll("#tx tr").length === 6`)
	var fit struct {
		Value                  string
		ScrollH, ClientH, Line float64
		ScrollW, ClientW       float64
	}
	b.do("description box", chromedp.Evaluate(`(() => { const ta = document.querySelector('#tx tr[data-row="1"] [data-field="description"]');
		return { Value: ta.value, ScrollH: ta.scrollHeight, ClientH: ta.clientHeight, Line: parseFloat(getComputedStyle(ta).lineHeight) || 20, ScrollW: ta.scrollWidth, ClientW: ta.clientWidth }; })()`, &fit))
	if fit.Value != long || fit.ScrollH > fit.ClientH+1 || fit.ScrollW > fit.ClientW+1 || fit.ClientH < 2*fit.Line {
		t.Errorf("the long description is cut off: %+v", fit)
	}
	b.shot("13-folder-review.png")
}
