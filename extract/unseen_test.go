package extract

import (
	"slices"
	"strings"
	"testing"

	"passbook/extract/ledger"
	"passbook/extract/source"
)

// Tests of issue 39's classes, each on a page drawn here in words no
// lexicon holds where the mechanism must not need them.

// TestAnalyzeDatedTotalsLine reads a dated line whose figures are the sums
// of both money columns above it, and whose balance is the last row's, as
// the table's totals: no movement prints in both columns and leaves the
// balance as it was ("31-Mar-2025 Closing Balance 18,436.73 7,762.55
// -10,399.06"), whatever its words.
func TestAnalyzeDatedTotalsLine(t *testing.T) {
	for _, tc := range []struct {
		name, in, out, bal string
	}{
		{"both columns", "50.00", "40.00", "110.00"},
		{"one column, the balance repeated", "", "40.00", "110.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := source.Page{Number: 1, Width: 612, Height: 792}
			put := func(x, y float64, s string) { putWords(&p, x, y, s) }
			ledgerHead(put, "01/01/2023 - 31/01/2023")
			put(10, 90, "01/01/2023")
			put(100, 90, "Opening balance")
			put(520, 90, "100.00")
			if tc.in != "" {
				ledgerRow(put, 105, "02/01/2023", "Salary Acme", "", "50.00", "150.00")
			}
			put(10, 120, "05/01/2023")
			put(100, 120, "Rent March")
			put(340, 120, "25.00")
			put(520, 120, stringOr(tc.in != "", "125.00", "75.00"))
			put(10, 135, "09/01/2023")
			put(100, 135, "Card Shell")
			put(340, 135, "15.00")
			put(520, 135, stringOr(tc.in != "", "110.00", "60.00"))
			put(10, 150, "31/01/2023")
			put(100, 150, "Vrokplen skartomir")
			put(340, 150, tc.out)
			if tc.in != "" {
				put(420, 150, tc.in)
			}
			put(520, 150, stringOr(tc.in != "", "110.00", "60.00"))
			res := Analyze([]source.Page{p})
			want := []string{
				"2023-01-02|Salary Acme|50.00||150.00",
				"2023-01-05|Rent March||25.00|125.00",
				"2023-01-09|Card Shell||15.00|110.00",
			}
			if tc.in == "" {
				want = []string{
					"2023-01-05|Rent March||25.00|75.00",
					"2023-01-09|Card Shell||15.00|60.00",
				}
			}
			checkTxs(t, res, want)
			if got := res.Statement.Reconciliation.Status; got != "ok" {
				t.Errorf("status %s, want ok", got)
			}
		})
	}
}

// ledgerRow puts a row of the table ledgerHead heads: its date,
// description, money out, money in and balance, any of them empty.
func ledgerRow(put func(x, y float64, s string), y float64, date, desc, out, in, bal string) {
	for _, c := range []struct {
		x    float64
		text string
	}{{10, date}, {100, desc}, {340, out}, {420, in}, {520, bal}} {
		if c.text != "" {
			put(c.x, y, c.text)
		}
	}
}

// openLedger is a page with the tests' period, table headings and an
// opening balance of 100.00 above the rows, and a put that sets words on
// it.
func openLedger(period string) (*source.Page, func(x, y float64, s string)) {
	p := &source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(p, x, y, s) }
	ledgerHead(put, period)
	put(10, 95, "Opening balance")
	put(520, 95, "100.00")
	return p, put
}

// ledgerHead puts a statement's period and the headings of a table of
// date, details, debit, credit and balance, as the tests here draw it.
func ledgerHead(put func(x, y float64, s string), period string) {
	put(10, 40, "Statement period: "+period)
	put(10, 80, "Date")
	put(100, 80, "Details")
	put(330, 80, "Debit")
	put(420, 80, "Credit")
	put(510, 80, "Balance")
}

func stringOr(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// TestAnalyzeTotalsLineSumsAcrossPages reads a totals line in unknown words
// on the second page, whose figures sum the table's rows on both pages.
func TestAnalyzeTotalsLineSumsAcrossPages(t *testing.T) {
	p1 := source.Page{Number: 1, Width: 612, Height: 792}
	p2 := source.Page{Number: 2, Width: 612, Height: 792}
	put1 := func(x, y float64, s string) { putWords(&p1, x, y, s) }
	ledgerHead(put1, "01/01/2023 - 31/01/2023")
	put1(10, 60, "Opening balance")
	put1(520, 60, "100.00")
	putWords(&p1, 10, 95, "02/01/2023")
	putWords(&p1, 100, 95, "Salary Acme")
	putWords(&p1, 420, 95, "50.00")
	putWords(&p1, 520, 95, "150.00")
	putWords(&p1, 10, 110, "05/01/2023")
	putWords(&p1, 100, 110, "Rent March")
	putWords(&p1, 340, 110, "25.00")
	putWords(&p1, 520, 110, "125.00")
	ledgerHead(func(x, y float64, s string) { putWords(&p2, x, y, s) }, "01/01/2023 - 31/01/2023")
	putWords(&p2, 10, 95, "09/01/2023")
	putWords(&p2, 100, 95, "Card Shell")
	putWords(&p2, 340, 95, "15.00")
	putWords(&p2, 520, 95, "110.00")
	putWords(&p2, 10, 110, "10/01/2023")
	putWords(&p2, 100, 110, "Refund Shell")
	putWords(&p2, 420, 110, "5.00")
	putWords(&p2, 520, 110, "115.00")
	putWords(&p2, 100, 130, "Vrokplen")
	putWords(&p2, 340, 130, "40.00")
	putWords(&p2, 420, 130, "55.00")
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme|50.00||150.00",
		"2023-01-05|Rent March||25.00|125.00",
		"2023-01-09|Card Shell||15.00|110.00",
		"2023-01-10|Refund Shell|5.00||115.00",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeBookingDateBeforeValueDate reads rows that print two dates:
// a booking date, then a value date that is later on one row. Under a
// stacked heading "Value" over "Date" (whose lower line starts further
// left), the heading says which is which, and the statement is ok. Under
// headings in unknown words nothing does: the booking date, printed
// first, is kept, and the statement says unverified.
func TestAnalyzeBookingDateBeforeValueDate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		known      bool
		wantStatus string
	}{
		{"headings name the value date", true, "ok"},
		{"headings in unknown words", false, "unverified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := source.Page{Number: 1, Width: 612, Height: 792}
			put := func(x, y float64, s string) { putWords(&p, x, y, s) }
			put(10, 40, "Statement period: 01/01/2023 - 31/01/2023")
			if tc.known {
				put(10, 80, "Txn Date")
				put(82, 80, "Value")
				put(80, 91, "Date")
				put(150, 80, "Description")
				put(330, 80, "Debit")
				put(420, 80, "Credit")
				put(510, 80, "Balance")
				put(10, 100, "Opening balance")
			} else {
				put(10, 80, "Trymuf")
				put(80, 80, "Vaskel")
				put(150, 80, "Skelarurpu")
				put(330, 80, "Rafaiton")
				put(420, 80, "Vouvokax")
				put(510, 80, "Zvamkiden")
				put(10, 100, "Drytalli")
			}
			put(520, 100, "100.00")
			put(10, 115, "02/01/2023")
			put(80, 115, "02/01/2023")
			put(150, 115, "Salary Acme")
			put(420, 115, "50.00")
			put(520, 115, "150.00")
			put(10, 130, "05/01/2023")
			put(80, 130, "06/01/2023")
			put(150, 130, "Rent March")
			put(340, 130, "25.00")
			put(520, 130, "125.00")
			put(10, 145, "09/01/2023")
			put(80, 145, "09/01/2023")
			put(150, 145, "Card Shell")
			put(340, 145, "15.00")
			put(520, 145, "110.00")
			res := Analyze([]source.Page{p})
			checkTxs(t, res, []string{
				"2023-01-02|Salary Acme|50.00||150.00",
				"2023-01-05|Rent March||25.00|125.00",
				"2023-01-09|Card Shell||15.00|110.00",
			})
			if got := res.Statement.Reconciliation.Status; got != tc.wantStatus {
				t.Errorf("status %s (%s), want %s", got, res.Statement.Reconciliation.Message, tc.wantStatus)
			}
		})
	}
}

// TestAnalyzeBalanceLinesInUnknownWords reads a table of one signed amount
// column, grouped by day under headings with the weekday's name, whose
// days end on a line of the day's balance in words no lexicon holds, and
// whose opening and closing balances are dated lines outside and inside
// the table in such words: the balance lines are no movements (each is
// the opening plus every movement above it), the weekdays are no
// description, and the statement is proven.
func TestAnalyzeBalanceLinesInUnknownWords(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Vryshgo 01/05/2025 - 31/05/2025")
	put(10, 60, "Drytalli am 30/04/2025 20:00")
	put(500, 60, "1.000,00")
	put(10, 80, "Trymuf")
	put(100, 80, "Skelarurpu")
	put(500, 80, "Zvamkiden")
	y := 95.0
	line := func(x float64, s string) { put(x, y, s); y += 12 }
	amt := func(s string) { put(510, y-12, s) }
	line(10, "01/05/2025 · quinta-feira")
	line(10, "Tairafo Cafe")
	amt("-100,00")
	line(10, "Bolmek Pay")
	amt("-50,00")
	line(10, "Grondel")
	amt("850,00")
	line(10, "05/05/2025 · segunda-feira")
	line(10, "Salario Vorn")
	amt("200,00")
	line(10, "Salario Vorn")
	amt("20,00")
	line(10, "31/05/2025 Drytalli 20:00")
	amt("1.070,00")
	var ex strings.Builder
	res := AnalyzeDocument(Document{Pages: []source.Page{p}}, &ex)
	defer func() {
		if t.Failed() {
			t.Log(ex.String())
		}
	}()
	checkTxs(t, res, []string{
		"2025-05-01|Tairafo Cafe||100.00|900.00",
		"2025-05-01|Bolmek Pay||50.00|850.00",
		"2025-05-05|Salario Vorn|200.00||1050.00",
		"2025-05-05|Salario Vorn|20.00||1070.00",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s (%s), want ok", got, res.Statement.Reconciliation.Message)
	}
}

// TestAnalyzeBuddhistEraAndDatesOutsidePeriod reads a statement dated in
// the Buddhist era (2568 is 2025), and holds a statement whose rows fall
// outside its printed period to unverified, however well they add up.
func TestAnalyzeBuddhistEraAndDatesOutsidePeriod(t *testing.T) {
	page := func(period, d1, d2 string) source.Page {
		p := source.Page{Number: 1, Width: 612, Height: 792}
		put := func(x, y float64, s string) { putWords(&p, x, y, s) }
		ledgerHead(put, period)
		put(10, 95, "Opening balance")
		put(520, 95, "100.00")
		put(10, 110, d1)
		put(100, 110, "Salary Acme")
		put(420, 110, "50.00")
		put(520, 110, "150.00")
		put(10, 125, d2)
		put(100, 125, "Rent March")
		put(340, 125, "25.00")
		put(520, 125, "125.00")
		return p
	}
	res := Analyze([]source.Page{page("01/01/2568 - 31/01/2568", "02/01/2568", "05/01/2568")})
	checkTxs(t, res, []string{
		"2025-01-02|Salary Acme|50.00||150.00",
		"2025-01-05|Rent March||25.00|125.00",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("Buddhist era: status %s (%s), want ok", got, res.Statement.Reconciliation.Message)
	}
	res = Analyze([]source.Page{page("01/01/2025 - 31/01/2025", "02/01/2025", "05/03/2025")})
	if got := res.Statement.Reconciliation.Status; got != "unverified" || res.Statement.Proof.DatesOutside != 1 {
		t.Errorf("a row two months past the period: status %s (%s), %d outside; want unverified, 1", got, res.Statement.Reconciliation.Message, res.Statement.Proof.DatesOutside)
	}
}

// TestAnalyzeSectionEndsAtItsTotals reads a card statement whose first
// section (payments, marked CR) ends on its totals line, and whose second
// section's title no lexicon holds: the purchases under it are money out,
// not payments under the first section's title.
func TestAnalyzeSectionEndsAtItsTotals(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 30, "Billing period 07/03/25 - 08/02/25")
	put(10, 45, "Previous balance")
	put(300, 45, "$917.83")
	put(10, 57, "Credit limit")
	put(300, 57, "$7,500.00")
	put(10, 69, "Minimum payment due")
	put(300, 69, "$39.46")
	put(10, 90, "Trans date")
	put(100, 90, "Post date")
	put(180, 90, "Description")
	put(520, 90, "Amount")
	put(180, 105, "Payments and other credits")
	put(10, 117, "07/27/25")
	put(100, 117, "07/29/25")
	put(180, 117, "AUTOPAY PAYMENT RECEIVED")
	put(510, 117, "100.00 CR")
	put(180, 129, "Total payments and other credits for this period")
	put(510, 129, "100.00 CR")
	put(180, 141, "Vrokplen and skartomir")
	put(10, 153, "07/01/25")
	put(100, 153, "07/04/25")
	put(180, 153, "HOME DEPOT DALLAS TX")
	put(520, 153, "59.58")
	put(10, 165, "07/02/25")
	put(100, 165, "07/04/25")
	put(180, 165, "APPLE.COM/BILL CA")
	put(520, 165, "40.42")
	put(180, 177, "Total vrokplen for this period")
	put(520, 177, "100.00")
	put(10, 200, "New balance $917.83. Minimum payment due $39.46 by 08/27/25.")
	res := Analyze([]source.Page{p})
	var got []string
	for _, tx := range res.Transactions {
		got = append(got, tx.Description+"|"+tx.Type())
	}
	want := []string{"AUTOPAY PAYMENT RECEIVED|CREDIT", "HOME DEPOT DALLAS TX|DEBIT", "APPLE.COM/BILL CA|DEBIT"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAnalyzeLabelsAndSentencesAreNoRows reads, under a table's rows, a
// label with its figure and a sentence that runs over the money columns:
// neither is a row of the last row's day.
func TestAnalyzeLabelsAndSentencesAreNoRows(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	ledgerHead(put, "01/01/2023 - 31/01/2023")
	put(10, 60, "Opening balance")
	put(520, 60, "100.00")
	ledgerRow(put, 95, "02/01/2023", "Salary Acme", "", "50.00", "150.00")
	ledgerRow(put, 110, "05/01/2023", "Rent March", "25.00", "", "125.00")
	ledgerRow(put, 125, "09/01/2023", "Card Shell", "15.00", "", "110.00")
	put(10, 140, "Vrokplen skartomir (Zelt Ltd):")
	put(420, 140, "85,000.00")
	put(40, 155, "Deposits are insured by the Deposit Insurance Scheme for sums up to")
	put(410, 155, "100,000.00")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme|50.00||150.00",
		"2023-01-05|Rent March||25.00|125.00",
		"2023-01-09|Card Shell||15.00|110.00",
	})
}

// TestAnalyzeHeadlessDescriptionFirst reads a table with no heading the
// lexicon knows whose columns put the description before the date: the
// dates still line up, and the words before each date are its row's
// description.
func TestAnalyzeHeadlessDescriptionFirst(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Mivriseträm: 1 Jun 2023 - 30 Jun 2023")
	put(10, 60, "Skänonseont")
	put(250, 60, "Gävrolist")
	put(400, 60, "Rouleodrourknount")
	put(520, 60, "Søkrøpaisyst")
	y := 75.0
	for _, r := range [][3]string{
		{"Drounbraidä Deutsche Bahn", "30/06/2023", "16.87"},
		{"Draimzerbaint Pingo Doce", "29/06/2023", "9.93"},
		{"Breokokoplair Cafe Flore", "28/06/2023", "1,493.09"},
	} {
		put(10, y, r[0])
		put(250, y, r[1])
		put(420, y, r[2])
		y += 15
	}
	res := Analyze([]source.Page{p})
	var got []string
	for _, tx := range res.Transactions {
		got = append(got, tx.Date.Format("2006-01-02")+"|"+tx.Description)
	}
	want := []string{"2023-06-28|Breokokoplair Cafe Flore", "2023-06-29|Draimzerbaint Pingo Doce", "2023-06-30|Drounbraidä Deutsche Bahn"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAnalyzeFooterIsNoDescription reads a footer sentence that every
// page prints at one place: on the first page it stands right under the
// last row, where a wrapped description would, but it is the page's
// furniture (on the second page no row is near it), not the row's words.
func TestAnalyzeFooterIsNoDescription(t *testing.T) {
	page := func(n int, rows [][4]string) source.Page {
		p := source.Page{Number: n, Width: 612, Height: 792}
		put := func(x, y float64, s string) { putWords(&p, x, y, s) }
		ledgerHead(put, "01/01/2023 - 31/01/2023")
		y := 95.0
		for _, r := range rows {
			put(10, y, r[0])
			put(100, y, r[1])
			put(340, y, r[2])
			put(520, y, r[3])
			y += 15
		}
		put(100, 140, "No rights can be derived from this overview")
		return p
	}
	p1 := page(1, [][4]string{{"02/01/2023", "Rent March", "25.00", "75.00"}, {"05/01/2023", "Card Shell", "15.00", "60.00"}, {"09/01/2023", "Card Lidl", "10.00", "50.00"}})
	putWords(&p1, 10, 60, "Opening balance")
	putWords(&p1, 520, 60, "100.00")
	p2 := page(2, [][4]string{{"12/01/2023", "Card Rewe", "5.00", "45.00"}})
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2023-01-02|Rent March||25.00|75.00",
		"2023-01-05|Card Shell||15.00|60.00",
		"2023-01-09|Card Lidl||10.00|50.00",
		"2023-01-12|Card Rewe||5.00|45.00",
	})
}

// TestAnalyzeColonRecordsAfterAnOpeningBlock reads records of "Label:
// value" lines, one under another, after a first block that prints the
// opening balance and no amount: each record, from its date, is a row.
func TestAnalyzeColonRecordsAfterAnOpeningBlock(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	y := 40.0
	put := func(s string) { putWords(&p, 10, y, s); y += 15 }
	put("Vryshgo 2024-03-01 - 2024-03-31")
	for _, b := range [][]string{
		{"Trymuf: 2024-03-01", "Skelarurpu: Opening", "Zvamkiden: $100.00"},
		{"Trymuf: 2024-03-05", "Skelarurpu: Shop Lidl", "Rafaiton: $-25.00", "Zvamkiden: $75.00"},
		{"Trymuf: 2024-03-07", "Skelarurpu: Salary Acme", "Rafaiton: $50.00", "Zvamkiden: $125.00"},
		{"Trymuf: 2024-03-09", "Skelarurpu: Shop Rewe", "Rafaiton: $-5.00", "Zvamkiden: $120.00"},
	} {
		for _, l := range b {
			put(l)
		}
		y += 10
	}
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2024-03-05|Shop Lidl||25.00|75.00",
		"2024-03-07|Salary Acme|50.00||125.00",
		"2024-03-09|Shop Rewe||5.00|120.00",
	})
}

// TestAnalyzeWrappedLineBetweenTwoRows reads a line of text set exactly
// halfway between two rows, in a table whose layout shows no habit: it
// goes to one of them, and both say so in a warning rather than silently.
func TestAnalyzeWrappedLineBetweenTwoRows(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	ledgerHead(put, "01/01/2023 - 31/01/2023")
	put(10, 60, "Opening balance")
	put(520, 60, "100.00")
	ledgerRow(put, 100, "02/01/2023", "Rent March", "25.00", "", "75.00")
	put(100, 111, "Vrokplen skartomir")
	ledgerRow(put, 122, "05/01/2023", "Card Shell", "15.00", "", "60.00")
	res := Analyze([]source.Page{p})
	if len(res.Transactions) != 2 {
		t.Fatalf("%d rows, want 2", len(res.Transactions))
	}
	for _, tx := range res.Transactions {
		if !slices.ContainsFunc(tx.Warnings, func(w ledger.Warning) bool { return w.Kind == ledger.WarnDescriptionShared }) {
			t.Errorf("%q: no description_shared warning (%v)", tx.Description, tx.Warnings)
		}
	}
}

// TestAnalyzeNoticeboardBesideTheRows reads a table beside which a block
// of notes runs at a pitch of its own, some of its lines at a row's
// height: the notes stay out of the rows, the heading stacked on two lines
// ("Money" over "out" beside "Money in") names two columns, and the rows
// of the day printed only on its first line take its date.
func TestAnalyzeNoticeboardBesideTheRows(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01/01/2020 - 31/01/2020")
	put(10, 80, "Date")
	put(60, 80, "Description")
	put(200, 80, "Money")
	put(250, 80, "Money in")
	put(320, 80, "Balance")
	put(205, 90, "out")
	notes := []string{"Noticeboard", "The fee for cash", "abroad is changing now", "With effect from today",
		"the fee for using your", "card abroad will be", "charged for each", "transaction regardless of",
		"the amount withdrawn", "see the back of your", "statement for details"}
	for i, s := range notes {
		put(420, 93+12*float64(i), s)
	}
	put(10, 105, "31 Jan")
	put(60, 105, "Start balance")
	put(320, 105, "1000.00")
	put(10, 117, "2020")
	put(60, 135, "Transfer from")
	put(250, 135, "500.00")
	put(320, 135, "1500.00")
	put(60, 147, "Acme Payroll")
	put(60, 165, "Bill payment to")
	put(200, 165, "120.50")
	put(320, 165, "1379.50")
	put(60, 177, "Grocer Market")
	put(60, 195, "Card Shell")
	put(205, 195, "79.50")
	put(320, 195, "1300.00")
	put(60, 207, "Fuel")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2020-01-31|Transfer from Acme Payroll|500.00||1500.00",
		"2020-01-31|Bill payment to Grocer Market||120.50|1379.50",
		"2020-01-31|Card Shell Fuel||79.50|1300.00",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeDatedLineOffTheDateColumn never says ok for a table that
// left out a line printing a date and a movement where its dates do not
// stand, nor for a row that took the date above while its own line
// prints one elsewhere: the arithmetic of the rows read proves neither.
func TestAnalyzeDatedLineOffTheDateColumn(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	ledgerHead(put, "01/01/2023 - 31/01/2023")
	put(10, 90, "01/01/2023")
	put(100, 90, "Opening balance")
	put(520, 90, "100.00")
	ledgerRow(put, 105, "02/01/2023", "Salary Acme", "", "50.00", "150.00")
	// The next row's date printed after its words, in its description's
	// column: the row takes the date above and says so.
	put(100, 120, "Rent 05/01/2023")
	put(340, 120, "25.00")
	put(520, 120, "125.00")
	res := Analyze([]source.Page{p})
	if got := res.Statement.Reconciliation.Status; got == "ok" {
		t.Errorf("status ok for a row whose own printed date was not read")
	}
	if n := len(res.Transactions); n != 2 || !res.Transactions[1].Provenance.DateUnread {
		t.Errorf("want 2 rows, the second marked date_unread; got %d", n)
	}
}

// TestAnalyzeFullDateWrappedInItsCell reads a date printed with its
// weekday in a narrow cell over two lines ("vineri, 2" over "august
// 2024", as "понедельник, 26" over "августа 2024 г."), and leaves as two rows' dates a cell whose next
// line starts a date of its own after its weekday ("luni, 17" ...
// "marți, 18 octombrie 2022").
func TestAnalyzeFullDateWrappedInItsCell(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	ledgerHead(put, "01/08/2024 - 31/08/2024")
	ledgerRow(put, 90, "vineri, 2", "Salary Acme", "", "50.00", "150.00")
	put(10, 100, "august 2024")
	ledgerRow(put, 115, "miercuri, 7", "Rent March", "25.00", "", "125.00")
	put(10, 125, "august 2024")
	ledgerRow(put, 140, "luni, 12 august 2024", "Card Shell", "15.00", "", "110.00")
	ledgerRow(put, 150, "marți, 13 august 2024", "Card Lidl", "10.00", "", "100.00")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2024-08-02|Salary Acme|50.00||150.00",
		"2024-08-07|Rent March||25.00|125.00",
		"2024-08-12|Card Shell||15.00|110.00",
		"2024-08-13|Card Lidl||10.00|100.00",
	})
}

// TestAnalyzeSummaryBelowTheRows reads the balances a statement prints
// below its rows, in words no lexicon holds and in either order, as its
// opening and closing balances: not as rows of the last day.
func TestAnalyzeSummaryBelowTheRows(t *testing.T) {
	for _, tc := range []struct {
		name           string
		first, second  string
		opening, close string
	}{
		{"opening first", "100.00", "125.00", "100", "125"},
		{"closing first", "125.00", "100.00", "100", "125"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := source.Page{Number: 1, Width: 612, Height: 792}
			put := func(x, y float64, s string) { putWords(&p, x, y, s) }
			put(10, 40, "Statement period: 01/01/2023 - 31/01/2023")
			put(10, 90, "02/01/2023")
			put(100, 90, "Salary Acme")
			put(520, 90, "50.00")
			put(10, 105, "05/01/2023")
			put(100, 105, "Rent March")
			put(515, 105, "-15.00")
			put(10, 120, "09/01/2023")
			put(100, 120, "Card Shell")
			put(515, 120, "-10.00")
			put(10, 150, "Vrokplen skartomir")
			put(520, 150, tc.first)
			put(10, 165, "Glenmur")
			put(520, 165, tc.second)
			res := Analyze([]source.Page{p})
			checkTxs(t, res, []string{
				"2023-01-02|Salary Acme|50.00||150.00",
				"2023-01-05|Rent March||15.00|135.00",
				"2023-01-09|Card Shell||10.00|125.00",
			})
			st := res.Statement
			if st.OpeningBalance == nil || st.OpeningBalance.String() != tc.opening || st.ClosingBalance == nil || st.ClosingBalance.String() != tc.close {
				t.Errorf("opening %v, closing %v; want %s and %s", st.OpeningBalance, st.ClosingBalance, tc.opening, tc.close)
			}
		})
	}
}

// TestAnalyzeWholeUnitsCloseToTheirText reads a whole number of a few
// digits set close before the next column's words as money, in a table
// whose every figure is a whole number ("993 Úroky" under "20 426"), and
// an opening balance named below the rows as the opening, not a row.
func TestAnalyzeWholeUnitsCloseToTheirText(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01/01/2023 - 31/01/2023")
	put(10, 90, "02/01/2023")
	put(125, 90, "-20 426")
	put(162, 90, "Rent March")
	put(10, 105, "05/01/2023")
	put(135, 105, "2 344")
	put(162, 105, "Salary Acme")
	put(10, 120, "09/01/2023")
	put(145, 120, "993")
	put(162, 120, "Refund Shell")
	put(10, 135, "11/01/2023")
	put(130, 135, "-1 500")
	put(162, 135, "Card Lidl")
	put(10, 165, "Opening balance")
	put(130, 165, "50 000")
	put(10, 180, "Closing balance")
	put(130, 180, "31 411")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-01-02|Rent March||20426.00|29574.00",
		"2023-01-05|Salary Acme|2344.00||31918.00",
		"2023-01-09|Refund Shell|993.00||32911.00",
		"2023-01-11|Card Lidl||1500.00|31411.00",
	})
}

// TestAnalyzeHeadlessDayBalanceColumn reads, in a table with no heading
// the lexicon knows, the balances of the day that only the day's last
// line prints, in a column right of every movement, as the balance after
// that day's last row; and a date printed with its weekday after a comma
// ("2025 ж. 5 наурыз, сәрсенбі" as "5 March 2025, Wednesday").
func TestAnalyzeHeadlessDayBalanceColumn(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Glenmur: 01/03/2025 - 31/03/2025")
	put(10, 70, "Vrokplen")
	put(100, 70, "Skartomir")
	put(380, 70, "Drelm")
	put(500, 70, "Frusk")
	put(10, 90, "3 March 2025, Monday")
	put(150, 90, "Salary Acme")
	put(380, 90, "50.00")
	put(150, 102, "Dagmur vorn")
	put(520, 102, "150.00")
	put(10, 120, "5 March 2025, Wednesday")
	put(150, 120, "Rent March")
	put(375, 120, "-25.00")
	put(10, 135, "5 March 2025, Wednesday")
	put(150, 135, "Card Shell")
	put(375, 135, "-15.00")
	put(150, 147, "Dagmur vorn")
	put(520, 147, "110.00")
	put(10, 165, "9 March 2025, Sunday")
	put(150, 165, "Card Lidl")
	put(375, 165, "-10.00")
	put(150, 177, "Dagmur vorn")
	put(520, 177, "100.00")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2025-03-03|Salary Acme|50.00||150.00",
		"2025-03-05|Rent March||25.00|125.00",
		"2025-03-05|Card Shell||15.00|110.00",
		"2025-03-09|Card Lidl||10.00|100.00",
	})
}

// TestAnalyzeSummaryTableBelowTheRows reads a summary printed below the
// rows as a heading that names the opening balance over lines of its
// figures, staggered as its cells are: the opening is the rows', and its
// figures are no row of the last day.
func TestAnalyzeSummaryTableBelowTheRows(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01/01/2023 - 31/01/2023")
	ledgerRow(put, 90, "02/01/2023", "Salary Acme", "", "50.00", "150.00")
	put(10, 105, "05/01/2023")
	put(100, 105, "Rent March")
	put(415, 105, "-25.00")
	put(520, 105, "125.00")
	put(300, 120, "Opening balance")
	put(400, 120, "Vrokplen Skartomir")
	put(500, 120, "Glenmur")
	put(300, 132, "100.00")
	put(420, 132, "50.00")
	put(460, 144, "25.00")
	put(520, 144, "125.00")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme|50.00||150.00",
		"2023-01-05|Rent March||25.00|125.00",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeUnnamedColumnOfItsOwn keeps in each row's description, in
// the order printed, the cells of a column under a heading the lexicon
// does not know whose cells differ from row to row (a counterparty and
// its IBAN on the line below), and leaves out one whose cells repeat a
// few words (a status).
func TestAnalyzeUnnamedColumnOfItsOwn(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01/01/2023 - 31/01/2023")
	put(10, 80, "Date")
	put(70, 80, "Vrokplen")
	put(200, 80, "Description")
	put(300, 80, "Skartomir")
	put(420, 80, "Amount")
	put(510, 80, "Balance")
	put(10, 90, "01/01/2023")
	put(100, 90, "Opening balance")
	put(520, 90, "100.00")
	rows := []struct{ date, party, desc, status, amt, bal string }{
		{"02/01/2023", "ACME", "Salary", "DONE", "50.00", "150.00"},
		{"05/01/2023", "LANDLORD", "Rent", "DONE", "-25.00", "125.00"},
		{"09/01/2023", "SHELL", "Card", "HELD", "-15.00", "110.00"},
		{"12/01/2023", "LIDL", "Card", "DONE", "-10.00", "100.00"},
	}
	for i, r := range rows {
		y := 105 + 25*float64(i)
		put(10, y, r.date)
		put(70, y, r.party)
		put(200, y, r.desc)
		put(300, y, r.status)
		put(420, y, r.amt)
		put(520, y, r.bal)
		put(70, y+11, "NL0"+string(rune('1'+i))+"BANK0123")
	}
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-01-02|ACME NL01BANK0123 Salary|50.00||150.00",
		"2023-01-05|LANDLORD NL02BANK0123 Rent||25.00|125.00",
		"2023-01-09|SHELL NL03BANK0123 Card||15.00|110.00",
		"2023-01-12|LIDL NL04BANK0123 Card||10.00|100.00",
	})
}

// TestAnalyzeGrandTotalAndWrappedTimes reads a grand total that sums the
// section totals above it as a totals line, not a row, and drops the
// time of day a date cell wrapped below its date ("29/09/2024" over
// "07:21"), which is no description's.
func TestAnalyzeGrandTotalAndWrappedTimes(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	ledgerHead(put, "01/01/2023 - 31/01/2023")
	put(10, 90, "01/01/2023")
	put(100, 90, "Opening balance")
	put(520, 90, "100.00")
	row := func(y float64, date, desc, out, in, bal string) {
		ledgerRow(put, y, date, desc, out, in, bal)
		put(10, y+10, "07:21")
	}
	row(105, "02/01/2023", "Salary Acme", "", "50.00", "150.00")
	row(130, "03/01/2023", "Refund Lidl", "", "10.00", "160.00")
	row(155, "05/01/2023", "Rent March", "25.00", "", "135.00")
	put(100, 180, "Vrokplen")
	put(340, 180, "25.00")
	put(420, 180, "60.00")
	row(195, "09/01/2023", "Card Shell", "15.00", "", "120.00")
	row(220, "10/01/2023", "Card Lidl", "5.00", "", "115.00")
	put(100, 245, "Vrokplen")
	put(340, 245, "20.00")
	put(100, 260, "Vrokplen")
	put(340, 260, "45.00")
	put(420, 260, "60.00")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme|50.00||150.00",
		"2023-01-03|Refund Lidl|10.00||160.00",
		"2023-01-05|Rent March||25.00|135.00",
		"2023-01-09|Card Shell||15.00|120.00",
		"2023-01-10|Card Lidl||5.00|115.00",
	})
}

// TestAnalyzeAccountsNamedWithAWordForAccount reads as two accounts a
// page with no heading whose tables each stand under an account named by
// a word for account, another word and its number ("Compte épargne
// 0576890791"), each with its own opening balance: the second opening
// starts the second account, not the first one's balances again.
func TestAnalyzeAccountsNamedWithAWordForAccount(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Période: 01/06/2022 - 30/06/2022")
	y := 70.0
	for _, acct := range []struct {
		name, open string
		rows       [][4]string
	}{
		{"Compte courant 0828988028", "200.00", [][4]string{{"01/06/2022", "Paiement carte Lidl", "35.00", "165.00"}, {"05/06/2022", "Virement emis Shell", "15.00", "150.00"}, {"09/06/2022", "Virement recu Acme", "-50.00", "200.00"}}},
		{"Compte epargne 0576890791", "700.00", [][4]string{{"03/06/2022", "Virement recu Zoe", "-100.00", "800.00"}, {"07/06/2022", "Prelevement Vodafone", "20.00", "780.00"}, {"17/06/2022", "Prelevement Orange", "30.00", "750.00"}}},
	} {
		put(10, y, acct.name)
		put(10, y+20, "Solde precedent")
		put(520, y+20, acct.open)
		y += 40
		for _, r := range acct.rows {
			put(10, y, r[0])
			put(100, y, r[1])
			put(420, y, r[2])
			put(520, y, r[3])
			y += 15
		}
		y += 30
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Statement.Accounts); n != 2 {
		t.Fatalf("%d accounts, want 2 (%s)", n, res.Statement.Reconciliation.Message)
	}
	for i, want := range []string{"0828988028", "0576890791"} {
		if got := res.Statement.Accounts[i].Number; got != want {
			t.Errorf("account %d is %q, want %q", i, got, want)
		}
	}
}

// TestAnalyzeDateCellWordsAreNoDescription keeps the words a wrapped
// date cell prints in its column ("pirmdiena, 2022. gada 12." over
// "decembris") out of the description, and a row whose date cell holds
// such words but no date read (its day lost: "piektdiena, 2022. gada"
// over "decembris") is never ok.
func TestAnalyzeDateCellWordsAreNoDescription(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Periods: 01/12/2022 - 31/12/2022")
	rows := []struct{ d1, d2, desc, amt, bal string }{
		{"trešdiena, 2022. gada 7.", "decembris", "Card Lidl", "-31.76", "882.38"},
		{"pirmdiena, 2022. gada 12.", "decembris", "Card Shell", "-56.29", "826.09"},
		{"piektdiena, 2022. gada", "decembris", "Card Spotify", "-3.52", "822.57"},
		{"pirmdiena, 2022. gada 19.", "decembris", "Card Rewe", "-63.37", "759.20"},
	}
	for i, r := range rows {
		y := 80 + 25*float64(i)
		put(10, y, r.d1)
		put(180, y, r.desc)
		put(420, y, r.amt)
		put(520, y, r.bal)
		put(10, y+11, r.d2)
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 4 {
		t.Fatalf("%d rows, want 4", n)
	}
	for _, tx := range res.Transactions {
		if strings.Contains(tx.Description, "gada") || strings.Contains(tx.Description, "2022") {
			t.Errorf("description %q holds the date cell's words", tx.Description)
		}
	}
	if !res.Transactions[2].Provenance.DateUnread || res.Statement.Reconciliation.Status == "ok" {
		t.Errorf("the row whose date was not read: date_unread %v, status %s", res.Transactions[2].Provenance.DateUnread, res.Statement.Reconciliation.Status)
	}
}

// TestAnalyzeFewRowsWithTwoDates never says ok when a few rows of a table
// with no heading print a second date that differs from the first: which
// of the two is the booking date is then a guess.
func TestAnalyzeFewRowsWithTwoDates(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Glenmur: 01/01/2023 - 31/01/2023")
	put(10, 60, "Vrokplen")
	put(520, 60, "100.00")
	rows := [][5]string{
		{"02/01/2023", "", "Salary Acme", "50.00", "150.00"},
		{"05/01/2023", "07/01/2023", "Rent March", "-25.00", "125.00"},
		{"09/01/2023", "", "Card Shell", "-15.00", "110.00"},
		{"12/01/2023", "", "Card Lidl", "-10.00", "100.00"},
		{"15/01/2023", "", "Card Rewe", "-5.00", "95.00"},
	}
	for i, r := range rows {
		y := 80 + 15*float64(i)
		put(10, y, r[0])
		if r[1] != "" {
			put(70, y, r[1])
		}
		put(150, y, r[2])
		put(420, y, r[3])
		put(520, y, r[4])
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 5 {
		t.Fatalf("%d rows, want 5", n)
	}
	if got := res.Statement.Reconciliation.Status; got == "ok" {
		t.Errorf("ok, though a row's two dates differ and nothing says which is its booking date")
	}
}

// TestAnalyzeFooterUnderTheClosingBalance reads a page of whole pesos
// whose footing, ending in a telephone number at the debit column's edge,
// stands close under the summary below the rows: no row of the last day.
func TestAnalyzeFooterUnderTheClosingBalance(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	ledgerHead(put, "01/03/2024 - 31/03/2024")
	ledgerRow(put, 110, "02/03/2024", "Card Lidl", "10.000", "", "90.005")
	ledgerRow(put, 125, "05/03/2024", "Salary Acme", "", "50.000", "140.005")
	ledgerRow(put, 140, "09/03/2024", "Card Shell", "15.000", "", "125.005")
	put(10, 155, "Opening balance")
	put(520, 155, "100.005")
	put(10, 167, "Closing balance")
	put(520, 167, "125.005")
	put(160, 190, "Vrokplen Bank · 37572936 ·")
	put(295, 190, "+69 760 040 828")
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 3 {
		t.Fatalf("%d rows, want 3: %+v", n, res.Transactions)
	}
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeDescriptionHangingOverItsDate reads a table whose rows print
// their description's first line above their date, as a cell centred on
// its row does: the first row's first line, a word that also titles
// sections ("Debit"), is its description's, and gives no row a direction.
func TestAnalyzeDescriptionHangingOverItsDate(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01/03/2024 - 31/03/2024")
	put(10, 60, "Opening balance")
	put(520, 60, "100.00")
	put(10, 80, "Date")
	put(100, 80, "Details")
	put(420, 80, "Amount")
	put(510, 80, "Balance")
	rows := []struct{ above, date, desc, amt, bal string }{
		{"Debit", "02/03/2024", "Albert Heijn", "10.00-", "90.00"},
		{"Salary", "05/03/2024", "Acme Ltd", "50.00", "140.00"},
		{"Card payment", "09/03/2024", "Shell", "15.00-", "125.00"},
		{"Transfer from", "12/03/2024", "Lukas Kowal", "20.00", "145.00"},
	}
	for i, r := range rows {
		y := 100 + 26*float64(i)
		put(100, y, r.above)
		put(10, y+11, r.date)
		put(100, y+11, r.desc)
		put(420, y+11, r.amt)
		put(520, y+11, r.bal)
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 4 {
		t.Fatalf("%d rows, want 4", n)
	}
	for i, tx := range res.Transactions {
		if want := rows[i].above + " " + rows[i].desc; tx.Description != want {
			t.Errorf("row %d: description %q, want %q", i, tx.Description, want)
		}
	}
	if tx := res.Transactions[1]; tx.AmountIn == nil || tx.AmountIn.String() != "50" {
		t.Errorf("row 1 in %v out %v, want 50 in", tx.AmountIn, tx.AmountOut)
	}
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeTotalOfASectionOfOneRow reads sections each closed by a
// totals line in words no lexicon holds: the first sums two rows, and so
// is read by its sums; the last, in the same words, sums one row only,
// and is a totals line too, no second row.
func TestAnalyzeTotalOfASectionOfOneRow(t *testing.T) {
	p, put := openLedger("01/03/2024 - 31/03/2024")
	ledgerRow(put, 110, "02/03/2024", "Card Lidl", "10.00", "", "90.00")
	ledgerRow(put, 125, "03/03/2024", "Card Shell", "15.00", "", "75.00")
	ledgerRow(put, 140, "", "Vroktal", "25.00", "0.00", "")
	ledgerRow(put, 160, "05/03/2024", "Salary Acme", "", "50.00", "125.00")
	ledgerRow(put, 175, "", "Vroktal", "0.00", "50.00", "")
	res := Analyze([]source.Page{*p})
	if n := len(res.Transactions); n != 3 {
		t.Fatalf("%d rows, want 3: %+v", n, res.Transactions)
	}
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeFullDatesFillingTheirCells reads two date columns whose full
// dates ("pirmdiena, 2022. gada" over "12. decembris") fill their cells,
// so that less than a line's height parts one cell from the next:
// each joins the day and month wrapped below it, and the description's
// wrapped word stays the description's.
func TestAnalyzeFullDatesFillingTheirCells(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01.12.2022 - 31.12.2022")
	put(10, 60, "Opening balance")
	put(520, 60, "882,38")
	put(10, 80, "Date")
	put(122, 80, "Value date")
	// The date cells' words a narrow space apart, as a proportional
	// font sets them.
	tight := func(x, y float64, s string) {
		for _, w := range strings.Fields(s) {
			putWords(&p, x, y, w)
			x += 5*float64(len(w)) + 2
		}
	}
	put(250, 80, "Details")
	put(420, 80, "Amount")
	put(510, 80, "Balance")
	rows := []struct{ weekday, day, desc, wrap, amt, bal string }{
		{"pirmdiena,", "12.", "Gluxzvygeo Björn's", "Hardware", "(56,29)", "826,09"},
		{"piektdiena,", "16.", "Plämaibal Spotify", "", "(3,52)", "822,57"},
		{"pirmdiena,", "19.", "Plämaibal Città di", "Milano", "(63,37)", "759,20"},
	}
	for i, r := range rows {
		y := 100 + 26*float64(i)
		for _, x := range []float64{10, 122} {
			tight(x, y, r.weekday+" 2022. gada")
			tight(x, y+11, r.day+" decembris")
		}
		put(250, y, r.desc)
		if r.wrap != "" {
			put(250, y+11, r.wrap)
		}
		put(420, y, r.amt)
		put(520, y, r.bal)
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 3 {
		t.Fatalf("%d rows, want 3", n)
	}
	for i, tx := range res.Transactions {
		want := strings.TrimSpace(rows[i].desc + " " + rows[i].wrap)
		if day := strings.TrimSuffix(rows[i].day, "."); tx.Date.Format("2006-01-02") != "2022-12-"+day || tx.Description != want {
			t.Errorf("row %d: %s %q, want 2022-12-%s %q", i, tx.Date.Format("2006-01-02"), tx.Description, day, want)
		}
	}
}

// TestAnalyzeClosingRestatedInUnknownWords reads a line below the last
// row, in words no lexicon holds, whose one figure is that row's balance:
// the closing balance restated, no movement.
func TestAnalyzeClosingRestatedInUnknownWords(t *testing.T) {
	p, put := openLedger("01/03/2024 - 31/03/2024")
	ledgerRow(put, 110, "02/03/2024", "Card Lidl", "10.00", "", "90.00")
	ledgerRow(put, 125, "05/03/2024", "Salary Acme", "", "50.00", "140.00")
	ledgerRow(put, 140, "09/03/2024", "Card Shell", "15.00", "", "125.00")
	ledgerRow(put, 160, "", "Új vroktal", "125.00", "", "")
	res := Analyze([]source.Page{*p})
	if n := len(res.Transactions); n != 3 {
		t.Fatalf("%d rows, want 3", n)
	}
	if st := res.Statement; st.ClosingBalance == nil || st.ClosingBalance.String() != "125" {
		t.Errorf("closing %v, want 125", st.ClosingBalance)
	}
}

// TestAnalyzeDayBalanceLabelCentredOnItsFigure reads a day's balance under
// a label of its own, centred over the lines above and below its figure
// (as a word processor centres a cell): the label's lines are no row's
// description.
func TestAnalyzeDayBalanceLabelCentredOnItsFigure(t *testing.T) {
	// The label prints words on the figure's line too, or only on the
	// lines above and below it.
	for _, mid := range []bool{true, false} {
		p, put := openLedger("01/03/2025 - 31/03/2025")
		rows := []struct{ date, desc, out, in, bal, day string }{
			{"03/03/2025", "Salary Acme", "", "50.00", "150.00", "3"},
			{"05/03/2025", "Card Lidl", "10.00", "", "140.00", "5"},
			{"07/03/2025", "Card Shell", "15.00", "", "125.00", "7"},
		}
		for i, r := range rows {
			y := 115 + 60*float64(i)
			ledgerRow(put, y, r.date, r.desc, r.out, r.in, "")
			put(100, y+14, "Vrokzel tandagens")
			if mid {
				put(100, y+25, "slut "+r.day+" mars")
			}
			put(520, y+25, r.bal)
			put(100, y+36, "2025.")
		}
		res := Analyze([]source.Page{*p})
		if n := len(res.Transactions); n != 3 {
			t.Fatalf("label on the figure's line %v: %d rows, want 3", mid, n)
		}
		for i, tx := range res.Transactions {
			if tx.Description != rows[i].desc {
				t.Errorf("label on the figure's line %v: row %d: description %q, want %q", mid, i, tx.Description, rows[i].desc)
			}
		}
	}
}

// TestAnalyzeBracketClosingBelowItsFigure reads money out in brackets
// whose narrow cell wrapped the currency and the closing bracket onto the
// line below ("(754,00" over "BYN)"): the figure reads whole.
func TestAnalyzeBracketClosingBelowItsFigure(t *testing.T) {
	p, put := openLedger("01/03/2024 - 31/03/2024")
	ledgerRow(put, 110, "02/03/2024", "Card Lidl", "(10.00", "", "90.00")
	put(350, 121, "BYN)")
	ledgerRow(put, 140, "05/03/2024", "Salary Acme", "", "50.00", "140.00")
	res := Analyze([]source.Page{*p})
	if n := len(res.Transactions); n != 2 {
		t.Fatalf("%d rows, want 2", n)
	}
	if tx := res.Transactions[0]; tx.AmountOut == nil || tx.AmountOut.String() != "10" {
		t.Errorf("first row out %v in %v, want 10 out", tx.AmountOut, tx.AmountIn)
	}
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeUnreadFiguresAreNeverOk never says ok where a row's line
// starts its date cell with digits no pattern reads as a date ("2568/12"),
// or prints digits no figure's pattern reads where its amount stands.
func TestAnalyzeUnreadFiguresAreNeverOk(t *testing.T) {
	for _, c := range []struct{ name, date, out string }{
		{"date", "2568/12", "10.00"},
		{"amount", "05/03/2024", "1O.00"},
	} {
		p, put := openLedger("01/03/2024 - 31/03/2024")
		ledgerRow(put, 110, "02/03/2024", "Card Lidl", "10.00", "", "90.00")
		ledgerRow(put, 125, c.date, "Card Shell", c.out, "", "80.00")
		ledgerRow(put, 140, "09/03/2024", "Salary Acme", "", "50.00", "130.00")
		ledgerRow(put, 155, "12/03/2024", "Card Rewe", "5.00", "", "125.00")
		res := Analyze([]source.Page{*p})
		if got := res.Statement.Reconciliation.Status; got == "ok" {
			t.Errorf("%s: ok, though a row's %s was not read", c.name, c.name)
		}
	}
}

// TestAnalyzeDateWithTimeOfDayAndItsPeriod reads dates printed with a
// time and the period of the day ("2025-02-01 2:44 p.m."): the period is
// the date cell's, no description's.
func TestAnalyzeDateWithTimeOfDayAndItsPeriod(t *testing.T) {
	p, put := openLedger("01/02/2025 - 28/02/2025")
	ledgerRow(put, 110, "2025-02-01 2:44 p.m.", "Card Lidl", "10.00", "", "90.00")
	ledgerRow(put, 125, "2025-02-05 9:05 AM", "Salary Acme", "", "50.00", "140.00")
	ledgerRow(put, 140, "2025-02-09 7:40 a.m.", "Card Shell", "15.00", "", "125.00")
	res := Analyze([]source.Page{*p})
	if n := len(res.Transactions); n != 3 {
		t.Fatalf("%d rows, want 3", n)
	}
	for i, want := range []string{"Card Lidl", "Salary Acme", "Card Shell"} {
		if got := res.Transactions[i].Description; got != want {
			t.Errorf("row %d: description %q, want %q", i, got, want)
		}
	}
}

// TestAnalyzeDescriptionsWrapBelowAboveDayBalances reads descriptions of
// three lines wrapped below their rows, set as evenly as the rows, in a
// table whose days end in a balance line of their own: the lines that
// keep to a row above a day's balance say the table wraps below, so a
// row's last line is no line of the next row.
func TestAnalyzeDescriptionsWrapBelowAboveDayBalances(t *testing.T) {
	p, put := openLedger("01/03/2024 - 31/03/2024")
	lines := []struct{ date, desc, out, in, bal string }{
		{"02/03/2024", "Käteisnosto", "10.00", "", ""},
		{"", "Rewe", "", "", ""},
		{"", "Markt", "", "", ""},
		{"02/03/2024", "Tilisiirto", "5.00", "", ""},
		{"", "ulos Trenitalia", "", "", ""},
		{"", "Päivän lopputila 02/03/2024", "", "", "85.00"},
		{"05/03/2024", "Palkka", "", "50.00", ""},
		{"", "Jürgen", "", "", ""},
		{"", "Weiß", "", "", ""},
		{"06/03/2024", "Korttiosto", "20.00", "", ""},
		{"", "NS Reizigers", "", "", ""},
		{"", "Päivän lopputila 06/03/2024", "", "", "115.00"},
	}
	for i, l := range lines {
		ledgerRow(put, 110+11*float64(i), l.date, l.desc, l.out, l.in, l.bal)
	}
	res := Analyze([]source.Page{*p})
	want := []string{"Käteisnosto Rewe Markt", "Tilisiirto ulos Trenitalia", "Palkka Jürgen Weiß", "Korttiosto NS Reizigers"}
	if n := len(res.Transactions); n != len(want) {
		t.Fatalf("%d rows, want %d", n, len(want))
	}
	for i, tx := range res.Transactions {
		if tx.Description != want[i] {
			t.Errorf("row %d: description %q, want %q", i, tx.Description, want[i])
		}
	}
}

// TestAnalyzePeriodLineAboveHeadlessRows reads a table with no heading
// whose period, a range of dates, stands where the rows' dates do: no
// row, and no date for the summary's figures below it.
func TestAnalyzePeriodLineAboveHeadlessRows(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 60, "Vrokplen:")
	put(60, 60, "19/10/2022 – 18/11/2022")
	put(10, 75, "Zeltan vorbrak")
	put(500, 75, "6,274.00")
	rows := []struct{ date, desc, amt string }{
		{"19/10/2022", "Card Lidl", "17.46"},
		{"20/10/2022", "Card Shell", "3.11"},
		{"23/10/2022", "Card Rewe", "8.23"},
		{"25/10/2022", "Card Vodafone", "12.88"},
	}
	for i, r := range rows {
		y := 100 + 15*float64(i)
		put(60, y, r.date)
		put(160, y, r.desc)
		put(500, y, r.amt)
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != len(rows) {
		t.Fatalf("%d rows, want %d: %+v", n, len(rows), res.Transactions)
	}
	for i, tx := range res.Transactions {
		if tx.Description != rows[i].desc {
			t.Errorf("row %d: description %q, want %q", i, tx.Description, rows[i].desc)
		}
	}
}

// TestAnalyzeTwoDayMonthColumnsInWholeUnits reads a table in whole units
// under headings no lexicon holds whose booking and value dates print as
// a day and month ("07.10  08.10"): the second column is dates too, no
// money.
func TestAnalyzeTwoDayMonthColumnsInWholeUnits(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Vrokplen: 7. 10. 2025 – 6. 11. 2025")
	put(10, 80, "Brask")
	put(100, 80, "Zeltan")
	put(200, 80, "Plombrak")
	put(480, 80, "Traskul")
	rows := []struct{ d1, d2, desc, amt string }{
		{"07.10", "07.10", "NS Reizigers", "3 118"},
		{"08.10", "09.10", "Trenitalia London", "22 528"},
		{"10.10", "12.10", "Shell Station", "12 576"},
		{"13.10", "14.10", "Vodafone Madrid", "7 133"},
	}
	for i, r := range rows {
		y := 100 + 15*float64(i)
		put(10, y, r.d1)
		put(100, y, r.d2)
		put(200, y, r.desc)
		put(515-5*float64(len(r.amt)), y, r.amt)
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != len(rows) {
		t.Fatalf("%d rows, want %d", n, len(rows))
	}
	for i, tx := range res.Transactions {
		amt := tx.AmountOut
		if amt == nil {
			amt = tx.AmountIn
		}
		if want := strings.ReplaceAll(rows[i].amt, " ", ""); amt == nil || amt.String() != want {
			t.Errorf("row %d: amount %v, want %s", i, amt, want)
		}
	}
}

// TestAnalyzeHeadlessDescriptionBeforeItsDate reads a table with no
// heading the lexicon knows whose descriptions, mostly of one word on the
// dated line, stand before the date: words of letters before every date
// are the description, no reference.
func TestAnalyzeHeadlessDescriptionBeforeItsDate(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Vrokplen: 01/10/2022 - 31/10/2022")
	rows := []struct{ first, wrap, date, out, bal string }{
		{"Przelew", "wychodzący Lidl", "02/10/2022", "25.41", "4345.48"},
		{"Wynagrodzenie", "Trenitalia", "03/10/2022", "-47.81", "4393.29"},
		{"Zwrot", "Rewe Markt", "04/10/2022", "-18.46", "4411.75"},
		{"Polecenie zapłaty", "Shell", "06/10/2022", "38.18", "4373.57"},
	}
	for i, r := range rows {
		y := 100 + 26*float64(i)
		put(10, y, r.first)
		put(240, y, r.date)
		put(340, y, r.out)
		put(480, y, r.bal)
		put(10, y+11, r.wrap)
	}
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != len(rows) {
		t.Fatalf("%d rows, want %d", n, len(rows))
	}
	for i, tx := range res.Transactions {
		if want := rows[i].first + " " + rows[i].wrap; tx.Description != want {
			t.Errorf("row %d: description %q, want %q", i, tx.Description, want)
		}
	}
}
