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

// xlsxHeader is the Transactions sheet's header row; accountHeader is
// added as the last column when the document holds several accounts.
var xlsxHeader = []string{"Date", "Type", "Description", "Money in", "Money out", "Balance", "Notes"}

const accountHeader = "Account"

// Column widths of the Transactions sheet, in characters; 0 is measured.
var columnWidths = []float64{12, 9, 0, 15, 15, 16, 0, 20}

const (
	descriptionCol = 2 // 0-based column of the description
	notesCol       = 6 // 0-based column of the notes
)

const (
	minDescriptionWidth = 16
	maxDescriptionWidth = 80
	minNotesWidth       = 10
	maxNotesWidth       = 60
)

// warnedFill tints the rows that carry a warning: a pale amber that
// prints light and keeps black text legible.
const warnedFill = "FFF2CC"

// xlsxStyles are the style IDs registered in one workbook. Each cell style
// has a tinted twin for warned rows; quoted is text with the quote-prefix
// flag, which tells Excel and LibreOffice that text looking like a formula
// is text, also after someone edits the cell.
type xlsxStyles struct {
	header, label                 int
	date, money, text, quoted     int
	tDate, tMoney, tText, tQuoted int
}

// cellStyles are the styles of one row: plain or tinted.
type cellStyles struct{ date, money, text, quoted int }

func (st xlsxStyles) row(warned bool) cellStyles {
	if warned {
		return cellStyles{st.tDate, st.tMoney, st.tText, st.tQuoted}
	}
	return cellStyles{st.date, st.money, st.text, st.quoted}
}

// writeXLSX writes a workbook with a "Transactions" sheet (a header row,
// then one row per transaction with a real date cell and numeric amount
// cells, the row's warnings in Notes and the row tinted when it has any;
// set up to print one page wide, landscape, with the header on every page)
// and a "Statement" sheet with the statement summary.
func writeXLSX(w io.Writer, opts Options, res *extract.Result, edited bool) (err error) {
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
	extra := ""
	if len(res.Statement.Accounts) > 0 {
		extra = accountHeader
	}
	if err := writeRowsSheet(f, st, transactionsSheet, res.Transactions, extra, func(i int) string { return res.Transactions[i].Account }); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if err := writeStatementSheet(f, st, opts, res, edited); err != nil {
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
	if st.label, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return st, err
	}
	df := dateFormat
	tint := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{warnedFill}}
	for _, s := range []struct {
		id    *int
		style excelize.Style
	}{
		{&st.date, excelize.Style{CustomNumFmt: &df}},
		{&st.money, excelize.Style{NumFmt: numFmtMoney}},
		{&st.tDate, excelize.Style{CustomNumFmt: &df, Fill: tint}},
		{&st.tMoney, excelize.Style{NumFmt: numFmtMoney, Fill: tint}},
		{&st.tText, excelize.Style{Fill: tint}},
	} {
		if *s.id, err = f.NewStyle(&s.style); err != nil {
			return st, err
		}
	}
	st.text = 0 // the default style
	if st.quoted, err = quotePrefixed(f, st.text); err != nil {
		return st, err
	}
	st.tQuoted, err = quotePrefixed(f, st.tText)
	return st, err
}

// quotePrefixed registers a copy of cell style base with the quote-prefix
// flag set. excelize's Style has no field for the flag, so the copy is
// added to the workbook's cell formats directly.
func quotePrefixed(f *excelize.File, base int) (int, error) {
	if f.Styles == nil || f.Styles.CellXfs == nil || base < 0 || base >= len(f.Styles.CellXfs.Xf) {
		return 0, fmt.Errorf("quote-prefix style: no cell format %d", base)
	}
	xf := f.Styles.CellXfs.Xf[base]
	yes := true
	xf.QuotePrefix = &yes
	f.Styles.CellXfs.Xf = append(f.Styles.CellXfs.Xf, xf)
	f.Styles.CellXfs.Count = len(f.Styles.CellXfs.Xf)
	return len(f.Styles.CellXfs.Xf) - 1, nil
}

// textValue is a text cell: statement text kept as it is (made valid
// UTF-8, line breaks "\n"), with the quote-prefix style when a spreadsheet
// would otherwise take it for a formula.
func textValue(cs cellStyles, s string) any {
	s = cleanText(s)
	if s == "" {
		return nil
	}
	if neutralise(s) != s {
		return excelize.Cell{StyleID: cs.quoted, Value: s}
	}
	if cs.text != 0 {
		return excelize.Cell{StyleID: cs.text, Value: s}
	}
	return s
}

// writeRowsSheet streams transactions into sheet (which exists), so that
// a long statement costs one row of cells at a time rather than a cell
// tree. A last column named extra, when not "", holds extraCell(i) for row
// i: the Account of a document with several, a folder's File.
func writeRowsSheet(f *excelize.File, st xlsxStyles, sheet string, txs []extract.Transaction, extra string, extraCell func(i int) string) error {
	header := xlsxHeader
	if extra != "" {
		header = append(append([]string(nil), xlsxHeader...), extra)
	}
	lastRow := len(txs) + 1
	// The stream writer reuses the sheet's settings as they are when it is
	// created and cannot add an autofilter afterwards: set it first. The
	// same goes for the dimension, which it would otherwise leave at "A1";
	// some readers size the sheet by it, and for the print set-up.
	lastCol, _ := excelize.ColumnNumberToName(len(header))
	used := fmt.Sprintf("A1:%s%d", lastCol, lastRow)
	if err := f.SetSheetDimension(sheet, used); err != nil {
		return err
	}
	if err := f.AutoFilter(sheet, used, nil); err != nil {
		return err
	}
	if err := setPrintLayout(f, sheet); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(sheet)
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
	for i := len(header) - 1; i >= 0; i-- {
		width := columnWidths[i]
		switch i {
		case descriptionCol:
			width = textWidth(txs, func(t extract.Transaction) string { return t.Description }, minDescriptionWidth, maxDescriptionWidth)
		case notesCol:
			width = textWidth(txs, notes, minNotesWidth, maxNotesWidth)
		}
		if err := sw.SetColWidth(i+1, i+1, width); err != nil {
			return err
		}
	}
	row := make([]any, len(header))
	for i, name := range header {
		row[i] = excelize.Cell{StyleID: st.header, Value: name}
	}
	if err := sw.SetRow("A1", row); err != nil {
		return err
	}
	for i, t := range txs {
		cs := st.row(len(t.Warnings) > 0)
		row[0] = dateCell(cs.date, t.Date)
		row[1] = textValue(cs, t.Type())
		row[2] = textValue(cs, t.Description)
		row[3] = moneyCell(cs.money, t.AmountIn)
		row[4] = moneyCell(cs.money, t.AmountOut)
		row[5] = moneyCell(cs.money, &t.Balance)
		row[6] = textValue(cs, notes(t))
		if len(row) > 7 {
			row[7] = textValue(cs, extraCell(i))
		}
		if cs.text != 0 {
			// A tinted row is tinted across, empty cells included.
			for j, v := range row {
				if v == nil {
					row[j] = excelize.Cell{StyleID: cs.text}
				}
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// setPrintLayout sets a transactions sheet to print landscape, fitted to
// one page wide (and as many tall as it takes), with the header row
// repeated on every page.
func setPrintLayout(f *excelize.File, sheet string) error {
	landscape, one, tall := "landscape", 1, 0
	if err := f.SetPageLayout(sheet, &excelize.PageLayoutOptions{
		Orientation: &landscape, FitToWidth: &one, FitToHeight: &tall,
	}); err != nil {
		return err
	}
	fit := true
	if err := f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	return f.SetDefinedName(&excelize.DefinedName{
		Name: "_xlnm.Print_Titles", RefersTo: "'" + strings.ReplaceAll(sheet, "'", "''") + "'!$1:$1", Scope: sheet,
	})
}

// notes is a row's warnings as one cell's text.
func notes(t extract.Transaction) string {
	return strings.Join(t.Warnings, "; ")
}

// textWidth fits a text column to its longest text, within bounds that
// keep the amounts on screen.
func textWidth(txs []extract.Transaction, text func(extract.Transaction) string, min, max int) float64 {
	n := min
	for _, t := range txs {
		if l := utf8.RuneCountInString(text(t)) + 2; l > n {
			n = l
			if n >= max {
				return float64(max)
			}
		}
	}
	return float64(n)
}

// writeStatementSheet writes the summary: one labelled value per row,
// then, for a document with several accounts, a table of the accounts; last,
// for a result a person corrected, a row that says so.
func writeStatementSheet(f *excelize.File, st xlsxStyles, opts Options, res *extract.Result, edited bool) error {
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
	name := opts.OriginalName
	if name == "" {
		name = opts.FileID
	}
	cs := st.row(false)
	rows := [][]any{
		{label("File"), textValue(cs, name)},
		{label("File ID"), textValue(cs, opts.FileID)},
		{label("Account number"), textValue(cs, s.AccountNumber)},
		{label("Currency"), textValue(cs, s.Currency)},
		{label("Period start"), optDateCell(st.date, s.PeriodStart)},
		{label("Period end"), optDateCell(st.date, s.PeriodEnd)},
		{label("Opening balance"), moneyCell(st.money, s.OpeningBalance)},
		{label("Closing balance"), moneyCell(st.money, s.ClosingBalance)},
		{label("Pages"), res.PageCount},
		{label("Transactions"), len(res.Transactions)},
		{label("Reconciliation"), textValue(cs, r.Status)},
		{label("Difference"), moneyCell(st.money, r.Difference)},
		{label("Rows where the balance breaks"), strings.Join(breaks, ", ")},
		{label("Message"), textValue(cs, r.Message)},
		{label("Warnings"), textValue(cs, strings.Join(s.Warnings, "; "))},
	}
	if len(s.Accounts) > 0 {
		rows = append(rows, nil, []any{label("Account"), "Currency", "Period start", "Period end", "Opening balance", "Closing balance", "Reconciliation"})
		for _, a := range s.Accounts {
			rows = append(rows, []any{textValue(cs, a.Number), textValue(cs, a.Currency),
				optDateCell(st.date, a.PeriodStart), optDateCell(st.date, a.PeriodEnd),
				moneyCell(st.money, a.OpeningBalance), moneyCell(st.money, a.ClosingBalance),
				textValue(cs, a.Reconciliation.Status)})
		}
	}
	if edited {
		rows = append(rows, []any{label("Edited"), textValue(cs, "yes: corrected by hand after conversion")})
	}
	if err := writeCells(f, st, statementSheet, rows); err != nil {
		return err
	}
	if err := f.SetColWidth(statementSheet, "A", "A", 30); err != nil {
		return err
	}
	if err := f.SetColWidth(statementSheet, "B", "B", 60); err != nil {
		return err
	}
	return f.SetColWidth(statementSheet, "C", "G", 16)
}

// label is a summary sheet's cell written bold.
type label string

// writeCells writes rows of values into sheet from A1, cell by cell (for
// the short summary sheets): a label bold, the rest as setCell does.
func writeCells(f *excelize.File, st xlsxStyles, sheet string, rows [][]any) error {
	for i, row := range rows {
		for j, v := range row {
			ref, _ := excelize.CoordinatesToCellName(j+1, i+1)
			if l, ok := v.(label); ok {
				if err := f.SetCellStr(sheet, ref, string(l)); err != nil {
					return err
				}
				if err := f.SetCellStyle(sheet, ref, ref, st.label); err != nil {
					return err
				}
				continue
			}
			if err := setCell(f, sheet, ref, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// setCell writes one value of a summary sheet, as the stream writer
// would have: a Cell's style applies, a string stays text even when it
// looks like a number, and nil or "" leaves the cell empty.
func setCell(f *excelize.File, sheet, ref string, v any) error {
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
		err = f.SetCellStr(sheet, ref, v)
	default:
		err = f.SetCellValue(sheet, ref, v)
	}
	if err != nil || style == 0 {
		return err
	}
	return f.SetCellStyle(sheet, ref, ref, style)
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
func dateCell(style int, t time.Time) any {
	y, m, d := t.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if y > 9999 || day.Before(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)) {
		return t.Format(dateLayout)
	}
	serial := (day.Unix() - excelEpoch.Unix()) / 86400
	return excelize.Cell{StyleID: style, Value: serial}
}

// optDateCell is dateCell for a date that may be unknown (an empty cell).
func optDateCell(style int, t *time.Time) any {
	if t == nil {
		return nil
	}
	return dateCell(style, *t)
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
func moneyCell(style int, d *decimal.Decimal) any {
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
	return excelize.Cell{StyleID: style, Value: v}
}
