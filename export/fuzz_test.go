package export

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// FuzzEscaping puts arbitrary text in a description and reads the CSV and
// XLSX back: the cell is never a formula, never starts with a formula
// character unless quote-prefixed, and gives the cleaned text back once one
// leading quote is removed. Seeds: testdata/fuzz/FuzzEscaping.
func FuzzEscaping(f *testing.F) {
	for _, s := range []string{"plain", "=1+1", "+SUM(1,2)", "-5", "@A1", "\tx", "\rCR", "\nLF", "'q", "a,b\"c", "\xff\xfe", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		res := sample()
		res.Transactions = res.Transactions[:1]
		res.Transactions[0].Description = desc
		want := cleanText(desc)

		var buf bytes.Buffer
		if err := Write(&buf, CSV, Options{FileID: "doc_fuzz"}, res); err != nil {
			t.Fatalf("csv: %v", err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("csv read back: %d rows, %v", len(rows), err)
		}
		checkCell(t, "csv", rows[1][2], want)

		buf.Reset()
		if err := Write(&buf, XLSX, Options{FileID: "doc_fuzz"}, res); err != nil {
			t.Fatalf("xlsx: %v", err)
		}
		x, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("xlsx read back: %v", err)
		}
		defer x.Close()
		if formula, _ := x.GetCellFormula(transactionsSheet, "C2"); formula != "" {
			t.Fatalf("xlsx: description %q became formula %q", desc, formula)
		}
		got, err := x.GetCellValue(transactionsSheet, "C2", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		// XML 1.0 cannot hold most control characters: excelize writes
		// U+FFFD for them. An XLSX cell may also be neutralised by its
		// quote-prefix style, in which case its text is unprefixed.
		wantX := strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
				return '\uFFFD'
			}
			return r
		}, want)
		if got != wantX {
			checkCell(t, "xlsx", got, wantX)
		}
	})
}

func checkCell(t *testing.T, format, got, want string) {
	t.Helper()
	if got == want && (got == "" || !strings.ContainsRune("=+-@\t\r\n'", rune(got[0]))) {
		return
	}
	if !strings.HasPrefix(got, "'") || got[1:] != want {
		t.Fatalf("%s: cell %q for text %q; want it, or it quote-prefixed", format, got, want)
	}
}
