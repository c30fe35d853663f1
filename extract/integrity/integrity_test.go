package integrity

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"
	"passbook/extract/source"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"
)

// statement is a small statement printed with fpdf (pure Go): rows of a
// date, a description, money out, money in and the running balance, each
// figure set flush right in its column. rows counts the transactions;
// pages spreads them over that many pages. The result is the reading the
// engine would make of it: the rows with their boxes, balances printed.
type statement struct {
	data   []byte
	result *ledger.Result
}

const (
	rowPitch = 14.0
	topRow   = 120.0
)

func printStatement(t testing.TB, rows, pages int, producer string) statement {
	t.Helper()
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.SetCreator("Northwind Bank statements", true)
	if producer != "" {
		pdf.SetProducer(producer, true)
	}
	pdf.SetCreationDate(time.Date(2024, 2, 1, 9, 0, 0, 0, time.UTC))
	pdf.SetModificationDate(time.Date(2024, 2, 1, 9, 0, 0, 0, time.UTC))
	bal := decimal.RequireFromString("1500.00")
	res := &ledger.Result{PageCount: pages}
	per := (rows + pages - 1) / pages
	for i := range rows {
		if i%per == 0 {
			pdf.AddPage()
			pdf.SetFont("Helvetica", "B", 12)
			pdf.Text(50, 60, "Northwind Bank - statement of account 12-3456")
			pdf.SetFont("Helvetica", "", 9)
			pdf.Text(50, 100, "Date")
			pdf.Text(120, 100, "Description")
			pdf.Text(330, 100, "Out")
			pdf.Text(410, 100, "In")
			pdf.Text(490, 100, "Balance")
		}
		y := topRow + float64(i%per)*rowPitch
		amt := decimal.New(int64(1234+i*977%5000), -2).Add(decimal.NewFromInt(int64(10 + i*37%300)))
		tx := ledger.Transaction{Date: time.Date(2024, 1, 2+i%27, 0, 0, 0, 0, time.UTC), Description: fmt.Sprintf("PAYMENT %d ACME", i+1), Page: i/per + 1}
		col := 380.0
		if i%3 == 2 {
			bal = bal.Add(amt)
			a := amt
			tx.AmountIn, col = &a, 460
		} else {
			bal = bal.Sub(amt)
			a := amt
			tx.AmountOut = &a
		}
		tx.Balance = bal
		pdf.Text(50, y, tx.Date.Format("02/01/2006"))
		pdf.Text(120, y, tx.Description)
		right := func(x float64, s string) { pdf.Text(x-pdf.GetStringWidth(s), y, s) }
		right(col, grouped(amt))
		right(540, grouped(bal))
		tx.Box = [4]float64{49, y - 8, 541, y + 2.5}
		res.Transactions = append(res.Transactions, tx)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	res.Statement.Reconciliation.Status = ledger.ReconcileOK
	return statement{data: buf.Bytes(), result: res}
}

// grouped prints an amount with a comma between thousands.
func grouped(d decimal.Decimal) string { return formatLike("1,000.00", d) }

// input is what Check reads of a file: its words (read here by the
// report's own content reader, which places them as MuPDF does) and the
// reading.
func input(t testing.TB, data []byte, res *ledger.Result) Input {
	t.Helper()
	f, err := readPDF(data, "", false)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Data: data, Result: res}
	for i, p := range f.pages {
		pg := source.Page{Number: i + 1, Width: p.box[2] - p.box[0], Height: p.box[3] - p.box[1]}
		for _, w := range words(f.readPage(p).glyphs) {
			pg.Words = append(pg.Words, source.Word{Text: w.text, X0: w.box[0], Y0: w.box[1], X1: w.box[2], Y1: w.box[3]})
		}
		in.Pages = append(in.Pages, pg)
	}
	return in
}

func strongest(r *ledger.Integrity) (ledger.Signal, bool) {
	for _, s := range r.Signals { // sorted, strongest first
		return s, ledger.SeverityRank(s.Severity) >= 2
	}
	return ledger.Signal{}, false
}

func codes(r *ledger.Integrity) string {
	var out []string
	for _, s := range r.Signals {
		out = append(out, s.Code+"/"+s.Severity)
	}
	return strings.Join(out, " ")
}

// TestGenuine: a statement as its bank printed it, and the copies offices
// make of it (re-saved, linearised, annotated), show no medium or high
// signal.
func TestGenuine(t *testing.T) {
	st := printStatement(t, 12, 1, "")
	fg, err := newForger(input(t, st.data, st.result))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"as printed":  st.data,
		"qpdf":        rewrite(t, st.data),
		"linearised":  rewrite(t, st.data, "--linearize"),
		"annotated":   fg.annotate(),
		"object-strm": rewrite(t, st.data, "--object-streams=generate"),
	} {
		r := Check(input(t, data, st.result))
		if s, bad := strongest(r); bad {
			t.Errorf("%s: %s %s: %s", name, s.Code, s.Severity, s.Evidence)
		}
		if !strings.HasPrefix(r.Summary, "No sign of alteration found") {
			t.Errorf("%s: summary %q", name, r.Summary)
		}
		if r.Profile == nil || !strings.Contains(r.Profile.Producer, "FPDF") || r.Profile.PageSize != "595x842" {
			t.Errorf("%s: profile %+v", name, r.Profile)
		}
	}
}

// TestForgeries makes each kind of structural forgery of the statement and
// checks the report names it, at the severity it earns, on the page and
// at the place it was made.
func TestForgeries(t *testing.T) {
	st := printStatement(t, 12, 1, "")
	tests := []struct {
		name     string
		forge    func(fg *forger) (forgery, bool)
		post     func([]byte) []byte
		code     string
		severity string
		evidence []string
	}{
		{"incremental amount", func(fg *forger) (forgery, bool) { return fg.amountEdited(true) }, nil, CodeRevisionTextChanged, ledger.SeverityHigh, []string{"earlier", "now"}},
		{"covering box", (*forger).coveringBox, func(b []byte) []byte { return rewrite(t, b) }, CodeCoveringBox, ledger.SeverityHigh, []string{"opaque box drawn over"}},
		{"new font", (*forger).newFontCell, func(b []byte) []byte { return rewrite(t, b) }, CodeFontOutlier, ledger.SeverityMedium, []string{"Courier", "Helvetica"}},
		{"shifted", (*forger).shiftedCell, func(b []byte) []byte { return rewrite(t, b) }, CodeMisaligned, ledger.SeverityMedium, []string{"-1.5 pt off the right edge"}},
		{"tounicode", (*forger).toUnicodeEdited, func(b []byte) []byte { return rewrite(t, b) }, CodeToUnicode, ledger.SeverityHigh, []string{"ToUnicode map reads it as"}},
		{"editor", func(fg *forger) (forgery, bool) { return fg.editorMetadata("iLovePDF") }, func(b []byte) []byte { return rewrite(t, b) }, CodeEditorMetadata, ledger.SeverityMedium, []string{"iLovePDF"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fg, err := newForger(input(t, st.data, st.result))
			if err != nil {
				t.Fatal(err)
			}
			fo, ok := tt.forge(fg)
			if !ok {
				t.Fatal("the forger made nothing")
			}
			if tt.post != nil {
				fo.data = tt.post(fo.data)
			}
			r := Check(input(t, fo.data, st.result))
			var got *ledger.Signal
			for i, s := range r.Signals {
				if s.Code == tt.code {
					got = &r.Signals[i]
					break
				}
			}
			if got == nil {
				t.Fatalf("no %s signal; got %s", tt.code, codes(r))
			}
			if got.Severity != tt.severity {
				t.Errorf("%s is %s, want %s", tt.code, got.Severity, tt.severity)
			}
			for _, w := range tt.evidence {
				if !strings.Contains(got.Evidence, w) {
					t.Errorf("evidence %q lacks %q", got.Evidence, w)
				}
			}
			if fo.page > 0 && tt.code != CodeEditorMetadata {
				if got.Page != fo.page || got.BBox == nil || !overlapping(*got.BBox, fo.box, 2) {
					t.Errorf("signal at page %d %v, forged at page %d %v", got.Page, got.BBox, fo.page, fo.box)
				}
			}
			if !strings.Contains(r.Summary, "sign") || strings.HasPrefix(r.Summary, "No sign") {
				t.Errorf("summary %q", r.Summary)
			}
		})
	}
}

func overlapping(a, b [4]float64, pad float64) bool {
	return a[0] <= b[2]+pad && b[0] <= a[2]+pad && a[1] <= b[3]+pad && b[1] <= a[3]+pad
}

// TestRevisionEvidence: the earlier text and the new are both in words.
func TestRevisionEvidence(t *testing.T) {
	st := printStatement(t, 8, 1, "")
	fg, err := newForger(input(t, st.data, st.result))
	if err != nil {
		t.Fatal(err)
	}
	fo, ok := fg.amountEdited(false)
	if !ok {
		t.Fatal("no forgery")
	}
	r := Check(input(t, fo.data, st.result))
	s := r.Signals[0]
	tx := st.result.Transactions[len(st.result.Transactions)/2]
	_ = tx
	if s.Code != CodeRevisionTextChanged || !strings.Contains(s.Evidence, "revision 2 of 2") {
		t.Fatalf("first signal %+v", s)
	}
	var old, nw string
	if _, err := fmt.Sscanf(s.Evidence[strings.Index(s.Evidence, "earlier"):], "earlier %q, now %q", &old, &nw); err != nil || old == nw || len(old) != len(nw) {
		t.Errorf("evidence %q: earlier %q, now %q", s.Evidence, old, nw)
	}
	if !strings.Contains(codes(r), CodeIncremental+"/info") {
		t.Errorf("no incremental_update note: %s", codes(r))
	}
}

// TestTouchUp: Acrobat's edit marks in a content stream are high.
func TestTouchUp(t *testing.T) {
	st := printStatement(t, 6, 1, "")
	fg, err := newForger(input(t, st.data, st.result))
	if err != nil {
		t.Fatal(err)
	}
	fg.draw(0, "/TouchUp_TextEdit MP BT /PBHelv 9 Tf 1 0 0 1 100 100 Tm (x) Tj ET")
	fg.addFont(0, "PBHelv", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	r := Check(input(t, fg.write(), st.result))
	if s := r.Signals[0]; s.Code != CodeTouchUp || s.Severity != ledger.SeverityHigh || s.Page != 1 {
		t.Errorf("first signal %+v", s)
	}
}

// TestPageSwapped: a page of another statement of the same bank, in other
// copies of the same fonts, where the balance breaks, is medium; merged
// statements that each hold are low.
func TestPageSwapped(t *testing.T) {
	a, b := printStatement(t, 18, 3, ""), printStatement(t, 21, 3, "")
	data := swapPage(t, a.data, b.data)
	res := *a.result
	res.Transactions = append([]ledger.Transaction(nil), a.result.Transactions...)
	for i := range res.Transactions {
		if res.Transactions[i].Page == 2 {
			p, e := res.Transactions[i].Balance, res.Transactions[i].Balance.Add(decimal.NewFromInt(7))
			res.Transactions[i].Warnings = []ledger.Warning{{Kind: ledger.WarnBalanceBreak, Printed: &p, Expected: &e}}
			break
		}
	}
	r := Check(input(t, data, &res))
	if !strings.Contains(codes(r), CodePageMisfit+"/medium") {
		t.Errorf("swapped page: %s", codes(r))
	}
	r = Check(input(t, data, a.result))
	if !strings.Contains(codes(r), CodePageMisfit+"/low") || strings.Contains(codes(r), "/medium") {
		t.Errorf("merged statements that hold: %s", codes(r))
	}
}

// TestMetadata: an online editor is medium; an office tool genuine files
// are also made with is low; a browser's print is a note; Info and XMP
// naming other tools is medium.
func TestMetadata(t *testing.T) {
	tests := []struct {
		m    meta
		want string
	}{
		{meta{producer: "Sejda PDF Desktop", creator: "Chromium"}, "editor_metadata/medium browser_print/info"},
		{meta{producer: "Microsoft® Word 2016", creator: "Microsoft® Word 2016"}, "editor_metadata/low"},
		{meta{producer: "Skia/PDF m120", creator: "Mozilla/5.0 (X11)"}, "browser_print/info"},
		{meta{producer: "iText 5", xmpProducer: "Adobe PDF Library 15", hasXMP: true}, "metadata_mismatch/medium"},
		{meta{producer: "iText 5.1", xmpProducer: "iText 5.2", hasXMP: true}, ""},
		{meta{producer: "x", history: []string{"saved by Smallpdf"}}, "editor_metadata/medium"},
		{meta{producer: "x", created: "D:20240101120000Z", modified: "D:20240301120000Z"}, "modified_after_creation/info"},
	}
	for _, tt := range tests {
		r := &report{}
		r.metadata(tt.m)
		got := codes(&ledger.Integrity{Signals: r.signals})
		if got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.m, got, tt.want)
		}
	}
}

func dec(s string) *decimal.Decimal { d := decimal.RequireFromString(s); return &d }

// TestRows: the rules on the reading's rows, on a reading given here.
func TestRows(t *testing.T) {
	day := time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)
	brk := func(printed, expected string) []ledger.Warning {
		return []ledger.Warning{{Kind: ledger.WarnBalanceBreak, Printed: dec(printed), Expected: dec(expected)}}
	}
	tests := []struct {
		name string
		txs  []ledger.Transaction
		ocr  bool
		want string
	}{
		{"amount one figure", []ledger.Transaction{
			{Date: day, Description: "A", AmountOut: dec("10.00"), Balance: *dec("90.00"), Page: 1},
			{Date: day, Description: "B", AmountOut: dec("15.00"), Balance: *dec("80.00"), Page: 1, Warnings: brk("80.00", "75.00")},
		}, false, "balance_break_one_figure/high"},
		{"amount two figures", []ledger.Transaction{
			{Date: day, Description: "B", AmountOut: dec("25.00"), Balance: *dec("80.00"), Page: 1, Warnings: brk("80.00", "22.00")},
		}, false, ""},
		{"recognised", []ledger.Transaction{
			{Date: day, Description: "B", AmountOut: dec("15.00"), Balance: *dec("80.00"), Page: 1, Warnings: brk("80.00", "75.00")},
		}, true, ""},
		{"balance one figure", []ledger.Transaction{
			{Date: day, Description: "A", AmountOut: dec("10.00"), Balance: *dec("95.00"), Page: 1, Warnings: brk("95.00", "90.00")},
			{Date: day, Description: "B", AmountOut: dec("10.00"), Balance: *dec("80.00"), Page: 1, Warnings: brk("80.00", "85.00")},
		}, false, "balance_break_one_figure/high"},
		{"duplicate", []ledger.Transaction{
			{Date: day, Description: "RENT", AmountOut: dec("700.00"), Balance: *dec("300.00"), Page: 1},
			{Date: day, Description: "RENT", AmountOut: dec("700.00"), Balance: *dec("300.00"), Page: 1},
		}, false, "duplicate_row/medium"},
		{"two equal purchases", []ledger.Transaction{
			{Date: day, Description: "COFFEE", AmountOut: dec("3.00"), Balance: *dec("300.00"), Page: 1},
			{Date: day, Description: "COFFEE", AmountOut: dec("3.00"), Balance: *dec("297.00"), Page: 1},
		}, false, ""},
	}
	for _, tt := range tests {
		r := &report{}
		in := Input{Result: &ledger.Result{Transactions: tt.txs}, Pages: []source.Page{{Number: 1, OCR: tt.ocr}}}
		r.rows(in, nil, findCells(in, nil))
		if got := codes(&ledger.Integrity{Signals: r.signals}); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestSummary: one line, the verdict first.
func TestSummary(t *testing.T) {
	if s := Summary(nil); s != "No sign of alteration found." {
		t.Errorf("%q", s)
	}
	s := Summary([]ledger.Signal{{Severity: "info"}, {Code: "x", Severity: "high", Page: 2, Evidence: "e"}, {Severity: "medium"}})
	if s != "2 signs of alteration (high on page 2: e)." {
		t.Errorf("%q", s)
	}
}

// TestExplain: --explain's lines: the summary, then each signal with its
// severity, code and place.
func TestExplain(t *testing.T) {
	st := printStatement(t, 12, 1, "")
	fg, err := newForger(input(t, st.data, st.result))
	if err != nil {
		t.Fatal(err)
	}
	fo, ok := fg.coveringBox()
	if !ok {
		t.Fatal("the forger made nothing")
	}
	r := Check(input(t, rewrite(t, fo.data), st.result))
	var buf strings.Builder
	Explain(&buf, r)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if lines[0] != "integrity: "+r.Summary || len(lines) != 1+len(r.Signals) {
		t.Fatalf("explain:\n%s", buf.String())
	}
	var box string
	for _, s := range r.Signals {
		if s.Code == CodeCoveringBox {
			b := *s.BBox
			box = fmt.Sprintf("  high covering_box on page %d at %.0f,%.0f-%.0f,%.0f: ", s.Page, b[0], b[1], b[2], b[3])
		}
	}
	if box == "" || !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, box) }) {
		t.Errorf("explain has no %q line:\n%s", box, buf.String())
	}
}

// TestPageBalance: a page whose brought-forward balance does not fit the
// page before it is medium when it is a continuation page (it repeats
// little of the first page's header), and nothing when it begins a
// statement of its own (merged in whole), or when the reading breaks
// inside a page too.
func TestPageBalance(t *testing.T) {
	header := []string{"Northwind", "Bank", "Statement", "period", "Opening", "balance", "Account", "holder", "Summary", "Closing"}
	page := func(n int, first bool) source.Page {
		p := source.Page{Number: n, Width: 595, Height: 842}
		words := []string{"Date", "Description", "Balance", "continued"}
		if first {
			words = header
		}
		for i, w := range words {
			p.Words = append(p.Words, source.Word{Text: w, X0: 50 + float64(i)*50, Y0: 40, X1: 90 + float64(i)*50, Y1: 50})
		}
		return p
	}
	rows := func(breaks ...int) *ledger.Result {
		res := &ledger.Result{}
		for i := range 12 {
			tx := ledger.Transaction{Page: i/4 + 1, Box: [4]float64{50, 100 + float64(i%4)*14, 540, 112 + float64(i%4)*14}}
			if slices.Contains(breaks, i) {
				p, e := decimal.NewFromInt(100), decimal.NewFromInt(90)
				tx.Warnings = []ledger.Warning{{Kind: ledger.WarnBalanceBreak, Printed: &p, Expected: &e}}
			}
			res.Transactions = append(res.Transactions, tx)
		}
		return res
	}
	cases := []struct {
		name   string
		first  [3]bool // which pages print a first page's header
		breaks []int
		page   int // the page marked medium; 0 for none
	}{
		{"a continuation page between two", [3]bool{true, false, false}, []int{4, 8}, 2},
		{"the last page", [3]bool{true, false, false}, []int{8}, 3},
		{"a statement merged in at the end", [3]bool{true, false, true}, []int{8}, 0},
		{"a statement merged in before the end", [3]bool{true, true, false}, []int{4}, 0},
		{"a break inside a page too", [3]bool{true, false, false}, []int{4, 6, 8}, 0},
	}
	for _, c := range cases {
		in := Input{Pages: []source.Page{page(1, c.first[0]), page(2, c.first[1]), page(3, c.first[2])}, Result: rows(c.breaks...)}
		r := Check(in)
		got := 0
		for _, s := range r.Signals {
			if s.Code == CodePageMisfit && s.Severity == ledger.SeverityMedium {
				got = s.Page
			}
		}
		if got != c.page {
			t.Errorf("%s: medium page_misfit on page %d, want %d (%s)", c.name, got, c.page, codes(r))
		}
	}
}
