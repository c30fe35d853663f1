package extract

import (
	"fmt"
	"strings"
	"testing"

	"passbook/extract/layout"
	"passbook/extract/ledger"
	"passbook/extract/lexicon"
	"passbook/extract/source"
	"passbook/extract/tables"
)

// Tests of issue 19's reading of tables from their structure and their
// arithmetic, each on a page laid out here (synthPage), not on a corpus
// file.

// ledgerPage is a Date | Particulars | Dr | Cr | Balance table whose first
// row is first, then the rows given.
func ledgerPage(first []cellAt, rows ...[]cellAt) source.Page {
	lines := [][]cellAt{
		{at(10, "Statement Period: 01/01/2024 to 31/01/2024")},
		nil,
		{at(10, "Date"), at(70, "Particulars"), at(300, "Dr"), at(380, "Cr"), at(460, "Balance")},
		first,
	}
	return synthPage(1, append(lines, rows...)...)
}

// A first row that restates a balance is the opening balance, not a
// movement, even with its figure in a money column; a first row whose
// amount equals its balance is a movement from zero when its words say so.
func TestOpeningRowRestated(t *testing.T) {
	rows := [][]cellAt{
		{at(10, "02/01/2024"), at(70, "CASH WITHDRAWAL"), rat(340, "2000.00"), rat(500, "13000.00")},
		{at(10, "04/01/2024"), at(70, "NEFT CREDIT"), rat(420, "25000.00"), rat(500, "38000.00")},
	}
	for _, tc := range []struct {
		name  string
		first []cellAt
		want  []string
	}{
		{"brought forward in the credit column", []cellAt{at(10, "01/01/2024"), at(70, "BALANCE B/F"), rat(420, "15000.00"), rat(500, "15000.00")},
			[]string{"2024-01-02|CASH WITHDRAWAL||2000.00|13000.00", "2024-01-04|NEFT CREDIT|25000.00||38000.00"}},
		{"opening balance without a date", []cellAt{at(70, "Opening balance"), rat(420, "15000.00"), rat(500, "15000.00")},
			[]string{"2024-01-02|CASH WITHDRAWAL||2000.00|13000.00", "2024-01-04|NEFT CREDIT|25000.00||38000.00"}},
		{"saldovortrag", []cellAt{at(10, "01/01/2024"), at(70, "Saldovortrag"), rat(420, "15000.00"), rat(500, "15000.00")},
			[]string{"2024-01-02|CASH WITHDRAWAL||2000.00|13000.00", "2024-01-04|NEFT CREDIT|25000.00||38000.00"}},
		{"a salary from zero", []cellAt{at(10, "01/01/2024"), at(70, "SALARY PAYMENT ACME"), rat(420, "15000.00"), rat(500, "15000.00")},
			[]string{"2024-01-01|SALARY PAYMENT ACME|15000.00||15000.00", "2024-01-02|CASH WITHDRAWAL||2000.00|13000.00", "2024-01-04|NEFT CREDIT|25000.00||38000.00"}},
		{"a balance nothing tells", []cellAt{at(10, "01/01/2024"), at(70, "BALANCE"), rat(420, "15000.00"), rat(500, "15000.00")},
			[]string{"2024-01-01|BALANCE|15000.00||15000.00", "2024-01-02|CASH WITHDRAWAL||2000.00|13000.00", "2024-01-04|NEFT CREDIT|25000.00||38000.00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Analyze([]source.Page{ledgerPage(tc.first, rows...)})
			if strings.HasPrefix(tc.name, "a balance") && res.Statement.Reconciliation.Status != ledger.ReconcileUnverified {
				t.Errorf("reconciliation %+v, want unverified: the first row may restate the opening balance", res.Statement.Reconciliation)
			}
			checkTxs(t, res, tc.want)
			if len(tc.want) == 2 {
				if st := res.Statement; st.OpeningBalance == nil || st.OpeningBalance.StringFixed(2) != "15000.00" || st.Reconciliation.Status != ledger.ReconcileOK {
					t.Errorf("opening %v, reconciliation %+v: want 15000.00 and ok", st.OpeningBalance, st.Reconciliation)
				}
			}
		})
	}
}

// A closing row printed in a money column below the last movement is the
// closing balance, not a movement.
func TestClosingRowRestated(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Relevé du 01/04/2024 au 30/04/2024")},
		[]cellAt{at(10, "Solde précédent"), rat(500, "100,00")},
		nil,
		[]cellAt{at(10, "Date"), at(70, "Libellé"), at(340, "Débit"), at(440, "Crédit")},
		[]cellAt{at(10, "02/04/2024"), at(70, "PRLV EDF"), rat(380, "40,00")},
		[]cellAt{at(10, "05/04/2024"), at(70, "VIR SALAIRE"), rat(480, "1 000,00")},
		[]cellAt{at(70, "NOUVEAU SOLDE CREDITEUR"), rat(480, "1 060,00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{"2024-04-02|PRLV EDF||40.00|60.00", "2024-04-05|VIR SALAIRE|1000.00||1060.00"})
	if st := res.Statement; st.ClosingBalance == nil || st.ClosingBalance.StringFixed(2) != "1060.00" || st.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("closing %v, reconciliation %+v: want 1060.00 and ok", st.ClosingBalance, st.Reconciliation)
	}
}

func TestRestates(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"BALANCE B/F", true},
		{"Solde précédent au 31 janvier XXXX", true},
		{"Opening Balance", true},
		{"TRANSFER OPENING BALANCE TO SAVINGS ACCT", false},
		{"SALARY PAYMENT", false},
		{"report Gehalt Pingo Doce", false},
		{"Report", true},
	} {
		if got := tables.Restates(tc.text, lexicon.Vocab().Opening); got != tc.want {
			t.Errorf("restates(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// Explain says, for a person, which tables it found, what each column is
// and why, the readings it weighed and the lines it left out.
func TestExplain(t *testing.T) {
	var b strings.Builder
	res := Explain([]source.Page{usPage()}, &b)
	if len(res.Transactions) != 4 {
		t.Fatalf("got %d transactions, want 4", len(res.Transactions))
	}
	out := b.String()
	for _, want := range []string{
		`page 1: heading at p1`,
		`"Withdrawals"`, `=money out`, `=balance`,
		`amount columns: `, `money out (3 amounts; under heading "Withdrawals")`,
		`opening balance 1062.75 from p1`,
		`reading as headed: 3 printed balance(s) follow`,
		`printed balance(s) follow; runner-up `,
		`4 transaction(s); ok:`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
}

// The roles of a table's money columns come from the arithmetic where the
// headings sit over the wrong columns: here "Cheques & Debits" and
// "Deposits & Credits" each span two words, and the right-aligned figures
// of each column end under the heading to its right, as a browser prints
// them.
func TestColumnRolesByArithmetic(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement Period: November 21, 2024 - November 30, 2024")},
		nil,
		[]cellAt{at(10, "Date"), at(60, "Description"), at(230, "Cheques & Debits"), at(330, "Deposits & Credits"), at(460, "Balance")},
		[]cellAt{at(10, "Balance brought forward"), rat(520, "1613.54")},
		[]cellAt{at(10, "Nov 21"), at(60, "SALARY ACME CORP LTD"), rat(430, "5669.05"), rat(520, "7282.59")},
		[]cellAt{at(10, "Nov 21"), at(60, "CAFE LUNA"), rat(345, "345.14"), rat(520, "6937.45")},
		[]cellAt{at(10, "Nov 22"), at(60, "CITY WATER UTILITY"), rat(345, "55.30"), rat(520, "6882.15")},
		[]cellAt{at(10, "Nov 23"), at(60, "CASH DEPOSIT BRANCH 12"), rat(430, "259.57"), rat(520, "7141.72")},
		[]cellAt{at(10, "Nov 26"), at(60, "TESCO STORES 3172"), rat(345, "8216.94"), rat(520, "(1075.22)")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-11-21|SALARY ACME CORP LTD|5669.05||7282.59",
		"2024-11-21|CAFE LUNA||345.14|6937.45",
		"2024-11-22|CITY WATER UTILITY||55.30|6882.15",
		"2024-11-23|CASH DEPOSIT BRANCH 12|259.57||7141.72",
		"2024-11-26|TESCO STORES 3172||8216.94|-1075.22",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// A Dr/Cr indicator column's words give each amount its direction: the
// lexicon's ("Af", "Bij"), and words it does not hold by the arithmetic.
func TestIndicatorWords(t *testing.T) {
	for _, tc := range []struct{ out, in string }{{"Af", "Bij"}, {"Ka", "Ba"}} {
		pg := synthPage(1,
			[]cellAt{at(10, "Periode 01-10-2024 tot 15-10-2024")},
			nil,
			[]cellAt{at(10, "Datum"), at(70, "Omschrijving"), at(300, "Bedrag"), at(370, "Af/Bij"), at(460, "Saldo")},
			[]cellAt{at(10, "Beginsaldo"), rat(500, "3.467,75")},
			[]cellAt{at(10, "01-10-2024"), at(70, "ALBERT HEIJN"), rat(340, "67,40"), at(370, tc.out), rat(500, "3.400,35")},
			[]cellAt{at(10, "02-10-2024"), at(70, "SALARIS"), rat(340, "2.578,89"), at(370, tc.in), rat(500, "5.979,24")},
			[]cellAt{at(10, "03-10-2024"), at(70, "HUUR"), rat(340, "1.200,00"), at(370, tc.out), rat(500, "4.779,24")},
		)
		res := Analyze([]source.Page{pg})
		checkTxs(t, res, []string{
			"2024-10-01|ALBERT HEIJN||67.40|3400.35",
			"2024-10-02|SALARIS|2578.89||5979.24",
			"2024-10-03|HUUR||1200.00|4779.24",
		})
		if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
			t.Errorf("%s/%s: reconciliation %s, want ok", tc.out, tc.in, s)
		}
	}
}

// A totals line under a table proves the rows above it: with a printed
// opening balance and no balance on the rows, rows that add up to their
// totals line are ok; rows that do not are not.
func TestTotalsLineProves(t *testing.T) {
	page := func(total string) source.Page {
		return synthPage(1,
			[]cellAt{at(10, "Statement period: March 1, 2023 - March 31, 2023")},
			[]cellAt{at(10, "Opening balance"), rat(300, "1,000.00")},
			nil,
			[]cellAt{at(10, "Date"), at(90, "Description"), at(440, "Amount")},
			[]cellAt{at(10, "03/12/23"), at(90, "Office Supplies Inc"), rat(480, "-10.31")},
			[]cellAt{at(10, "03/15/23"), at(90, "Transfer from savings"), rat(480, "1,305.45")},
			[]cellAt{at(10, "03/30/23"), at(90, "Deposit - payroll"), rat(480, "5,507.76")},
			[]cellAt{at(10, "Totals"), rat(480, total)},
		)
	}
	res := Analyze([]source.Page{page("$6,802.90")})
	checkTxs(t, res, []string{
		"2023-03-12|Office Supplies Inc||10.31|989.69",
		"2023-03-15|Transfer from savings|1305.45||2295.14",
		"2023-03-30|Deposit - payroll|5507.76||7802.90",
	})
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Errorf("rows that add up to their totals line: %+v, want ok", rec)
	}
	if rec := Analyze([]source.Page{page("$6,812.90")}).Statement.Reconciliation; rec.Status == ledger.ReconcileOK {
		t.Errorf("rows that do not add up to their totals line: %+v, want not ok", rec)
	}
}

// A table whose headings the lexicon does not know is still read, from
// its dates and its column of figures, and says it is unverified: never
// zero rows from a dated amount table.
func TestUnknownHeadingsOneColumn(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "KỲ SAO KÊ: 2025-03-11 - 2025-04-10")},
		nil,
		[]cellAt{at(10, "Ngày"), at(120, "Mô tả"), at(400, "Số tiền")},
		[]cellAt{at(10, "2025-03-12"), at(120, "Payment Received"), rat(460, "RM -800.00")},
		[]cellAt{at(10, "2025-03-13"), at(120, "Restaurant"), rat(460, "RM 120.00")},
		[]cellAt{at(10, "2025-03-14"), at(120, "Mobile Bill"), rat(460, "RM 90.00")},
	)
	res := Analyze([]source.Page{pg})
	if len(res.Transactions) != 3 {
		t.Fatalf("got %d transactions, want 3", len(res.Transactions))
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified", s)
	}
}

// A heading with columns the lexicon does not know (Category, Points)
// beside the ones it does is a table's heading; the numbers under Points
// are not money.
func TestHeadingWithUnknownColumns(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Credit Card Statement"), at(300, "Statement Period: 2025-04-01 to 2025-04-18")},
		[]cellAt{at(10, "Credit Limit S$ 25,000.00"), at(300, "Minimum Payment S$ 512.78")},
		[]cellAt{at(10, "Previous Balance"), at(300, "Payment Due Date")},
		[]cellAt{at(10, "S$ 0.00"), at(300, "2025-05-09")},
		nil,
		[]cellAt{at(10, "Date"), at(100, "Description"), at(220, "Category"), at(330, "Amount (SGD)"), at(450, "Points")},
		[]cellAt{at(10, "14/04/2025"), at(100, "NTUC FairPrice"), at(220, "Groceries"), at(330, "488.81"), at(450, "196")},
		[]cellAt{at(10, "02/04/2025"), at(100, "Grab Transport"), at(220, "Transport"), at(330, "1,271.05"), at(450, "1,271")},
	)
	res := Analyze([]source.Page{pg})
	var got []string
	for _, tx := range res.Transactions {
		got = append(got, txLine(tx))
	}
	want := []string{"2025-04-14|NTUC FairPrice||488.81|", "2025-04-02|Grab Transport||1271.05|"}
	if len(got) != len(want) {
		t.Fatalf("transactions %q, want %q (balances aside)", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("transaction %d = %q, want %q (balance aside)", i, got[i], want[i])
		}
	}
}

// Pages whose running header prints a different account number each are
// one account when the arithmetic says so: the rows run from the first
// page's opening balance to the last page's closing balance, printed in
// the table's description column.
func TestAccountNamesOneChain(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Estratto conto dal 01/03/2024 al 27/04/2024"), at(400, "Account 382-869186")},
		[]cellAt{at(10, "Saldo iniziale al 01/03/2024 EUR 318,64")},
		nil,
		[]cellAt{at(10, "Data contabile"), at(100, "Descrizione operazione"), at(330, "Dare"), at(420, "Avere")},
		[]cellAt{at(10, "03/03/2024"), at(100, "NETFLIX.COM"), rat(360, "215,89")},
		[]cellAt{at(10, "04/03/2024"), at(100, "CASH DEPOSIT BRANCH 12"), rat(460, "2.579,29")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "Estratto conto dal 01/03/2024 al 27/04/2024"), at(400, "Account 355-597131")},
		nil,
		[]cellAt{at(10, "Data contabile"), at(100, "Descrizione operazione"), at(330, "Dare"), at(420, "Avere")},
		[]cellAt{at(10, "08/04/2024"), at(100, "GYM MEMBERSHIP DD"), rat(360, "264,91")},
		[]cellAt{at(10, "25/04/2024"), at(100, "SALARY ACME CORP LTD"), rat(460, "3.610,25")},
		nil,
		[]cellAt{at(10, "Saldo finale al 27/04/2024 EUR 6.027,38")},
	)
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2024-03-03|NETFLIX.COM||215.89|102.75",
		"2024-03-04|CASH DEPOSIT BRANCH 12|2579.29||2682.04",
		"2024-04-08|GYM MEMBERSHIP DD||264.91|2417.13",
		"2024-04-25|SALARY ACME CORP LTD|3610.25||6027.38",
	})
	if len(res.Statement.Accounts) != 0 || res.Statement.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("accounts %d, reconciliation %+v: want one account, ok", len(res.Statement.Accounts), res.Statement.Reconciliation)
	}
}

// A box of labels over values gives the opening and closing balances
// printed under their labels, and a figure misprinted with its cents
// after a grouping dot ("2.853.82" among decimal commas) reads as cents.
func TestLabelsOverValues(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Kontoauszug vom 01.01.2020 bis 02.02.2020")},
		[]cellAt{at(10, "Auszug"), at(80, "IBAN"), at(330, "Alter Kontostand")},
		[]cellAt{at(10, "001"), at(80, "DE31 2001 0020 9999 9999 99"), at(330, "EUR"), rat(500, "+ 2.853.82")},
		nil,
		[]cellAt{at(10, "Buchung"), at(70, "Vorgang"), at(330, "Soll"), at(420, "Haben")},
		[]cellAt{at(10, "19.01.2020"), at(70, "Gutschr. SEPA"), rat(460, "+ 154,00")},
		[]cellAt{at(10, "19.01.2020"), at(70, "SDD Lastschr"), rat(370, "- 580,06")},
		nil,
		[]cellAt{at(10, "Zinssatz"), at(330, "Neuer Kontostand")},
		[]cellAt{at(10, "11,73 %"), at(330, "EUR"), rat(500, "+ 2.427,76")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2020-01-19|Gutschr. SEPA|154.00||3007.82",
		"2020-01-19|SDD Lastschr||580.06|2427.76",
	})
	st := res.Statement
	if st.OpeningBalance == nil || st.OpeningBalance.StringFixed(2) != "2853.82" || st.ClosingBalance == nil || st.ClosingBalance.StringFixed(2) != "2427.76" {
		t.Errorf("opening %v closing %v, want 2853.82 and 2427.76", st.OpeningBalance, st.ClosingBalance)
	}
	if st.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation %+v, want ok", st.Reconciliation)
	}
}

// A box of dates and sums under headings with no description column
// ("Statement date | Payment due date | Credit limit") is not a table of
// movements; a card's "last month's balance" row opens its table; and a
// card's TOTAL that carries that balance through the rows proves them.
func TestCardSummaryBoxAndTotal(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "STATEMENT DATE"), at(110, "PAYMENT DUE DATE"), at(230, "TOTAL CREDIT LIMIT"), at(360, "TOTAL MINIMUM DUE")},
		[]cellAt{at(10, "01-07-2023"), at(110, "24-07-2023"), rat(320, "S$22,800"), rat(450, "S$50.00")},
		nil,
		[]cellAt{at(10, "TRANSACTION DATE"), at(110, "DESCRIPTION"), at(420, "AMOUNT (SGD)")},
		[]cellAt{at(110, "LAST MONTH'S BALANCE"), rat(480, "412.16")},
		[]cellAt{at(10, "02/07"), at(110, "PAYMENT BY INTERNET"), rat(480, "(412.16)")},
		[]cellAt{at(10, "03/07"), at(110, "DELIGHTFUL BREAKFAST"), rat(480, "4.20")},
		[]cellAt{at(10, "06/07"), at(110, "URBAN TRANSIT CO."), rat(480, "11.90")},
		[]cellAt{at(110, "TOTAL"), rat(480, "16.10")},
		nil,
		[]cellAt{at(10, "Credit limit S$22,800"), at(300, "Minimum payment S$50.00")},
	)
	res := Analyze([]source.Page{pg})
	var got []string
	for _, tx := range res.Transactions {
		got = append(got, tx.Date.Format("2006-01-02")+"|"+tx.Description+"|"+tx.Type())
	}
	want := []string{"2023-07-02|PAYMENT BY INTERNET|CREDIT", "2023-07-03|DELIGHTFUL BREAKFAST|DEBIT", "2023-07-06|URBAN TRANSIT CO.|DEBIT"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("transactions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation %+v, want ok: the TOTAL carries the last month's balance through the rows", rec)
	}
}

// A fees table printed under the transactions (undated lines of a fee and
// its price, then rates in per cent) is not read as the last day's rows.
func TestFeesTableAfterRows(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period: 01/09/2022 to 30/09/2022")},
		[]cellAt{at(10, "Opening balance"), rat(300, "100.00")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Narrative"), at(330, "Withdrawals"), at(420, "Money In"), at(490, "Balance")},
		[]cellAt{at(10, "30/09/2022"), at(90, "Card payment Albert Heijn"), rat(380, "5.10"), rat(540, "94.90")},
		nil, nil, nil,
		[]cellAt{at(10, "Fees and interest rates")},
		nil,
		[]cellAt{at(10, "Monthly account fee"), rat(380, "7.50")},
		[]cellAt{at(10, "Overdraft arrangement fee"), rat(380, "12.90")},
		[]cellAt{at(10, "Overdraft interest rate"), rat(380, "18.30 %")},
		[]cellAt{at(10, "Cash advance rate"), rat(380, "3.46 %")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{"2022-09-30|Card payment Albert Heijn||5.10|94.90"})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// Points beside the amounts are counted, not money: under their own
// heading ("Points fidélité") they stay out of the money columns, and the
// credit heading beside them keeps its own column.
func TestPointsColumn(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Période du: 1 août 2024 - 31 août 2024")},
		nil,
		[]cellAt{at(10, "Date"), at(70, "Libellé"), at(250, "Sorties"), at(320, "Crédit"), at(380, "Points fidélité"), at(490, "Solde")},
		[]cellAt{at(70, "Solde initial"), rat(540, "0.00")},
		[]cellAt{at(10, "11/08/2024"), at(70, "Pagamento Crème & Café"), rat(290, "2.99"), rat(440, "2"), rat(540, "-2.99")},
		[]cellAt{at(10, "11/08/2024"), at(70, "Salary Société Générale"), rat(360, "212.52"), rat(540, "209.53")},
		[]cellAt{at(10, "14/08/2024"), at(70, "Lastschrift Iberdrola"), rat(290, "233.79"), rat(440, "233"), rat(540, "-24.26")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-08-11|Pagamento Crème & Café||2.99|-2.99",
		"2024-08-11|Salary Société Générale|212.52||209.53",
		"2024-08-14|Lastschrift Iberdrola||233.79|-24.26",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// A section's title printed over its rows ("PURCHASES") is not part of
// the next row's description, nor of the last row's above it.
func TestSectionTitleNotDescription(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 to 31/03/2024")},
		[]cellAt{at(10, "Opening balance"), rat(300, "100.00")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(330, "Withdrawals"), at(420, "Deposits"), at(490, "Balance")},
		[]cellAt{at(10, "02/03/2024"), at(90, "SALARY ACME"), rat(470, "50.00"), rat(540, "150.00")},
		nil,
		[]cellAt{at(90, "PURCHASES AND ADJUSTMENTS")},
		[]cellAt{at(10, "05/03/2024"), at(90, "CAFE LUNA"), rat(380, "20.00"), rat(540, "130.00")},
		[]cellAt{at(10, "06/03/2024"), at(90, "SHELL FUEL"), rat(380, "30.00"), rat(540, "100.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-03-02|SALARY ACME|50.00||150.00",
		"2024-03-05|CAFE LUNA||20.00|130.00",
		"2024-03-06|SHELL FUEL||30.00|100.00",
	})
}

// A heading over two lines whose first line holds no word the lexicon
// knows alone ("Value | Posting" over "Date | Date") is read whole: the
// posting date dates the row, not the value date.
func TestHeadingFirstLineUnknown(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "For the period: 2024-10-01 - 2024-10-31")},
		nil,
		[]cellAt{at(10, "Value"), at(80, "Posting"), at(330, "Paid"), at(480, "Running")},
		[]cellAt{at(10, "Date"), at(80, "Date"), at(150, "Particulars"), at(330, "Out"), at(400, "Credit"), at(480, "Balance")},
		[]cellAt{at(150, "Previous balance"), rat(530, "276.66")},
		[]cellAt{at(10, "2024-10-02"), at(80, "2024-10-03"), at(150, "Pagamento POS"), rat(370, "42.37"), rat(530, "234.29")},
		[]cellAt{at(10, "2024-10-07"), at(80, "2024-10-08"), at(150, "Salaris"), rat(440, "35.79"), rat(530, "270.08")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2024-10-03|Pagamento POS||42.37|234.29",
		"2024-10-08|Salaris|35.79||270.08",
	})
}

// A reference printed on a row's line is not its description when the
// description is printed wrapped about that line (amounts set in the
// middle of the row); only a row with no description at all takes it.
func TestReferenceNotDescription(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period: April 1, 2025 - April 30, 2025")},
		nil,
		[]cellAt{at(10, "Ref No"), at(80, "Date Posted"), at(170, "Particulars"), at(420, "Amount"), at(490, "Balance")},
		[]cellAt{at(80, "April 1, 2025"), at(170, "Previous balance"), rat(540, "5,238.73")},
		nil,
		[]cellAt{at(170, "Prelevement Vodafone")},
		[]cellAt{at(10, "FT337989"), at(80, "April 1, 2025"), rat(470, "-89.13"), rat(540, "5,149.60")},
		[]cellAt{at(170, "Madrid")},
		nil,
		[]cellAt{at(10, "TR386201"), at(80, "April 4, 2025"), rat(470, "594.91"), rat(540, "5,744.51")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2025-04-01|Prelevement Vodafone Madrid||89.13|5149.60",
		"2025-04-04|TR386201|594.91||5744.51",
	})
}

// On a page that continues the table above with no heading of its own,
// figures standing where no money column stood above (a fees table under
// the last rows) are not rows.
func TestContinuationKeepsColumns(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Lista movimenti dal 01/12/2025 al 31/12/2025")},
		[]cellAt{at(10, "Saldo iniziale"), rat(300, "100,00")},
		nil,
		[]cellAt{at(10, "Data"), at(90, "Dettaglio"), at(430, "Importo")},
		[]cellAt{at(10, "29/12/2025"), at(90, "Bonifico"), rat(480, "-10,00")},
		[]cellAt{at(10, "30/12/2025"), at(90, "Stipendio"), rat(480, "50,00")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "Spese e tassi di interesse")},
		[]cellAt{at(10, "Canone mensile"), rat(380, "10,30")},
		[]cellAt{at(10, "Imposta di bollo"), rat(380, "1,99")},
		[]cellAt{at(10, "Commissione bonifico"), rat(380, "14,15")},
		[]cellAt{at(10, "Spese tenuta conto"), rat(380, "2,50")},
	)
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2025-12-29|Bonifico||10.00|90.00",
		"2025-12-30|Stipendio|50.00||140.00",
	})
}

// A fees table below a table's last row is no column of the table, even
// with more figures than the table's own column: the rows' amounts keep
// their heading.
func TestFeesBelowDoNotTakeTheColumn(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Estratto dal: 01/12/22 - 31/12/22")},
		nil,
		[]cellAt{at(10, "Data operazione"), at(120, "Descrizione"), at(330, "Importo operazione"), at(440, "Segno"), at(490, "Saldo contabile")},
		[]cellAt{at(120, "Saldo precedente"), rat(560, "8,648.10")},
		[]cellAt{at(10, "13/12/22"), at(120, "VIREMENT RECU"), rat(430, "31.99"), at(440, "CR"), rat(560, "8,680.09")},
		[]cellAt{at(10, "13/12/22"), at(120, "COMPRA TARJETA"), rat(430, "40.83"), at(440, "DR"), rat(560, "8,639.26")},
		nil, nil, nil,
		[]cellAt{at(10, "Spese e tassi di interesse")},
		[]cellAt{at(10, "Canone mensile"), rat(360, "7.75")},
		[]cellAt{at(10, "Imposta di bollo"), rat(360, "1.05")},
		[]cellAt{at(10, "Commissione bonifico"), rat(360, "10.40")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2022-12-13|VIREMENT RECU|31.99||8680.09",
		"2022-12-13|COMPRA TARJETA||40.83|8639.26",
	})
}

// twoAccountsLines are the lines of a page of two accounts named above
// their own tables, which print no opening or closing balance.
func twoAccountsLines() [][]cellAt {
	return [][]cellAt{
		{at(10, "Période du 2023-05-01 au 2023-05-31")},
		{at(10, "Compte courant - Numéro de compte ****3973")},
		{at(10, "Date"), at(90, "Libellé"), at(330, "Débit"), at(420, "Crédit"), at(490, "Solde")},
		{at(10, "2023-05-07"), at(90, "Compra Creme"), rat(370, "12.88"), rat(540, "89.78")},
		{at(10, "2023-05-15"), at(90, "Bonifico da EDP"), rat(460, "61.77"), rat(540, "151.55")},
		nil,
		{at(10, "Compte épargne - Numéro de compte ****4692")},
		{at(10, "Date"), at(90, "Libellé"), at(330, "Débit"), at(420, "Crédit"), at(490, "Solde")},
		{at(10, "2023-05-01"), at(90, "Lastschrift Pingo"), rat(370, "2.77"), rat(540, "1,226.37")},
		{at(10, "2023-05-03"), at(90, "Recibo Spotify"), rat(370, "812.16"), rat(540, "414.21")},
	}
}

// Two accounts named above their own tables that print no opening or
// closing balance are two accounts when the balances break, read as one,
// where the second table starts, and each account's own balances follow.
func TestTwoAccountsByTheirBalances(t *testing.T) {
	pg := synthPage(1, twoAccountsLines()...)
	res := Analyze([]source.Page{pg})
	if len(res.Statement.Accounts) != 2 || res.Statement.Reconciliation.Status == ledger.ReconcileMismatch {
		t.Errorf("accounts %d, reconciliation %+v: want two accounts whose balances follow", len(res.Statement.Accounts), res.Statement.Reconciliation)
	}
	if len(res.Transactions) != 4 || res.Transactions[2].Account != "****4692" {
		t.Errorf("transactions %+v: want 4, the third of account ****4692", res.Transactions)
	}
}

// The same two accounts recognised from a photo that misread one row's
// balance: the second account's chain breaks at that row either way, and
// read as one account the chain breaks where the second table starts as
// well. Fewer breaks say two accounts; the statement stays a mismatch.
func TestTwoAccountsByFewerBreaks(t *testing.T) {
	pg := recognised(synthPage(1, append(twoAccountsLines(),
		[]cellAt{at(10, "2023-05-09"), at(90, "Gehalt Vattenfall"), rat(460, "71.17"), rat(540, "485.38")},
		[]cellAt{at(10, "2023-05-12"), at(90, "Recibo Lidl"), rat(370, "5.57"), rat(540, "497.81")},
		[]cellAt{at(10, "2023-05-20"), at(90, "Gehalt Zoe Janssen"), rat(460, "100.00"), rat(540, "597.81")},
	)...))
	res := Analyze([]source.Page{pg})
	if len(res.Statement.Accounts) != 2 || res.Statement.Reconciliation.Status != ledger.ReconcileMismatch {
		t.Fatalf("accounts %d, reconciliation %+v: want two accounts, a mismatch", len(res.Statement.Accounts), res.Statement.Reconciliation)
	}
	if len(res.Transactions) != 7 || res.Transactions[2].Account != "****4692" || res.Transactions[0].Account != "****3973" {
		t.Errorf("transactions %+v: want 7, the first of account ****3973, the third of ****4692", res.Transactions)
	}
}

// A card statement's sections (Payments, Purchases) printed inside its
// table give their rows' directions, are no row's description and no
// part of the heading; its summary's previous and new balance prove the
// rows; a reference column of 12-digit numbers is not money.
func TestCardSectionsInsideTable(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement Closing Date 03/15/2024"), at(300, "Credit Limit $5,000.00")},
		[]cellAt{at(10, "Previous Balance $500.00"), at(200, "Payments $300.00"), at(330, "Purchases $120.50"), at(460, "New Balance $320.50")},
		nil,
		[]cellAt{at(10, "Trans Date"), at(80, "Post Date"), at(160, "Ref No"), at(280, "Description"), at(480, "Amount")},
		[]cellAt{at(10, "Payments")},
		[]cellAt{at(10, "02/20"), at(80, "02/21"), at(160, "748392019283"), at(280, "PAYMENT THANK YOU"), rat(530, "300.00")},
		[]cellAt{at(10, "Purchases")},
		[]cellAt{at(10, "02/22"), at(80, "02/23"), at(160, "748392019284"), at(280, "AMAZON MKTPLACE"), rat(530, "80.50")},
		[]cellAt{at(10, "03/01"), at(80, "03/02"), at(160, "748392019285"), at(280, "SHELL OIL"), rat(530, "40.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-02-21|PAYMENT THANK YOU|300.00||200.00",
		"2024-02-23|AMAZON MKTPLACE||80.50|280.50",
		"2024-03-02|SHELL OIL||40.00|320.50",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// A table's heading printed at the foot of a page, with no row under it
// there, does not keep the next page (which continues that table) from
// its columns.
func TestHeadingAtPageFoot(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Statement period January 1, 2025 to January 31, 2025")},
		[]cellAt{at(10, "Opening balance"), rat(300, "100.00")},
		nil,
		[]cellAt{at(10, "Booking Date"), at(120, "Details"), at(440, "Amt"), at(490, "Running Balance")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "01/02/2025"), at(120, "Incasso SNCF"), rat(470, "(16.47)"), rat(560, "83.53")},
		[]cellAt{at(10, "01/09/2025"), at(120, "Salary"), rat(470, "1,000.00"), rat(560, "1,083.53")},
	)
	checkTxs(t, Analyze([]source.Page{p1, p2}), []string{
		"2025-01-02|Incasso SNCF||16.47|83.53",
		"2025-01-09|Salary|1000.00||1083.53",
	})
}

// A heading that is one whole phrase of the lexicon ("Date de valeur")
// is one column, though its words name two kinds of date: the row is
// dated by the booking date beside it.
func TestWholeHeadingPhrase(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Relevé du 1 mai 2023 au 31 mai 2023")},
		[]cellAt{at(10, "Solde précédent"), rat(300, "83.23-")},
		nil,
		[]cellAt{at(10, "Date de valeur"), at(110, "Date"), at(200, "Détail"), at(440, "Somme"), at(500, "Solde")},
		[]cellAt{at(10, "6 mai 2023"), at(110, "5 mai 2023"), at(200, "Incasso EDP"), rat(480, "229.04-"), rat(550, "312.27-")},
		[]cellAt{at(10, "14 mai 2023"), at(110, "13 mai 2023"), at(200, "Standing order"), rat(480, "20.95-"), rat(550, "333.22-")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2023-05-05|Incasso EDP||229.04|-312.27",
		"2023-05-13|Standing order||20.95|-333.22",
	})
}

// With no heading, a table's dates are found where they line up, after a
// reference printed left of them; the reference is not the description.
func TestHeadlessDatesAfterReference(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement 01/03/2024 - 31/03/2024")},
		nil,
		[]cellAt{at(10, "REF1001"), at(80, "02/03/2024"), at(150, "RENT MARCH"), rat(420, "500.00"), rat(540, "1,500.00")},
		[]cellAt{at(10, "X20"), at(80, "05/03/2024"), at(150, "GROCER"), rat(420, "40.00"), rat(540, "1,460.00")},
		[]cellAt{at(80, "09/03/2024"), at(150, "PHARMACY"), rat(420, "10.00"), rat(540, "1,450.00")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2024-03-02|RENT MARCH||500.00|1500.00",
		"2024-03-05|GROCER||40.00|1460.00",
		"2024-03-09|PHARMACY||10.00|1450.00",
	})
}

// A heading that names money and text columns but no date (left blank,
// or lost by recognition) is read with the dates that line up below it;
// a rightmost column with no heading over it is the balance when it
// chains, here printed only at each day's end.
func TestHeadingWithoutDateOrBalance(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Opening balance 1,000.00")},
		nil,
		[]cellAt{at(10, "Reference"), at(150, "Description"), at(330, "Debit"), at(420, "Credit")},
		[]cellAt{at(10, "RF77"), at(80, "02/03/2024"), at(150, "RENT MARCH"), rat(370, "500.00"), rat(560, "500.00")},
		[]cellAt{at(10, "RF78"), at(80, "05/03/2024"), at(150, "GROCER"), rat(370, "40.00")},
		[]cellAt{at(10, "RF79"), at(80, "05/03/2024"), at(150, "SALARY"), rat(460, "2,000.00"), rat(560, "2,460.00")},
		[]cellAt{at(10, "RF80"), at(80, "07/03/2024"), at(150, "REFUND"), rat(460, "10.00"), rat(560, "2,470.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-03-02|RENT MARCH||500.00|500.00",
		"2024-03-05|GROCER||40.00|460.00",
		"2024-03-05|SALARY|2000.00||2460.00",
		"2024-03-07|REFUND|10.00||2470.00",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// A heading repeated on the next page gives back a heading recognition
// lost on the first page: the column under it is read with its role.
func TestHeadingLostOnFirstPage(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Statement 01/03/2024 - 31/03/2024")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(450, "Credit"), at(510, "Balance")},
		[]cellAt{at(90, "Opening balance"), rat(560, "1,000.00")},
		[]cellAt{at(10, "02/03/2024"), at(90, "RENT MARCH"), rat(420, "500.00"), rat(560, "500.00")},
		[]cellAt{at(10, "05/03/2024"), at(90, "SALARY"), rat(490, "2,000.00"), rat(560, "2,500.00")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(380, "Debit"), at(450, "Credit"), at(510, "Balance")},
		[]cellAt{at(10, "06/03/2024"), at(90, "GROCER"), rat(420, "40.00"), rat(560, "2,460.00")},
	)
	p1.OCR, p2.OCR = true, true
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2024-03-02|RENT MARCH||500.00|500.00",
		"2024-03-05|SALARY|2000.00||2500.00",
		"2024-03-06|GROCER||40.00|2460.00",
	})
}

// A first page whose heading recognition lost keeps its rows: its dates
// line up under the date heading of the next page's table.
func TestPageBeforeFirstHeading(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Statement 01/03/2024 - 31/03/2024")},
		[]cellAt{at(10, "Opening balance 1,000.00")},
		nil,
		[]cellAt{at(10, "02/03/2024"), at(90, "RENT MARCH"), rat(420, "500.00"), rat(560, "500.00")},
		[]cellAt{at(10, "05/03/2024"), at(90, "SALARY"), rat(490, "2,000.00"), rat(560, "2,500.00")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(380, "Debit"), at(450, "Credit"), at(510, "Balance")},
		[]cellAt{at(10, "06/03/2024"), at(90, "GROCER"), rat(420, "40.00"), rat(560, "2,460.00")},
	)
	p1.OCR, p2.OCR = true, true
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2024-03-02|RENT MARCH||500.00|500.00",
		"2024-03-05|SALARY|2000.00||2500.00",
		"2024-03-06|GROCER||40.00|2460.00",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// A date heading in two lines whose lower word the lexicon does not know
// alone ("F." over "Operación") is one heading; and a heading the lexicon
// does not know, standing over the dates, is the date's.
func TestDateHeadingUnknownWord(t *testing.T) {
	for _, upper := range []bool{true, false} {
		lines := [][]cellAt{{at(10, "Saldo anterior"), rat(300, "100.00")}}
		if upper {
			lines = append(lines, []cellAt{at(10, "F.")})
		} else {
			lines = append(lines, nil)
		}
		lines = append(lines,
			[]cellAt{at(10, "Operación"), at(90, "Descripción"), at(380, "Cargos"), at(450, "Abonos")},
			[]cellAt{at(10, "01.11.2023"), at(90, "Lastschrift Shell"), rat(420, "2.04"), rat(490, "-€0.00")},
			[]cellAt{at(10, "02.11.2023"), at(90, "Refund"), rat(420, "-€0.00"), rat(490, "576.96")},
		)
		res := Analyze([]source.Page{synthPage(1, lines...)})
		t.Run(fmt.Sprint("upper line ", upper), func(t *testing.T) {
			checkTxs(t, res, []string{"2023-11-01|Lastschrift Shell||2.04|97.96", "2023-11-02|Refund|576.96||674.92"})
		})
	}
}

// A page whose top rows continue the table of the page before, and whose
// next account's heading starts lower down, keeps those rows.
func TestRowsAboveHeadingContinue(t *testing.T) {
	head := []cellAt{at(10, "Date"), at(90, "Description"), at(380, "Amount"), at(480, "Balance")}
	p1 := synthPage(1,
		[]cellAt{at(10, "Account 11-1111")},
		head,
		[]cellAt{at(10, "01/03/2024"), at(90, "Opening balance"), rat(540, "100.00")},
		[]cellAt{at(10, "02/03/2024"), at(90, "RENT"), rat(430, "-50.00"), rat(540, "50.00")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "03/03/2024"), at(90, "SALARY"), rat(430, "200.00"), rat(540, "250.00")},
		[]cellAt{at(10, "04/03/2024"), at(90, "GROCER"), rat(430, "-20.00"), rat(540, "230.00")},
		nil,
		[]cellAt{at(10, "Account 22-2222")},
		head,
		[]cellAt{at(10, "01/03/2024"), at(90, "Opening balance"), rat(540, "10.00")},
		[]cellAt{at(10, "05/03/2024"), at(90, "CAFE"), rat(430, "-5.00"), rat(540, "5.00")},
	)
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2024-03-02|RENT||50.00|50.00",
		"2024-03-03|SALARY|200.00||250.00",
		"2024-03-04|GROCER||20.00|230.00",
		"2024-03-05|CAFE||5.00|5.00",
	})
}

// Dated rows with amounts after the closing balance are set aside, and the
// statement does not say ok on the rows before them alone: they may be a
// second account's the reading did not tell apart.
func TestRowsAfterClosingNotOK(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period 01/03/2021 to 31/03/2021")},
		[]cellAt{at(10, "Opening balance"), rat(300, "100.00")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Details"), at(480, "Amount")},
		[]cellAt{at(10, "03/05/2021"), at(90, "RENT"), rat(530, "-50.00")},
		[]cellAt{at(10, "03/09/2021"), at(90, "SALARY"), rat(530, "20.00")},
		[]cellAt{at(90, "Closing balance"), rat(530, "70.00")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Details"), at(480, "Amount")},
		[]cellAt{at(10, "03/10/2021"), at(90, "CAFE"), rat(530, "-5.00")},
		[]cellAt{at(10, "03/12/2021"), at(90, "SHOP"), rat(530, "-7.00")},
	)
	res := Analyze([]source.Page{pg})
	if s := res.Statement.Reconciliation.Status; s == ledger.ReconcileOK {
		t.Errorf("reconciliation ok with two dated rows set aside after the closing balance: %+v", res.Statement.Reconciliation)
	}
}

// With no opening balance printed, the opening is worked back from the
// first printed balance; that balance then meets the chain by
// construction, and a closing balance that restates it adds nothing: a
// day's balance printed once, under the day's last row, proves none of
// the rows above it (recognition that put every amount in the wrong
// column read so, and said ok).
func TestWorkedBackOpeningProvesNothing(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Closing balance"), rat(300, "-48.55")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Details"), rat(400, "Debit"), rat(480, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "28/04/2022"), at(90, "BETALING"), rat(480, "206.35")},
		[]cellAt{at(10, "28/04/2022"), at(90, "NETFLIX"), rat(480, "93.09")},
		[]cellAt{at(10, "28/04/2022"), at(90, "CAFE"), rat(480, "15.99"), rat(560, "-48.55")},
	)
	res := Analyze([]source.Page{pg})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified: %s", s, res.Statement.Reconciliation.Message)
	}
	// A second printed balance after rows does prove them.
	pg = synthPage(1,
		[]cellAt{at(10, "Date"), at(90, "Details"), rat(400, "Debit"), rat(480, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "27/04/2022"), at(90, "BETALING"), rat(480, "206.35"), rat(560, "100.00")},
		[]cellAt{at(10, "28/04/2022"), at(90, "CAFE"), rat(400, "15.99"), rat(560, "84.01")},
	)
	if s := Analyze([]source.Page{pg}).Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok: the second balance follows from the first", s)
	}
}

// An opening balance printed among the rows, which the running balance
// does not reach, starts the chain again: a second account's table read
// with the first's (its heading named no account of its own).
func TestOpeningAmongRowsRestartsChain(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Saldo inicial"), rat(300, "3902.71")},
		nil,
		[]cellAt{at(10, "Data"), at(90, "Historico"), rat(400, "Debito"), rat(480, "Creditos")},
		[]cellAt{at(10, "03.05.2022"), at(90, "Albert Heijn"), rat(400, "46.97")},
		[]cellAt{at(10, "04.05.2022"), at(90, "Salario"), rat(480, "100.00")},
		[]cellAt{at(10, "Totais"), rat(400, "46.97"), rat(480, "100.00")},
		nil,
		[]cellAt{at(10, "Saldo inicial"), rat(300, "877.15")},
		nil,
		[]cellAt{at(10, "Data"), at(90, "Historico"), rat(400, "Debito"), rat(480, "Creditos")},
		[]cellAt{at(10, "01.05.2022"), at(90, "Refund"), rat(480, "1386.39")},
		[]cellAt{at(10, "06.05.2022"), at(90, "Amazon"), rat(400, "162.62")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2022-05-03|Albert Heijn||46.97|3855.74",
		"2022-05-04|Salario|100.00||3955.74",
		"2022-05-01|Refund|1386.39||2263.54",
		"2022-05-06|Amazon||162.62|2100.92",
	})
}

// twoAccountPage is a French statement of two accounts, each with a box
// of its opening and closing balances above its table; named puts each
// account's number above its box, and after follows the second table.
func twoAccountPage(named bool, secondClosing string, after ...[]cellAt) source.Page {
	account := func(number string) []cellAt {
		if !named {
			return nil
		}
		return []cellAt{at(10, "Compte n°: "+number)}
	}
	heading := []cellAt{at(10, "Date"), at(90, "Désignation"), rat(400, "Débits"), rat(480, "Crédit")}
	lines := [][]cellAt{
		account("****5739"),
		{at(10, "Solde au début"), rat(300, "100.00")},
		{at(10, "Solde final"), rat(300, "150.00")},
		nil,
		heading,
		{at(10, "03/05/2022"), at(90, "LOYER"), rat(400, "50.00")},
		{at(10, "04/05/2022"), at(90, "SALAIRE"), rat(480, "100.00")},
		nil,
		account("****0596"),
		{at(10, "Solde au début"), rat(300, "640.59")},
		{at(10, "Solde final"), rat(300, secondClosing)},
		nil,
		heading,
		{at(10, "05/05/2022"), at(90, "CAFE"), rat(400, "0.59")},
		{at(10, "06/05/2022"), at(90, "VIREMENT"), rat(480, "10.00")},
	}
	return synthPage(1, append(lines, after...)...)
}

// A second account's box prints its opening and closing balances above its
// table: its rows are not set aside as rows after a closing balance, its
// chain starts at its own opening, the summary's closing balance checks
// the first account's rows and the box's closing balance the second's.
// Read as one account, the statement is unverified, not ok.
func TestSecondAccountBoxAboveTable(t *testing.T) {
	res := Analyze([]source.Page{twoAccountPage(false, "650.00")})
	checkTxs(t, res, []string{
		"2022-05-03|LOYER||50.00|50.00",
		"2022-05-04|SALAIRE|100.00||150.00",
		"2022-05-05|CAFE||0.59|640.00",
		"2022-05-06|VIREMENT|10.00||650.00",
	})
	// Each account's balances hold, but they were read as one account's.
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified: %s", s, res.Statement.Reconciliation.Message)
	}
	if s := Analyze([]source.Page{twoAccountPage(false, "651.00")}).Statement.Reconciliation.Status; s != ledger.ReconcileMismatch {
		t.Errorf("reconciliation %s with the second account's closing balance one off, want mismatch", s)
	}
}

// A fee after the word for account ("Frais de tenue de compte 10.98") is
// no account number: the two accounts named above their tables stay two.
func TestFeeNamedAfterAccountIsNoAccount(t *testing.T) {
	res := Analyze([]source.Page{twoAccountPage(true, "650.00", nil,
		[]cellAt{at(10, "Récapitulatif des frais")},
		[]cellAt{at(10, "Frais de tenue de compte"), rat(300, "10.98")},
	)})
	if n := len(res.Statement.Accounts); n != 2 {
		t.Fatalf("%d accounts, want 2: %+v", n, res.Statement.Accounts)
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok: %s", s, res.Statement.Reconciliation.Message)
	}
}

// A Dr/Cr word on an amount says which way it went, over the title of the
// section it stands in ("102.92 CR" among withdrawals is a credit); a
// page's running header that names the account ("Relevé de carte de
// crédit - Numéro de compte: ****5725") titles no section.
func TestDrCrWordOverSectionTitle(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(300, "100.00")},
		[]cellAt{at(10, "Closing balance"), rat(300, "92.92")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Details"), rat(480, "Amount")},
		[]cellAt{at(90, "Withdrawals")},
		[]cellAt{at(10, "03/05/2022"), at(90, "RENT"), rat(480, "110.00")},
		[]cellAt{at(10, "04/05/2022"), at(90, "REFUND"), rat(480, "102.92 CR")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2022-05-03|RENT||110.00|-10.00",
		"2022-05-04|REFUND|102.92||92.92",
	})
	// The running header above a heading, and a real title.
	for _, tc := range []struct {
		above string
		want  int
	}{
		{"Relevé de carte de crédit - Numéro de compte: ****5725", 0},
		{"Credits", 1},
	} {
		ls := layout.GroupLines(synthPage(1, []cellAt{at(10, tc.above)}, []cellAt{at(10, "Date"), at(90, "Details"), rat(480, "Amount")}), 0)
		for _, l := range ls {
			layout.Tokenize(l, false)
		}
		if dir, _, _ := tables.SectionAbove(ls, 1); dir != tc.want {
			t.Errorf("%q above a heading: section %d, want %d", tc.above, dir, tc.want)
		}
	}
}

// On a card statement that prints purchases positive, "DR" may mark the
// negative amounts, which are payments: the word's sign is read as the
// reading counts signs, not as money out.
func TestCardPaymentMarkedDR(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Credit Card Statement")},
		[]cellAt{at(10, "Minimum payment due"), rat(300, "25.00")},
		[]cellAt{at(10, "Previous balance"), rat(300, "446.93")},
		[]cellAt{at(10, "New balance"), rat(300, "460.89")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Description"), rat(480, "Amount")},
		[]cellAt{at(10, "07/12/2024"), at(90, "PAYMENT RECEIVED"), rat(480, "100.73 DR")},
		[]cellAt{at(10, "09/12/2024"), at(90, "DEUTSCHE BAHN"), rat(480, "114.69")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2024-12-07|PAYMENT RECEIVED|100.73||346.20",
		"2024-12-09|DEUTSCHE BAHN||114.69|460.89",
	})
}

// A description wrapped onto a line that holds a totals word ("Transfer
// to Pingo / total Doce") is the row's description, not a totals line;
// a totals line of its own ("Total") still ends the rows.
func TestWrappedDescriptionWithTotalsWord(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Date"), at(90, "Details"), rat(400, "Debit"), rat(480, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "03/05/2022"), at(90, "Transfer to Pingo"), rat(400, "50.00"), rat(560, "950.00")},
		[]cellAt{at(90, "total Doce")},
		[]cellAt{at(10, "04/05/2022"), at(90, "Fitness"), rat(480, "100.00"), rat(560, "1050.00")},
		[]cellAt{at(90, "Total"), rat(400, "50.00"), rat(480, "100.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2022-05-03|Transfer to Pingo total Doce||50.00|950.00",
		"2022-05-04|Fitness|100.00||1050.00",
	})
}

// A table under a heading in words no lexicon holds, cut where a line
// names the account: its rows' cells are centred on their line, so the
// first row's description starts above the row's line, reaching into its
// band. That line is the first row's, not left outside the table.
func TestCentredFirstRowAfterAccountName(t *testing.T) {
	pg := source.Page{Number: 1, Width: 612, Height: 792}
	put := putWords
	put(&pg, 10, 40, "Glorbank Zwentrasse")
	put(&pg, 10, 60, "Plinsavosh sigudroxny 0095597565")
	put(&pg, 10, 80, "Mørlypir domusttreshnur")
	put(&pg, 520, 80, "100.00")
	put(&pg, 10, 100, "Gleobrakai")
	put(&pg, 100, 100, "Berzvoumatraish")
	put(&pg, 330, 100, "Drypeostnour")
	put(&pg, 420, 100, "Loskäplaish")
	put(&pg, 510, 100, "Røkriplylpel")
	// rows whose cells are centred on their line
	put(&pg, 100, 119, "Larkvrarkskam EDP")
	put(&pg, 10, 125, "10.03.2025")
	put(&pg, 360, 125, "37.60")
	put(&pg, 520, 125, "62.40")
	put(&pg, 100, 131, "Comercial")
	put(&pg, 100, 145, "Skintgizveom")
	put(&pg, 10, 151, "16.03.2025")
	put(&pg, 360, 151, "2.40")
	put(&pg, 520, 151, "60.00")
	put(&pg, 100, 157, "NS Reizigers")
	put(&pg, 10, 177, "20.03.2025")
	put(&pg, 100, 177, "Raikørkpim Netflix")
	put(&pg, 450, 177, "40.00")
	put(&pg, 520, 177, "100.00")
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2025-03-10|Larkvrarkskam EDP Comercial||37.60|62.40",
		"2025-03-16|Skintgizveom NS Reizigers||2.40|60.00",
		"2025-03-20|Raikørkpim Netflix|40.00||100.00",
	})
}

// Rows under a date no pattern reads ("12 zork") print their movements
// and balances in the table's columns: they are left out, and though the
// rows read agree with their balances, the statement is not ok, since it
// lost rows the arithmetic of the others cannot vouch for.
func TestRowsUnderUnreadDatesAreNoProof(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Date"), at(80, "Details"), rat(380, "Debit"), rat(470, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "12 zork"), at(80, "Shop"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "13 zork"), at(80, "Cafe"), rat(380, "5.00"), rat(560, "85.00")},
		[]cellAt{at(10, "02/01/2024"), at(80, "Salary"), rat(470, "60.00"), rat(560, "145.00")},
		[]cellAt{at(10, "03/01/2024"), at(80, "Rent"), rat(380, "50.00"), rat(560, "95.00")},
		[]cellAt{at(10, "04/01/2024"), at(80, "Refund"), rat(470, "5.00"), rat(560, "100.00")},
	)})
	if len(res.Transactions) != 3 {
		t.Fatalf("transactions %+v: want the three dated rows", res.Transactions)
	}
	if r := res.Statement.Reconciliation; r.Status != ledger.ReconcileUnverified || res.Statement.Proof.Unread != 2 {
		t.Errorf("reconciliation %+v, proof %+v: want unverified, 2 rows unread", r, res.Statement.Proof)
	}
}

// Rows whose cells are centred on their line print a description's first
// line just under the heading, reaching into the first row's band. It is
// the row's ("ATM withdrawal"), not a second line of the heading, though
// it holds a heading's word: the Details column stays the description.
func TestCentredFirstRowUnderHeading(t *testing.T) {
	pg := source.Page{Number: 1, Width: 612, Height: 792}
	put := putWords
	put(&pg, 10, 40, "Balance brought forward")
	put(&pg, 520, 40, "100.00")
	put(&pg, 10, 60, "Posting Date")
	put(&pg, 100, 60, "Details")
	put(&pg, 200, 60, "Cheque No")
	put(&pg, 350, 60, "Debit")
	put(&pg, 430, 60, "Credit")
	put(&pg, 510, 60, "Balance")
	put(&pg, 100, 72, "ATM withdrawal")
	put(&pg, 10, 77, "02/08/24")
	put(&pg, 350, 77, "10.00")
	put(&pg, 520, 77, "90.00")
	put(&pg, 100, 82, "Deutsche Bahn")
	put(&pg, 100, 94, "Salary EDP")
	put(&pg, 10, 99, "05/08/24")
	put(&pg, 200, 99, "911291938449713")
	put(&pg, 430, 99, "60.00")
	put(&pg, 520, 99, "150.00")
	put(&pg, 100, 104, "Comercial")
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-08-02|ATM withdrawal Deutsche Bahn||10.00|90.00",
		"2024-08-05|Salary EDP Comercial|60.00||150.00",
	})
}
