package export

import (
	"bufio"
	"fmt"
	"io"
	"time"
)

// qifDate is QIF's date: month first, four-digit year, as Quicken writes
// it. QIF has no header that could say so, and importers guess; the
// account's description states the order, and so does docs/api.md.
const qifDate = "01/02/2006"

// qifDateOrder is the account description that states the date order.
const qifDateOrder = "Dates are month/day/year (MM/DD/YYYY)"

// writeQIF writes res as QIF, UTF-8: per account an !Account record (its
// number, type Bank, a description stating the date order, and the closing
// balance with its date, which is all of a statement QIF can hold), then
// the account's rows under !Type:Bank: D date, T signed amount, P the
// description. QIF has no field for a row id or an opening balance.
func writeQIF(w io.Writer, bs []block) error {
	bw := bufio.NewWriter(w)
	for _, b := range bs {
		name := oneLine(b.number)
		if name == "" {
			name = "Statement"
		}
		fmt.Fprintf(bw, "!Account\r\nN%s\r\nTBank\r\nD%s\r\n", name, qifDateOrder)
		if b.end != nil || len(b.rows) > 0 {
			fmt.Fprintf(bw, "/%s\r\n", b.endDate(time.Time{}).Format(qifDate))
		}
		if b.closing != nil || len(b.rows) > 0 {
			fmt.Fprintf(bw, "$%s\r\n", b.closingBalance().StringFixed(2))
		}
		bw.WriteString("^\r\n!Type:Bank\r\n")
		for _, r := range b.rows {
			fmt.Fprintf(bw, "D%s\r\nT%s\r\nP%s\r\n^\r\n",
				r.Date.Format(qifDate), signed(r.Transaction).StringFixed(2), oneLine(r.Description))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write qif: %w", err)
	}
	return nil
}
