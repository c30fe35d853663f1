package extract

import (
	"slices"
	"strings"
	"testing"

	"passbook/extract/layout"
	"passbook/extract/ledger"
	"passbook/extract/repair"
	"passbook/extract/source"
)

func TestRepairHeadingWords(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		ocr   bool
		want  string
	}{
		{"a heading word misread by a letter", []string{"Data", "Descricaéo", "Importancia", "Saldo"}, true, "Data descricao Importancia Saldo"},
		{"misread by two letters, a long word", []string{"Data", "Descrigdo", "Saldo"}, true, "Data descricao Saldo"},
		{"a text layer is read as printed", []string{"Data", "Descricaéo", "Saldo"}, false, "Data Descricaéo Saldo"},
		{"a description line is left alone", []string{"Transferencia", "recibida", "Lisboa", "Balance"}, true, "Transferencia recibida Lisboa Balance"},
		{"short words are never guessed", []string{"Dato", "Descrizione", "Saldo"}, true, "Dato Descrizione Saldo"},
		{"heading words run together", []string{"Type", "Datecomptable", "Libellé", "Solde"}, true, "Type date comptable Libellé Solde"},
		{"heading words joined by a dot", []string{"Referencia", "F.Operacién", "Concepto", "Abonos"}, true, "Referencia f operacion Concepto Abonos"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &layout.Line{OCR: tc.ocr}
			for i, w := range tc.words {
				l.Words = append(l.Words, source.Word{Text: w, X0: float64(100 * i), X1: float64(100*i + 60), Y0: 10, Y1: 20})
			}
			repair.RepairHeadingWords(l)
			if got := l.Text(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// On a recognised page, a decimal point recognition lost or read as a
// dash ("351 20", "225 -85") and a
// compact date's digits read as letters ("2SJAN24") are put back; a date
// printed with spaces ("12 03 2024") is left a date.
func TestOCRLostPointAndDateDigits(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period 01JAN24 to 29FEB24")},
		nil,
		[]cellAt{at(10, "DATE"), at(90, "DESCRIPTION"), at(330, "WITHDRAWALS"), at(420, "DEPOSITS"), at(490, "BALANCE")},
		[]cellAt{at(90, "BEGINNING BALANCE"), rat(540, "3,752.83")},
		[]cellAt{at(10, "2SJAN24"), at(90, "LANDLORD RENT"), rat(370, "241 51"), rat(540, "3,511 32")},
		[]cellAt{at(10, "O8FEB24"), at(90, "SALARY 12 03 2024"), rat(460, "1,000 00"), rat(540, "4,511.32")},
		[]cellAt{at(10, "09FEB24"), at(90, "HARDWARE DEPOT"), rat(370, "225 -85"), rat(540, "4,285 47")},
	)
	pg.OCR = true
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2024-01-25|LANDLORD RENT||241.51|3511.32",
		"2024-02-08|SALARY 12 03 2024|1000.00||4511.32",
		"2024-02-09|HARDWARE DEPOT||225.85|4285.47",
	})
}

// A row whose words recognition read with low confidence carries a
// warning that says to check it first; the others carry none.
func TestLowConfidenceRowWarned(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period 01/01/2024 to 31/01/2024")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(330, "Withdrawals"), at(420, "Deposits"), at(490, "Balance")},
		[]cellAt{at(90, "Opening balance"), rat(540, "100.00")},
		[]cellAt{at(10, "02/01/2024"), at(90, "CAFE LUNA"), rat(370, "10.00"), rat(540, "90.00")},
		[]cellAt{at(10, "03/01/2024"), at(90, "SHELL FUEL"), rat(370, "20.00"), rat(540, "70.00")},
	)
	pg.OCR = true
	for i := range pg.Words {
		pg.Words[i].Conf = 92
		if pg.Words[i].Text == "20.00" {
			pg.Words[i].Conf = 41
		}
	}
	res := Analyze([]source.Page{pg})
	if len(res.Transactions) != 2 {
		t.Fatalf("got %d transactions, want 2", len(res.Transactions))
	}
	low := func(tx ledger.Transaction) bool {
		return tx.Provenance.LowConfidence > 0 && hasKind(tx, ledger.WarnLowConfidence)
	}
	if low(res.Transactions[0]) || !low(res.Transactions[1]) {
		t.Errorf("warnings %+v and %+v: want only the second row warned of low confidence", res.Transactions[0].Warnings, res.Transactions[1].Warnings)
	}
	// The balances prove the amounts, not what recognition may have
	// misread of a date or a description: the statement is unverified.
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified with a row read with low confidence", s)
	}
	for i := range pg.Words {
		pg.Words[i].Conf = 92
	}
	if s := Analyze([]source.Page{pg}).Statement.Reconciliation.Status; s != ledger.ReconcileOK {
		t.Errorf("reconciliation %s, want ok with every word read confidently", s)
	}
}

// A month's name misread by a letter between a day and a year is put
// back; one near two months, or standing alone, is left as read.
func TestOCRMonthNameMisread(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1 aodt 2025", "1 aout 2025"},
		{"5 aodit 2025", "5 aout 2025"}, // two edits in a longer word
		{"3 Jume 2024", "3 june 2024"},
		{"14 Octobre 2024", "14 Octobre 2024"}, // a month as read
		{"3 Juki 2024", "3 Juki 2024"},         // juli or juni: left alone
		{"aodt 2025", "aodt 2025"},
		{"12 Grant 2024", "12 Grant 2024"},
	} {
		var ws []source.Word
		for i, w := range strings.Fields(tc.in) {
			ws = append(ws, source.Word{Text: w, X0: float64(40 * i), X1: float64(40*i + 30), Y0: 10, Y1: 20})
		}
		repair.FixDateWords(ws)
		var got []string
		for _, w := range ws {
			got = append(got, w.Text)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, g, tc.want)
		}
	}
}

// A dated row whose amount recognition could not read ("AAT:" where
// 1.17 stands) keeps its place: the change in the balance is its amount,
// the row says so, and the statement is unverified. A text layer's dated
// balance line stays a balance to check.
func TestOCRUnreadableAmount(t *testing.T) {
	page := func(ocr bool) source.Page {
		pg := synthPage(1,
			[]cellAt{at(10, "Statement period 01/01/2024 to 31/01/2024")},
			nil,
			[]cellAt{at(10, "Date"), at(90, "Description"), at(330, "Withdrawals"), at(420, "Deposits"), at(490, "Balance")},
			[]cellAt{at(90, "Opening balance"), rat(540, "100.00")},
			[]cellAt{at(10, "02/01/2024"), at(90, "CAFE LUNA"), rat(370, "10.00"), rat(540, "90.00")},
			[]cellAt{at(10, "03/01/2024"), at(90, "AMAZON MKTPLACE"), rat(370, "AAT:"), rat(540, "88.83")},
			[]cellAt{at(10, "04/01/2024"), at(90, "SALARY"), rat(460, "1,000.00"), rat(540, "1,088.83")},
		)
		pg.OCR = ocr
		return pg
	}
	res := Analyze([]source.Page{page(true)})
	checkTxs(t, res, []string{
		"2024-01-02|CAFE LUNA||10.00|90.00",
		"2024-01-03|AMAZON MKTPLACE||1.17|88.83",
		"2024-01-04|SALARY|1000.00||1088.83",
	})
	if len(res.Transactions) == 3 && !slices.ContainsFunc(res.Transactions[1].Warnings, func(w ledger.Warning) bool {
		return w.Kind == ledger.WarnAmountFromBalance && strings.Contains(w.Read, "AAT:")
	}) {
		t.Errorf("warnings %+v: want the unreadable amount named", res.Transactions[1].Warnings)
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified: the balance gave an amount", s)
	}
	if n := len(Analyze([]source.Page{page(false)}).Transactions); n != 2 {
		t.Errorf("text layer: %d transactions, want 2 (the AAT: line is no movement)", n)
	}
}

// The cents after a lost decimal point may be read with letters for
// digits ("215 -ol" for 215.01).
func TestOCRCentsLetters(t *testing.T) {
	ws := []source.Word{{Text: "215", X0: 100, X1: 115, Y0: 10, Y1: 20}, {Text: "-ol", X0: 117, X1: 126, Y0: 10, Y1: 20}}
	got := repair.JoinLostDecimals(ws, false)
	if len(got) != 1 || got[0].Text != "215.01" {
		t.Errorf("got %+v, want one word 215.01", got)
	}
}

// A summary label misread by a letter ("Solde inital") still gives the
// opening balance; on a text layer it is read as printed.
func TestOCRSummaryLabelMisread(t *testing.T) {
	for _, ocr := range []bool{true, false} {
		pg := synthPage(1,
			[]cellAt{at(10, "Relevé du 01/04/2024 au 30/04/2024")},
			[]cellAt{at(10, "Solde inital"), rat(300, "696,39")},
			nil,
			[]cellAt{at(10, "Date"), at(90, "Libellé"), at(340, "Débit"), at(440, "Crédit")},
			[]cellAt{at(10, "02/04/2024"), at(90, "PRLV EDF"), rat(380, "40,00")},
		)
		pg.OCR = ocr
		st := Analyze([]source.Page{pg}).Statement
		if got := st.OpeningBalance != nil && st.OpeningBalance.StringFixed(2) == "696.39"; got != ocr {
			t.Errorf("ocr %v: opening balance %v", ocr, st.OpeningBalance)
		}
	}
}

// A numeric date recognition split at a separator is one date again; a
// day beside an amount, or a date printed with spaces, stays apart.
func TestOCRSplitDates(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want []string
	}{
		{"21", "/07", []string{"21/07"}},
		{"21/", "07/2023", []string{"21/07/2023"}},
		{"12", "-5.00", []string{"12", "-5.00"}},
		{"12", "03", []string{"12", "03"}},
		{"3", "-05.00", []string{"3", "-05.00"}},
	} {
		ws := []source.Word{{Text: tc.a, X0: 100, X1: 110, Y0: 10, Y1: 20}, {Text: tc.b, X0: 112, X1: 130, Y0: 10, Y1: 20}}
		var got []string
		for _, w := range repair.JoinSplitDates(ws) {
			got = append(got, w.Text)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q %q: got %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// Recognised rows at the top of the first table whose dates recognition
// lost are kept, with the first date read below them, and the statement
// says their dates were not read: they are never dropped while the rest
// says ok.
func TestOCRFirstRowsDateLost(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Statement period 01/04/2023 to 30/04/2023")},
		nil,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(330, "Withdrawals"), at(420, "Deposits"), at(490, "Balance")},
		[]cellAt{at(90, "Opening balance"), rat(540, "683.78")},
		[]cellAt{at(90, "SHELL REFUND"), rat(460, "190.51"), rat(540, "874.29")},
		[]cellAt{at(90, "ATM WITHDRAWAL"), rat(370, "2.76"), rat(540, "871.53")},
		[]cellAt{at(10, "08/04/2023"), at(90, "CAFE"), rat(370, "268.81"), rat(540, "602.72")},
	)
	pg.OCR = true
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2023-04-08|SHELL REFUND|190.51||874.29",
		"2023-04-08|ATM WITHDRAWAL||2.76|871.53",
		"2023-04-08|CAFE||268.81|602.72",
	})
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified: two rows' dates were not read", s)
	}
}

// Numeric dates recognition garbled in the date column are rebuilt in the
// shape of the document's other dates: a separator lost, read as a digit
// or as a letter, and letters read for digits. The same text in a
// description, or a date that would fall outside the document's dates, is
// left as read.
func TestOCRGarbledDates(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Date"), at(90, "Description"), at(330, "Withdrawals"), at(420, "Deposits"), at(490, "Balance")},
		[]cellAt{at(10, "01/10/2023"), at(90, "Opening balance"), rat(540, "683.78")},
		[]cellAt{at(10, "03/10/2023"), at(90, "SHELL"), rat(460, "190.51"), rat(540, "874.29")},
		[]cellAt{at(10, "0410/2023"), at(90, "CAFE"), rat(370, "2.76"), rat(540, "871.53")},
		[]cellAt{at(10, "o7/1072023"), at(90, "RENT"), rat(370, "268.81"), rat(540, "602.72")},
		[]cellAt{at(10, "O8/10V2023"), at(90, "TRAIN 0910/2023"), rat(370, "2.72"), rat(540, "600.00")},
		[]cellAt{at(10, "12/10/2023"), at(90, "SALARY"), rat(460, "100.00"), rat(540, "700.00")},
		[]cellAt{at(10, "1510/2029"), at(90, "GYM"), rat(370, "10.00"), rat(540, "690.00")},
		[]cellAt{at(10, "16/10/2023"), at(90, "BAKERY"), rat(370, "10.00"), rat(540, "680.00")},
	)
	pg.OCR = true
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2023-10-03|SHELL|190.51||874.29",
		"2023-10-04|CAFE||2.76|871.53",
		"2023-10-07|RENT||268.81|602.72",
		"2023-10-08|TRAIN 0910/2023||2.72|600.00",
		"2023-10-12|SALARY|100.00||700.00",
		"2023-10-12|1510/2029 GYM||10.00|690.00",
		"2023-10-16|BAKERY||10.00|680.00",
	})
}

// A date's year followed by a dash whose box recognition let the year's
// box run over, then a day ("18 Dec 2022 – 17 Jan 2023"), keeps the year
// and the day apart: the dash stands between them, and no lost decimal
// point joins them into an amount ("2022,17").
func TestOCRLostPointNotAcrossAWord(t *testing.T) {
	ws := []source.Word{
		{Text: "2022", X0: 109, X1: 133, Y0: 95, Y1: 110},
		{Text: "-", X0: 129, X1: 133, Y0: 95, Y1: 110},
		{Text: "17", X0: 136, X1: 144, Y0: 95, Y1: 110},
		{Text: "gen", X0: 147, X1: 160, Y0: 95, Y1: 110},
	}
	got := repair.JoinLostDecimals(ws, true)
	var texts []string
	for _, w := range got {
		texts = append(texts, w.Text)
	}
	if strings.Join(texts, " ") != "2022 - 17 gen" {
		t.Errorf("got %q, want the words as read", texts)
	}
}
