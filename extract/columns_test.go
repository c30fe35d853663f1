package extract

import (
	"slices"
	"testing"

	"passbook/extract/ledger"
	"passbook/extract/source"
)

// TestMoneyColumnsAndIBAN reads, from what a page prints, the order of
// its money columns (issue 42 point 10) and the IBAN printed beside a
// national account number (point 14), and takes no IBAN that fails its
// check or shares nothing with the account's number.
func TestMoneyColumnsAndIBAN(t *testing.T) {
	// The money columns stand at x 300, 380 and 460 (figures set flush
	// right); head names the first two.
	page := func(head []string, first, second string) source.Page {
		pg := partiesPage(head...)
		word := func(text string, x, y float64) {
			pg.Words = append(pg.Words, source.Word{Text: text, X0: x, Y0: y, X1: x + 5*float64(len(text)), Y1: y + 10})
		}
		right := func(text string, x1, y float64) { word(text, x1-5*float64(len(text)), y) }
		for i, h := range []string{"Date", "Description"} {
			word(h, []float64{40, 110}[i], 200)
		}
		right(first, 330, 200)
		right(second, 410, 200)
		right("Balance", 490, 200)
		for i, r := range [][4]string{{"01/02/2024", "Opening balance", "", ""}, {"02/02/2024", "Coffee", "3.20", ""}, {"03/02/2024", "Salary", "", "50.00"}} {
			y := 214 + 14*float64(i)
			word(r[0], 40, y)
			word(r[1], 110, y)
			out, in := r[2], r[3]
			if first != "Paid out" {
				out, in = in, out
			}
			if out != "" {
				right(out, 330, y)
			}
			if in != "" {
				right(in, 410, y)
			}
			right([]string{"100.00", "96.80", "146.80"}[i], 490, y)
		}
		return pg
	}
	for _, c := range []struct {
		name    string
		head    []string
		in      bool // money in printed first
		columns []string
		iban    string
	}{
		{"money out before money in, an IBAN beside the national number",
			[]string{"40 110 10 Kontonummer 0532013000", "300 110 10 IBAN DE89 3704 0044 0532 0130 00"}, false,
			[]string{"out", "in", "balance"}, "DE89370400440532013000"},
		{"money in before money out, the number an IBAN itself",
			[]string{"40 110 10 Account: GB29 NWBK 6016 1331 9268 19"}, true,
			[]string{"in", "out", "balance"}, "GB29NWBK60161331926819"},
		{"a masked number's last digits",
			[]string{"40 110 10 Account number ****3000", "300 110 10 IBAN DE89 3704 0044 0532 0130 00"}, false,
			[]string{"out", "in", "balance"}, "DE89370400440532013000"},
		{"an IBAN that fails its check is no IBAN",
			[]string{"40 110 10 Kontonummer 0532013000", "300 110 10 IBAN DE88 3704 0044 0532 0130 00"}, false,
			[]string{"out", "in", "balance"}, ""},
		{"another account's IBAN (a payee's) is not the account's",
			[]string{"40 110 10 Account number 12345678", "300 110 10 Pay to IBAN GB29 NWBK 6016 1331 9268 19"}, false,
			[]string{"out", "in", "balance"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			first, second := "Paid out", "Paid in"
			if c.in {
				first, second = second, first
			}
			res := Analyze([]source.Page{page(c.head, first, second)})
			st := res.Statement
			if !slices.Equal(st.MoneyColumns, c.columns) {
				t.Errorf("MoneyColumns = %q, want %q", st.MoneyColumns, c.columns)
			}
			if st.IBAN != c.iban {
				t.Errorf("IBAN = %q, want %q (account number %q)", st.IBAN, c.iban, st.AccountNumber)
			}
			if st.Reconciliation.Status != ledger.ReconcileOK || len(res.Transactions) != 2 {
				t.Fatalf("read %d rows, %s: %s", len(res.Transactions), st.Reconciliation.Status, st.Reconciliation.Message)
			}
			if in := res.Transactions[1].AmountIn; in == nil || in.String() != "50" {
				t.Errorf("salary read as %+v, want 50 in", res.Transactions[1])
			}
		})
	}
}
