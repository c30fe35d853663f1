package export

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"passbook/extract"
)

// Sheet names of the workbook.
const (
	transactionsSheet = "Transactions"
	statementSheet    = "Statement"
)

// Number formats of the workbook's cells.
const (
	// numFmtMoney is Excel's built-in format 4, "#,##0.00": two decimals
	// and a thousands separator in the reader's locale.
	numFmtMoney = 4
	// dateFormat is spelled out because built-in format 14 is the reader's
	// short date, which may put the day first or the month first.
	dateFormat = "yyyy-mm-dd"
)

// Column widths of the Transactions sheet, in characters.
var columnWidths = []float64{12, 9, 0, 15, 15, 16} // the description's is measured

const (
	minDescriptionWidth = 16
	maxDescriptionWidth = 80
)

// xlsxStyles are the style IDs registered in one workbook.
type xlsxStyles struct {
	header, date, money, label int
}

// writeXLSX writes a workbook with a "Transactions" sheet (a header row,
// then one row per transaction with a real date cell and numeric amount
// cells) and a "Statement" sheet with the statement summary.
func writeXLSX(w io.Writer, fileID string, res *extract.Result, edited bool) (err error) {
	f := excelize.NewFile()
	defer func() {
		// Close removes the stream writer's temporary files, if any.
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write xlsx: %w", cerr)
		}
	}()
	st, err := newXLSXStyles(f)
	if err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if err := f.SetSheetName(f.GetSheetName(0), transactionsSheet); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if err := writeTransactionsSheet(f, st, res.Transactions); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if err := writeStatementSheet(f, st, fileID, res, edited); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	// Transactions is the first sheet and already the active one. Calling
	// SetActiveSheet here would make excelize parse the streamed sheet back
	// into memory and write it again, which took 90% of the time.
	if err := f.Write(w); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	return nil
}

func newXLSXStyles(f *excelize.File) (xlsxStyles, error) {
	var st xlsxStyles
	var err error
	st.header, err = f.NewStyle(&excelize.Style{
		Font:   &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E7E6E6"}},
		Border: []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}},
	})
	if err != nil {
		return st, err
	}
	df := dateFormat
	if st.date, err = f.NewStyle(&excelize.Style{CustomNumFmt: &df}); err != nil {
		return st, err
	}
	if st.money, err = f.NewStyle(&excelize.Style{NumFmt: numFmtMoney}); err != nil {
		return st, err
	}
	st.label, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	return st, err
}

// writeTransactionsSheet streams the transactions, so that a long
// statement costs one row of cells at a time rather than a cell tree.
func writeTransactionsSheet(f *excelize.File, st xlsxStyles, txs []extract.Transaction) error {
	lastRow := len(txs) + 1
	// The stream writer reuses the sheet's settings as they are when it is
	// created and cannot add an autofilter afterwards: set it first. The
	// same goes for the dimension, which it would otherwise leave at "A1";
	// some readers size the sheet by it.
	lastCol, _ := excelize.ColumnNumberToName(len(columns))
	used := fmt.Sprintf("A1:%s%d", lastCol, lastRow)
	if err := f.SetSheetDimension(transactionsSheet, used); err != nil {
		return err
	}
	if err := f.AutoFilter(transactionsSheet, used, nil); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(transactionsSheet)
	if err != nil {
		return err
	}
	if err := sw.SetPanes(&excelize.Panes{
		Freeze:      true,
		YSplit:      1,
		TopLeftCell: "A2",
		ActivePane:  "bottomLeft",
		Selection:   []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return err
	}
	// Last column first: excelize puts each new <col> before the ones it
	// has, and spreadsheet readers want them in ascending order.
	for i := len(columnWidths) - 1; i >= 0; i-- {
		width := columnWidths[i]
		if i == 2 {
			width = descriptionWidth(txs)
		}
		if err := sw.SetColWidth(i+1, i+1, width); err != nil {
			return err
		}
	}
	row := make([]any, len(columns))
	for i, name := range columns {
		row[i] = excelize.Cell{StyleID: st.header, Value: name}
	}
	if err := sw.SetRow("A1", row); err != nil {
		return err
	}
	for i, t := range txs {
		row[0] = dateCell(st, t.Date)
		row[1] = t.Type()
		row[2] = textCell(t.Description)
		row[3] = moneyCell(st, t.AmountIn)
		row[4] = moneyCell(st, t.AmountOut)
		row[5] = moneyCell(st, &t.Balance)
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// descriptionWidth fits the description column to its longest text, within
// bounds that keep the amounts on screen.
func descriptionWidth(txs []extract.Transaction) float64 {
	n := minDescriptionWidth
	for _, t := range txs {
		if l := utf8.RuneCountInString(t.Description) + 2; l > n {
			n = l
			if n >= maxDescriptionWidth {
				return maxDescriptionWidth
			}
		}
	}
	return float64(n)
}

// writeStatementSheet writes the summary: one labelled value per row.
func writeStatementSheet(f *excelize.File, st xlsxStyles, fileID string, res *extract.Result, edited bool) error {
	if _, err := f.NewSheet(statementSheet); err != nil {
		return err
	}
	s := res.Statement
	r := s.Reconciliation
	breaks := make([]string, len(r.Rows))
	for i, idx := range r.Rows {
		// Row numbers on the Transactions sheet, where row 1 is the header.
		breaks[i] = strconv.Itoa(idx + 2)
	}
	rows := []struct {
		label string
		value any
	}{
		{"File", textCell(fileID)},
		{"Account number", textCell(s.AccountNumber)},
		{"Currency", textCell(s.Currency)},
		{"Period start", optDateCell(st, s.PeriodStart)},
		{"Period end", optDateCell(st, s.PeriodEnd)},
		{"Opening balance", moneyCell(st, s.OpeningBalance)},
		{"Closing balance", moneyCell(st, s.ClosingBalance)},
		{"Pages", res.PageCount},
		{"Transactions", len(res.Transactions)},
		{"Reconciliation", textCell(r.Status)},
		{"Difference", moneyCell(st, r.Difference)},
		{"Rows where the balance breaks", strings.Join(breaks, ", ")},
		{"Message", textCell(r.Message)},
	}
	if edited {
		rows = append(rows, struct {
			label string
			value any
		}{"Edited", "yes: corrected by hand after conversion"})
	}
	for i, row := range rows {
		a, _ := excelize.CoordinatesToCellName(1, i+1)
		b, _ := excelize.CoordinatesToCellName(2, i+1)
		if err := f.SetCellStr(statementSheet, a, row.label); err != nil {
			return err
		}
		if err := f.SetCellStyle(statementSheet, a, a, st.label); err != nil {
			return err
		}
		if err := setCell(f, b, row.value); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(statementSheet, "A", "A", 30); err != nil {
		return err
	}
	return f.SetColWidth(statementSheet, "B", "B", 60)
}

// setCell writes one value of the Statement sheet, as the stream writer
// would have: a Cell's style applies, a string stays text even when it
// looks like a number, and nil or "" leaves the cell empty.
func setCell(f *excelize.File, ref string, v any) error {
	style := 0
	if c, ok := v.(excelize.Cell); ok {
		style, v = c.StyleID, c.Value
	}
	var err error
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		if v == "" {
			return nil
		}
		err = f.SetCellStr(statementSheet, ref, v)
	default:
		err = f.SetCellValue(statementSheet, ref, v)
	}
	if err != nil || style == 0 {
		return err
	}
	return f.SetCellStyle(statementSheet, ref, ref, style)
}

// excelEpoch is day 0 of Excel's 1900 date system as it counts from
// 1900-03-01 on (it believes 1900 was a leap year, so earlier serials are
// off by one).
var excelEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// dateCell is a date cell: Excel's whole-day serial number with a
// yyyy-mm-dd format. The serial is counted from the calendar date as
// printed, whatever t's location, and stays an integer: no float and no
// time of day. A date Excel cannot show (before 1900-03-01 or after
// 9999-12-31) is written as text rather than as a wrong number.
func dateCell(st xlsxStyles, t time.Time) any {
	y, m, d := t.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if y > 9999 || day.Before(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)) {
		return t.Format(dateLayout)
	}
	serial := (day.Unix() - excelEpoch.Unix()) / 86400
	return excelize.Cell{StyleID: st.date, Value: serial}
}

// optDateCell is dateCell for a date that may be unknown (an empty cell).
func optDateCell(st xlsxStyles, t *time.Time) any {
	if t == nil {
		return nil
	}
	return dateCell(st, *t)
}

// maxExactMoney bounds the amounts written as numbers: 10^13, so that an
// amount rounded to cents has at most 15 significant digits.
var maxExactMoney = decimal.New(1, 13)

// moneyCell is an amount as a numeric cell with the two-decimal format, or
// nil (an empty cell) for a null amount.
//
// A numeric cell needs a float64, and a float64 cannot hold most decimal
// fractions exactly, so the conversion is made once, at this last step,
// from the decimal's exact two-decimal text, and only where it is provably
// lossless. Any decimal with at most 15 significant digits survives
// decimal text -> nearest float64 -> shortest decimal text unchanged
// (float64 carries 15.95 decimal digits), and shortest text is what
// excelize writes into the file (strconv.FormatFloat with precision -1).
// Amounts below 10^13 have at most 15 digits with their two decimals, so
// the file holds the very digits of the decimal, and 15 digits is also all
// Excel displays. "Below 2^53 cents" would not be enough: a float64 of
// currency units has a spacing over 0.01 from 2^46 (about 7*10^13) up,
// where two amounts a cent apart can become the same float. An amount
// beyond the bound, which no bank statement prints, is written as its
// exact decimal text instead of a rounded number.
func moneyCell(st xlsxStyles, d *decimal.Decimal) any {
	if d == nil {
		return nil
	}
	r := d.Round(2)
	s := r.StringFixed(2)
	if r.Abs().Cmp(maxExactMoney) >= 0 {
		return s
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil { // unreachable: StringFixed writes plain decimal text
		return s
	}
	return excelize.Cell{StyleID: st.money, Value: v}
}
