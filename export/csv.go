package export

import (
	"encoding/csv"
	"fmt"
	"io"

	"passbook/extract"
)

// writeCSV writes the transactions as RFC 4180 CSV: UTF-8 without a byte
// order mark, CRLF line ends, a header row, the JSON's columns in the JSON's
// order and an empty cell for a null amount. The statement summary has no
// place in a one-table format and is left out.
func writeCSV(w io.Writer, res *extract.Result) error {
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
