package synth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// A world statement is laid out as lines on a grid of columns, the same
// for every producer: fpdf draws the lines, Chromium and LibreOffice print
// them as one HTML table.

// wcell is one cell of a line: text in columns col to col+span-1.
type wcell struct {
	col, span int
	text      string
	right     bool
}

// wline is one printed line (a table row, a heading, a label and value).
type wline struct {
	cells []wcell
	bold  bool
	boxed bool    // every cell ruled around (a ruled grid)
	head  bool    // a table's heading: repeated on a new page
	title bool    // larger type
	rule  bool    // a rule under the line
	gap   float64 // space above, in line heights
	shade bool    // on a grey band
	// pageBreak: the next line begins a new page (a line of no cells).
	pageBreak bool
}

// worldDoc is a laid-out statement.
type worldDoc struct {
	widths   []float64 // the columns, as shares of the text width
	lines    []wline
	web      bool   // a web bank's page: no rules, roomier rows
	pageWord string // "Page"
	bank     string
	lang     string
	script   string     // the script face its dates need (scriptFaces), or ""
	st       worldStyle // chosen when fpdf draws it; the other producers print in it too
}

// tableCol is one column of a transaction table.
type tableCol struct {
	role  string // date, value, desc, ref, debit, credit, amount, balance
	label string
	w     float64
}

// full is a line of one cell across the page.
func (d *worldDoc) full(text string, bold bool, gap float64) {
	d.lines = append(d.lines, wline{cells: []wcell{{0, len(d.widths), text, false}}, bold: bold, gap: gap})
}

// pair is a label and a value on one line: the label over the first
// columns, the value right-aligned in the last.
func (d *worldDoc) pair(label, value string, bold bool) wline {
	n := len(d.widths)
	return wline{cells: []wcell{{0, n - 1, label, false}, {n - 1, 1, value, true}}, bold: bold}
}

// layout lays the statement out in its family.
func (w *world) layout() *worldDoc {
	r, lx := w.r, w.lx
	d := &worldDoc{web: w.family == "screenshot", pageWord: w.word("page", lx.Page), bank: pickOne(r, banks), lang: lx.Lang, script: scriptOf(w.dateText(w.start))}
	cols := w.widenDates(w.columns())
	for _, c := range cols {
		d.widths = append(d.widths, c.w)
	}
	// The letterhead.
	d.lines = append(d.lines, wline{cells: []wcell{{0, len(d.widths), d.bank, false}}, bold: true, title: true})
	title := w.word("title", lx.Title)
	if w.card {
		title = w.word("cardTitle", lx.CardTitle)
	}
	d.full(title, true, 0.3)
	d.full(pickOne(r, holders), false, 0)
	if w.traits["address"] {
		i := w.tr.IntN(len(streets))
		d.full(streets[i], false, 0)
		d.full(cities[i], false, 0)
	}
	if len(w.accounts) == 1 {
		d.full(w.word("account", lx.Account)+": "+w.accounts[0].number, false, 0)
	}
	d.full(w.word("period", lx.Period)+": "+w.reckon(w.loc.MediumDate(w.start), w.start)+" – "+w.reckon(w.loc.MediumDate(w.end), w.end), false, 0)
	if r.IntN(2) == 0 {
		d.full(w.word("currency", lx.Currency)+": "+w.loc.Currency, false, 0)
	}
	for i, a := range w.accounts {
		if len(w.accounts) > 1 {
			d.full(a.kind+" "+a.number, true, 1.2)
		}
		w.accountBody(d, cols, a, i)
	}
	if w.traits["footer"] {
		r := w.tr
		d.full(fmt.Sprintf("%s · %08d · +%d %03d %03d %03d", d.bank, r.IntN(100000000), 10+r.IntN(90), r.IntN(1000), r.IntN(1000), r.IntN(1000)), false, 1.5)
	}
	return d
}

// columns are the statement's table columns.
func (w *world) columns() []tableCol {
	lx := w.lx
	switch w.family {
	case "kv-blocks":
		if w.traits["kv-three-across"] {
			return kvColumns()
		}
		return []tableCol{{"label", "", 0.35}, {"", "", 0.25}, {"value", "", 0.4}}
	case "day-groups":
		return []tableCol{{"desc", w.word("desc", lx.Desc), 0.5}, {"", "", 0.1}, {"amount", w.word("amount", lx.Amount), 0.2}, {"balance", w.word("balance", lx.Balance), 0.2}}
	case "card-sections":
		return []tableCol{{"date", w.word("date", lx.Date), 0.16}, {"desc", w.word("desc", lx.Desc), 0.6}, {"amount", w.word("amount", lx.Amount), 0.24}}
	}
	cols := []tableCol{{"date", w.word("date", lx.Date), 0.14}}
	if w.family == "value-date" {
		v := tableCol{"value", w.word("value", lx.ValueDate), 0.14}
		if w.r.IntN(2) == 0 {
			cols = append(cols, v)
		} else {
			cols = append([]tableCol{v}, cols...)
		}
	}
	cols = append(cols, tableCol{"desc", w.word("desc", lx.Desc), 0.36})
	if w.family == "ref-column" {
		cols = append(cols, tableCol{"ref", w.word("ref", lx.Ref), 0.16})
	}
	switch {
	case w.card || w.signed:
		cols = append(cols, tableCol{"amount", w.word("amount", lx.Amount), 0.16})
		if w.traits["indicator-column"] {
			cols = append(cols, tableCol{"mark", "", 0.05})
		}
	case w.traits["in-first"]:
		cols = append(cols, tableCol{"credit", w.word("credit", lx.Credit), 0.14}, tableCol{"debit", w.word("debit", lx.Debit), 0.14})
	default:
		cols = append(cols, tableCol{"debit", w.word("debit", lx.Debit), 0.14}, tableCol{"credit", w.word("credit", lx.Credit), 0.14})
	}
	if !w.card {
		cols = append(cols, tableCol{"balance", w.word("balance", lx.Balance), 0.16})
	}
	cols = w.wideColumns(cols)
	total := 0.0
	for _, c := range cols {
		total += c.w
	}
	for i := range cols {
		cols[i].w /= total
	}
	return cols
}

// accountBody lays out one account: its balances and its rows.
func (w *world) accountBody(d *worldDoc, cols []tableCol, a *waccount, index int) {
	before, after := w.summaryLines(d, a, index)
	d.lines = append(d.lines, before...)
	d.lines = append(d.lines, wline{gap: 0.6})
	switch w.family {
	case "kv-blocks":
		if w.traits["kv-three-across"] {
			w.kvThreeAcross(d, a)
		} else {
			w.kvBlocks(d, a)
		}
	case "day-groups":
		w.dayGroups(d, cols, a)
	case "card-sections":
		w.cardSections(d, cols, a)
	default:
		w.table(d, cols, a)
	}
	d.lines = append(d.lines, after...)
}

// notePrinted records a printed opening or closing balance of the first
// account.
func (w *world) notePrinted(index int, opening bool, text string) {
	if index > 0 {
		return
	}
	if opening {
		w.printed.Opening = text
	} else {
		w.printed.Closing = text
	}
}

// headLine is a table's heading.
func headLine(cols []tableCol, boxed bool) wline {
	l := wline{bold: true, head: true, rule: true, boxed: boxed}
	for i, c := range cols {
		l.cells = append(l.cells, wcell{i, 1, c.label, isMoneyRole(c.role)})
	}
	return l
}

func isMoneyRole(role string) bool {
	return role == "debit" || role == "credit" || role == "amount" || role == "balance"
}

// rowCells are one transaction's cells in a table's columns.
func (w *world) rowCells(cols []tableCol, t wtxn, withBalance bool) []wcell {
	var cells []wcell
	for i, c := range cols {
		var s string
		switch c.role {
		case "date":
			s = w.dateText(t.date)
		case "value":
			s = w.dateText(t.value)
		case "desc":
			s = t.desc
		case "ref":
			s = t.ref
		case "debit":
			if !t.in {
				s = w.num(t.amount)
			}
		case "credit":
			if t.in {
				s = w.num(t.amount)
			}
		case "amount":
			s = w.signedText(w.signedAmount(t))
			if w.traits["indicator-column"] {
				s = w.num(t.amount)
			}
		case "mark":
			s = w.drMark
			if t.in {
				s = w.crMark
			}
		case "balance":
			if withBalance {
				s = w.balanceText(t.balance)
			}
		}
		if s != "" {
			cells = append(cells, wcell{i, 1, s, isMoneyRole(c.role)})
		}
	}
	return cells
}

// signedAmount is a row's amount with the sign the statement prints: a
// bank's money out and a card's payments negative.
func (w *world) signedAmount(t wtxn) decimal.Decimal {
	if t.in != w.card {
		return t.amount
	}
	return t.amount.Neg()
}

// amountText is how a row's amount is printed, for the readback test.
func (w *world) amountText(t wtxn) string {
	if !w.signed && !w.card || w.traits["indicator-column"] {
		return w.num(t.amount)
	}
	return w.signedText(w.signedAmount(t))
}

// note records what the row prints of its date and amount.
func (w *world) note(t wtxn, date string) {
	w.printed.Dates = append(w.printed.Dates, date)
	w.printed.Amounts = append(w.printed.Amounts, w.amountText(t))
}

// table lays out the rows as a table, in the family's way and its
// variations.
func (w *world) table(d *worldDoc, cols []tableCol, a *waccount) {
	r := w.r
	boxed := w.family == "ruled-grid"
	var head *wline
	if !w.has("no-heading") {
		h := headLine(cols, boxed)
		head = &h
		d.lines = append(d.lines, h)
	}
	desc := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "desc" })
	dateCol := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "date" })
	balCol := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "balance" })
	if w.family == "dated-balances" && w.openPrinted {
		text := w.balanceText(a.opening)
		d.lines = append(d.lines, wline{cells: []wcell{{dateCol, 1, w.dateText(w.start), false}, {desc, 1, w.word("opening", w.lx.Opening), false}, {balCol, 1, text, true}}, boxed: boxed})
		w.notePrinted(slices.Index(w.accounts, a), true, text)
	}
	order := slices.Clone(a.txns)
	if w.family == "newest-first" || w.traits["newest-balance-only"] {
		slices.Reverse(order)
	}
	amountSecond := w.family == "multiline" && r.IntN(2) == 0
	section, sectionLen := 0, 0
	if w.has("section-sums") {
		sectionLen = 4 + w.wide.r.IntN(7)
	}
	// The rows' lines, where each row ends and the balance after it: the
	// page breaks of the variations go between rows.
	var body []wline
	var ends []int
	// Rows whose description may start above them stand apart: a space
	// above each row says which row a line above belongs to.
	rowGap := 0.0
	if w.has("wrapped-above") {
		rowGap = 0.4
	}
	var balances []decimal.Decimal
	for i, t := range order {
		next := i + 1
		lastOfDay := next == len(order) || !order[next].date.Equal(t.date)
		cells := w.rowCells(cols, t, w.rowBalances || w.family == "daily-balance" && lastOfDay)
		w.note(t, w.dateText(t.date))
		switch {
		case w.family == "multiline":
			body = append(body, w.multilineRow(cols, cells, t, amountSecond)...)
		case w.has("wrapped-above") && len(strings.Fields(t.desc)) > 1 && w.wide.r.IntN(2) == 0:
			// The description's first line above the line of the row's
			// date and amounts, the rest on it.
			parts := splitWords(t.desc, 2)
			for k := range cells {
				if cells[k].col == desc {
					cells[k].text = parts[1]
				}
			}
			body = append(body, wline{cells: []wcell{{desc, 1, parts[0], false}}, boxed: boxed, gap: rowGap}, wline{cells: cells, boxed: boxed, rule: w.has("ruled-rows")})
		default:
			body = append(body, wline{cells: cells, boxed: boxed, rule: w.family == "ruled-grid" || w.has("ruled-rows"), shade: w.has("shaded") && i%2 == 1, gap: rowGap})
		}
		if w.traits["day-balance-lines"] && lastOfDay {
			body = append(body, w.dayBalanceLine(cols, t))
		}
		if sectionLen > 0 && (i+1-section == sectionLen || next == len(order)) {
			body = append(body, w.sectionSums(cols, order[section:next]))
			section = next
		}
		ends = append(ends, len(body))
		balances = append(balances, t.balance)
	}
	d.lines = append(d.lines, w.pageBreaks(d, body, ends, balances, cols, head)...)
	if w.traits["totals-line"] {
		l := w.sectionSums(cols, a.txns)
		l.boxed = boxed
		d.lines = append(d.lines, l)
	}
	if w.family == "dated-balances" && w.closing {
		text := w.balanceText(a.closing)
		d.lines = append(d.lines, wline{cells: []wcell{{dateCol, 1, w.dateText(w.end), false}, {desc, 1, w.word("closing", w.lx.Closing), false}, {balCol, 1, text, true}}, boxed: boxed})
		w.notePrinted(slices.Index(w.accounts, a), false, text)
	}
}

// multilineRow is a row of the multiline family: the description over
// two or three lines, the amounts on the first line or on the second.
func (w *world) multilineRow(cols []tableCol, cells []wcell, t wtxn, amountSecond bool) []wline {
	desc := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "desc" })
	parts := splitWords(t.desc, 2+w.r.IntN(2))
	first := wline{}
	second := wline{}
	for _, c := range cells {
		switch {
		case c.col == desc:
		case amountSecond && cols[c.col].role != "date" && cols[c.col].role != "value":
			second.cells = append(second.cells, c)
		default:
			first.cells = append(first.cells, c)
		}
	}
	first.cells = append(first.cells, wcell{desc, 1, parts[0], false})
	lines := []wline{first}
	for k, p := range parts[1:] {
		l := wline{cells: []wcell{{desc, 1, p, false}}}
		if k == 0 {
			l.cells = append(l.cells, second.cells...)
		}
		lines = append(lines, l)
	}
	if len(parts) == 1 && len(second.cells) > 0 {
		lines = append(lines, wline{cells: second.cells})
	}
	return append(lines, wline{gap: 0.2})
}

// splitWords splits s into at most n lines of whole words.
func splitWords(s string, n int) []string {
	f := strings.Fields(s)
	n = min(n, len(f))
	var out []string
	for i := range n {
		lo, hi := i*len(f)/n, (i+1)*len(f)/n
		out = append(out, strings.Join(f[lo:hi], " "))
	}
	return out
}

// kvBlocks lays out one block of label-value lines per transaction.
func (w *world) kvBlocks(d *worldDoc, a *waccount) {
	lx := w.lx
	for _, t := range a.txns {
		date := w.dateText(t.date)
		w.note(t, date)
		d.lines = append(d.lines, wline{gap: 0.5, rule: true})
		d.lines = append(d.lines,
			wline{cells: []wcell{{0, 1, w.word("date", lx.Date), false}, {1, 2, date, true}}},
			wline{cells: []wcell{{0, 1, w.word("desc", lx.Desc), false}, {1, 2, t.desc, true}}},
			wline{cells: []wcell{{0, 1, w.word("amount", lx.Amount), false}, {1, 2, w.signedText(w.signedAmount(t)), true}}, bold: true})
		if w.rowBalances {
			d.lines = append(d.lines, wline{cells: []wcell{{0, 1, w.word("balance", lx.Balance), false}, {1, 2, w.balanceText(t.balance), true}}})
		}
	}
}

// dayGroups lays out rows under a heading per day, each day closed by its
// balance.
func (w *world) dayGroups(d *worldDoc, cols []tableCol, a *waccount) {
	d.lines = append(d.lines, headLine(cols, false))
	for i := 0; i < len(a.txns); {
		day := a.txns[i].date
		heading := w.fullDate(day)
		d.lines = append(d.lines, wline{cells: []wcell{{0, len(cols), heading, false}}, bold: true, gap: 0.4})
		j := i
		for ; j < len(a.txns) && a.txns[j].date.Equal(day); j++ {
			t := a.txns[j]
			w.note(t, heading)
			d.lines = append(d.lines, wline{cells: []wcell{{0, 1, t.desc, false}, {2, 1, w.signedText(w.signedAmount(t)), true}}})
		}
		d.lines = append(d.lines, wline{cells: []wcell{{0, 2, w.word("dayBalance", w.lx.DayBalance), false}, {3, 1, w.balanceText(a.txns[j-1].balance), true}}, rule: true})
		i = j
	}
}

// cardSections lays out a card's rows in sections, payments printed
// negative or marked as credits.
func (w *world) cardSections(d *worldDoc, cols []tableCol, a *waccount) {
	lx := w.lx
	titles := map[string]string{"payments": w.word("payments", lx.Payments), "purchases": w.word("purchases", lx.Purchases),
		"fees": w.word("fees", lx.Fees), "interest": w.word("interest", lx.Interest)}
	var order []wtxn
	for _, sec := range []string{"payments", "purchases", "fees", "interest"} {
		var rows []wtxn
		for _, t := range a.txns {
			if t.section == sec {
				rows = append(rows, t)
			}
		}
		if len(rows) == 0 {
			continue
		}
		d.lines = append(d.lines, wline{cells: []wcell{{0, len(cols), titles[sec], false}}, bold: true, gap: 0.6})
		d.lines = append(d.lines, headLine(cols, false))
		for _, t := range rows {
			w.note(t, w.dateText(t.date))
			d.lines = append(d.lines, wline{cells: w.rowCells(cols, t, false)})
			order = append(order, t)
		}
	}
	// The truth lists rows as printed: section by section.
	a.txns = order
}

// String describes a world sample for failure reports.
func (s WorldSample) String() string {
	return fmt.Sprintf("seed %d %s %s %s %s %s", s.Seed, s.Family, s.Vocab, s.Lang, s.Locale.ID, s.Producer)
}
