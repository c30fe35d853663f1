package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"
)

// writeIBANStatement writes a statement of eight rows that prints its
// money in before its money out ("Paid in", "Paid out") and a German
// account number with its IBAN beside it.
func writeIBANStatement(w io.Writer) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC))
	pdf.SetCatalogSort(true)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 14)
	pdf.Text(15, 20, "Rheinische Musterbank")
	pdf.SetFont("Helvetica", "", 9)
	pdf.Text(15, 27, "Account number: 0532013000   IBAN: DE89 3704 0044 0532 0130 00   Currency: EUR")
	pdf.Text(15, 33, "Statement period: 01/03/2024 to 31/03/2024   Opening balance 1,000.00")
	y := 45.0
	pdf.SetFont("Helvetica", "B", 9)
	drawCells(pdf, y, []cell{{15, "Date", false}, {40, "Description", false}, {130, "Paid in", true}, {160, "Paid out", true}, {190, "Balance", true}})
	pdf.SetFont("Helvetica", "", 9)
	bal := decimal.RequireFromString("1000.00")
	for n := 1; n <= 8; n++ {
		y += 6
		amt := decimal.New(int64(1000+n*37), -2)
		out := n%3 != 0
		col := 130.0
		if out {
			bal, col = bal.Sub(amt), 160
		} else {
			bal = bal.Add(amt)
		}
		pdf.Text(15, y, fmt.Sprintf("%02d/03/2024", 2*n))
		pdf.Text(40, y, fmt.Sprintf("TRANSFER %04d", n))
		pdf.Text(col-pdf.GetStringWidth(amt.StringFixed(2)), y, amt.StringFixed(2))
		pdf.Text(190-pdf.GetStringWidth(bal.StringFixed(2)), y, bal.StringFixed(2))
	}
	return pdf.Output(w)
}

// TestBrowserStatementsOrder (issue 42 points 10 and 14): the review's
// money columns stand in the statement's order (money out first under a
// statement that prints "Debit" before "Credit", money in first under one
// that prints "Paid in" before "Paid out"), heading and rows alike; an
// IBAN printed beside a national account number is shown in the review,
// heads the account in its folder, and names the account in the CAMT.053
// and MT940 downloads.
func TestBrowserStatementsOrder(t *testing.T) {
	dir := t.TempDir()
	srv, base, key, _ := served(t, dir)
	debitFirst := convertedStatement(t, base, key, "debit-first.pdf")
	var ib strings.Builder
	if err := writeIBANStatement(&ib); err != nil {
		t.Fatal(err)
	}
	fid, ids := folderOf(t, base, key, "Rhein 2024", map[string][]byte{"iban.pdf": []byte(ib.String())})
	inFirst := ids["iban.pdf"]

	for format, want := range map[string]string{"camt053": "<IBAN>DE89370400440532013000</IBAN>", "mt940": ":25:DE89370400440532013000\r\n"} {
		req, _ := http.NewRequest("GET", base+"/api/v1/download?format="+format+"&file_id="+inFirst, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("%s download (%d) lacks %q:\n%s", format, resp.StatusCode, want, body)
		}
	}

	b := startBrowser(t, srv.ctx)
	pageSignIn(b, base, key, srv)
	type order struct {
		Head, Row []string
		Summary   string
	}
	review := func(id string) order {
		t.Helper()
		row := `#docs tr[data-id="` + id + `"]`
		b.waitJS("listed", `!!document.querySelector('`+row+` button[aria-label^="Review"]')`)
		b.do("open review", click(row+` button[aria-label^="Review"]`), chromedp.WaitVisible("#review", chromedp.ByID))
		b.waitJS("rows drawn", `document.querySelectorAll("#tx tr").length === 8 && document.getElementById("review-h").textContent.includes("`+map[string]string{debitFirst: "debit-first", inFirst: "iban"}[id]+`")`)
		var o order
		b.do("columns", chromedp.Evaluate(`(() => ({
			Head: [...document.querySelectorAll("table.tx thead th")].map(th => th.textContent).filter(s => s.startsWith("Money")),
			Row: [...document.querySelectorAll('#tx tr[data-row="0"] [data-field]')].map(i => i.dataset.field).filter(f => f.startsWith("amount")),
			Summary: document.getElementById("summary").innerText }))()`, &o))
		return o
	}
	if o := review(debitFirst); strings.Join(o.Head, ",") != "Money out,Money in" || strings.Join(o.Row, ",") != "amountOut,amountIn" || strings.Contains(o.Summary, "IBAN") {
		t.Errorf("a statement printing Debit before Credit: heading %q, row %q, summary %q; want money out first and no IBAN", o.Head, o.Row, o.Summary)
	}
	b.sixShots("#review", "review-money-out-first")
	o := review(inFirst)
	if strings.Join(o.Head, ",") != "Money in,Money out" || strings.Join(o.Row, ",") != "amountIn,amountOut" {
		t.Errorf("a statement printing Paid in before Paid out: heading %q, row %q; want money in first", o.Head, o.Row)
	}
	if !strings.Contains(o.Summary, "DE89 3704 0044 0532 0130 00") || !strings.Contains(o.Summary, "0532013000") {
		t.Errorf("the review's summary does not show the IBAN beside the number:\n%s", o.Summary)
	}
	b.sixShots("#review", "review-iban")

	// The folder heads the account by its IBAN, with the number beside it.
	b.do("folders", chromedp.Evaluate(`location.hash = "#/clients"`, nil))
	b.waitJS("folder listed", `!!document.querySelector('#folder-list li[data-id="`+fid+`"] button')`)
	b.do("open the folder", click(`#folder-list li[data-id="`+fid+`"] button`))
	b.waitJS("account drawn", `!!document.querySelector("section.account h3")`)
	var head string
	b.do("heading", chromedp.Evaluate(`document.querySelector("section.account h3").textContent`, &head))
	if !strings.HasPrefix(head, "DE89 3704 0044 0532 0130 00 (account 0532013000) EUR") {
		t.Errorf("the folder's account heading %q; want the IBAN with the number beside it", head)
	}
	b.sixShots("#folder", "folder-iban")
}
