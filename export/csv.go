package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"passbook/extract/ledger"
)

// writeCSV writes the transactions as RFC 4180 CSV: UTF-8 without a byte
// order mark, CRLF line ends, a header row, the JSON's columns in the JSON's
// order and an empty cell for a null amount. The statement summary has no
// place in a one-table format and is left out.
func writeCSV(w io.Writer, res *ledger.Result) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(columns); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	record := make([]string, len(columns))
	for _, t := range res.Transactions {
		record[0] = t.Date.Format(dateLayout)
		record[1] = t.Type()
		record[2] = textCell(t.Description)
		record[3] = csvMoney(money(t.AmountIn))
		record[4] = csvMoney(money(t.AmountOut))
		// Amounts are never neutralised: "-5.00" is a number, not a formula.
		record[5] = t.Balance.StringFixed(2)
		if err := cw.Write(record); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// csvMoney is an amount's cell: its text, or empty for null.
func csvMoney(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Date layouts of the CSV profiles.
const (
	xeroDate       = "02/01/2006" // day first, as Xero's UK, AU and NZ settings read it
	quickBooksDate = "01/02/2006" // month first, QuickBooks' default
)

// excelEUHeader is the header row of the excel-eu profile.
var excelEUHeader = []string{"Date", "Type", "Description", "Amount", "Money in", "Money out", "Balance", "Currency", "Notes"}

// writeProfileCSV writes rows in the CSV dialect of profile p. Text cells
// are neutralised as in the default CSV; amounts are signed (negative for
// money out) where the importer wants one Amount column. withAccount adds
// a last column, Account, for rows of several accounts in one file (an
// importer takes one account at a time: filter by it).
func writeProfileCSV(w io.Writer, p Profile, rows []placed, withAccount bool) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	var header []string
	var record func(r row, b *block) []string
	switch p {
	case Xero:
		header = []string{"Date", "Amount", "Payee", "Description", "Reference"}
		record = func(r row, _ *block) []string {
			desc := textCell(r.Description)
			return []string{r.Date.Format(xeroDate), signed(r.Transaction).StringFixed(2), desc, desc, r.fitid}
		}
	case QuickBooks:
		header = []string{"Date", "Description", "Amount"}
		record = func(r row, _ *block) []string {
			return []string{r.Date.Format(quickBooksDate), textCell(r.Description), signed(r.Transaction).StringFixed(2)}
		}
	case ExcelEU:
		// A UTF-8 byte order mark is what tells Excel on Windows the
		// text is UTF-8; ";" and the decimal comma are what a German,
		// French or Italian Excel expects of a CSV it opens.
		if _, err := io.WriteString(w, "\uFEFF"); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
		cw.Comma = ';'
		header = excelEUHeader
		record = func(r row, b *block) []string {
			return []string{
				r.Date.Format(dateLayout),
				r.Type(),
				textCell(r.Description),
				decimalComma(signed(r.Transaction).StringFixed(2)),
				decimalComma(csvMoney(money(r.AmountIn))),
				decimalComma(csvMoney(money(r.AmountOut))),
				decimalComma(r.Balance.StringFixed(2)),
				b.currencyCode(),
				textCell(strings.Join(r.WarningTexts(), "; ")),
			}
		}
	default:
		return fmt.Errorf("write csv: profile %q: %w", p, ErrProfile)
	}
	if withAccount {
		header = append(header, accountHeader)
	}
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	// Blocks lend each row its FITID, currency and account.
	for _, p := range rows {
		rec := record(p.row, p.b)
		if withAccount {
			rec = append(rec, textCell(p.b.number))
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// decimalComma turns "1234.56" into "1234,56".
func decimalComma(s string) string {
	return strings.Replace(s, ".", ",", 1)
}
