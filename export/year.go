package export

import (
	"time"

	"github.com/shopspring/decimal"
)

// YearJSON is an account's summary over the folder's period: the balance
// it opens with at the start and closes with at the end, the money in and
// out, and month by month the same, with the files each month's rows come
// from (the statements the folder's downloads take them from).
type YearJSON struct {
	Opening *string     `json:"opening_balance"`
	In      string      `json:"money_in"`
	Out     string      `json:"money_out"`
	Closing *string     `json:"closing_balance"`
	Months  []MonthJSON `json:"months"`
}

// MonthJSON is one calendar month of an account.
type MonthJSON struct {
	Month   string   `json:"month"` // YYYY-MM
	Opening *string  `json:"opening_balance"`
	In      string   `json:"money_in"`
	Out     string   `json:"money_out"`
	Closing *string  `json:"closing_balance"`
	FileIDs []string `json:"file_ids"`
	Files   []string `json:"files"`
}

// month is a calendar month's figures, as decimals.
type month struct {
	start            time.Time
	opening, closing *decimal.Decimal
	in, out          decimal.Decimal
	fileIDs, files   []string
}

// year is the account's summary: the merged rows in calendar months from
// the first month of its period to the last. Its balances are the rows'
// own, as the transactions sheet and the page show them: a month opens
// with the balance before its first row and closes with its last row's,
// so that where two statements' balances break, the summary breaks where
// the rows do instead of carrying a balance of its own forward. A month
// without rows keeps the balance; its files are the counted statements
// whose period covers it.
func (a *SetAccount) year() (opening, closing *decimal.Decimal, in, out decimal.Decimal, months []month) {
	m := a.merged()
	if m.opening != nil {
		o := *m.opening
		opening = &o
	} else if len(m.rows) > 0 {
		o := m.rows[0].Balance.Sub(signed(m.rows[0].Transaction))
		opening = &o
	}
	start, end := a.Period()
	if start == nil {
		if len(m.rows) == 0 {
			return opening, m.closing, in, out, nil
		}
		s, e := m.rows[0].Date, m.rows[len(m.rows)-1].Date
		start, end = &s, &e
	}
	first := time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC)
	last := time.Date(end.Year(), end.Month(), 1, 0, 0, 0, 0, time.UTC)
	if len(m.rows) > 0 {
		if d := m.rows[len(m.rows)-1].Date; d.After(last.AddDate(0, 1, -1)) {
			last = time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
		if d := m.rows[0].Date; d.Before(first) {
			first = time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
	}
	bal := opening
	i := 0
	for ms := first; !ms.After(last) && len(months) < 1200; ms = ms.AddDate(0, 1, 0) {
		mo := month{start: ms, opening: bal}
		next := ms.AddDate(0, 1, 0)
		seen := map[string]bool{}
		for ; i < len(m.rows) && m.rows[i].Date.Before(next); i++ {
			r := m.rows[i]
			v := signed(r.Transaction)
			if v.Sign() >= 0 {
				mo.in = mo.in.Add(v)
			} else {
				mo.out = mo.out.Add(v.Neg())
			}
			if len(mo.fileIDs) == 0 {
				// The balance before the month's first row, as its
				// statement prints it.
				o := r.Balance.Sub(v)
				mo.opening = &o
			}
			b := r.Balance
			bal = &b
			if !seen[r.source] {
				seen[r.source] = true
				mo.fileIDs, mo.files = append(mo.fileIDs, r.source), append(mo.files, r.sourceName)
			}
		}
		if len(mo.fileIDs) == 0 {
			for _, st := range a.counted() {
				if st.Start != nil && st.End != nil && st.Start.Before(next) && !st.End.Before(ms) {
					mo.fileIDs, mo.files = append(mo.fileIDs, st.SourceID), append(mo.files, st.Name)
				}
			}
		}
		mo.closing = bal
		in, out = in.Add(mo.in), out.Add(mo.out)
		months = append(months, mo)
	}
	return opening, bal, in, out, months
}

// yearJSON is the account's year as the folders API shows it.
func (a *SetAccount) yearJSON() *YearJSON {
	opening, closing, in, out, months := a.year()
	y := &YearJSON{Opening: money(opening), Closing: money(closing), In: in.StringFixed(2), Out: out.StringFixed(2), Months: []MonthJSON{}}
	for _, m := range months {
		mj := MonthJSON{Month: m.start.Format("2006-01"), Opening: money(m.opening), Closing: money(m.closing),
			In: m.in.StringFixed(2), Out: m.out.StringFixed(2), FileIDs: m.fileIDs, Files: m.files}
		if mj.FileIDs == nil {
			mj.FileIDs, mj.Files = []string{}, []string{}
		}
		y.Months = append(y.Months, mj)
	}
	return y
}

// yearSheet is the set workbook's sheet of each account's year.
const yearSheet = "Year summary"

// writeYearSheet writes, per account, its opening and closing balance and
// money in and out over the period, then a row per month with the files
// the month's rows come from.
func writeYearSheet(sh *worksheet, st xlsxStyles, set *Set) error {
	cs := st.row(false)
	var rows [][]any
	for i, a := range set.Accounts {
		if i > 0 {
			rows = append(rows, nil)
		}
		opening, closing, in, out, months := a.year()
		rows = append(rows,
			[]any{label("Account"), textValue(cs, a.Label())},
			[]any{label("Opening balance"), moneyCell(st.money, opening)},
			[]any{label("Money in"), moneyCell(st.money, &in)},
			[]any{label("Money out"), moneyCell(st.money, &out)},
			[]any{label("Closing balance"), moneyCell(st.money, closing)},
			[]any{label("Month"), label("Opening balance"), label("Money in"), label("Money out"), label("Closing balance"), label("Statements")})
		for _, m := range months {
			mIn, mOut := m.in, m.out
			files := ""
			for j, n := range m.files {
				if j > 0 {
					files += ", "
				}
				files += n
			}
			rows = append(rows, []any{textValue(cs, m.start.Format("2006-01")), moneyCell(st.money, m.opening), moneyCell(st.money, &mIn),
				moneyCell(st.money, &mOut), moneyCell(st.money, m.closing), textValue(cs, files)})
		}
	}
	sh.widths = []colWidth{{1, 1, 18}, {2, 5, 16}, {6, 6, 60}}
	return writeCells(sh, rows)
}
