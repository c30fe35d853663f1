package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
)

// TestBrowserIntegrity drives the integrity report on the page (issue 44
// point 4): in a client's folder of four months, March's file prints one
// amount with one figure changed and its balances as they were. The
// folder marks March, and only March; March's review says in words what
// was found and marks the figure on the page image; January's review
// says "No sign of alteration found".
func TestBrowserIntegrity(t *testing.T) {
	dir := t.TempDir()
	s := newSeries()
	march := s.gbp.month(3)
	row := 1
	amt := march.rows[row].amount
	changed := amt.Add(decimal.NewFromInt(int64(amt.Sign()) * 10)) // one figure: the tens
	if len(amt.Abs().StringFixed(2)) != len(changed.Abs().StringFixed(2)) {
		t.Fatalf("the edit %s -> %s changes more than one figure", amt, changed)
	}
	march.printed = map[int]decimal.Decimal{row: changed}

	srv := serve(t, filepath.Join(dir, "passbook.db"))
	base := "http://" + srv.addr
	key := waitFor(t, "the API key", func() string { return keyRE.FindString(srv.stdout.String()) })
	var made struct {
		FolderID string `json:"folder_id"`
	}
	apiJSON(t, base, key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "Loan file"}`), &made)
	fid := made.FolderID
	ids := map[string]string{}
	for _, n := range []string{"gbp-2024-01.pdf", "gbp-2024-02.pdf", "gbp-2024-04.pdf"} {
		ids[n] = uploadTo(t, base, key, n, s.files[n], fid)
	}
	ids["march"] = uploadTo(t, base, key, "gbp-2024-03.pdf", march.pdf(), fid)

	// The API first: March's JSON carries the signal with its place.
	var doc struct {
		Integrity struct {
			Signals []struct {
				Code, Severity, Evidence string
				Page                     int
				BBox                     []float64
			}
			Summary string
		}
	}
	waitFor(t, "March converted", func() string {
		if apiJSON(t, base, key, "GET", "/api/v1/download?format=json&file_id="+ids["march"], nil, &doc) == 200 {
			return "done"
		}
		return ""
	})
	if len(doc.Integrity.Signals) == 0 || doc.Integrity.Signals[0].Code != "balance_break_one_figure" || doc.Integrity.Signals[0].Severity != "high" ||
		doc.Integrity.Signals[0].Page != 1 || len(doc.Integrity.Signals[0].BBox) != 4 {
		t.Fatalf("March's integrity = %+v", doc.Integrity)
	}

	b := startBrowser(t, srv.ctx)
	pageSignIn(b, base, key, srv)
	b.waitJS("folders listed", `!!document.querySelector('#folder-list li[data-id="`+fid+`"] button')`)
	b.do("open folder", click(`#folder-list li[data-id="`+fid+`"] button`))
	b.waitJS("four months", `document.querySelectorAll("#timeline .month").length === 4`)
	var marked []string
	b.do("marked months", chromedp.Evaluate(`[...document.querySelectorAll("#timeline .month")].filter(m => m.querySelector(".badge.integrity")).map(m => m.dataset.id)`, &marked))
	if len(marked) != 1 || marked[0] != ids["march"] {
		t.Errorf("months marked %v, want only March %s", marked, ids["march"])
	}
	b.shot("integrity-01-folder.png")

	b.do("review March", click(`#timeline .month[data-id="`+ids["march"]+`"] button.review`), chromedp.WaitVisible("#review", chromedp.ByID))
	b.waitJS("the report", `document.getElementById("integrity").textContent.includes("altered")`)
	report := b.text("#integrity")
	if !strings.Contains(report, "differs in one figure") || !strings.Contains(report, "page 1") || strings.Contains(report, "No sign") {
		t.Errorf("March's report reads %q", report)
	}
	b.waitJS("the mark on the page", `!!document.querySelector('#pages .page[data-page="1"] .integrity-mark')`)
	// The mark sits where the figure is: its box, as a share of the page.
	var at []float64
	b.do("mark place", chromedp.Evaluate(`(() => { const m = document.querySelector('#pages .integrity-mark'); const f = m.parentElement.getBoundingClientRect(), r = m.getBoundingClientRect();
		return [(r.left - f.left) / f.width, (r.top - f.top) / f.height]; })()`, &at))
	bb := doc.Integrity.Signals[0].BBox
	if w, h := 595.28, 841.89; len(at) != 2 || abs(at[0]-bb[0]/w) > 0.02 || abs(at[1]-bb[1]/h) > 0.02 {
		t.Errorf("the mark is at %v of the page; the figure at %.3f, %.3f", at, bb[0]/w, bb[1]/h)
	}
	b.shot("integrity-02-review.png")

	b.do("review January", click(`#timeline .month[data-id="`+ids["gbp-2024-01.pdf"]+`"] button.review`), chromedp.WaitVisible("#review", chromedp.ByID))
	b.waitJS("January's report", `document.getElementById("integrity").textContent.includes("No sign of alteration found")`)
	var marks int
	b.do("no marks", chromedp.Evaluate(`document.querySelectorAll(".integrity-mark").length`, &marks))
	if marks != 0 {
		t.Errorf("January's pages carry %d marks", marks)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
