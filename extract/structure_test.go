package extract

import (
	"strings"
	"testing"
)

// Tests of issue 19's reading of tables from their structure and their
// arithmetic, each on a page laid out here (synthPage), not on a corpus
// file.

// ledgerPage is a Date | Particulars | Dr | Cr | Balance table whose first
// row is first, then the rows given.
func ledgerPage(first []cellAt, rows ...[]cellAt) Page {
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
			res := Analyze([]Page{ledgerPage(tc.first, rows...)})
			if strings.HasPrefix(tc.name, "a balance") && res.Statement.Reconciliation.Status != ReconcileUnverified {
				t.Errorf("reconciliation %+v, want unverified: the first row may restate the opening balance", res.Statement.Reconciliation)
			}
			checkTxs(t, res, tc.want)
			if len(tc.want) == 2 {
				if st := res.Statement; st.OpeningBalance == nil || st.OpeningBalance.StringFixed(2) != "15000.00" || st.Reconciliation.Status != ReconcileOK {
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
	res := Analyze([]Page{pg})
	checkTxs(t, res, []string{"2024-04-02|PRLV EDF||40.00|60.00", "2024-04-05|VIR SALAIRE|1000.00||1060.00"})
	if st := res.Statement; st.ClosingBalance == nil || st.ClosingBalance.StringFixed(2) != "1060.00" || st.Reconciliation.Status != ReconcileOK {
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
		if got := restates(tc.text, vocab.opening); got != tc.want {
			t.Errorf("restates(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// Explain says, for a person, which tables it found, what each column is
// and why, the readings it weighed and the lines it left out.
func TestExplain(t *testing.T) {
	var b strings.Builder
	res := Explain([]Page{usPage()}, &b)
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
		`4 transaction(s); ok:`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
}
