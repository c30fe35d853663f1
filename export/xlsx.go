package export

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
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

// xlsxStyles are the cell styles of a workbook (the workbook's style
// constants). Each
// cell style has a tinted twin for warned rows; quoted is text with the
// quote-prefix flag, which tells Excel and LibreOffice that text looking
// like a formula is text, also after someone edits the cell.
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

// theStyles are the workbook's style constants, by role.
var theStyles = xlsxStyles{
	header: styleHeader, label: styleLabel,
	date: styleDate, money: styleMoney, text: styleDefault, quoted: styleQuoted,
	tDate: styleTintDate, tMoney: styleTintMoney, tText: styleTintText, tQuoted: styleTintQuoted,
}

// writeXLSX writes a workbook with a "Transactions" sheet (a header row,
// then one row per transaction with a real date cell and numeric amount
// cells, the row's warnings in Notes and the row tinted when it has any;
// set up to print one page wide, landscape, with the header on every page)
// and a "Statement" sheet with the statement summary.
func writeXLSX(w io.Writer, opts Options, res *ledger.Result, edited bool) error {
	var b workbook
	st := theStyles
	extra := ""
	if len(res.Statement.Accounts) > 0 {
		extra = accountHeader
	}
	if err := writeRowsSheet(b.addSheet(transactionsSheet), st, res.Transactions, extra, func(i int) string { return res.Transactions[i].Account }); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if err := writeStatementSheet(b.addSheet(statementSheet), st, opts, res, edited); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	return b.write(w)
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
		return xlsxCell{style: cs.quoted, value: s}
	}
	if cs.text != 0 {
		return xlsxCell{style: cs.text, value: s}
	}
	return s
}

// writeRowsSheet writes transactions into sheet s, a row at a time. A
// last column named extra, when not "", holds extraCell(i) for row i: the
// Account of a document with several, a folder's File. The sheet has an
// autofilter over its rows, its header row frozen and printed on every
// page, landscape and one page wide.
func writeRowsSheet(s *worksheet, st xlsxStyles, txs []ledger.Transaction, extra string, extraCell func(i int) string) error {
	header := xlsxHeader
	if extra != "" {
		header = append(append([]string(nil), xlsxHeader...), extra)
	}
	s.rows, s.cols = len(txs)+1, len(header)
	s.filter, s.table = true, true
	for i := range header {
		width := columnWidths[i]
		switch i {
		case descriptionCol:
			width = textWidth(txs, func(t ledger.Transaction) string { return t.Description }, minDescriptionWidth, maxDescriptionWidth)
		case notesCol:
			width = textWidth(txs, notes, minNotesWidth, maxNotesWidth)
		}
		s.widths = append(s.widths, colWidth{i + 1, i + 1, width})
	}
	row := make([]any, len(header))
	for i, name := range header {
		row[i] = xlsxCell{style: st.header, value: name}
	}
	if err := s.row(row); err != nil {
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
					row[j] = xlsxCell{style: cs.text}
				}
			}
		}
		if err := s.row(row); err != nil {
			return err
		}
	}
	return nil
}

// notes is a row's warnings as one cell's text.
func notes(t ledger.Transaction) string {
	return strings.Join(t.WarningTexts(), "; ")
}

// textWidth fits a text column to its longest text, within bounds that
// keep the amounts on screen.
func textWidth(txs []ledger.Transaction, text func(ledger.Transaction) string, min, max int) float64 {
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
func writeStatementSheet(sh *worksheet, st xlsxStyles, opts Options, res *ledger.Result, edited bool) error {
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
	sh.widths = []colWidth{{1, 1, 30}, {2, 2, 60}, {3, 7, 16}}
	return writeCells(sh, rows)
}

// label is a summary sheet's cell written bold.
type label string

// writeCells writes rows of values into sheet from A1 (for the short
// summary sheets): a label bold, a string as text even when it looks like
// a number, nil or "" as an empty cell.
func writeCells(sh *worksheet, rows [][]any) error {
	for _, row := range rows {
		if len(row) > sh.cols {
			sh.cols = len(row)
		}
		if err := sh.row(row); err != nil {
			return err
		}
	}
	sh.rows = len(rows)
	return nil
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
	return xlsxCell{style: style, value: serial}
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
// the workbook writes into the file (strconv.FormatFloat with precision -1).
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
	return xlsxCell{style: style, value: v}
}
