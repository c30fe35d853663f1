package engine

// Generated statement fixtures. Each fixture is a realistic statement in one
// layout (one feature set each) drawn with fpdf's core fonts from fixed data,
// so its truth is known exactly. They live in testdata/statements as
// NAME.pdf + NAME.golden.json; regenerate them with
//
//	go test ./extract/engine -run TestFixtures -update
//
// Beside each, NAME.findings.json pins what the conversion judged: its
// status, proof, and each row's warning kinds and provenance; refresh it
// with -update-findings and read the difference before committing it.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"passbook/extract"
	"passbook/extract/internal/golden"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"
)

var (
	updateFixtures = flag.Bool("update", false, "regenerate testdata/statements (PDFs and golden JSON)")
	updateFindings = flag.Bool("update-findings", false, "write testdata/statements/*.findings.json from this run: each fixture's status, proof and rows' warnings and provenance")
)

const fixtureDir = "../../testdata/statements"

// fixtureEpoch is every fixture's creation date, so regenerating gives the
// same bytes.
var fixtureEpoch = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func TestFixtures(t *testing.T) {
	if *updateFixtures {
		if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range fixtureSet() {
			pdfBytes, golden, err := f.build()
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			if err := os.WriteFile(filepath.Join(fixtureDir, f.name+".pdf"), pdfBytes, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(fixtureDir, f.name+".golden.json"), golden, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	pdfs, err := filepath.Glob(filepath.Join(fixtureDir, "*.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pdfs) == 0 {
		t.Fatalf("no fixtures in %s: run go test ./extract/engine -run TestFixtures -update", fixtureDir)
	}
	for _, path := range pdfs {
		name := strings.TrimSuffix(filepath.Base(path), ".pdf")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want golden.Doc
			raw, err := os.ReadFile(filepath.Join(fixtureDir, name+".golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("golden: %v", err)
			}
			res, err := New().Convert(data, extract.Options{})
			if err != nil {
				t.Fatalf("Convert: %v", err)
			}
			golden.Compare(t, res, want)
			findings := filepath.Join(fixtureDir, name+".findings.json")
			if *updateFindings {
				raw, err := json.MarshalIndent(golden.FindingsOf(res), "", " ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(findings, append(raw, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var wantFindings golden.Findings
			raw, err = os.ReadFile(findings)
			if err != nil {
				t.Fatalf("%v (run go test ./extract/engine -run TestFixtures -update-findings, and read what it wrote)", err)
			}
			if err := json.Unmarshal(raw, &wantFindings); err != nil {
				t.Fatalf("findings: %v", err)
			}
			golden.CompareFindings(t, res, wantFindings)
		})
	}
}

// TestFixtureGenerator checks that the generator is deterministic and that
// the committed files are what it makes now (run -update after changing it).
func TestFixtureGenerator(t *testing.T) {
	for _, f := range fixtureSet() {
		t.Run(f.name, func(t *testing.T) {
			pdf1, golden1, err := f.build()
			if err != nil {
				t.Fatal(err)
			}
			pdf2, golden2, err := f.build()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pdf1, pdf2) || !bytes.Equal(golden1, golden2) {
				t.Fatal("two builds of the same fixture differ")
			}
			onDisk, err := os.ReadFile(filepath.Join(fixtureDir, f.name+".golden.json"))
			if err != nil {
				t.Fatalf("%v (run -update)", err)
			}
			if !bytes.Equal(onDisk, golden1) {
				t.Errorf("%s.golden.json is stale: run go test ./extract/engine -run TestFixtures -update", f.name)
			}
			var doc golden.Doc
			if err := json.Unmarshal(golden1, &doc); err != nil {
				t.Fatal(err)
			}
			checkGoldenArithmetic(t, doc)
		})
	}
}

// checkGoldenArithmetic proves the generator's own truth: opening + in - out
// runs through every balance to the closing balance, dates lie in the
// period, and exactly one amount is set per row.
func checkGoldenArithmetic(t *testing.T, doc golden.Doc) {
	t.Helper()
	bal := decimal.RequireFromString(doc.Statement.OpeningBalance)
	for i, tx := range doc.Transactions {
		if (tx.AmountIn == nil) == (tx.AmountOut == nil) {
			t.Fatalf("row %d: want exactly one of amountIn and amountOut", i)
		}
		if tx.AmountIn != nil {
			bal = bal.Add(decimal.RequireFromString(*tx.AmountIn))
		} else {
			bal = bal.Sub(decimal.RequireFromString(*tx.AmountOut))
		}
		if bal.StringFixed(2) != tx.Balance {
			t.Fatalf("row %d: running balance %s, golden %s", i, bal.StringFixed(2), tx.Balance)
		}
		if tx.Date < doc.Statement.PeriodStart || tx.Date > doc.Statement.PeriodEnd {
			t.Fatalf("row %d: date %s outside %s..%s", i, tx.Date, doc.Statement.PeriodStart, doc.Statement.PeriodEnd)
		}
	}
	if bal.StringFixed(2) != doc.Statement.ClosingBalance {
		t.Fatalf("closing balance %s, running %s", doc.Statement.ClosingBalance, bal.StringFixed(2))
	}
}

// ---- the generator ----

type fxKind int

const (
	colDate fxKind = iota
	colValue
	colDesc
	colIn
	colOut
	colSigned
	colDrCr
	colBalance
	colRef
)

type fxCol struct {
	kind  fxKind
	label string
	width float64 // mm
}

// fxLabels are the words a statement prints around its table.
type fxLabels struct {
	title, account, period, to, currency, holder string
	opening, closing, totalIn, totalOut          string
	page, of                                     string
	brought, carried, total                      string
}

var (
	labelsEN = fxLabels{"Statement of Account", "Account number", "Statement period", "to", "Currency", "Account holder",
		"Opening balance", "Closing balance", "Total money in", "Total money out", "Page", "of",
		"Balance brought forward", "Balance carried forward", "Total"}
	labelsDE = fxLabels{"Kontoauszug", "Kontonummer", "Zeitraum", "bis", "Währung", "Kontoinhaber",
		"Alter Kontostand", "Neuer Kontostand", "Summe Haben", "Summe Soll", "Seite", "von",
		"Übertrag", "Übertrag", "Summe"}
	labelsFR = fxLabels{"Relevé de compte", "Numéro de compte", "Période", "au", "Devise", "Titulaire",
		"Solde initial", "Solde final", "Total crédits", "Total débits", "Page", "sur",
		"Report", "À reporter", "Total"}
	labelsES = fxLabels{"Extracto de cuenta", "Número de cuenta", "Periodo", "al", "Moneda", "Titular",
		"Saldo inicial", "Saldo final", "Total abonos", "Total cargos", "Página", "de",
		"Saldo anterior", "Suma y sigue", "Total"}
	labelsIT = fxLabels{"Estratto conto", "Numero conto", "Periodo", "al", "Valuta", "Intestatario",
		"Saldo iniziale", "Saldo finale", "Totale accrediti", "Totale addebiti", "Pagina", "di",
		"Saldo riportato", "Saldo da riportare", "Totale"}
	labelsNL = fxLabels{"Rekeningafschrift", "Rekeningnummer", "Periode", "t/m", "Valuta", "Rekeninghouder",
		"Beginsaldo", "Eindsaldo", "Totaal bij", "Totaal af", "Pagina", "van",
		"Saldo overgebracht", "Saldo over te brengen", "Totaal"}
	labelsPT = fxLabels{"Extrato de conta", "Número da conta", "Período", "a", "Moeda", "Titular",
		"Saldo inicial", "Saldo final", "Total créditos", "Total débitos", "Página", "de",
		"Saldo transportado", "A transportar", "Total"}
)

// fxStyle is how one fixture prints its statement.
type fxStyle struct {
	font       string
	size       float64
	paper      string
	labels     fxLabels
	cols       []fxCol
	date       func(time.Time) string // row dates
	value      func(time.Time) string // value dates (nil: date)
	period     func(time.Time) string // period and header dates (nil: date)
	money      func(decimal.Decimal) string
	signed     func(decimal.Decimal) string
	balance    func(decimal.Decimal) string
	drcr       func(credit bool) string
	wrap       int  // description characters per printed line; 0: one line
	forward    bool // "carried forward" / "brought forward" rows at page breaks
	daily      bool // balance printed on the last row of each day only
	sections   bool // deposits, then withdrawals, each with its own table
	openingRow bool // a "balance brought forward" row before the first transaction
	closingRow bool // a closing balance row after the last one
	totalsRow  bool // a totals row under the table
	grid       bool // lines between rows
	fill       bool // shaded table header
	bankRight  bool // bank name on the right, account block on the left
	rowsPage   int  // transaction rows per page (0: as many as fit)
}

type fxTxn struct {
	date, value time.Time
	desc        string
	lines       []string
	amount      decimal.Decimal // positive in, negative out
	balance     decimal.Decimal
	ref         string
	lastOfDay   bool
}

type fixture struct {
	name      string
	bank      string
	address   []string
	holder    []string
	account   string
	currency  string
	start     time.Time
	end       time.Time
	opening   string
	seed      uint64
	n         int
	big       bool // amounts in the hundreds of thousands (lakhs)
	descs     []string
	footer    string
	style     fxStyle
	generated []fxTxn
}

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// generate makes the fixture's transactions from its seed.
func (f *fixture) generate() []fxTxn {
	r := rand.New(rand.NewPCG(f.seed, 0x9e3779b97f4a7c15))
	days := int(f.end.Sub(f.start).Hours()/24) + 1
	txns := make([]fxTxn, f.n)
	for i := range txns {
		txns[i].date = f.start.AddDate(0, 0, r.IntN(days))
	}
	slices.SortStableFunc(txns, func(a, b fxTxn) int { return a.date.Compare(b.date) })
	bal := decimal.RequireFromString(f.opening)
	for i := range txns {
		tx := &txns[i]
		credit := r.IntN(4) == 0
		var cents int64
		switch {
		case credit && r.IntN(3) == 0:
			cents = 150000 + r.Int64N(350000) // salary
		case credit:
			cents = 500 + r.Int64N(150000)
		case r.IntN(8) == 0:
			cents = 100000 + r.Int64N(250000) // rent, a large bill
		default:
			cents = 99 + r.Int64N(25000)
		}
		if f.big {
			cents *= 1 + r.Int64N(60)
		}
		tx.amount = decimal.New(cents, -2)
		if !credit {
			tx.amount = tx.amount.Neg()
		}
		bal = bal.Add(tx.amount)
		tx.balance = bal
		tx.desc = pickDesc(r, f.descs, credit)
		if f.style.wrap > 0 && r.IntN(3) > 0 {
			tx.desc += fmt.Sprintf(" REF %06d", r.IntN(1000000))
			if r.IntN(2) == 0 {
				tx.desc += " VIA MOBILE BANKING ON " + strings.ToUpper(tx.date.Format("02 Jan"))
			}
		}
		tx.lines = wrapWords(tx.desc, f.style.wrap)
		tx.value = tx.date.AddDate(0, 0, -r.IntN(3))
		if tx.value.Before(f.start) {
			tx.value = f.start
		}
		tx.ref = fmt.Sprintf("%012d", r.Int64N(1e12))
	}
	for i := range txns {
		txns[i].lastOfDay = i == len(txns)-1 || !txns[i+1].date.Equal(txns[i].date)
	}
	return txns
}

// pickDesc draws a description of the right kind: entries marked "+" are
// money coming in.
func pickDesc(r *rand.Rand, descs []string, credit bool) string {
	var pool []string
	for _, d := range descs {
		if strings.HasPrefix(d, "+") == credit {
			pool = append(pool, strings.TrimPrefix(d, "+"))
		}
	}
	return pool[r.IntN(len(pool))]
}

// wrapWords splits s into lines of at most width characters (0: one line).
func wrapWords(s string, width int) []string {
	if width <= 0 {
		return []string{s}
	}
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		if cur != "" && len([]rune(cur))+1+len([]rune(w)) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	return append(lines, cur)
}

// build renders the fixture and its golden JSON.
func (f fixture) build() (pdfBytes, golden []byte, err error) {
	f.generated = f.generate()
	var buf bytes.Buffer
	if err := f.render(&buf); err != nil {
		return nil, nil, err
	}
	golden, err = f.golden()
	return buf.Bytes(), golden, err
}

func (f *fixture) golden() ([]byte, error) {
	doc := golden.Doc{Transactions: []golden.Txn{}}
	// The truth is in booking order: for the sections layout that is not the
	// printed order, and its balance is the running balance in date order.
	for _, tx := range f.generated {
		g := golden.Txn{
			Date:        tx.date.Format(time.DateOnly),
			Type:        "DEBIT",
			Description: tx.desc,
			Balance:     tx.balance.StringFixed(2),
		}
		amt := tx.amount.Abs().StringFixed(2)
		if tx.amount.IsPositive() {
			g.Type, g.AmountIn = "CREDIT", &amt
		} else {
			g.AmountOut = &amt
		}
		doc.Transactions = append(doc.Transactions, g)
	}
	closing := decimal.RequireFromString(f.opening)
	if n := len(f.generated); n > 0 {
		closing = f.generated[n-1].balance
	}
	doc.Statement = golden.Statement{
		AccountNumber:  f.account,
		PeriodStart:    f.start.Format(time.DateOnly),
		PeriodEnd:      f.end.Format(time.DateOnly),
		Currency:       f.currency,
		OpeningBalance: decimal.RequireFromString(f.opening).StringFixed(2),
		ClosingBalance: closing.StringFixed(2),
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	err := enc.Encode(doc)
	return buf.Bytes(), err
}

// renderer holds the drawing state of one fixture.
type renderer struct {
	f      *fixture
	st     fxStyle
	pdf    *fpdf.Fpdf
	tr     func(string) string
	y      float64
	left   float64
	bottom float64
	lineH  float64
	rows   int // transaction rows on this page
}

func (f *fixture) render(w *bytes.Buffer) error {
	st := f.style
	paper := st.paper
	if paper == "" {
		paper = "A4"
	}
	pdf := fpdf.New("P", "mm", paper, "")
	pdf.SetCreationDate(fixtureEpoch)
	pdf.SetModificationDate(fixtureEpoch)
	pdf.SetCatalogSort(true)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AliasNbPages("{nb}")
	pdf.SetTitle(f.bank+" "+st.labels.title, true)
	pdf.SetCreator("passbook fixture generator", true)
	_, pageH := pdf.GetPageSize()
	r := &renderer{f: f, st: st, pdf: pdf, tr: pdf.UnicodeTranslatorFromDescriptor(""),
		left: 15, bottom: pageH - 25, lineH: st.size * 0.5}
	pdf.SetFooterFunc(func() {
		pdf.SetFont(st.font, "", 7)
		pdf.SetTextColor(90, 90, 90)
		y := pageH - 16
		for _, line := range wrapWords(f.footer, 120) {
			pdf.Text(r.left, y, r.tr(line))
			y += 3.2
		}
		page := fmt.Sprintf("%s %d %s {nb}", st.labels.page, pdf.PageNo(), st.labels.of)
		pageW, _ := pdf.GetPageSize()
		pdf.Text(pageW-r.left-pdf.GetStringWidth(r.tr(page)), pageH-16, r.tr(page))
		pdf.SetTextColor(0, 0, 0)
	})
	if st.sections {
		r.renderSections()
	} else {
		r.newPage(true)
		r.table(f.generated, st.cols, st.openingRow, st.closingRow, st.totalsRow, "", st.labels.total)
	}
	if err := pdf.Error(); err != nil {
		return err
	}
	return pdf.Output(w)
}

// newPage starts a page with the bank's letterhead; the first page also
// carries the account summary.
func (r *renderer) newPage(first bool) {
	pdf, f, st, tr := r.pdf, r.f, r.st, r.tr
	pdf.AddPage()
	r.rows = 0
	pageW, _ := pdf.GetPageSize()
	right := pageW - r.left
	bankX, blockX := r.left, pageW/2+10
	if st.bankRight {
		bankX, blockX = pageW/2+10, r.left
	}
	pdf.SetFont(st.font, "B", 15)
	pdf.Text(bankX, 20, tr(f.bank))
	pdf.SetFont(st.font, "", 7.5)
	y := 25.0
	for _, a := range f.address {
		pdf.Text(bankX, y, tr(a))
		y += 3.4
	}
	pdf.SetFont(st.font, "B", 10)
	pdf.Text(blockX, 20, tr(st.labels.title))
	pdf.SetFont(st.font, "", 8)
	pd := st.period
	if pd == nil {
		pd = st.date
	}
	block := []string{
		fmt.Sprintf("%s: %s", st.labels.account, f.account),
		fmt.Sprintf("%s: %s %s %s", st.labels.period, pd(f.start), st.labels.to, pd(f.end)),
		fmt.Sprintf("%s: %s", st.labels.currency, f.currency),
	}
	y = 25
	for _, b := range block {
		pdf.Text(blockX, y, tr(b))
		y += 3.8
	}
	y = max(y, 25+3.4*float64(len(f.address))) + 4
	if first {
		pdf.SetFont(st.font, "", 8.5)
		for _, h := range f.holder {
			pdf.Text(r.left, y, tr(h))
			y += 4
		}
		y += 3
		in, out := decimal.Zero, decimal.Zero
		for _, tx := range f.generated {
			if tx.amount.IsPositive() {
				in = in.Add(tx.amount)
			} else {
				out = out.Sub(tx.amount)
			}
		}
		closing := decimal.RequireFromString(f.opening).Add(in).Sub(out)
		pdf.SetDrawColor(160, 160, 160)
		pdf.Rect(r.left, y-4, 85, 21, "D")
		pdf.SetFont(st.font, "", 8.5)
		for _, kv := range [][2]string{
			{st.labels.opening, st.balance(decimal.RequireFromString(f.opening))},
			{st.labels.totalIn, st.money(in)},
			{st.labels.totalOut, st.money(out)},
			{st.labels.closing, st.balance(closing)},
		} {
			pdf.Text(r.left+2, y, tr(kv[0]))
			pdf.Text(r.left+83-pdf.GetStringWidth(tr(kv[1])), y, tr(kv[1]))
			y += 4.6
		}
		y += 6
	}
	pdf.SetDrawColor(0, 0, 0)
	pdf.Line(r.left, y-3, right, y-3)
	r.y = y + 2
}

// header draws a table's column headings.
func (r *renderer) header(cols []fxCol) {
	pdf, st := r.pdf, r.st
	pdf.SetFont(st.font, "B", st.size)
	x := r.left
	if st.fill {
		width := 0.0
		for _, c := range cols {
			width += c.width
		}
		pdf.SetFillColor(225, 225, 225)
		pdf.Rect(r.left, r.y-r.lineH, width, r.lineH*1.5, "F")
	}
	for _, c := range cols {
		r.cell(x, c, c.label)
		x += c.width
	}
	r.y += r.lineH * 1.6
	pdf.SetFont(st.font, "", st.size)
}

// cell writes text in a column: money right-aligned, the rest left.
func (r *renderer) cell(x float64, c fxCol, text string) {
	if text == "" {
		return
	}
	t := r.tr(text)
	switch c.kind {
	case colIn, colOut, colSigned, colBalance:
		r.pdf.Text(x+c.width-1.5-r.pdf.GetStringWidth(t), r.y, t)
	default:
		r.pdf.Text(x+1, r.y, t)
	}
}

// labelRow prints a non-transaction row: a label and maybe a balance.
func (r *renderer) labelRow(cols []fxCol, label string, bal *decimal.Decimal) {
	x := r.left
	for _, c := range cols {
		switch {
		case c.kind == colDesc:
			r.cell(x, c, label)
		case c.kind == colBalance && bal != nil:
			r.cell(x, c, r.st.balance(*bal))
		}
		x += c.width
	}
	r.y += r.lineH * 1.25
}

func (r *renderer) fits(lines int) bool {
	if r.st.rowsPage > 0 && r.rows >= r.st.rowsPage {
		return false
	}
	return r.y+float64(lines)*r.lineH*1.25+r.lineH*2 < r.bottom
}

// table prints rows under a header, breaking pages as needed.
func (r *renderer) table(rows []fxTxn, cols []fxCol, opening, closing, totals bool, title, totalLabel string) {
	st, pdf := r.st, r.pdf
	if title != "" {
		pdf.SetFont(st.font, "B", st.size+1.5)
		pdf.Text(r.left, r.y, r.tr(title))
		r.y += r.lineH * 2
	}
	r.header(cols)
	open := decimal.RequireFromString(r.f.opening)
	if opening {
		r.labelRow(cols, st.labels.brought, &open)
	}
	prevBal := open
	in, out := decimal.Zero, decimal.Zero
	for _, tx := range rows {
		if !r.fits(len(tx.lines)) {
			if st.forward {
				r.labelRow(cols, st.labels.carried, &prevBal)
			}
			r.newPage(false)
			r.header(cols)
			if st.forward {
				r.labelRow(cols, st.labels.brought, &prevBal)
			}
		}
		r.row(tx, cols)
		prevBal = tx.balance
		if tx.amount.IsPositive() {
			in = in.Add(tx.amount)
		} else {
			out = out.Sub(tx.amount)
		}
	}
	if totals {
		pdf.SetFont(st.font, "B", st.size)
		x := r.left
		for _, c := range cols {
			switch c.kind {
			case colDesc:
				r.cell(x, c, totalLabel)
			case colIn:
				r.cell(x, c, st.money(in))
			case colOut:
				r.cell(x, c, st.money(out))
			case colSigned:
				r.cell(x, c, st.money(in.Add(out)))
			}
			x += c.width
		}
		r.y += r.lineH * 1.4
		pdf.SetFont(st.font, "", st.size)
	}
	if closing {
		r.labelRow(cols, st.labels.closing, &prevBal)
	}
}

// row prints one transaction.
func (r *renderer) row(tx fxTxn, cols []fxCol) {
	st := r.st
	x := r.left
	for _, c := range cols {
		var text string
		switch c.kind {
		case colDate:
			text = st.date(tx.date)
		case colValue:
			if st.value != nil {
				text = st.value(tx.value)
			} else {
				text = st.date(tx.value)
			}
		case colDesc:
			for i, line := range tx.lines {
				r.pdf.Text(x+1, r.y+float64(i)*r.lineH*1.15, r.tr(line))
			}
		case colIn:
			if tx.amount.IsPositive() {
				text = st.money(tx.amount)
			}
		case colOut:
			if tx.amount.IsNegative() {
				text = st.money(tx.amount.Neg())
			}
		case colSigned:
			text = st.signed(tx.amount)
		case colDrCr:
			text = st.drcr(tx.amount.IsPositive())
		case colBalance:
			if !st.daily || tx.lastOfDay {
				text = st.balance(tx.balance)
			}
		case colRef:
			text = tx.ref
		}
		r.cell(x, c, text)
		x += c.width
	}
	h := r.lineH * (1.25 + 1.15*float64(len(tx.lines)-1))
	if st.grid {
		r.pdf.SetDrawColor(200, 200, 200)
		width := 0.0
		for _, c := range cols {
			width += c.width
		}
		r.pdf.Line(r.left, r.y+h-r.lineH*0.95, r.left+width, r.y+h-r.lineH*0.95)
	}
	r.y += h
	r.rows++
}

// renderSections prints all deposits, then all withdrawals, each in its own
// table with its own header and total.
func (r *renderer) renderSections() {
	var deposits, withdrawals []fxTxn
	for _, tx := range r.f.generated {
		if tx.amount.IsPositive() {
			deposits = append(deposits, tx)
		} else {
			withdrawals = append(withdrawals, tx)
		}
	}
	cols := r.st.cols
	r.newPage(true)
	r.table(deposits, cols, false, false, true, "Deposits and other credits", "Total deposits")
	r.y += r.lineH * 2
	r.table(withdrawals, cols, false, false, true, "Withdrawals and other debits", "Total withdrawals")
}

// ---- number and date formats ----

// groupDigits writes the integer digits of s with sep every three (or the
// Indian 3-then-2 grouping).
func groupDigits(digits, sep string, indian bool) string {
	if sep == "" {
		return digits
	}
	var parts []string
	if len(digits) > 3 {
		parts = append(parts, digits[len(digits)-3:])
		digits = digits[:len(digits)-3]
		size := 3
		if indian {
			size = 2
		}
		for len(digits) > size {
			parts = append(parts, digits[len(digits)-size:])
			digits = digits[:len(digits)-size]
		}
	}
	parts = append(parts, digits)
	slices.Reverse(parts)
	return strings.Join(parts, sep)
}

// num formats |d| with the given thousands and decimal separators.
func num(d decimal.Decimal, thou, dec string) string {
	s := d.Abs().StringFixed(2)
	i := strings.IndexByte(s, '.')
	return groupDigits(s[:i], thou, false) + dec + s[i+1:]
}

func numIndian(d decimal.Decimal) string {
	s := d.Abs().StringFixed(2)
	i := strings.IndexByte(s, '.')
	return groupDigits(s[:i], ",", true) + "." + s[i+1:]
}

// minusFirst prefixes a minus for negative values.
func minusFirst(d decimal.Decimal, s string) string {
	if d.IsNegative() {
		return "-" + s
	}
	return s
}

var (
	monthsEN      = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsENShort = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	monthsDE      = []string{"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."}
	monthsDEFull  = []string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"}
	monthsFR      = []string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
	monthsES      = []string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}
	monthsIT      = []string{"gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"}
	monthsNL      = []string{"jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"}
	monthsPT      = []string{"jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"}
)

func layout(l string) func(time.Time) string {
	return func(t time.Time) string { return t.Format(l) }
}

func named(format string, months []string) func(time.Time) string {
	return func(t time.Time) string {
		return fmt.Sprintf(format, t.Day(), months[t.Month()-1], t.Year())
	}
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// ---- the fixtures ----

var (
	descsEN = []string{"TESCO STORES 3172", "AMAZON MKTPLACE PMTS", "+SALARY ACME CORP LTD", "NETFLIX.COM", "SHELL FUEL 0456",
		"CITY WATER UTILITY", "TRANSFER TO SAVINGS", "CARD PAYMENT CAFE LUNA", "DIRECT DEBIT BRITISH GAS", "ATM WITHDRAWAL HIGH ST",
		"STANDING ORDER RENT", "+REFUND AMAZON", "BOOKSHOP & CO", "PHARMACY PLUS 22", "COUNCIL TAX", "GYM MEMBERSHIP", "+TRANSFER FROM J SMITH", "+INTEREST PAID"}
	descsDE = []string{"Lastschrift Stadtwerke München", "+Gehalt Muster GmbH", "Kartenzahlung REWE Markt", "Überweisung Miete",
		"Dauerauftrag Sparplan", "Bargeldauszahlung Geldautomat", "+Gutschrift Erstattung", "Lastschrift Telekom", "Kartenzahlung Bäckerei Müller",
		"Versicherung Allianz"}
	descsFR = []string{"Prélèvement EDF", "+Virement salaire Société Générale", "Paiement CB Carrefour", "Retrait DAB Paris 11",
		"Prélèvement Free Mobile", "+Virement reçu Dupont", "Paiement CB Café de Flore", "Loyer appartement", "+Remboursement Sécurité sociale"}
	descsES = []string{"Recibo Iberdrola", "+Nómina Empresa S.L.", "Compra tarjeta Mercadona", "+Transferencia recibida García",
		"Retirada cajero", "Recibo Movistar", "Compra tarjeta El Corte Inglés", "Alquiler vivienda", "+Devolución Hacienda"}
	descsIT = []string{"Addebito Enel Energia", "+Stipendio Rossi S.p.A.", "Pagamento POS Esselunga", "+Bonifico ricevuto Bianchi",
		"Prelievo Bancomat", "Addebito TIM", "Pagamento POS Caffè Centrale", "Affitto", "+Rimborso spese"}
	descsNL = []string{"Albert Heijn 1234", "+Salaris Bakker B.V.", "Betaalautomaat HEMA", "+Overboeking van Jansen",
		"Geldautomaat Amsterdam", "Incasso Eneco", "Huur woning", "Zorgverzekering CZ", "+Terugbetaling Belastingdienst"}
	descsPT = []string{"Pagamento Continente", "+Salário Silva Lda", "Compra cartão Pingo Doce", "+Transferência recebida Costa",
		"Levantamento Multibanco", "Débito direto EDP", "Renda casa", "Compra cartão Café Nicola", "+Reembolso IRS"}
	descsIN = []string{"+NEFT CR SALARY INFOSYS", "UPI/PAYTM/GROCERY", "ATM WDL MUMBAI", "IMPS TRANSFER RAHUL", "ELECTRICITY BILL MSEDCL",
		"RENT PAYMENT", "+INT CREDIT", "POS AMAZON INDIA", "LIC PREMIUM", "+UPI/CR/REFUND FLIPKART"}
)

var addressEN = []string{"1 Threadneedle Street", "London EC2R 8AH", "Customer service 0345 600 1234"}

func fixtureSet() []fixture {
	gbp := func(d decimal.Decimal) string { return num(d, ",", ".") }
	gbpBal := func(d decimal.Decimal) string { return minusFirst(d, num(d, ",", ".")) }
	deNum := func(d decimal.Decimal) string { return num(d, ".", ",") }
	deBal := func(d decimal.Decimal) string { return minusFirst(d, num(d, ".", ",")) }
	std := func(dateW, descW, moneyW float64, date, desc, out, in, bal string) []fxCol {
		return []fxCol{{colDate, date, dateW}, {colDesc, desc, descW}, {colOut, out, moneyW}, {colIn, in, moneyW}, {colBalance, bal, moneyW}}
	}
	stdInFirst := func(dateW, descW, moneyW float64, date, desc, in, out, bal string) []fxCol {
		return []fxCol{{colDate, date, dateW}, {colDesc, desc, descW}, {colIn, in, moneyW}, {colOut, out, moneyW}, {colBalance, bal, moneyW}}
	}
	return []fixture{
		{
			name: "uk_dmy_slash", bank: "Albion Counties Bank plc", address: addressEN,
			holder: []string{"MR JOHN SMITH", "14 Acacia Avenue", "Reading RG1 2AB"}, account: "40-12-76 31926819", currency: "GBP",
			start: day(2024, 2, 1), end: day(2024, 2, 29), opening: "1523.40", seed: 1, n: 24, descs: descsEN,
			footer: "Albion Counties Bank plc is authorised by the Prudential Regulation Authority. Registered in England No. 0012345.",
			style: fxStyle{font: "Helvetica", size: 9, labels: labelsEN, date: layout("02/01/2006"), money: gbp, balance: gbpBal,
				cols: std(24, 86, 24, "Date", "Description", "Paid out", "Paid in", "Balance"), openingRow: true, closingRow: true, grid: true},
		},
		{
			name: "us_mdy_dash", bank: "Northgate Federal Savings", address: []string{"200 Market Street", "Springfield, IL 62701", "1-800-555-0199"},
			holder: []string{"JANE Q PUBLIC", "42 Elm Street", "Springfield, IL 62704"}, account: "XXXXXX4821", currency: "USD",
			start: day(2024, 3, 1), end: day(2024, 3, 31), opening: "812.16", seed: 2, n: 22, descs: descsEN,
			footer: "Member FDIC. Equal Housing Lender. Report errors within 60 days.",
			style: fxStyle{font: "Times", size: 10, paper: "Letter", labels: labelsEN, date: layout("01-02-2006"),
				money:   func(d decimal.Decimal) string { return "$" + num(d, ",", ".") },
				balance: func(d decimal.Decimal) string { return minusFirst(d, "$"+num(d, ",", ".")) },
				cols:    std(26, 82, 27, "Date", "Description", "Withdrawals", "Deposits", "Balance"), fill: true},
		},
		{
			name: "ch_ymd_dot", bank: "Bank Zürichsee AG", address: []string{"Bahnhofstrasse 10", "8001 Zürich", "Tel. +41 44 123 45 67"},
			holder: []string{"Herr Peter Meier", "Seestrasse 5", "8800 Thalwil"}, account: "CH93 0076 2011 6238 5295 7", currency: "CHF",
			start: day(2024, 4, 1), end: day(2024, 6, 30), opening: "10250.00", seed: 3, n: 26, descs: descsDE,
			footer: "Bank Zürichsee AG, Mitglied der Einlagensicherung. Beanstandungen innert 30 Tagen.",
			style: fxStyle{font: "Courier", size: 8, labels: labelsDE, date: layout("2006.01.02"),
				money:   func(d decimal.Decimal) string { return num(d, "'", ".") },
				balance: func(d decimal.Decimal) string { return minusFirst(d, "CHF "+num(d, "'", ".")) },
				cols:    std(24, 76, 27, "Datum", "Text", "Belastung", "Gutschrift", "Saldo"), openingRow: true, bankRight: true},
		},
		{
			name: "de_soll_haben", bank: "Rheinische Volksbank eG", address: []string{"Königsallee 12", "40212 Düsseldorf", "BIC GENODED1RVB"},
			holder: []string{"Frau Anna Schmidt", "Lindenstraße 7", "40219 Düsseldorf"}, account: "DE89 3704 0044 0532 0130 00", currency: "EUR",
			start: day(2024, 3, 1), end: day(2024, 5, 31), opening: "2431.77", seed: 4, n: 24, descs: descsDE,
			footer: "Rheinische Volksbank eG · Sitz Düsseldorf · Bitte prüfen Sie Ihren Kontoauszug. Einwendungen binnen sechs Wochen.",
			style: fxStyle{font: "Helvetica", size: 8.5, labels: labelsDE, date: named("%d. %s %d", monthsDE),
				period: named("%d. %s %d", monthsDEFull), money: deNum, balance: deBal,
				cols: std(28, 80, 24, "Buchungstag", "Verwendungszweck", "Soll", "Haben", "Saldo"), openingRow: true, closingRow: true, totalsRow: true},
		},
		{
			name: "fr_debit_credit", bank: "Crédit Lyonnais de l'Ouest", address: []string{"12 rue de la République", "69002 Lyon", "Tél. 04 78 00 00 00"},
			holder: []string{"M. François Dupont", "8 avenue Foch", "69006 Lyon"}, account: "FR76 3000 4000 0312 3456 7890 143", currency: "EUR",
			start: day(2024, 6, 1), end: day(2024, 8, 31), opening: "3120.50", seed: 5, n: 25, descs: descsFR,
			footer: "Crédit Lyonnais de l'Ouest, SA au capital de 1 000 000 €. Médiateur : www.mediateur.example",
			style: fxStyle{font: "Times", size: 9, labels: labelsFR, date: named("%d %s %d", monthsFR),
				money:   func(d decimal.Decimal) string { return num(d, "\u00a0", ",") + " €" },
				balance: func(d decimal.Decimal) string { return minusFirst(d, num(d, "\u00a0", ",")+" €") },
				cols:    std(26, 76, 26, "Date", "Libellé", "Débit", "Crédit", "Solde"), openingRow: true, grid: true},
		},
		{
			name: "es_cargo_abono", bank: "Banco del Sol S.A.", address: []string{"Calle de Alcalá 45", "28014 Madrid", "Tel. 900 100 200"},
			holder: []string{"D. José García López", "Calle Mayor 3", "28013 Madrid"}, account: "ES91 2100 0418 4502 0005 1332", currency: "EUR",
			start: day(2024, 10, 1), end: day(2024, 12, 31), opening: "1840.25", seed: 6, n: 22, descs: descsES,
			footer: "Banco del Sol S.A. Inscrito en el Registro Mercantil de Madrid. Conserve este extracto.",
			style: fxStyle{font: "Helvetica", size: 8, labels: labelsES, date: named("%d de %s de %d", monthsES),
				money:   func(d decimal.Decimal) string { return "EUR " + num(d, ".", ",") },
				balance: func(d decimal.Decimal) string { return minusFirst(d, "EUR "+num(d, ".", ",")) },
				cols:    std(40, 66, 25, "Fecha", "Concepto", "Cargo", "Abono", "Saldo"), fill: true},
		},
		{
			name: "it_addebiti", bank: "Banca Popolare del Lago", address: []string{"Via Roma 21", "22100 Como", "Tel. 031 123456"},
			holder: []string{"Sig. Marco Rossi", "Via Garibaldi 8", "22100 Como"}, account: "IT60 X054 2811 1010 0000 0123 456", currency: "EUR",
			start: day(2024, 1, 1), end: day(2024, 3, 31), opening: "5400.00", seed: 7, n: 24, descs: descsIT,
			footer: "Banca Popolare del Lago S.p.A. Aderente al Fondo Interbancario di Tutela dei Depositi.",
			style: fxStyle{font: "Times", size: 9, labels: labelsIT, date: named("%d %s %d", monthsIT),
				money:   func(d decimal.Decimal) string { return num(d, ".", ",") + " €" },
				balance: func(d decimal.Decimal) string { return minusFirst(d, num(d, ".", ",")+" €") },
				cols:    stdInFirst(24, 80, 25, "Data", "Descrizione", "Accrediti", "Addebiti", "Saldo"), closingRow: true},
		},
		{
			name: "nl_af_bij", bank: "Nederlandse Spaarbank N.V.", address: []string{"Damrak 1", "1012 LG Amsterdam", "KvK 12345678"},
			holder: []string{"Dhr. J. de Vries", "Prinsengracht 100", "1015 DZ Amsterdam"}, account: "NL91 ABNA 0417 1643 00", currency: "EUR",
			start: day(2024, 3, 1), end: day(2024, 5, 31), opening: "980.40", seed: 8, n: 22, descs: descsNL,
			footer: "Nederlandse Spaarbank N.V. valt onder het depositogarantiestelsel.",
			style: fxStyle{font: "Helvetica", size: 9, labels: labelsNL, date: named("%d %s %d", monthsNL),
				money:   func(d decimal.Decimal) string { return "€ " + num(d, ".", ",") },
				balance: func(d decimal.Decimal) string { return minusFirst(d, "€ "+num(d, ".", ",")) },
				cols:    std(24, 80, 26, "Datum", "Omschrijving", "Af", "Bij", "Saldo"), bankRight: true, grid: true},
		},
		{
			name: "pt_debito_credito", bank: "Banco Atlântico S.A.", address: []string{"Avenida da Liberdade 190", "1250-147 Lisboa", "Tel. 707 000 000"},
			holder: []string{"Sr. João Silva", "Rua Augusta 50", "1100-053 Lisboa"}, account: "PT50 0002 0123 1234 5678 9015 4", currency: "EUR",
			start: day(2024, 8, 1), end: day(2024, 10, 31), opening: "2210.00", seed: 9, n: 22, descs: descsPT,
			footer: "Banco Atlântico S.A. Capital social 100 000 000 €. Supervisionado pelo Banco de Portugal.",
			style: fxStyle{font: "Helvetica", size: 8.5, labels: labelsPT, date: named("%02d %s %d", monthsPT),
				money: deNum, balance: deBal,
				cols: std(24, 80, 26, "Data", "Descrição", "Débito", "Crédito", "Saldo"), openingRow: true, fill: true},
		},
		{
			name: "en_signed_amount", bank: "Pacific Coast Credit Union", address: []string{"500 Ocean Ave", "San Diego, CA 92101", "(619) 555-0142"},
			holder: []string{"ROBERT JOHNSON", "77 Palm Drive", "San Diego, CA 92103"}, account: "0012-448812-01", currency: "USD",
			start: day(2024, 5, 1), end: day(2024, 5, 31), opening: "2043.11", seed: 10, n: 24, descs: descsEN,
			footer: "Federally insured by NCUA. Questions? Call us or visit any branch.",
			style: fxStyle{font: "Helvetica", size: 9, paper: "Letter", labels: labelsEN,
				date:  func(t time.Time) string { return t.Format("Jan 2, 2006") },
				money: gbp, balance: gbpBal,
				signed: func(d decimal.Decimal) string {
					if d.IsNegative() {
						return "- " + num(d, ",", ".")
					}
					return "+" + num(d, ",", ".")
				},
				cols: []fxCol{{colDate, "Date", 28}, {colDesc, "Description", 98}, {colSigned, "Amount", 27}, {colBalance, "Balance", 27}}, grid: true},
		},
		{
			name: "in_drcr_column", bank: "Ganga Cooperative Bank Ltd", address: []string{"Fort Branch, 22 Dalal Street", "Mumbai 400001", "IFSC GCBL0000123"},
			holder: []string{"Mr. Rahul Sharma", "Flat 12, Shanti Apts", "Andheri West, Mumbai 400058"}, account: "001234567890", currency: "INR",
			start: day(2024, 4, 1), end: day(2024, 4, 30), opening: "125000.00", seed: 11, n: 22, big: true, descs: descsIN,
			footer: "This is a computer generated statement and does not require a signature. Deposits insured by DICGC.",
			style: fxStyle{font: "Helvetica", size: 8, labels: labelsEN, date: layout("02-Jan-2006"),
				money: numIndian, signed: numIndian, balance: func(d decimal.Decimal) string { return minusFirst(d, numIndian(d)) },
				drcr: func(credit bool) string {
					if credit {
						return "Cr"
					}
					return "Dr"
				},
				cols: []fxCol{{colDate, "Txn Date", 22}, {colDesc, "Narration", 62}, {colRef, "Chq/Ref No", 28}, {colSigned, "Amount", 26},
					{colDrCr, "Dr/Cr", 12}, {colBalance, "Balance", 30}}, openingRow: true, fill: true},
		},
		{
			name: "au_drcr_suffix", bank: "Southern Cross Bank", address: []string{"300 George Street", "Sydney NSW 2000", "ABN 11 005 357 522"},
			holder: []string{"MS OLIVIA BROWN", "9 Harbour Rd", "Manly NSW 2095"}, account: "062-000 1234 5678", currency: "AUD",
			start: day(2024, 7, 1), end: day(2024, 7, 31), opening: "350.00", seed: 12, n: 22, descs: descsEN,
			footer: "Southern Cross Bank Limited AFSL 234945. Check your statement and tell us about any errors promptly.",
			style: fxStyle{font: "Times", size: 9, labels: labelsEN,
				date:    func(t time.Time) string { return strings.ToUpper(t.Format("02Jan06")) },
				period:  layout("2 January 2006"),
				money:   gbp,
				balance: func(d decimal.Decimal) string { return num(d, ",", ".") + drcrWord(!d.IsNegative()) },
				signed:  func(d decimal.Decimal) string { return num(d, ",", ".") + drcrWord(d.IsPositive()) },
				cols:    []fxCol{{colDate, "Date", 22}, {colDesc, "extract.Transaction details", 98}, {colSigned, "Amount", 30}, {colBalance, "Balance", 30}}, openingRow: true},
		},
		{
			name: "uk_wrapped_ordinal", bank: "Mercia Building Society", address: []string{"Mercia House, Broad Street", "Birmingham B1 2HF", "0800 030 4040"},
			holder: []string{"MRS SARAH WILLIAMS", "5 Church Lane", "Solihull B91 3QF"}, account: "60-83-71 00456123", currency: "GBP",
			start: day(2024, 2, 1), end: day(2024, 2, 29), opening: "745.62", seed: 13, n: 20, descs: descsEN,
			footer: "Mercia Building Society is a member of the Financial Services Compensation Scheme.",
			style: fxStyle{font: "Helvetica", size: 9, labels: labelsEN,
				date:   func(t time.Time) string { return ordinal(t.Day()) + " " + monthsENShort[t.Month()-1] },
				period: named("%d %s %d", monthsEN), money: gbp, balance: gbpBal, wrap: 28,
				cols: std(22, 74, 26, "Date", "Details", "Money out", "Money in", "Balance"), openingRow: true, grid: true},
		},
		{
			name: "multipage_forward", bank: "Albion Counties Bank plc", address: addressEN,
			holder: []string{"MR DAVID JONES", "3 Station Road", "Oxford OX1 1AA"}, account: "40-12-76 55501234", currency: "GBP",
			start: day(2024, 1, 1), end: day(2024, 3, 31), opening: "4200.00", seed: 14, n: 70, descs: descsEN,
			footer: "Albion Counties Bank plc is authorised by the Prudential Regulation Authority. Registered in England No. 0012345.",
			style: fxStyle{font: "Helvetica", size: 9, labels: labelsEN, date: layout("02.01.06"), period: layout("02.01.2006"),
				money: gbp, balance: gbpBal, rowsPage: 28, forward: true,
				cols: std(22, 88, 24, "Date", "Description", "Payments", "Receipts", "Balance"), openingRow: true, closingRow: true},
		},
		{
			name: "dec_jan_noyear", bank: "Thames Valley Bank", address: []string{"10 King Street", "Windsor SL4 1AA", "0345 700 1000"},
			holder: []string{"MR ALI KHAN", "22 Park Road", "Slough SL1 2BB"}, account: "30-95-11 11223344", currency: "GBP",
			start: day(2023, 12, 15), end: day(2024, 1, 14), opening: "1320.00", seed: 15, n: 22, descs: descsEN,
			footer: "Thames Valley Bank plc. Calls may be recorded. Your eligible deposits are protected.",
			style: fxStyle{font: "Times", size: 9.5, labels: labelsEN, date: layout("02 Jan"), period: layout("2 January 2006"),
				money: gbp, balance: gbpBal,
				cols: std(20, 90, 25, "Date", "Description", "Money out", "Money in", "Balance"), openingRow: true, fill: true},
		},
		{
			name: "daily_balance", bank: "Kestrel Bank", address: []string{"Kestrel House, 8 Mill Lane", "Leeds LS1 4AB", "0113 496 0000"},
			holder: []string{"MISS EMMA TAYLOR", "41 Hyde Park Road", "Leeds LS6 1AB"}, account: "20-44-91 73628190", currency: "GBP",
			start: day(2024, 9, 1), end: day(2024, 9, 14), opening: "2600.00", seed: 16, n: 26, descs: descsEN,
			footer: "Kestrel Bank Limited. Balances are shown at the end of each day.",
			style: fxStyle{font: "Helvetica", size: 9, labels: labelsEN, date: layout("02/01/06"), period: layout("02/01/2006"),
				money: gbp,
				signed: func(d decimal.Decimal) string {
					return num(d, ",", ".") + map[bool]string{true: " C", false: " D"}[d.IsPositive()]
				},
				balance: func(d decimal.Decimal) string {
					return num(d, ",", ".") + map[bool]string{true: " C", false: " D"}[!d.IsNegative()]
				},
				daily: true,
				cols:  []fxCol{{colDate, "Date", 24}, {colDesc, "Description", 96}, {colSigned, "Amount", 30}, {colBalance, "Balance", 30}}, grid: true},
		},
		{
			name: "no_balance", bank: "Fjord Digital Bank", address: []string{"Karl Johans gate 2", "0154 Oslo", "support@fjord.example"},
			holder: []string{"LARS NILSEN", "Storgata 1", "0155 Oslo"}, account: "1503.12.34567", currency: "USD",
			start: day(2024, 2, 1), end: day(2024, 2, 29), opening: "1000.00", seed: 17, n: 22, descs: descsEN,
			footer: "Fjord Digital Bank ASA. This statement lists card and account transactions; balances are in the summary.",
			style: fxStyle{font: "Helvetica", size: 9, labels: labelsEN, date: layout("2006-01-02"),
				money: gbp, balance: gbpBal,
				signed: func(d decimal.Decimal) string {
					if d.IsNegative() {
						return "(" + num(d, ",", ".") + ")"
					}
					return num(d, ",", ".")
				},
				cols: []fxCol{{colDate, "Date", 26}, {colDesc, "Description", 110}, {colSigned, "Amount (USD)", 40}}, grid: true},
		},
		{
			name: "sections", bank: "First Prairie Bank", address: []string{"100 Main St", "Omaha, NE 68102", "firstprairie.example"},
			holder: []string{"MICHAEL BROWN", "1200 Oak Ave", "Omaha, NE 68105"}, account: "XXXX-XXXX-7710", currency: "USD",
			start: day(2024, 2, 1), end: day(2024, 2, 29), opening: "3150.00", seed: 18, n: 24, descs: descsEN,
			footer: "Member FDIC. See reverse for important information about your account.",
			style: fxStyle{font: "Times", size: 10, paper: "Letter", labels: labelsEN, date: layout("01/02"), period: layout("01/02/2006"),
				money: gbp, signed: gbp, balance: gbpBal,
				cols: []fxCol{{colDate, "Date", 24}, {colDesc, "Description", 120}, {colSigned, "Amount", 32}}, sections: true},
		},
		{
			name: "two_dates_post_first", bank: "Albion Counties Bank plc", address: addressEN,
			holder: []string{"MS PRIYA PATEL", "7 Queens Road", "Bristol BS8 1QU"}, account: "40-12-76 99887766", currency: "GBP",
			start: day(2024, 2, 1), end: day(2024, 2, 29), opening: "640.00", seed: 19, n: 22, descs: descsEN,
			footer: "Albion Counties Bank plc is authorised by the Prudential Regulation Authority. Registered in England No. 0012345.",
			style: fxStyle{font: "Helvetica", size: 8.5, labels: labelsEN, date: layout("02 Jan 06"), period: layout("2 January 2006"),
				money: gbp, balance: gbpBal,
				cols: []fxCol{{colDate, "Post Date", 20}, {colValue, "Value Date", 20}, {colDesc, "Description", 68}, {colOut, "Debit", 24},
					{colIn, "Credit", 24}, {colBalance, "Balance", 24}}, openingRow: true, fill: true},
		},
		{
			name: "de_value_first", bank: "Sparkasse Hohenlohe", address: []string{"Marktplatz 3", "74653 Künzelsau", "BLZ 622 515 50"},
			holder: []string{"Herrn Thomas Weber", "Bergstraße 12", "74653 Künzelsau"}, account: "DE12 6225 1550 0001 2345 67", currency: "EUR",
			start: day(2024, 2, 1), end: day(2024, 2, 29), opening: "1890.55", seed: 20, n: 22, descs: descsDE,
			footer: "Sparkasse Hohenlohe · Anstalt des öffentlichen Rechts · Bitte Rechnungsabschluss prüfen.",
			style: fxStyle{font: "Helvetica", size: 8.5, labels: labelsDE, date: layout("02.01.2006"), value: layout("02.01."),
				money: deNum, balance: deBal,
				signed: func(d decimal.Decimal) string {
					if d.IsNegative() {
						return num(d, ".", ",") + "-"
					}
					return num(d, ".", ",") + "+"
				},
				cols: []fxCol{{colValue, "Valuta", 18}, {colDate, "Buchungstag", 24}, {colDesc, "Verwendungszweck", 86}, {colSigned, "Betrag EUR", 26},
					{colBalance, "Saldo EUR", 26}}, openingRow: true, closingRow: true, bankRight: true},
		},
		{
			name: "long_10p", bank: "Albion Counties Bank plc", address: addressEN,
			holder: []string{"ACME WIDGETS LTD", "Unit 4, Trade Park", "Swindon SN1 2AB"}, account: "40-12-76 10203040", currency: "GBP",
			start: day(2024, 1, 1), end: day(2024, 6, 30), opening: "25000.00", seed: 21, n: 380, descs: descsEN,
			footer: "Albion Counties Bank plc is authorised by the Prudential Regulation Authority. Registered in England No. 0012345.",
			style: fxStyle{font: "Helvetica", size: 8.5, labels: labelsEN, date: layout("02-01-2006"),
				money: gbp, balance: gbpBal, rowsPage: 40,
				cols: std(24, 86, 24, "Date", "Description", "Paid out", "Paid in", "Balance"), openingRow: true, closingRow: true},
		},
	}
}

func drcrWord(credit bool) string {
	if credit {
		return " CR"
	}
	return " DR"
}
