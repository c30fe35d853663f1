package extract

import (
	"math"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"
	"passbook/extract/lexicon"
	"passbook/extract/source"
	"passbook/extract/tables"
)

// txLine renders a transaction as "date|description|in|out|balance" for comparisons.
func txLine(t ledger.Transaction) string {
	in, out := "", ""
	if t.AmountIn != nil {
		in = t.AmountIn.StringFixed(2)
	}
	if t.AmountOut != nil {
		out = t.AmountOut.StringFixed(2)
	}
	return strings.Join([]string{t.Date.Format("2006-01-02"), t.Description, in, out, t.Balance.StringFixed(2)}, "|")
}

func checkTxs(t *testing.T, res *ledger.Result, want []string) {
	t.Helper()
	var got []string
	for _, tx := range res.Transactions {
		got = append(got, txLine(tx))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("transactions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// usPage is a two-column (withdrawals, deposits) statement with left-aligned
// headings over right-aligned figures, a wrapped description, a brought
// forward line and a footer.
func usPage() source.Page {
	return synthPage(1,
		[]cellAt{at(10, "Statement Period: February 27, 2024 - March 30, 2024")},
		[]cellAt{at(10, "Account number: 23-4136-539918"), at(300, "Currency: USD")},
		nil,
		[]cellAt{at(10, "Date"), at(60, "Description"), at(300, "Withdrawals"), at(400, "Deposits"), at(480, "Balance")},
		[]cellAt{at(10, "Balance brought forward"), rat(560, "1,062.75")},
		[]cellAt{at(10, "03/01"), at(60, "MOBILE PHONE CO BILL"), rat(380, "94.80"), rat(560, "967.95")},
		[]cellAt{at(10, "03/01"), at(60, "CITY WATER UTILITY"), rat(380, "379.80"), rat(560, "588.15")},
		[]cellAt{at(60, "VIA MOBILE BANKING")},
		[]cellAt{at(10, "03/05"), at(60, "DIVIDEND VANGUARD"), rat(470, "2,142.74"), rat(560, "2,730.89")},
		[]cellAt{at(10, "03/12"), at(60, "BOOKSHOP & CO"), rat(380, "3,000.00"), rat(560, "-269.11")},
		nil,
		nil,
		[]cellAt{at(10, "Northwind Savings Bank is authorised and regulated.")},
	)
}

func TestAnalyzeTwoColumns(t *testing.T) {
	res := Analyze([]source.Page{usPage()})
	checkTxs(t, res, []string{
		"2024-03-01|MOBILE PHONE CO BILL||94.80|967.95",
		"2024-03-01|CITY WATER UTILITY VIA MOBILE BANKING||379.80|588.15",
		"2024-03-05|DIVIDEND VANGUARD|2142.74||2730.89",
		"2024-03-12|BOOKSHOP & CO||3000.00|-269.11",
	})
	st := res.Statement
	if st.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", st.Reconciliation)
	}
	if st.AccountNumber != "23-4136-539918" || st.Currency != "USD" {
		t.Errorf("account %q currency %q", st.AccountNumber, st.Currency)
	}
	if st.OpeningBalance == nil || st.OpeningBalance.StringFixed(2) != "1062.75" {
		t.Errorf("opening balance = %v, want 1062.75", st.OpeningBalance)
	}
	if st.PeriodStart == nil || st.PeriodStart.Format("2006-01-02") != "2024-02-27" {
		t.Errorf("period start = %v", st.PeriodStart)
	}
}

func TestAnalyzeSignedGerman(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Kontoauszug vom 30.04.2024 bis 20.05.2024")},
		nil,
		[]cellAt{at(10, "Buchungstag"), at(90, "Valuta"), at(160, "Vorgang"), at(380, "Betrag EUR"), at(480, "Saldo EUR")},
		[]cellAt{at(10, "Alter Saldo"), rat(560, "62,83")},
		[]cellAt{at(10, "03.05.2024"), at(90, "04.05.2024"), at(160, "SHELL FUEL"), rat(450, "-146,93"), rat(560, "-84,10")},
		[]cellAt{at(10, "05.05.2024"), at(90, "06.05.2024"), at(160, "CASH DEPOSIT"), rat(450, "+2.664,72"), rat(560, "2.580,62")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-05-03|SHELL FUEL||146.93|-84.10",
		"2024-05-05|CASH DEPOSIT|2664.72||2580.62",
	})
	if res.Statement.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", res.Statement.Reconciliation)
	}
	if res.Statement.Currency != "EUR" {
		t.Errorf("currency = %q, want EUR (from the headings)", res.Statement.Currency)
	}
}

// A balance printed only on some rows: the others are computed and say so.
func TestAnalyzeSomeBalances(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Your statement for 8 February 2024 to 17 March 2024")},
		[]cellAt{at(10, "Opening balance"), rat(200, "100.00")},
		[]cellAt{at(10, "Date"), at(80, "Details"), at(300, "Paid out"), at(400, "Paid in"), at(500, "Balance")},
		[]cellAt{at(10, "10 Feb 24"), at(80, "PARKING"), rat(350, "10.00")},
		[]cellAt{at(10, "10 Feb 24"), at(80, "SALARY"), rat(450, "50.00"), rat(560, "140.00")},
		[]cellAt{at(10, "11 Feb 24"), at(80, "CAFE"), rat(350, "5.50")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-02-10|PARKING||10.00|90.00",
		"2024-02-10|SALARY|50.00||140.00",
		"2024-02-11|CAFE||5.50|134.50",
	})
	if w := res.Transactions[0].Warnings; len(w) != 1 || w[0].Kind != ledger.WarnBalanceComputed || !res.Transactions[0].Provenance.BalanceComputed {
		t.Errorf("row 0 warnings = %+v, want one saying the balance was computed", w)
	}
	// The last row's amount stands on no printed balance: it is not proven.
	if res.Statement.Reconciliation.Status != ledger.ReconcileUnverified {
		t.Errorf("reconciliation = %+v, want unverified", res.Statement.Reconciliation)
	}
}

// Headings in no known language: columns are found from the figures and the
// balance decides which one is money in.
func TestAnalyzeNoHeadingBalanceDecides(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "01/02/2024"), at(80, "SALARY"), rat(450, "500.00"), rat(560, "600.00")},
		[]cellAt{at(10, "02/02/2024"), at(80, "RENT"), rat(350, "300.00"), rat(560, "300.00")},
		[]cellAt{at(10, "03/02/2024"), at(80, "SHOP"), rat(350, "20.00"), rat(560, "280.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-02-01|SALARY|500.00||600.00",
		"2024-02-02|RENT||300.00|300.00",
		"2024-02-03|SHOP||20.00|280.00",
	})
	if res.Statement.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", res.Statement.Reconciliation)
	}
}

func TestAnalyzeMismatchFlagged(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Date"), at(60, "Description"), at(300, "Debit"), at(400, "Credit"), at(480, "Balance")},
		[]cellAt{at(10, "Balance brought forward"), rat(560, "100.00")},
		[]cellAt{at(10, "01/03/2024"), at(60, "ONE"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "02/03/2024"), at(60, "TWO"), rat(380, "10.00"), rat(560, "70.00")},
		[]cellAt{at(10, "03/03/2024"), at(60, "THREE"), rat(380, "10.00"), rat(560, "60.00")},
	)
	res := Analyze([]source.Page{pg})
	rec := res.Statement.Reconciliation
	if rec.Status != ledger.ReconcileMismatch {
		t.Fatalf("status = %q, want mismatch", rec.Status)
	}
	if len(rec.Rows) != 1 || rec.Rows[0] != 1 || rec.Difference == nil || rec.Difference.StringFixed(2) != "-10.00" {
		t.Errorf("rows %v difference %v, want [1] and -10.00", rec.Rows, rec.Difference)
	}
	if len(res.Transactions[1].Warnings) == 0 {
		t.Errorf("the breaking row carries no warning")
	}
}

// With only "03/01"-style dates both day-first and month-first run in order:
// the printed period decides.
func TestDateOrderFromPeriod(t *testing.T) {
	res := Analyze([]source.Page{usPage()})
	if len(res.Transactions) == 0 || res.Transactions[0].Date.Format("2006-01-02") != "2024-03-01" {
		t.Errorf("first date = %v, want 2024-03-01", res.Transactions)
	}
}

func TestAnalyzeNoTransactions(t *testing.T) {
	pg := synthPage(1, []cellAt{at(10, "Thank you for banking with us")})
	res := Analyze([]source.Page{pg})
	if len(res.Transactions) != 0 || res.Statement.Reconciliation.Status != ledger.ReconcileNoTransactions {
		t.Errorf("got %d transactions, status %q; want 0 and no_transactions", len(res.Transactions), res.Statement.Reconciliation.Status)
	}
}

// Money in and money out listed in separate titled tables with one unsigned
// "Betrag" column each; the second table continues on a page whose repeated
// heading has no title. Rows come out in date order with the running balance.
func TestAnalyzeSections(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Kontoauszug 01.03.2024 bis 31.03.2024")},
		[]cellAt{at(10, "Alter Saldo"), rat(560, "1.000,00")},
		[]cellAt{at(10, "Neuer Saldo"), rat(560, "1.365,50")},
		nil,
		[]cellAt{at(10, "Gutschriften")},
		nil,
		[]cellAt{at(10, "Datum"), at(80, "Buchungstext"), at(520, "Betrag")},
		[]cellAt{at(10, "05.03.2024"), at(80, "GEHALT"), rat(560, "500,00")},
		[]cellAt{at(10, "20.03.2024"), at(80, "STORNO MIETE"), rat(560, "-10,00")},
		[]cellAt{at(80, "Summe Gutschriften"), rat(560, "490,00")},
		nil,
		[]cellAt{at(10, "Belastungen")},
		nil,
		[]cellAt{at(10, "Datum"), at(80, "Buchungstext"), at(520, "Betrag")},
		[]cellAt{at(10, "01.03.2024"), at(80, "MIETE"), rat(560, "100,00")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "Datum"), at(80, "Buchungstext"), at(520, "Betrag")},
		[]cellAt{at(10, "05.03.2024"), at(80, "STROM"), rat(560, "24,50")},
		[]cellAt{at(80, "Summe Belastungen"), rat(560, "124,50")},
	)
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2024-03-01|MIETE||100.00|900.00",
		"2024-03-05|GEHALT|500.00||1400.00",
		"2024-03-05|STROM||24.50|1375.50",
		"2024-03-20|STORNO MIETE||10.00|1365.50",
	})
	if st := res.Statement.Reconciliation.Status; st != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", res.Statement.Reconciliation)
	}
}

func TestSectionDirection(t *testing.T) {
	cases := map[string]int{
		"Deposits and other credits":   1,
		"Withdrawals and other debits": -1,
		"Gutschriften":                 1,
		"Belastungen":                  -1,
		"Crédits":                      1,
		"Débits":                       -1,
		"Abonos":                       1,
		"Cargos":                       -1,
		"Accrediti":                    1,
		"Addebiti":                     -1,
		"Bijschrijvingen":              1,
		"Afschrijvingen":               -1,
		"Créditos":                     1,
		"Débitos":                      -1,
		"Payments and credits":         0,
		"Account activity":             0,
	}
	for in, want := range cases {
		if got := tables.SectionDirection(in); got != want {
			t.Errorf("sectionDirection(%q) = %d, want %d", in, got, want)
		}
	}
}

// A statement in titled sections followed by a list of daily balances (its
// title sits just above its heading) and a fee summary: the balance list and
// the summary are not transactions, and a check with no description is
// described by its number.
func TestAnalyzeBalanceListAndSummarySkipped(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period July 1, 2022 through July 31, 2022")},
		[]cellAt{at(10, "Beginning Balance"), rat(300, "$1,000.00")},
		[]cellAt{at(10, "Ending Balance"), rat(300, "$1,070.00")},
		nil,
		[]cellAt{at(10, "DEPOSITS AND ADDITIONS")},
		[]cellAt{at(10, "DATE"), at(80, "DESCRIPTION"), at(520, "AMOUNT")},
		[]cellAt{at(10, "07/02"), at(80, "Deposit"), rat(560, "100.00")},
		[]cellAt{at(10, "Total Deposits and Additions"), rat(560, "$100.00")},
		nil,
		[]cellAt{at(10, "CHECKS PAID")},
		[]cellAt{at(10, "CHECK NUMBER"), at(200, "DESCRIPTION"), at(400, "DATE"), at(520, "AMOUNT")},
		[]cellAt{at(10, "1041"), at(400, "07/05"), rat(560, "30.00")},
		[]cellAt{at(10, "Total Checks Paid"), rat(560, "$30.00")},
		nil,
		[]cellAt{at(10, "DAILY ENDING BALANCE")},
		[]cellAt{at(10, "DATE"), at(150, "AMOUNT"), at(300, "DATE"), at(450, "AMOUNT")},
		[]cellAt{at(10, "07/02"), rat(200, "1,100.00"), at(300, "07/05"), rat(500, "1,070.00")},
		nil,
		nil,
		[]cellAt{at(10, "Service Fee"), rat(500, "$0.00")},
		[]cellAt{at(10, "Net Service Fee"), rat(500, "$0.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2022-07-02|Deposit|100.00||1100.00",
		"2022-07-05|1041||30.00|1070.00",
	})
	if st := res.Statement.Reconciliation.Status; st != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", res.Statement.Reconciliation)
	}
}

// A heading placed over the middle of its description column: text left of
// it is still the description. A line with no date after the brought-forward
// line takes that line's date; an average-balance line is no transaction.
// The period prints its year once, at the end.
func TestAnalyzeCentredDescriptionAndUndatedFirstRow(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Your statement: 1 February to 1 March, 2019")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Average balance for the month"), at(520, "Amount")},
		[]cellAt{at(10, "28 Feb"), at(90, "Average credit balance"), rat(560, "2,856.69")},
		nil,
		[]cellAt{at(10, "Date"), at(170, "Description"), at(330, "Money out"), at(420, "Money in"), at(500, "Balance")},
		[]cellAt{at(10, "1 Feb"), at(60, "Balance brought forward"), rat(560, "500.00")},
		[]cellAt{at(60, "Card payment - Petrol Station"), rat(380, "24.50"), rat(560, "475.50")},
		[]cellAt{at(10, "3 Feb"), at(60, "Cash Withdrawal - High Street"), rat(380, "30.00"), rat(560, "445.50")},
		[]cellAt{at(60, "timed 17:30 31 Jan")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2019-02-01|Card payment - Petrol Station||24.50|475.50",
		"2019-02-03|Cash Withdrawal - High Street timed 17:30 31 Jan||30.00|445.50",
	})
	if st := res.Statement.Reconciliation.Status; st != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", res.Statement.Reconciliation)
	}
}

// Two statements bundled in one file: the document runs from the first
// opening balance to the last closing balance.
func TestAnalyzeBundledStatements(t *testing.T) {
	page := func(n int, period, opening, closing string, rows ...[]cellAt) source.Page {
		lines := [][]cellAt{
			{at(10, "Statement period"), at(150, period)},
			{at(10, "Opening balance"), rat(300, opening)},
			{at(10, "Closing balance"), rat(300, closing)},
			nil,
			{at(10, "Date"), at(80, "Details"), at(330, "Withdrawals"), at(420, "Deposits"), at(500, "Balance")},
		}
		return synthPage(n, append(lines, rows...)...)
	}
	p1 := page(1, "from 1 Feb 2026 to 28 Feb 2026", "$100.00", "$90.00",
		[]cellAt{at(10, "03 Feb"), at(80, "SHOP"), rat(380, "10.00"), rat(560, "90.00")})
	p2 := page(2, "from 1 Mar 2026 to 31 Mar 2026", "$90.00", "$150.00",
		[]cellAt{at(10, "05 Mar"), at(80, "SALARY"), rat(470, "60.00"), rat(560, "150.00")})
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2026-02-03|SHOP||10.00|90.00",
		"2026-03-05|SALARY|60.00||150.00",
	})
	st := res.Statement
	if st.ClosingBalance == nil || st.ClosingBalance.StringFixed(2) != "150.00" || st.PeriodEnd == nil || st.PeriodEnd.Format("2006-01-02") != "2026-03-31" {
		t.Errorf("closing %v period end %v, want 150.00 and 2026-03-31", st.ClosingBalance, st.PeriodEnd)
	}
	if st.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", st.Reconciliation)
	}
}

// The same movements listed first by date with a running balance, then again
// by type without one: the second listing is not read twice. The dates print
// no year; the statement's dated summary lines give it.
func TestAnalyzeRelistingDropped(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Beginning balance on May 3, 2003"), rat(400, "$100.00")},
		[]cellAt{at(10, "Ending balance on June 5, 2003"), rat(400, "$170.00")},
		nil,
		[]cellAt{at(10, "Date"), at(60, "Description"), at(300, "Debit"), at(400, "Credit"), at(500, "Balance")},
		[]cellAt{at(10, "05/12"), at(60, "SHOP"), rat(340, "30.00"), rat(560, "70.00")},
		[]cellAt{at(10, "05/15"), at(60, "PAYROLL"), rat(440, "100.00"), rat(560, "170.00")},
		nil,
		[]cellAt{at(10, "Deposits and other credits")},
		[]cellAt{at(10, "Date"), at(60, "Description"), at(520, "Amount")},
		[]cellAt{at(10, "05/15"), at(60, "PAYROLL ACME CORP 0987654"), rat(560, "100.00")},
		nil,
		[]cellAt{at(10, "Withdrawals and other debits")},
		[]cellAt{at(10, "Date"), at(60, "Description"), at(520, "Amount")},
		[]cellAt{at(10, "05/12"), at(60, "SHOP TERMINAL 443565"), rat(560, "30.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2003-05-12|SHOP||30.00|70.00",
		"2003-05-15|PAYROLL|100.00||170.00",
	})
	if st := res.Statement.Reconciliation.Status; st != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", res.Statement.Reconciliation)
	}
}

// Two accounts in one document, each named above its own table with its own
// opening balance, and a page header that names the first again: each row
// carries its account, each account is reconciled on its own, and one
// breaking makes the document a mismatch at that row.
func TestAnalyzeTwoAccounts(t *testing.T) {
	table := func(acct, opening string, rows ...[]cellAt) [][]cellAt {
		lines := [][]cellAt{
			{at(10, "Account number: "+acct)},
			{at(10, "Opening balance"), rat(300, opening)},
			nil,
			{at(10, "Date"), at(80, "Details"), at(330, "Withdrawals"), at(420, "Deposits"), at(500, "Balance")},
		}
		return append(lines, rows...)
	}
	lines := [][]cellAt{{at(10, "Statement period 1 Feb 2026 to 28 Feb 2026")}}
	lines = append(lines, table("12-3456-7890123", "$100.00",
		[]cellAt{at(10, "03 Feb"), at(80, "SHOP"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "04 Feb"), at(80, "RENT"), rat(380, "50.00"), rat(560, "40.00")})...)
	lines = append(lines, nil)
	p1 := synthPage(1, append(lines, table("GB29 NWBK 6016 1331 9268 19", "$500.00",
		[]cellAt{at(10, "05 Feb"), at(80, "SALARY"), rat(470, "60.00"), rat(560, "560.00")})...)...)
	p2 := synthPage(2,
		[]cellAt{at(10, "Statement - Account number: 12-3456-7890123")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Details"), at(330, "Withdrawals"), at(420, "Deposits"), at(500, "Balance")},
		[]cellAt{at(10, "09 Feb"), at(80, "CAFE"), rat(380, "5.00"), rat(560, "555.00")},
	)
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2026-02-03|SHOP||10.00|90.00",
		"2026-02-04|RENT||50.00|40.00",
		"2026-02-05|SALARY|60.00||560.00",
		"2026-02-09|CAFE||5.00|555.00",
	})
	wantAcct := []string{"12-3456-7890123", "12-3456-7890123", "GB29 NWBK 6016 1331 9268 19", "GB29 NWBK 6016 1331 9268 19"}
	for i, tx := range res.Transactions {
		if tx.Account != wantAcct[i] {
			t.Errorf("row %d account %q, want %q", i, tx.Account, wantAcct[i])
		}
	}
	st := res.Statement
	if len(st.Accounts) != 2 || st.Accounts[1].OpeningBalance == nil || st.Accounts[1].OpeningBalance.StringFixed(2) != "500.00" {
		t.Fatalf("accounts = %+v, want two, the second opening at 500.00", st.Accounts)
	}
	if st.Reconciliation.Status != ledger.ReconcileOK || st.Accounts[0].Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v, want ok", st.Reconciliation)
	}

	// The second account's row breaks its chain: the document says where.
	p2.Words[len(p2.Words)-1].Text = "556.00"
	res = Analyze([]source.Page{p1, p2})
	if r := res.Statement.Reconciliation; r.Status != ledger.ReconcileMismatch || len(r.Rows) != 1 || r.Rows[0] != 3 {
		t.Errorf("reconciliation = %+v, want a mismatch at row 3", r)
	}
}

// One account named twice before its table, as a number and as an IBAN,
// is one account.
func TestAnalyzeOneAccountNamedTwice(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Account number: 12345678")},
		[]cellAt{at(10, "IBAN: GB29 NWBK 6016 1331 9268 19")},
		[]cellAt{at(10, "Opening balance"), rat(300, "$100.00")},
		[]cellAt{at(10, "Date"), at(80, "Details"), at(330, "Withdrawals"), at(420, "Deposits"), at(500, "Balance")},
		[]cellAt{at(10, "03/02/2026"), at(80, "SHOP"), rat(380, "10.00"), rat(560, "90.00")},
	)
	res := Analyze([]source.Page{pg})
	if len(res.Statement.Accounts) != 0 || res.Transactions[0].Account != "" || res.Statement.AccountNumber != "12345678" {
		t.Errorf("accounts %+v, row account %q, number %q: want one account 12345678", res.Statement.Accounts, res.Transactions[0].Account, res.Statement.AccountNumber)
	}
}

// A heading repeated on a later page that lost a word to recognition
// takes it back from the page before.
func TestCompleteHeading(t *testing.T) {
	before := []tables.Label{{Text: "Date", Role: lexicon.RoleDate, X0: 10, X1: 30}, {Text: "Details", Role: lexicon.RoleDesc, X0: 80, X1: 115},
		{Text: "Amount", Role: lexicon.RoleAmount, X0: 400, X1: 430}, {Text: "Balance", Role: lexicon.RoleBalance, X0: 500, X1: 535}}
	lost := []tables.Label{before[0], before[1], before[3]}
	got := tables.CompleteHeading(lost, before)
	if len(got) != 4 || got[2].Role != lexicon.RoleAmount {
		t.Errorf("completed heading = %+v, want the amount heading back third", got)
	}
	for _, other := range [][]tables.Label{
		{{Text: "Date", Role: lexicon.RoleDate, X0: 10, X1: 30}, {Text: "Fee", Role: lexicon.RoleAmount, X0: 200, X1: 220}},
		{before[0], before[1], {Text: "Amount", Role: lexicon.RoleAmount, X0: 505, X1: 532}},
	} {
		if got := tables.CompleteHeading(other, before); len(got) != len(other) {
			t.Errorf("a different table's heading was completed: %+v", got)
		}
	}
}

// Printed totals prove the amounts, but with no opening balance anywhere
// the balances are counted from zero: the statement is not ok.
func TestAnalyzeTotalsWithoutOpeningUnverified(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Total credits"), rat(300, "60.00")},
		[]cellAt{at(10, "Total debits"), rat(300, "10.00")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Details"), at(330, "Withdrawals"), at(420, "Deposits")},
		[]cellAt{at(10, "03/02/2026"), at(80, "SHOP"), rat(380, "10.00")},
		[]cellAt{at(10, "04/02/2026"), at(80, "SALARY"), rat(470, "60.00")},
	)
	res := Analyze([]source.Page{pg})
	if len(res.Transactions) != 2 || res.Statement.Reconciliation.Status != ledger.ReconcileUnverified {
		t.Errorf("%d rows, reconciliation %+v: want 2 rows, unverified", len(res.Transactions), res.Statement.Reconciliation)
	}
}

// Dated lines with one column of figures under no heading are a table
// all the same (issue 19: never zero rows from a dated amount table); with
// nothing to prove them they are unverified.
func TestAnalyzeHeadlessSingleColumn(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Your fund at a glance")},
		[]cellAt{at(10, "05/12/2025"), at(80, "Investment 56.8807 units"), rat(500, "150.00")},
		[]cellAt{at(10, "31/12/2025"), at(80, "Withdrawal 1,510.9164 units"), rat(500, "-4,000.00")},
	)
	res := Analyze([]source.Page{pg})
	if len(res.Transactions) != 2 || res.Statement.Reconciliation.Status != ledger.ReconcileUnverified {
		t.Errorf("%d rows, reconciliation %+v: want 2 rows, unverified", len(res.Transactions), res.Statement.Reconciliation)
	}
}

// Dates printed with no year, in a document that prints none anywhere, are
// taken in the year up to the day of conversion, and the statement says so.
func TestAnalyzeNoYearAnywhere(t *testing.T) {
	defer func(f func() time.Time) { today = f }(today)
	today = func() time.Time { return time.Date(2026, 1, 20, 15, 0, 0, 0, time.UTC) }
	pg := synthPage(1,
		[]cellAt{at(10, "Date"), at(80, "Details"), at(330, "Withdrawals"), at(420, "Deposits"), at(500, "Balance")},
		[]cellAt{at(10, "12/30"), at(80, "SHOP"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "01/04"), at(80, "SALARY"), rat(470, "60.00"), rat(560, "150.00")},
	)
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2025-12-30|SHOP||10.00|90.00",
		"2026-01-04|SALARY|60.00||150.00",
	})
	if len(res.Statement.Warnings) == 0 || !strings.Contains(res.Statement.Warnings[0], "no year") {
		t.Errorf("warnings %q, want one saying no year is printed", res.Statement.Warnings)
	}
	// A year taken from today never gives ok, though the balances follow.
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified: the year is the conversion's", s)
	}
	// With the file's creation date the year comes from it; that is
	// still a guess (a file is made again when it is saved or printed,
	// years later), which the arithmetic does not check.
	res = AnalyzeDocument(Document{Pages: []source.Page{pg}, Created: time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC)}, nil)
	checkTxs(t, res, []string{
		"2022-12-30|SHOP||10.00|90.00",
		"2023-01-04|SALARY|60.00||150.00",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified: the year is the file's, not the statement's", s)
	}
}

// With no opening balance printed, an unsigned amount on the first row has
// nothing to tell its direction: it is read as money out, and the
// statement cannot say ok however well the balances after it agree.
func TestAnalyzeFirstDirectionGuessedUnverified(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(400, "Amount"), rat(500, "Balance")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Salary"), rat(400, "10.00"), rat(500, "110.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Coffee"), rat(400, "5.00"), rat(500, "105.00")},
		[]cellAt{at(10, "03/03/2024"), at(80, "Refund"), rat(400, "2.00"), rat(500, "107.00")},
	)})
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s (%s), want unverified", rec.Status, rec.Message)
	}
	if len(res.Transactions) != 3 || !hasKind(res.Transactions[0], ledger.WarnDirectionUnknown) || !res.Transactions[0].Provenance.DirectionGuessed {
		t.Errorf("the first row does not say its direction is unknown: %+v", res.Transactions)
	}
}

// A date heading that runs into the description's (printed glued, as
// "BookingdateText" is, or with no description heading at all) leaves the
// text right of the row's date its description, and a reference column
// beside it stays the reference.
func TestAnalyzeDescriptionUnderDateHeading(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		[]cellAt{at(10, "Date"), at(250, "Reference"), rat(380, "Debit"), rat(470, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Card payment Lidl"), at(250, "977334611114623"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "04/03/2024"), at(80, "Salary Acme"), rat(470, "60.00"), rat(560, "150.00")},
	)})
	checkTxs(t, res, []string{
		"2024-03-02|Card payment Lidl||10.00|90.00",
		"2024-03-04|Salary Acme|60.00||150.00",
	})
}

// A date whose cell wrapped inside its year ("01/03/202" over "4") is
// joined back, though the description follows it closely on its line.
func TestAnalyzeDateWrappedInsideYear(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		[]cellAt{at(10, "Date"), at(60, "Details"), rat(380, "Debit"), rat(470, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "01/03/202"), at(60, "Card payment"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "4"), at(60, "Lidl")},
		[]cellAt{at(10, "04/03/202"), at(60, "Salary"), rat(470, "60.00"), rat(560, "150.00")},
		[]cellAt{at(10, "4")},
	)})
	checkTxs(t, res, []string{
		"2024-03-01|Card payment Lidl||10.00|90.00",
		"2024-03-04|Salary|60.00||150.00",
	})
}

// In a currency printed in whole units, a column of "27.12" and "3.1"
// that starts the rows is the rows' day and month, not amounts.
func TestAnalyzeDayMonthColumnInWholeUnits(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 24 Dec 2023 - 23 Jan 2024")},
		[]cellAt{at(10, "Balance brought forward"), rat(560, "13 582")},
		[]cellAt{at(10, "Date"), at(80, "Details"), rat(450, "Amount"), rat(560, "Balance")},
		[]cellAt{at(10, "27.12"), at(80, "Transfer"), rat(450, "-307"), rat(560, "13 275")},
		[]cellAt{at(10, "28.12"), at(80, "Card payment"), rat(450, "-1 822"), rat(560, "11 453")},
		[]cellAt{at(10, "03.01"), at(80, "Salary"), rat(450, "18 074"), rat(560, "29 527")},
		[]cellAt{at(10, "5.1"), at(80, "Rent"), rat(450, "-9 000"), rat(560, "20 527")},
	)})
	checkTxs(t, res, []string{
		"2023-12-27|Transfer||307.00|13275.00",
		"2023-12-28|Card payment||1822.00|11453.00",
		"2024-01-03|Salary|18074.00||29527.00",
		"2024-01-05|Rent||9000.00|20527.00",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok", s)
	}
}

// On a recognised page of decimal commas, the same column comes back
// with commas for its dots ("24,12": recognition, or the page's number
// marks, took each for an amount) and its left edges a point or two
// apart: it is still the rows' day and month.
func TestAnalyzeDayMonthColumnRecognised(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Period: 18 Dec 2023 - 17 Jan 2024")},
		[]cellAt{at(10, "Opening balance"), rat(560, "131,04")},
		[]cellAt{at(10, "Date"), at(80, "Details"), rat(450, "Amount"), rat(560, "Balance")},
		[]cellAt{at(10, "24,12"), at(80, "Transfer"), rat(450, "-30,70"), rat(560, "100,34")},
		[]cellAt{at(11, "28,12"), at(80, "Card payment"), rat(450, "-18,22"), rat(560, "82,12")},
		[]cellAt{at(9, "03,01"), at(80, "Salary"), rat(450, "180,74"), rat(560, "262,86")},
		[]cellAt{at(10, "5.1"), at(80, "Rent"), rat(450, "-90,00"), rat(560, "172,86")},
	)
	pg.OCR = true
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2023-12-24|Transfer||30.70|100.34",
		"2023-12-28|Card payment||18.22|82.12",
		"2024-01-03|Salary|180.74||262.86",
		"2024-01-05|Rent||90.00|172.86",
	})
}

// Rows that print a month and a day ("12. 6.") under a period printed
// year first with a two-digit year ("25. 12. 5.", Korean's short
// pattern) take the period's years.
func TestAnalyzeMonthDayUnderYearFirstPeriod(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Period: 25. 12. 5. - 26. 1. 4.")},
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		[]cellAt{at(10, "Date"), at(80, "Details"), rat(380, "Debit"), rat(470, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "12. 6."), at(80, "Shop"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "12. 24."), at(80, "Salary"), rat(470, "60.00"), rat(560, "150.00")},
		[]cellAt{at(10, "1. 2."), at(80, "Rent"), rat(380, "50.00"), rat(560, "100.00")},
	)})
	checkTxs(t, res, []string{
		"2025-12-06|Shop||10.00|90.00",
		"2025-12-24|Salary|60.00||150.00",
		"2026-01-02|Rent||50.00|100.00",
	})
}

// Rows that print a two-digit year last ("22. 8. 11.") under a period
// printed year first ("22. 8. 1. - 22. 8. 31.", Korean's short pattern)
// read year first too: only so do they fall inside the period.
func TestAnalyzeTwoDigitYearFirstRows(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Period: 22. 8. 1. - 22. 8. 31.")},
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		[]cellAt{at(10, "Date"), at(80, "Details"), rat(380, "Debit"), rat(470, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "22. 8. 11."), at(80, "Shop"), rat(380, "10.00"), rat(560, "90.00")},
		[]cellAt{at(10, "22. 8. 24."), at(80, "Salary"), rat(470, "60.00"), rat(560, "150.00")},
		[]cellAt{at(10, "22. 8. 30."), at(80, "Rent"), rat(380, "50.00"), rat(560, "100.00")},
	)})
	checkTxs(t, res, []string{
		"2022-08-11|Shop||10.00|90.00",
		"2022-08-24|Salary|60.00||150.00",
		"2022-08-30|Rent||50.00|100.00",
	})
}

// A section's title set just above the table's heading ("Payments and
// credits" over "Posting Date Details Amount") is no line of the heading,
// though it holds heading words: the table keeps its description column.
func TestAnalyzeSectionTitleOverHeading(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/06/2024 - 30/06/2024")},
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		nil,
		[]cellAt{at(10, "Payments and credits")},
		[]cellAt{at(10, "Posting Date"), at(95, "Details"), rat(560, "Amount")},
		[]cellAt{at(10, "02/06/2024"), at(95, "Refund Lidl"), rat(560, "-14.00")},
		[]cellAt{at(10, "05/06/2024"), at(95, "Refund Shell"), rat(560, "-6.00")},
	)})
	if len(res.Transactions) != 2 || res.Transactions[0].Description != "Refund Lidl" {
		t.Fatalf("transactions %+v, want the two refunds with their descriptions", res.Transactions)
	}
}

// A statement titled as a credit card's that names the card nowhere else,
// with no balance on its rows: the arithmetic holds as a bank's and as a
// card's. The amounts' own Dr/Cr words decide: only as the card's do the
// balances hold with "50.00 CR" as money in, and the statement is ok.
// Without such words the title decides, and it stays unverified.
func TestAnalyzeCardNamedOnceByTitle(t *testing.T) {
	page := func(payment string) source.Page {
		return synthPage(1,
			[]cellAt{at(10, "Credit Card Statement")},
			[]cellAt{at(10, "Statement period: 01/06/2024 - 30/06/2024")},
			[]cellAt{at(10, "Previous balance"), rat(560, "100.00")},
			[]cellAt{at(10, "New balance"), rat(560, "60.00")},
			nil,
			[]cellAt{at(10, "Date"), at(130, "Details"), rat(560, "Amount")},
			[]cellAt{at(10, "02/06/2024"), at(130, "Payment thank you"), rat(560, payment)},
			[]cellAt{at(10, "05/06/2024"), at(130, "Shop"), rat(560, "10.00")},
		)
	}
	for _, c := range []struct {
		payment string
		want    string
	}{{"50.00 CR", ledger.ReconcileOK}, {"(50.00)", ledger.ReconcileUnverified}} {
		res := Analyze([]source.Page{page(c.payment)})
		if len(res.Transactions) != 2 {
			t.Fatalf("%s: %d transactions, want 2", c.payment, len(res.Transactions))
		}
		pay, shop := res.Transactions[0], res.Transactions[1]
		if pay.AmountIn == nil || pay.AmountIn.String() != "50" || shop.AmountOut == nil || shop.AmountOut.String() != "10" {
			t.Errorf("%s: payment in %v, shop out %v; want the payment in and the purchase out, as a card's", c.payment, pay.AmountIn, shop.AmountOut)
		}
		if s := res.Statement.Reconciliation.Status; s != c.want {
			t.Errorf("%s: reconciliation %s (%s), want %s", c.payment, s, res.Statement.Reconciliation.Message, c.want)
		}
	}
}

// A row whose cells are centred on it prints its second date column and
// its description's first line half a line above its own line ("06/02/2024
// Card payment" over "04/02/2024 ... 10.00 90.00"): the two are one row,
// whose booking date the column that runs in order names.
func TestAnalyzeDatedHalfLineAbove(t *testing.T) {
	pg := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&pg, x, y, s) }
	put(10, 40, "Statement period: 01/02/2024 - 29/02/2024")
	put(10, 52, "Opening balance")
	put(400, 52, "100.00")
	// value date, booking date and description, money out, balance
	rows := []struct{ value, booking, first, second, out, bal string }{
		{"04/02/2024", "06/02/2024", "Card payment", "Lidl", "10.00", "90.00"},
		{"03/02/2024", "08/02/2024", "Direct debit", "Vodafone", "20.00", "70.00"},
		{"09/02/2024", "09/02/2024", "Cash", "Atm", "5.00", "65.00"},
	}
	for i, r := range rows {
		y := 80 + 20*float64(i)
		put(120, y-5, r.booking)
		put(200, y-5, r.first)
		put(10, y, r.value)
		put(400, y, r.out)
		put(480, y, r.bal)
		put(200, y+5, r.second)
	}
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-02-06|Card payment Lidl||10.00|90.00",
		"2024-02-08|Direct debit Vodafone||20.00|70.00",
		"2024-02-09|Cash Atm||5.00|65.00",
	})
}

// A day's rows printed under its date run on over the page break: the
// lines at the top of the next page, before its first date, are that
// day's rows.
func TestAnalyzeDayRunsOverPageBreak(t *testing.T) {
	p1 := synthPage(1,
		[]cellAt{at(10, "Statement period: 01/06/2022 - 30/06/2022")},
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		nil,
		[]cellAt{at(10, "02/06/2022")},
		[]cellAt{at(10, "Card payment Lidl"), rat(450, "10.00 Dr")},
		[]cellAt{at(10, "Closing of the day"), rat(560, "90.00")},
		nil,
		[]cellAt{at(10, "19/06/2022")},
		[]cellAt{at(10, "Refund Vodafone"), rat(450, "5.00 Cr")},
	)
	p2 := synthPage(2,
		[]cellAt{at(10, "Direct debit Rewe"), rat(450, "6.00 Dr")},
		[]cellAt{at(10, "Closing of the day"), rat(560, "89.00")},
		nil,
		[]cellAt{at(10, "21/06/2022")},
		[]cellAt{at(10, "Card payment Shell"), rat(450, "9.00 Dr")},
		[]cellAt{at(10, "Closing of the day"), rat(560, "80.00")},
	)
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2022-06-02|Card payment Lidl||10.00|90.00",
		"2022-06-19|Refund Vodafone|5.00||95.00",
		"2022-06-19|Direct debit Rewe||6.00|89.00",
		"2022-06-21|Card payment Shell||9.00|80.00",
	})
}

// With no heading anywhere, dates alone on their lines head the rows of
// their day, though each row's figures stand on its second line, under
// the first line of its description.
func TestAnalyzeHeadlessDaysFiguresOnSecondLine(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/11/2023 - 30/11/2023")},
		[]cellAt{at(10, "Opening balance"), rat(500, "100.00")},
		nil,
		[]cellAt{at(10, "07/11/2023")},
		[]cellAt{at(10, "Card payment")},
		[]cellAt{at(10, "Lidl"), rat(400, "-8.25")},
		[]cellAt{at(10, "Refund"), rat(400, "3.00")},
		[]cellAt{at(10, "Day total"), rat(500, "94.75")},
		nil,
		[]cellAt{at(10, "09/11/2023")},
		[]cellAt{at(10, "Direct debit")},
		[]cellAt{at(10, "Vodafone"), rat(400, "-4.75")},
		[]cellAt{at(10, "Day total"), rat(500, "90.00")},
	)})
	if len(res.Transactions) != 3 {
		t.Fatalf("%d transactions, want 3: %+v", len(res.Transactions), res.Transactions)
	}
	if d := res.Transactions[2].Date.Format("2006-01-02"); d != "2023-11-09" {
		t.Errorf("third row dated %s, want 2023-11-09", d)
	}
}

// A narrow right-aligned balance cell wraps its Dr word onto the line
// below ("110.00 INR" over "Dr"): the mark is the balance's.
func TestAnalyzeWrappedDrCrMark(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/07/2022 - 31/07/2022")},
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00 INR Dr")},
		[]cellAt{at(10, "Date"), at(80, "Details"), rat(380, "Debit"), rat(470, "Credit"), rat(560, "Balance")},
		[]cellAt{at(10, "01/07/2022"), at(80, "Shop"), rat(380, "10.00"), rat(560, "110.00 INR")},
		[]cellAt{rat(560, "Dr")},
		[]cellAt{at(10, "03/07/2022"), at(80, "Salary"), rat(470, "150.00"), rat(560, "40.00 INR")},
		[]cellAt{rat(560, "Cr")},
	)})
	checkTxs(t, res, []string{
		"2022-07-01|Shop||10.00|-110.00",
		"2022-07-03|Salary|150.00||40.00",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s (%s), want ok", s, res.Statement.Reconciliation.Message)
	}
}

// In words no lexicon holds, with no balance on the rows: the figures
// printed before and after them close only as a card's (the amount owed,
// which purchases raise), and the payment's Cr word forbids the bank's
// reading that counts every amount the other way. It is read as a card's,
// and proven.
func TestAnalyzeCardByClosingArithmetic(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Zorblat fenquist: 01/12/2023 - 31/12/2023")},
		[]cellAt{at(10, "Qwimbel"), rat(500, "100.00")},
		nil,
		[]cellAt{at(10, "12/12/2023"), at(100, "Shop Lidl"), rat(500, "10.00")},
		[]cellAt{at(10, "13/12/2023"), at(100, "Thanks Florp"), rat(500, "50.00 Cr")},
		[]cellAt{at(10, "20/12/2023"), at(100, "Shop Rewe"), rat(500, "5.00")},
		nil,
		[]cellAt{at(10, "Plonkert"), rat(500, "65.00")},
	)})
	if len(res.Transactions) != 3 {
		t.Fatalf("%d transactions, want 3 (the last line is the closing balance): %+v", len(res.Transactions), res.Transactions)
	}
	if in := res.Transactions[1].AmountIn; in == nil || in.String() != "50" {
		t.Errorf("payment in %v, want 50", in)
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileOK || !res.Statement.Proof.Card {
		t.Errorf("reconciliation %s (%s), card %v; want ok as a card's", s, res.Statement.Reconciliation.Message, res.Statement.Proof.Card)
	}
}

// A heading in words no lexicon holds prints its second line just above
// the first row ("Qvalue" over "Qdate"): that is no description hanging
// above the rows, and the descriptions that wrap below their rows stay
// theirs.
func TestAnalyzeHeadingSecondLineNoHabit(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		nil,
		[]cellAt{at(10, "Zdat"), at(90, "Zdat"), at(170, "Zorbel fanquist"), rat(380, "Zout"), rat(470, "Zin"), rat(560, "Zbal")},
		[]cellAt{at(90, "zvalutski")},
		[]cellAt{at(10, "01/10/2023"), at(90, "01/10/2023"), at(170, "Salary Spotify"), rat(470, "20.00"), rat(560, "120.00")},
		[]cellAt{at(10, "05/10/2023"), at(90, "05/10/2023"), at(170, "Transfer Senor Perez"), rat(470, "40.00"), rat(560, "160.00")},
		[]cellAt{at(170, "Ferreteria")},
		[]cellAt{at(10, "06/10/2023"), at(90, "06/10/2023"), at(170, "Transfer Senor Perez"), rat(380, "10.00"), rat(560, "150.00")},
		[]cellAt{at(170, "Ferreteria")},
		[]cellAt{at(10, "08/10/2023"), at(90, "08/10/2023"), at(170, "Cash Carrefour"), rat(380, "5.00"), rat(560, "145.00")},
	)})
	checkTxs(t, res, []string{
		"2023-10-01|Salary Spotify|20.00||120.00",
		"2023-10-05|Transfer Senor Perez Ferreteria|40.00||160.00",
		"2023-10-06|Transfer Senor Perez Ferreteria||10.00|150.00",
		"2023-10-08|Cash Carrefour||5.00|145.00",
	})
}

// A date cell wrapped after a word ("2 de set. de" over "2023") joins
// whole, the word before the year kept in the date.
func TestAnalyzeDateWrappedAfterWord(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100,00")},
		[]cellAt{at(10, "Data"), at(120, "Concepto"), rat(400, "Debe"), rat(480, "Haber"), rat(560, "Saldo")},
		[]cellAt{at(10, "2 de set. de"), at(120, "Shop Lidl"), rat(400, "10,00"), rat(560, "90,00")},
		[]cellAt{at(10, "2023")},
		[]cellAt{at(10, "4 de set. de"), at(120, "Salary"), rat(480, "60,00"), rat(560, "150,00")},
		[]cellAt{at(10, "2023")},
	)})
	checkTxs(t, res, []string{
		"2023-09-02|Shop Lidl||10.00|90.00",
		"2023-09-04|Salary|60.00||150.00",
	})
}

// A date cell wrapped after its year and the word Latvian prints after
// it ("2024. gada" over "11. okt."): the date below, which prints no year,
// completes the cell above; it starts no row of its own.
func TestAnalyzeDateWrappedAfterYear(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100,00")},
		[]cellAt{at(10, "Datums"), at(120, "Apraksts"), rat(400, "Debets"), rat(480, "Kredits"), rat(560, "Atlikums")},
		[]cellAt{at(10, "2024. gada 3."), at(120, "Shop Lidl"), rat(400, "10,00"), rat(560, "90,00")},
		[]cellAt{at(10, "okt.")},
		[]cellAt{at(10, "2024. gada"), at(120, "Salary"), rat(480, "60,00"), rat(560, "150,00")},
		[]cellAt{at(10, "11. okt.")},
	)})
	checkTxs(t, res, []string{
		"2024-10-03|Shop Lidl||10.00|90.00",
		"2024-10-11|Salary|60.00||150.00",
	})
}

// A row with two date cells, a posting and a value date, both wrapped
// before their month ("2022 ж. 03" over "там."): both join, and neither
// leaves words in the description.
func TestAnalyzeTwoDateCellsWrapped(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100,00")},
		[]cellAt{at(10, "Data"), at(80, "Valuta"), at(150, "Concepto"), rat(400, "Debe"), rat(480, "Haber"), rat(560, "Saldo")},
		[]cellAt{at(10, "2023 ж. 02"), at(80, "2023 ж. 03"), at(150, "Shop Lidl"), rat(400, "10,00"), rat(560, "90,00")},
		[]cellAt{at(10, "там."), at(80, "там.")},
		[]cellAt{at(10, "2023 ж. 04"), at(80, "2023 ж. 05"), at(150, "Salary"), rat(480, "60,00"), rat(560, "150,00")},
		[]cellAt{at(10, "там."), at(80, "там.")},
	)})
	checkTxs(t, res, []string{
		"2023-08-02|Shop Lidl||10.00|90.00",
		"2023-08-04|Salary|60.00||150.00",
	})
}

// A table whose descriptions wrap below their row's line, its heading
// printed again on the next page: the lines between that heading and the
// page's first row end the description of the page before's last row.
func TestAnalyzeDescriptionGoesOnOverPage(t *testing.T) {
	p1 := source.Page{Number: 1, Width: 612, Height: 792}
	p2 := source.Page{Number: 2, Width: 612, Height: 792}
	put := putWords
	heading := func(p *source.Page, y float64) {
		put(p, 10, y, "Date")
		put(p, 100, y, "Details")
		put(p, 330, y, "Debit")
		put(p, 420, y, "Credit")
		put(p, 510, y, "Balance")
	}
	put(&p1, 10, 40, "Statement period: 01/01/2023 - 31/01/2023")
	put(&p1, 10, 60, "Opening balance")
	put(&p1, 520, 60, "100.00")
	heading(&p1, 80)
	put(&p1, 10, 95, "02/01/2023")
	put(&p1, 100, 95, "Salary")
	put(&p1, 420, 95, "50.00")
	put(&p1, 520, 95, "150.00")
	put(&p1, 100, 108, "Acme Ltd")
	put(&p1, 10, 740, "18/01/2023")
	put(&p1, 100, 740, "Transfer")
	put(&p1, 340, 740, "10.00")
	put(&p1, 520, 740, "140.00")
	heading(&p2, 40)
	put(&p2, 100, 53, "sent to")
	put(&p2, 100, 66, "Carrefour Market")
	put(&p2, 10, 81, "19/01/2023")
	put(&p2, 100, 81, "Card payment")
	put(&p2, 340, 81, "15.00")
	put(&p2, 520, 81, "125.00")
	put(&p2, 100, 94, "Shell Station")
	put(&p2, 10, 109, "20/01/2023")
	put(&p2, 100, 109, "Rent")
	put(&p2, 340, 109, "25.00")
	put(&p2, 520, 109, "100.00")
	put(&p2, 100, 122, "March flat")
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme Ltd|50.00||150.00",
		"2023-01-18|Transfer sent to Carrefour Market||10.00|140.00",
		"2023-01-19|Card payment Shell Station||15.00|125.00",
		"2023-01-20|Rent March flat||25.00|100.00",
	})
	if b := res.Transactions[1].Box; b[3] > 760 || b[1] < 700 {
		t.Errorf("the carried row's box %v reaches off its own page's line", b)
	}
}

// Rows whose cells are centred on their line, one of them split by the
// page break: its second line opens the next page above the lines of the
// next row's cell, which overlap that row's line. It is the split row's.
func TestAnalyzeCentredRowSplitByPage(t *testing.T) {
	var p1, p2 source.Page
	p1 = source.Page{Number: 1, Width: 612, Height: 792}
	p2 = source.Page{Number: 2, Width: 612, Height: 792}
	put := putWords
	put(&p1, 10, 40, "Statement period: 01/01/2023 - 31/01/2023")
	put(&p1, 10, 60, "Opening balance")
	put(&p1, 520, 60, "100.00")
	// a centred row: description above and below its line
	put(&p1, 100, 100, "Salary")
	put(&p1, 10, 105, "02/01/2023")
	put(&p1, 420, 105, "50.00")
	put(&p1, 520, 105, "150.00")
	put(&p1, 100, 110, "Acme")
	// the page's last row: its description's first line on its own line
	put(&p1, 10, 740, "18/01/2023")
	put(&p1, 100, 740, "Autopay")
	put(&p1, 340, 740, "10.00")
	put(&p1, 520, 740, "140.00")
	// page 2: the split row's second line, then a centred row
	put(&p2, 100, 40, "Carrefour Market")
	put(&p2, 100, 53, "Card payment")
	put(&p2, 10, 58, "19/01/2023")
	put(&p2, 340, 58, "15.00")
	put(&p2, 520, 58, "125.00")
	put(&p2, 100, 63, "Joao Goncalves")
	res := Analyze([]source.Page{p1, p2})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme|50.00||150.00",
		"2023-01-18|Autopay Carrefour Market||10.00|140.00",
		"2023-01-19|Card payment Joao Goncalves||15.00|125.00",
	})
}

// A money cell of two lines centred on a row's line prints its figure
// half a line above that line ("1,446.68" beside the description's first
// line, over the row's date and balance): the figure is the row's.
func TestAnalyzeMoneyHalfLineAbove(t *testing.T) {
	pg := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&pg, x, y, s) }
	put(10, 40, "Statement period: 01/07/2022 - 31/07/2022")
	put(10, 55, "Opening balance")
	put(520, 55, "280.57")
	put(100, 75, "Transfer")
	put(420, 75, "1,446.68")
	put(10, 80, "03/07/2022")
	put(520, 80, "1,727.25")
	put(100, 85, "Carrefour Market")
	put(100, 100, "Card")
	put(10, 105, "05/07/2022")
	put(340, 105, "27.25")
	put(520, 105, "1,700.00")
	put(100, 110, "Lidl")
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2022-07-03|Transfer Carrefour Market|1446.68||1727.25",
		"2022-07-05|Card Lidl||27.25|1700.00",
	})
}

// In words no lexicon holds, with no heading it knows, no word for a card
// and no balance on the rows, the amounts add up as a bank account's and,
// read the other way, as a card's: read as a bank's, unverified.
func TestAnalyzeBankOrCardOpen(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Zorblat fenquist: 01/12/2023 - 31/12/2023")},
		[]cellAt{at(10, "Qwimbel"), rat(500, "100.00")},
		nil,
		[]cellAt{at(10, "12/12/2023"), at(100, "Shop Lidl"), rat(500, "-10.00")},
		[]cellAt{at(10, "13/12/2023"), at(100, "Thanks Florp"), rat(500, "50.00")},
		[]cellAt{at(10, "20/12/2023"), at(100, "Shop Rewe"), rat(500, "-5.00")},
		nil,
		[]cellAt{at(10, "Plonkert"), rat(500, "135.00")},
	)})
	if len(res.Transactions) != 3 {
		t.Fatalf("%d transactions, want 3", len(res.Transactions))
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified || !res.Statement.Proof.KindOpen {
		t.Errorf("reconciliation %s (%s), kind open %v; want unverified, bank or card left open", s, res.Statement.Reconciliation.Message, res.Statement.Proof.KindOpen)
	}
}

// A row whose date cell wrapped its year onto the line below ("1 de dec.
// de" over "2024") reaches down to that line: the description's line
// under the year is still the row's, not the next row's.
func TestAnalyzeRowReachesWrappedDate(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100,00")},
		[]cellAt{at(10, "Data"), at(120, "Concepto"), rat(400, "Importe"), rat(560, "Saldo")},
		[]cellAt{at(10, "1 de dic. de"), at(120, "Direct debit"), rat(400, "-10,00"), rat(560, "90,00")},
		[]cellAt{at(10, "2024")},
		[]cellAt{at(120, "Vodafone")},
		[]cellAt{at(10, "3 de dic. de"), at(120, "Card payment"), rat(400, "-5,00"), rat(560, "85,00")},
		[]cellAt{at(10, "2024")},
		[]cellAt{at(120, "Lidl")},
	)})
	checkTxs(t, res, []string{
		"2024-12-01|Direct debit Vodafone||10.00|90.00",
		"2024-12-03|Card payment Lidl||5.00|85.00",
	})
}

// A row whose description runs over three lines around its date, its
// amounts printed on the last of them: the lines keep their order
// ("Direct debit", "monthly", then "Albert Heijn" with the amounts).
func TestAnalyzeDescriptionOrderAroundDate(t *testing.T) {
	pg := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&pg, x, y, s) }
	put(10, 40, "Statement period: 01/08/2024 - 31/08/2024")
	put(10, 55, "Opening balance")
	put(520, 55, "230.00")
	put(150, 80, "Direct debit")
	put(10, 85, "03/08/2024")
	put(150, 90, "monthly")
	put(150, 101, "Albert Heijn")
	put(340, 101, "4.00")
	put(520, 101, "226.00")
	put(150, 130, "Card payment")
	put(10, 135, "05/08/2024")
	put(150, 140, "weekly")
	put(150, 151, "Lidl")
	put(340, 151, "6.00")
	put(520, 151, "220.00")
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2024-08-03|Direct debit monthly Albert Heijn||4.00|226.00",
		"2024-08-05|Card payment weekly Lidl||6.00|220.00",
	})
}

// A spaced date wrapped before its year ("17. 2." over "2024") joins with
// a word space, not glued to the day's dot.
func TestAnalyzeSpacedDateWrappedYear(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Opening balance"), rat(560, "100.00")},
		[]cellAt{at(10, "Date"), at(120, "Details"), rat(400, "Amount"), rat(560, "Balance")},
		[]cellAt{at(10, "17. 2."), at(120, "Card payment"), rat(400, "-2.17"), rat(560, "97.83")},
		[]cellAt{at(10, "2024"), at(120, "Pingo Doce")},
		[]cellAt{at(10, "19. 2."), at(120, "Cash"), rat(400, "-7.83"), rat(560, "90.00")},
		[]cellAt{at(10, "2024")},
	)})
	checkTxs(t, res, []string{
		"2024-02-17|Card payment Pingo Doce||2.17|97.83",
		"2024-02-19|Cash||7.83|90.00",
	})
}

// putWords places s's words on pg from (x, y) in synthPage's font: ten
// points high, five wide a character, a space between words.
func putWords(pg *source.Page, x, y float64, s string) {
	for _, w := range strings.Fields(s) {
		pg.Words = append(pg.Words, source.Word{Text: w, X0: x, Y0: y, X1: x + 5*float64(len(w)), Y1: y + 10})
		x += 5 * float64(len(w)+1)
	}
}

// TestAnalyzeTotalsLineByItsSums reads a totals line in words no lexicon
// holds as the table's totals, not as a row: each of its figures is the
// sum of its column above it. Its label, centred over two lines, is no
// row's description.
func TestAnalyzeTotalsLineByItsSums(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Statement period: 01/01/2023 - 31/01/2023")
	put(10, 60, "Opening balance")
	put(520, 60, "100.00")
	put(10, 80, "Date")
	put(100, 80, "Details")
	put(330, 80, "Debit")
	put(420, 80, "Credit")
	put(510, 80, "Balance")
	put(10, 95, "02/01/2023")
	put(100, 95, "Salary Acme")
	put(420, 95, "50.00")
	put(520, 95, "150.00")
	put(10, 110, "05/01/2023")
	put(100, 110, "Rent March")
	put(340, 110, "25.00")
	put(520, 110, "125.00")
	put(10, 125, "09/01/2023")
	put(100, 125, "Card Shell")
	put(340, 125, "15.00")
	put(520, 125, "110.00")
	put(100, 136, "Vrokplen")
	put(340, 142, "40.00")
	put(420, 142, "50.00")
	put(100, 148, "skartomir")
	put(10, 170, "Closing balance")
	put(520, 170, "110.00")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-01-02|Salary Acme|50.00||150.00",
		"2023-01-05|Rent March||25.00|125.00",
		"2023-01-09|Card Shell||15.00|110.00",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeOpeningInUnknownWordsTellsFirstRow reads a table whose
// headings no lexicon holds and whose first row's direction only the
// opening balance can tell; the opening is printed beside a word no
// lexicon holds. Of the two balances the first row's may start from, the
// one the page prints is the opening, and the row's direction follows.
func TestAnalyzeOpeningInUnknownWordsTellsFirstRow(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Vryshgo: 01/06/2023 - 30/06/2023")
	put(10, 60, "Drytalli")
	put(520, 60, "-110.15")
	put(10, 80, "Trymuf")
	put(100, 80, "Skelarurpu")
	put(330, 80, "Rafaiton")
	put(420, 80, "Vouvokax")
	put(510, 80, "Zvamkiden")
	put(10, 95, "01/06/2023")
	put(100, 95, "Tairafo Cafe")
	put(420, 95, "94.33")
	put(520, 95, "-15.82")
	put(10, 110, "03/06/2023")
	put(100, 110, "Tairafo Heijn")
	put(420, 110, "535.23")
	put(520, 110, "519.41")
	put(10, 125, "11/06/2023")
	put(100, 125, "Terplost Milano")
	put(420, 125, "52.67")
	put(520, 125, "572.08")
	res := Analyze([]source.Page{p})
	checkTxs(t, res, []string{
		"2023-06-01|Tairafo Cafe|94.33||-15.82",
		"2023-06-03|Tairafo Heijn|535.23||519.41",
		"2023-06-11|Terplost Milano|52.67||572.08",
	})
	if got := res.Statement.Reconciliation.Status; got != "ok" {
		t.Errorf("status %s, want ok", got)
	}
}

// TestAnalyzeClosingInUnknownWordsAfterUnsignedRows reads a card's last
// line, one figure in words no lexicon holds, as its closing balance: the
// opening balance printed outside the table plus the rows, taken as the
// reading takes rows whose direction nothing tells, ends at it exactly.
func TestAnalyzeClosingInUnknownWordsAfterUnsignedRows(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Mostsyr: 21/03/2025 - 20/04/2025")
	put(10, 60, "Vraivrofaiskax")
	put(520, 60, "423.21")
	put(10, 80, "Plodog")
	put(100, 80, "Travrazox")
	put(510, 80, "Bromyfo")
	put(10, 95, "22/03/2025")
	put(100, 95, "Apotheke London")
	put(525, 95, "6.21")
	put(10, 110, "23/03/2025")
	put(100, 110, "Vodafone Roma")
	put(520, 110, "29.18")
	put(10, 125, "27/03/2025")
	put(100, 125, "Rewe Lisboa")
	put(520, 125, "37.04")
	put(10, 150, "Saitralplegal zveostglo")
	put(520, 150, "495.64")
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 3 {
		t.Fatalf("%d transactions, want 3 (the closing line is no row)", n)
	}
	st := res.Statement
	if st.ClosingBalance == nil || st.ClosingBalance.String() != "495.64" || st.OpeningBalance == nil || st.OpeningBalance.String() != "423.21" {
		t.Errorf("opening %v closing %v, want 423.21 and 495.64", st.OpeningBalance, st.ClosingBalance)
	}
	if got := st.Reconciliation.Status; got == "ok" {
		t.Errorf("status ok: the rows' direction is taken, not proven by a balance on each")
	}
}

// TestAnalyzeWholeUnitRowIsNoDayHeading reads a card's rows of whole-unit
// amounts ("417 KRW") as rows, not as days' headings: a headless table's
// columns are found on its rows only, so the telephone number in the
// bank's footer below makes no money column.
func TestAnalyzeWholeUnitRowIsNoDayHeading(t *testing.T) {
	p := source.Page{Number: 1, Width: 612, Height: 792}
	put := func(x, y float64, s string) { putWords(&p, x, y, s) }
	put(10, 40, "Pirkpli: 24. 7. 20. - 24. 8. 19.")
	put(10, 80, "Glixbr")
	put(100, 80, "Tarkrase")
	put(500, 80, "Vribrit")
	rows := []struct{ date, desc, amount string }{
		{"24. 7. 21.", "Spotify Goteborg", "417 KRW"},
		{"24. 7. 23.", "Vouplest Lidl", "12,263 KRW"},
		{"24. 8. 2.", "Netflix Paris", "695 KRW"},
		{"24. 8. 17.", "Rewe Roma", "3,120 KRW"},
	}
	for i, r := range rows {
		y := 95 + 15*float64(i)
		put(10, y, r.date)
		put(100, y, r.desc)
		put(520-5*float64(len(r.amount)), y, r.amount)
	}
	put(10, 200, "Northbridge Bank · 47388422 · +15 949 458 063")
	res := Analyze([]source.Page{p})
	if n := len(res.Transactions); n != 4 {
		t.Fatalf("%d transactions, want 4", n)
	}
	for i, tx := range res.Transactions {
		if tx.Description != rows[i].desc {
			t.Errorf("row %d: description %q, want %q", i, tx.Description, rows[i].desc)
		}
	}
}

// Blocks of label and value lines in words the engine does not know,
// recognised from an image: recognition reads one label differently on
// some blocks ("Krarrubr0roun", "KAgoudryx"), and the blocks are still
// found by their labels repeating, each one row.
func TestAnalyzeRecordsRecognisedLabels(t *testing.T) {
	block := func(label1, label2, date, desc, amount, balance string) [][]cellAt {
		return [][]cellAt{
			{at(10, label1), rat(560, date)},
			{at(10, label2), rat(560, desc)},
			{at(10, "Pairktolork"), rat(560, amount)},
			{at(10, "Breskaivrant"), rat(560, balance)},
			nil,
		}
	}
	lines := [][]cellAt{
		{at(10, "Dairaimzvaskail: 01.04.2022 - 30.04.2022")},
		{at(10, "Levrintsel"), rat(560, "538,17")},
		nil,
	}
	lines = append(lines, block("Kagoudryx", "Krarrubroroun", "04.04.22", "Gairktrinex NS Reizigers", "-88,86", "449,31")...)
	lines = append(lines, block("KAgoudryx", "Krarrubr0roun", "05.04.22", "Gairktrinex Vodafone", "-432,98", "16,33")...)
	lines = append(lines, block("Kagoudryx", "Krarrubroroun", "08.04.22", "Lekratrou Cafe de Flore", "264,59", "280,92")...)
	lines = append(lines, block("K4goudryx", "Krarrubroroun", "12.04.22", "Dulskosylmurk Pharmacie", "-3,27", "277,65")...)
	pg := recognised(synthPage(1, lines...))
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2022-04-04|Gairktrinex NS Reizigers||88.86|449.31",
		"2022-04-05|Gairktrinex Vodafone||432.98|16.33",
		"2022-04-08|Lekratrou Cafe de Flore|264.59||280.92",
		"2022-04-12|Dulskosylmurk Pharmacie||3.27|277.65",
	})
}

// Descriptions wrapped on two lines below each row's line, recognised
// from a scan: every line stands 11 points below the one above, as
// printed, but recognition's boxes hug the glyphs, so a line with a
// descender ("Hausverwaltung", "gut") measures a fifth taller than one
// without, and its middle stands lower. Measured line by line, the gaps
// before each row's last line and after it differed, and read as a
// table whose descriptions hang above their rows: every row took the
// lines of the row above. Measured in the type's em, the gaps are alike
// and the lines go to the row above them, as a text layer reads them.
func TestAnalyzeRecognisedLinesOfUnevenGlyphs(t *testing.T) {
	lines := [][]cellAt{
		{at(10, "Zeitraum: 01.10.2025 - 31.10.2025")},
		{at(10, "Alter Kontostand"), rat(560, "1.204,57")},
		{at(10, "Datum"), at(90, "Verwendungszweck"), rat(560, "Betrag")},
	}
	rows := []struct{ date, first, second, third, amount string }{
		{"02.10.2025", "Dauerauftrag", "Hausverwaltung Lindenau", "Miete Whg. links", "-340,00"},
		{"02.10.2025", "Gutschrift", "Maschinenbau AG", "Lohn Gehalt Oktober", "3.089,91"},
		{"04.10.2025", "Lastschrift", "HUK Versicherung", "Kfz Police gut", "-33,38"},
		{"05.10.2025", "Gutschrift", "Familienkasse Sachsen", "Kindergeld Oktober", "2.107,27"},
		{"07.10.2025", "Entgelt", "Kontoabschluss Giro", "Komfort Paket", "-17,84"},
	}
	for _, r := range rows {
		lines = append(lines,
			[]cellAt{at(10, r.date), at(90, r.first), rat(560, r.amount)},
			[]cellAt{at(90, r.second)},
			[]cellAt{at(90, r.third)})
	}
	lines = append(lines, []cellAt{at(10, "Neuer Kontostand"), rat(560, "4.010,53")})
	pg := recognised(synthPage(1, lines...))
	for i, w := range pg.Words {
		// Lines 11 points apart; the second line of each description
		// 7.2 points tall (no descender), the third 9 (one).
		k := int(math.Round((w.Y0 - 40) / 12))
		y := 40 + 11*float64(k)
		h := 7.2
		if k >= 3 && k < 3+3*len(rows) && (k-3)%3 == 2 {
			h = 9
		}
		pg.Words[i].Y0, pg.Words[i].Y1 = y, y+h
	}
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2025-10-02|Dauerauftrag Hausverwaltung Lindenau Miete Whg. links||340.00|864.57",
		"2025-10-02|Gutschrift Maschinenbau AG Lohn Gehalt Oktober|3089.91||3954.48",
		"2025-10-04|Lastschrift HUK Versicherung Kfz Police gut||33.38|3921.10",
		"2025-10-05|Gutschrift Familienkasse Sachsen Kindergeld Oktober|2107.27||6028.37",
		"2025-10-07|Entgelt Kontoabschluss Giro Komfort Paket||17.84|6010.53",
	})
}

// Blocks of label and value recognised from a photo, as recognition
// gives them: each block's type measures a little taller or shorter than
// the next one's (a text layer's font is one size), a whole amount lost
// the thin space of its thousands ("2356" for "2 356"). Every block lays
// its figures out in the same columns, and the bare amount is a figure
// under a label whose values are figures.
func TestAnalyzeRecordsOfUnevenType(t *testing.T) {
	block := func(date, desc, amount, balance string) [][]cellAt {
		return [][]cellAt{
			{at(10, "Vrymbaiken"), rat(560, date)},
			{at(10, "Treosaibaiky leombrufoush"), at(300, desc)},
			{at(10, "Beodrobeorplerk"), rat(560, amount)},
			{at(10, "Glilaimkain vibaiskon"), rat(560, balance)},
			nil,
		}
	}
	lines := [][]cellAt{
		{at(10, "Bystglebyshvush: 01.08.2023 - 31.08.2023")},
		{at(10, "Plorbrouvan pouvripix"), rat(560, "861 961")},
		nil,
	}
	lines = append(lines, block("01.08.2023", "Wyplata Societe Generale", "-864", "861 097")...)
	lines = append(lines, block("04.08.2023", "Przelew Farmacia", "2356", "863 453")...)
	lines = append(lines, block("05.08.2023", "Wynagrodzenie Lidl", "105 032", "968 485")...)
	lines = append(lines, block("12.08.2023", "Przelew Lukas Kowal", "-18 484", "950 001")...)
	lines = append(lines, block("22.08.2023", "Wyplata Amazon", "-15 204", "934 797")...)
	lines = append(lines, block("29.08.2023", "Platnosc Citta di Milano", "-1 811", "932 986")...)
	lines = append(lines, block("31.08.2023", "Wyplata NS Reizigers", "-2 105", "930 881")...)
	pg := recognised(synthPage(1, lines...))
	for i, w := range pg.Words {
		// Blocks of five lines from the fourth line on: the glyphs of
		// each block 7.5, 8.1 or 8.7 points tall in turn.
		if k := int(math.Round((w.Y0-40)/12)) - 3; k >= 0 {
			pg.Words[i].Y1 = w.Y0 + 7.5 + 0.6*float64(k/5%3)
		}
	}
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2023-08-01|Wyplata Societe Generale||864.00|861097.00",
		"2023-08-04|Przelew Farmacia|2356.00||863453.00",
		"2023-08-05|Wynagrodzenie Lidl|105032.00||968485.00",
		"2023-08-12|Przelew Lukas Kowal||18484.00|950001.00",
		"2023-08-22|Wyplata Amazon||15204.00|934797.00",
		"2023-08-29|Platnosc Citta di Milano||1811.00|932986.00",
		"2023-08-31|Wyplata NS Reizigers||2105.00|930881.00",
	})
}

// Descriptions of three lines under each row's line, recognised from a
// photo: the boxes hug the glyphs (three quarters of the type's size), so
// the gaps between a cell's lines (7 points) measure nearly as wide as
// the boxes are tall. Measured from the lines' bands as a text layer
// draws them, each cell's lines are close and go to their row; the gap
// before the next row is the widest.
func TestAnalyzeRecognisedDescriptionLines(t *testing.T) {
	lines := [][]cellAt{
		{at(10, "Period: 01.07.2025 - 31.07.2025")},
		{at(10, "Opening balance"), rat(560, "-2.288,13")},
		{at(10, "Fecha"), at(90, "Descripción"), rat(380, "Debe"), rat(470, "Haber"), rat(560, "Saldo")},
		{at(10, "02.07.2025"), at(90, "Recibo"), rat(380, "241,69"), rat(560, "-2.529,82")},
		{at(90, "Pharmacie")},
		{at(90, "Centrale")},
		{at(10, "11.07.2025"), at(90, "Nómina"), rat(470, "215,67"), rat(560, "-2.314,15")},
		{at(90, "Città")},
		{at(90, "di Milano")},
		{at(10, "15.07.2025"), at(90, "Recibo"), rat(380, "110,27"), rat(560, "-2.424,42")},
		{at(90, "Albert Heijn")},
		{at(10, "Closing balance"), rat(560, "-2.424,42")},
	}
	pg := synthPage(1, lines...)
	// A cell's lines 14.5 points apart, a row's block 16.7 below the one
	// above; boxes 7.5 points tall.
	ys := []float64{40, 60, 80}
	for i := 3; i < len(lines); i++ {
		gap := 14.5
		if len(lines[i]) > 1 {
			gap = 16.7
		}
		ys = append(ys, ys[i-1]+gap)
	}
	for i := range pg.Words {
		k := int(math.Round((pg.Words[i].Y0 - 40) / 12))
		pg.Words[i].Y0, pg.Words[i].Y1 = ys[k], ys[k]+7.5
	}
	pg.OCR = true
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2025-07-02|Recibo Pharmacie Centrale||241.69|-2529.82",
		"2025-07-11|Nómina Città di Milano|215.67||-2314.15",
		"2025-07-15|Recibo Albert Heijn||110.27|-2424.42",
	})
}
