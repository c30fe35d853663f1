package export

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"
)

// plantedRows is a statement of four rows whose descriptions try to start
// a field or line of their own in each line-based format (issue 41, 3): a
// :61: or :62F: after 61 characters MT940 writes as "-", a QIF record
// after a line break, an OFX transaction after a closed tag.
func plantedRows() *ledger.Result {
	return &ledger.Result{
		PageCount: 1,
		Transactions: []ledger.Transaction{
			{Date: day("2024-01-02"), Description: strings.Repeat("=", 61) + ":61:2401020102C999999,00NMSCNONREF//PLANTED", AmountIn: dec("10.00"), Balance: *dec("110.00")},
			{Date: day("2024-01-03"), Description: strings.Repeat("_", 61) + ":62F:C240131EUR999999,00", AmountOut: dec("1.00"), Balance: *dec("109.00")},
			{Date: day("2024-01-04"), Description: strings.Repeat("-", 130) + ":61:2401040104D5,00NMSC//X\r\n-\r\n:20:PLANTED", AmountOut: dec("2.00"), Balance: *dec("107.00")},
			{Date: day("2024-01-05"), Description: "x\r\n^\r\nD01/06/2024\r\nT-999.00\r\nPPLANTED\n</NAME></STMTTRN><STMTTRN><TRNAMT>-999<FITID>P",
				AmountOut: dec("3.00"), Balance: *dec("104.00")},
		},
		Statement: ledger.Statement{AccountNumber: "DE89370400440532013000", PeriodStart: dayPtr("2024-01-01"), PeriodEnd: dayPtr("2024-01-31"),
			Currency: "EUR", OpeningBalance: dec("100"), ClosingBalance: dec("104")},
	}
}

// TestStatementTextStartsNoField: an independent reader of each
// line-based format finds the four rows and no more.
func TestStatementTextStartsNoField(t *testing.T) {
	res := plantedRows()
	dir := t.TempDir()

	// MT940, read by mt940js, and line by line: no line but the
	// writer's own starts a field.
	mt := write(t, MT940, res)
	path := filepath.Join(dir, "planted.sta")
	if err := os.WriteFile(path, mt, 0o644); err != nil {
		t.Fatal(err)
	}
	st := mt940js(t, path)[path]
	if len(st) != 1 || len(st[0].Transactions) != 4 || st[0].Closing != "104.00" {
		t.Errorf("mt940js read %d statements, %+v; want one of 4 transactions closing at 104.00\n%s", len(st), st, mt)
	}
	fields := map[string]int{}
	for _, line := range strings.Split(string(mt), "\r\n") {
		if strings.HasPrefix(line, ":") {
			tag, _, _ := strings.Cut(line[1:], ":")
			fields[tag]++
		}
		if strings.HasPrefix(line, "-") && line != "-" {
			t.Errorf("a line starts with %q", line)
		}
	}
	if fields["61"] != 4 || fields["62F"] != 1 || fields["20"] != 1 || fields["60F"] != 1 {
		t.Errorf("MT940 fields %v, want 4 :61:, one each of :20:, :60F:, :62F:\n%s", fields, mt)
	}

	// QIF, read by its record rules and by Finance::QIF.
	qifData := write(t, QIF, res)
	qif := readQIF(t, string(qifData))
	if len(qif) != 1 || len(qif[0].txs) != 4 {
		t.Errorf("QIF: %+v, want one account of 4 rows", qif)
	}
	qifPath := filepath.Join(dir, "planted.qif")
	if err := os.WriteFile(qifPath, qifData, 0o644); err != nil {
		t.Fatal(err)
	}
	var records map[string][]struct{ Header, Date, Amount string }
	if out := run(t, time.Minute, tool(t, "perl", "libfinance-qif-perl"), "testdata/qifread.pl", qifPath); json.Unmarshal(out, &records) != nil {
		t.Fatalf("Finance::QIF: %s", out)
	}
	var amounts []string
	for _, r := range records[qifPath] {
		if r.Header == "Type:Bank" {
			amounts = append(amounts, r.Amount)
		}
	}
	if strings.Join(amounts, " ") != "10.00 -1.00 -2.00 -3.00" {
		t.Errorf("Finance::QIF read the bank records' amounts %v, want 10.00 -1.00 -2.00 -3.00\n%s", amounts, qifData)
	}

	// OFX in SGML (QFX) and XML, read by ofxparse.
	opts := testOptions()
	files := []string{writeFile(t, dir, QFX, opts, res), writeFile(t, dir, OFX, opts, res)}
	out := run(t, time.Minute, python(t), append([]string{"testdata/ofxread.py"}, files...)...)
	var got map[string]struct {
		Accounts []struct{ Transactions []struct{ Amount string } }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, f := range files {
		a := got[f].Accounts
		if len(a) != 1 || len(a[0].Transactions) != 4 {
			t.Errorf("%s: ofxparse read %+v, want one account of 4 transactions", filepath.Ext(f), a)
		}
	}
}
