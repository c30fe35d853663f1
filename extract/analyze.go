package extract

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract/cells"
	"passbook/extract/explain"
	"passbook/extract/layout"
	"passbook/extract/ledger"
	"passbook/extract/lexicon"
	"passbook/extract/reading"
	"passbook/extract/repair"
	"passbook/extract/source"
	"passbook/extract/tables"
)

// analyze finds the transaction tables in a document's words and reads them
// into a reconciled Result.
func analyze(doc Document, x *explain.Writer) *ledger.Result {
	pages := doc.Pages
	var texts []string
	for _, pg := range pages {
		for _, w := range pg.Words {
			texts = append(texts, w.Text)
		}
	}
	decimalComma := cells.GuessDecimalComma(texts)
	pages = slices.Clone(pages)
	for i, pg := range pages {
		if pg.OCR {
			pg.Words = repair.JoinLostDecimals(pg.Words, decimalComma)
			pg.Words = repair.JoinSplitDates(pg.Words)
			repair.FixDateWords(pg.Words)
			pages[i] = pg
		}
	}
	repair.FixShapedDates(pages)
	var byPage [][]*layout.Line
	var all []*layout.Line
	for i, pg := range pages {
		if pg.OCR {
			pg = layout.StraightenColumns(pg)
		}
		ls := layout.JoinWrappedMarks(layout.JoinWrappedDates(layout.SplitSideBlocks(layout.GroupLines(pg, i))))
		for _, l := range ls {
			repair.RepairHeadingWords(l)
			repair.RepairSummaryWords(l)
			layout.Tokenize(l, decimalComma)
		}
		ls = layout.JoinDatedHalves(ls, decimalComma)
		byPage = append(byPage, ls)
		all = append(all, ls...)
	}
	layout.DayMonthColumn(all)
	layout.MarkFurniture(byPage)
	// The lines hold the words from here on; the pages' own copies are
	// let go (see withoutWords).
	pages, doc.Pages = nil, withoutWords(doc.Pages)
	byPage = tables.MergeRecords(byPage, decimalComma)
	all = slices.Concat(byPage...)
	segs := cutAtAccountNames(tables.BuildSegments(byPage, x))
	one := tables.AccountPart{Lines: all}
	for i := range segs {
		one.Segs = append(one.Segs, i)
	}
	parts := tables.SplitAccounts(all, segs, true)
	if parts == nil {
		single := readAccounts(doc, all, segs, []tables.AccountPart{one}, x)
		// Accounts named above their own tables that print no balance of
		// their own are one account's names, unless its chain breaks
		// where the next account's table starts and each account's own
		// chain holds, or breaks fewer times (a row recognition garbled
		// breaks one account's chain either way).
		weak := tables.SplitAccounts(all, segs, false)
		restarted := single.Statement.Proof.Restarted
		if weak == nil || single.Statement.Reconciliation.Status != ledger.ReconcileMismatch && !restarted {
			return single
		}
		// An opening balance printed among the rows, where the names
		// part the tables, starts the next account's balances: each
		// account's own chain must then hold with no such restart.
		x.Printf("the balances break as one account: reading as %d accounts", len(weak))
		split := readAccounts(doc, all, segs, weak, x)
		switch st := split.Statement; {
		case restarted:
			if st.Reconciliation.Status != ledger.ReconcileMismatch && !slices.ContainsFunc(st.Accounts, func(a ledger.Account) bool { return a.Proof.Restarted }) {
				return split
			}
		case st.Reconciliation.Status != ledger.ReconcileMismatch || len(st.Reconciliation.Rows) < len(single.Statement.Reconciliation.Rows):
			return split
		}
		return single
	}
	// Several accounts named above their tables, unless the arithmetic says
	// the names are one account's (a running header that prints another
	// number on each page): the rows then run from the first part's
	// opening balance to the last part's closing balance as one chain.
	x.Printf("reading as %d accounts", len(parts))
	res := readAccounts(doc, all, segs, parts, x)
	if res.Statement.Reconciliation.Status == ledger.ReconcileOK {
		return res
	}
	x.Printf("reading as one account")
	if single := readAccounts(doc, all, segs, []tables.AccountPart{one}, x); single.Statement.Reconciliation.Status == ledger.ReconcileOK {
		return single
	}
	x.Printf("kept the reading as %d accounts", len(parts))
	return res
}

// readAccounts reads the rows of each account part and reconciles them:
// one part is the whole document's statement; several are each reconciled
// as a statement of its own.
func readAccounts(doc Document, all []*layout.Line, segs []tables.Segment, parts []tables.AccountPart, x *explain.Writer) *ledger.Result {
	// Each account's tables are read on their own: its brought-forward
	// line opens its rows, not the document's.
	type partRows struct {
		rows    []tables.Row
		markers []tables.Marker
		outside []*layout.Line
		labels  []tables.Label
	}
	read := make([]partRows, len(parts))
	var toks []cells.DateToken
	var labels []tables.Label
	for k, p := range parts {
		pr := &read[k]
		inTable := map[*layout.Line]bool{}
		for _, i := range p.Segs {
			pr.rows, pr.markers = tables.ReadRows(&segs[i], i, pr.rows, pr.markers, x)
			for _, l := range segs[i].Lines {
				inTable[l] = true
			}
			pr.labels = append(pr.labels, segs[i].Labels...)
		}
		pr.rows = dropRelistings(pr.rows)
		for _, r := range pr.rows {
			if r.OwnDate {
				toks = append(toks, r.Date)
			}
		}
		for _, l := range p.Lines {
			if !inTable[l] {
				pr.outside = append(pr.outside, l)
			}
		}
		labels = append(labels, pr.labels...)
	}
	var outside []*layout.Line
	for _, pr := range read {
		outside = append(outside, pr.outside...)
	}
	order := cells.GuessDateOrder(toks)
	statement := func(order cells.DateOrder) ledger.Statement {
		st := reading.ReadStatement(outside, order, labels)
		if st.PeriodStart == nil {
			var lines []*layout.Line
			for _, p := range parts {
				lines = append(lines, p.Lines...)
			}
			st.PeriodStart, st.PeriodEnd = reading.PeriodByShape(lines, order)
		}
		return st
	}
	st := statement(order)
	// Two readings of numeric dates may both run in order ("03/01, 03/03");
	// then the one that keeps the dates inside the printed period wins.
	// Rows that print no year, or a two-digit one last, may also be those
	// of a year-first document (Korean "12. 6." under "25. 12. 5. –
	// 26. 1. 4.", "22. 8. 11." under "22. 8. 1. – 22. 8. 31.").
	if order == cells.OrderDMY || order == cells.OrderMDY {
		others := []cells.DateOrder{cells.OrderMDY}
		if order == cells.OrderMDY {
			others = []cells.DateOrder{cells.OrderDMY}
		}
		if !slices.ContainsFunc(toks, func(t cells.DateToken) bool {
			return t.Named || t.N == 2 && t.Parts[0] > 12 || t.N == 3 && t.YearDigits != 2
		}) {
			others = append(others, cells.OrderYMD)
		}
		for _, other := range others {
			st2 := statement(other)
			if inPeriod(toks, other, st2) > inPeriod(toks, order, st) {
				order, st = other, st2
			}
		}
	}
	st.Bank, st.Holder = tables.ReadParties(doc.Meta, outside, all, doc.Pages)
	if len(parts) == 1 {
		st.IBAN = reading.ReadIBAN(outside, st.AccountNumber)
	}
	ps, pe := st.PeriodStart, st.PeriodEnd
	if ps == nil {
		ps, pe = fallbackPeriod(all, order)
	}
	cardWords := cardPhrases(all)
	card := cardWords >= 2
	// Whether a row prints a balance is asked of the rows as printed, and
	// of the balance lines BalanceLines finds between them (a day's
	// balance): one at the end says no more than a balance printed
	// outside the rows does about bank or card.
	rowsPrintBalance := false
	for _, pr := range read {
		rowsPrintBalance = rowsPrintBalance || reading.AnyPrintedBalance(pr.rows)
	}
	for k := range read {
		var summary *decimal.Decimal
		if len(read) == 1 {
			summary = st.OpeningBalance
		}
		var between bool
		read[k].rows, read[k].markers, between = reading.BalanceLines(read[k].rows, read[k].markers, summary, looseAmounts(parts[k].Lines, read[k].rows), x)
		rowsPrintBalance = rowsPrintBalance || between
	}
	var allRows []tables.Row
	if len(read) == 1 {
		// One account's rows are all the rows: not a copy of them (a
		// tenth of a long statement's heap). allRows is only read, and
		// only the rows' cells, which a copy shares anyway.
		allRows = read[0].rows
	}
	dateGuessed := false
	for _, pr := range read {
		dateGuessed = tables.PostingColumn(pr.rows, order, ps, pe, st.PeriodStart != nil, x) || dateGuessed
		if len(read) > 1 {
			allRows = append(allRows, pr.rows...)
		}
	}
	// One word for a card (its title) and a card's layout make a card's
	// statement too; the arithmetic cannot tell it from a bank's. With no
	// word for a card, and no heading the lexicon knows over the rows,
	// that layout still reads as a card's, unverified. One word for a card
	// over rows with no balance and no card's layout leaves it open: read
	// as a bank's, unverified.
	cardByLayout := (cardWords == 1 || cardWords == 0 && len(labels) == 0) && cardLayout(allRows)
	cardNamedOnce := cardWords == 1 && !cardByLayout && !rowsPrintBalance
	if cardByLayout {
		// Which way the money went is the layout's to say, and the
		// statement stays unverified (Proof.CardByLayout).
		card = true
		x.Printf("read as a card's statement: its layout is a card's (no balance on any row, most amounts positive as a card prints purchases), and it names a card %d time(s)", cardWords)
	}
	res := &ledger.Result{Statement: st}
	for _, pg := range doc.Pages {
		for _, w := range pg.Warnings {
			res.Statement.Warnings = append(res.Statement.Warnings, fmt.Sprintf("page %d: %s", pg.Number, w))
		}
	}
	yearAssumed := false
	if ps == nil && slices.ContainsFunc(toks, func(t cells.DateToken) bool { return t.YearDigits == 0 }) {
		// No year printed anywhere: the dates are taken in the year up to
		// the day the file was made, else the day of conversion, and the
		// statement says so. Either is a guess that no arithmetic checks.
		from, why := doc.Created, "the file was made"
		if from.IsZero() {
			from, why = today(), "the day of conversion"
		}
		yearAssumed = true
		y, m, d := from.Date()
		end := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		start := end.AddDate(-1, 0, 1)
		ps, pe = &start, &end
		res.Statement.Warnings = append(res.Statement.Warnings, fmt.Sprintf("the statement prints no year: its dates are taken as falling in the year up to %s, %s", end.Format(time.DateOnly), why))
		x.Printf("no year printed: dates taken in the year up to %s, %s", end.Format(time.DateOnly), why)
	}
	// The running balance catches what recognition commonly gets wrong: a
	// lost minus, a misread digit.
	ocr := slices.ContainsFunc(doc.Pages, func(p source.Page) bool { return p.OCR })
	if len(parts) == 1 {
		loose := looseAmounts(parts[0].Lines, read[0].rows)
		st := res.Statement
		if cardNamedOnce && cardTitled(all) {
			// The one word for a card is the statement's title: read as
			// the card it names, unless the marks say otherwise (below).
			card = true
			x.Printf("read as a card's statement: its title names a card")
		}
		res.Transactions = reading.Reconcile(read[0].rows, read[0].markers, loose, &res.Statement, order, ps, pe, card, x)
		against := func(txs []ledger.Transaction) bool {
			return slices.ContainsFunc(txs, func(t ledger.Transaction) bool { return t.Provenance.AgainstMark })
		}
		if cardNamedOnce {
			// Bank's or card's, the arithmetic holds either way; the
			// amounts' own Dr/Cr words may hold with only one of them.
			ost := st
			other := reading.Reconcile(read[0].rows, read[0].markers, loose, &ost, order, ps, pe, !card, x)
			judgeRead(other, &ost, doubts{ocr: ocr, card: !card, yearAssumed: yearAssumed, dateGuessed: dateGuessed})
			switch {
			case against(res.Transactions) && !against(other) && ost.Reconciliation.Status != ledger.ReconcileMismatch:
				x.Printf("read as a %s statement: only so do the balances hold with the amounts' Dr/Cr words", map[bool]string{true: "card's", false: "bank account's"}[!card])
				res.Statement, res.Transactions = ost, other
				return res
			case !against(res.Transactions) && against(other):
				cardNamedOnce = false // the marks decide
			}
		}
		kindOpen := false
		if cardWords == 0 && !card && !rowsPrintBalance {
			// No word names a card and no row prints a balance: the
			// balances printed outside the rows may close only as a
			// card's (the amount owed, which purchases raise). A bank's
			// reading that counts every amount the other way closes as
			// well, unless the amounts' Dr/Cr words forbid it: with none,
			// the card's reading stays unverified.
			cst := st
			ctx := reading.Reconcile(read[0].rows, read[0].markers, loose, &cst, order, ps, pe, true, x)
			judgeRead(ctx, &cst, doubts{ocr: ocr, card: true, yearAssumed: yearAssumed, cardByLayout: !drcrMarked(read[0].rows), dateGuessed: dateGuessed})
			if cst.Proof.Checks > res.Statement.Proof.Checks && !against(ctx) && cst.Reconciliation.Status != ledger.ReconcileMismatch {
				x.Printf("read as a card's statement: only so do the balances printed outside the rows close")
				res.Statement, res.Transactions = cst, ctx
				return res
			}
			// With no heading the lexicon knows either, nothing read says
			// bank or card; unless the marks forbid the card's reading,
			// the arithmetic holds as well for it.
			kindOpen = len(labels) == 0 && !against(res.Transactions) && !against(ctx) && cst.Reconciliation.Status != ledger.ReconcileMismatch
		}
		judgeRead(res.Transactions, &res.Statement, doubts{ocr: ocr, card: card, yearAssumed: yearAssumed, cardByLayout: cardByLayout, dateGuessed: dateGuessed, cardNamedOnce: cardNamedOnce, kindOpen: kindOpen})
		return res
	}
	// Several accounts: each is read and reconciled as a statement of its
	// own; the document's fields describe the first.
	var offsets []int
	var firstColumns []string
	for k, p := range parts {
		ast := reading.ReadStatement(read[k].outside, order, read[k].labels)
		ast.AccountNumber = p.Number
		ast.IBAN = reading.ReadIBAN(read[k].outside, p.Number)
		if ast.PeriodStart == nil {
			ast.PeriodStart, ast.PeriodEnd = st.PeriodStart, st.PeriodEnd
		}
		if ast.Currency == "" {
			ast.Currency = st.Currency
		}
		offsets = append(offsets, len(res.Transactions))
		txs := reading.Reconcile(read[k].rows, read[k].markers, looseAmounts(parts[k].Lines, read[k].rows), &ast, order, ps, pe, card, x)
		judgeRead(txs, &ast, doubts{ocr: ocr, card: card, yearAssumed: yearAssumed, cardByLayout: cardByLayout, dateGuessed: dateGuessed, cardNamedOnce: cardNamedOnce})
		for i := range txs {
			txs[i].Account = p.Number
		}
		res.Transactions = append(res.Transactions, txs...)
		res.Statement.Warnings = append(res.Statement.Warnings, ast.Warnings...)
		if k == 0 {
			firstColumns = ast.MoneyColumns
		}
		res.Statement.Accounts = append(res.Statement.Accounts, ledger.Account{
			Number: p.Number, IBAN: ast.IBAN, Currency: ast.Currency, PeriodStart: ast.PeriodStart, PeriodEnd: ast.PeriodEnd,
			OpeningBalance: ast.OpeningBalance, ClosingBalance: ast.ClosingBalance, Reconciliation: ast.Reconciliation, Proof: ast.Proof,
		})
	}
	first := res.Statement.Accounts[0]
	res.Statement.AccountNumber = first.Number
	res.Statement.IBAN = first.IBAN
	if res.Statement.MoneyColumns == nil {
		res.Statement.MoneyColumns = firstColumns
	}
	res.Statement.OpeningBalance, res.Statement.ClosingBalance = first.OpeningBalance, first.ClosingBalance
	res.Statement.TotalIn, res.Statement.TotalOut = nil, nil
	rows := make([][]int, len(offsets))
	for k, from := range offsets {
		to := len(res.Transactions)
		if k+1 < len(offsets) {
			to = offsets[k+1]
		}
		for i := from; i < to; i++ {
			rows[k] = append(rows[k], i)
		}
	}
	res.Statement.Reconciliation = ledger.JudgeAccounts(res.Statement.Accounts, rows)
	return res
}

// cardLayout reports rows laid out as a card's: one signed amount column,
// no balance on any row, and at least twice as many positive amounts as
// negative ones, some of them negative (purchases, and the payments that
// reduce what is owed). A bank's account prints money out as the
// negative ones, and mostly money goes out.
func cardLayout(rows []tables.Row) bool {
	pos, neg := 0, 0
	for _, rw := range rows {
		for _, c := range rw.Cells {
			switch {
			case c.Role == lexicon.RoleBalance:
				return false
			case c.Role != lexicon.RoleAmount:
			case c.Val.IsNegative():
				neg++
			default:
				pos++
			}
		}
	}
	return neg > 0 && pos >= 2*neg && pos+neg >= 3
}

// doubts are what the reading of a document left open, beside the
// arithmetic reconcile counts: they join each statement's Proof.
type doubts struct {
	ocr, card, yearAssumed, cardByLayout, dateGuessed, cardNamedOnce, kindOpen bool
}

// judgeRead finishes the statement st of the rows txs that reconcile
// read: recognised rows get the corrections their running balance proves,
// the reading's doubts join its proof, and the status is judged again.
func judgeRead(txs []ledger.Transaction, st *ledger.Statement, d doubts) {
	if d.ocr {
		reading.ApplyOCRRepairs(txs, st, d.card)
		reading.RepairOCRDates(txs, st)
	}
	st.Proof.OCR, st.Proof.Card = d.ocr, d.card
	st.Proof.YearAssumed = d.yearAssumed
	st.Proof.CardByLayout = d.cardByLayout
	st.Proof.DateGuessed = d.dateGuessed
	st.Proof.CardNamedOnce = d.cardNamedOnce
	st.Proof.KindOpen = d.kindOpen
	st.Proof.DatesOutside = ledger.DatesOutside(txs, st.PeriodStart, st.PeriodEnd, cells.PeriodSlack)
	st.Reconciliation = ledger.Judge(txs, st.Proof, st.ClosingBalance != nil)
}

// today is the day of conversion (a variable for tests).
var today = time.Now

// isCardStatement reports a credit-card statement: one that prints at
// least two of the things only a card statement prints (a credit limit, a
// minimum payment, a payment due date). One alone is often a bank
// account's small print about its overdraft.
func isCardStatement(lines []*layout.Line) bool { return cardPhrases(lines) >= 2 }

// drcrMarked reports rows of which some amount prints a Dr/Cr word.
func drcrMarked(rows []tables.Row) bool {
	return slices.ContainsFunc(rows, func(rw tables.Row) bool {
		return slices.ContainsFunc(rw.Cells, func(c tables.Cell) bool { return c.Drcr })
	})
}

// cardTitled reports a line that is one of the card phrases alone ("Credit
// Card Statement"): a title, not a sentence of small print that mentions a
// card.
func cardTitled(lines []*layout.Line) bool {
	return slices.ContainsFunc(lines, func(l *layout.Line) bool {
		return slices.Contains(lexicon.Vocab().Card, strings.TrimSpace(lexicon.FoldLabel(l.Text())))
	})
}

// cardPhrases counts the different card phrases the lines print.
func cardPhrases(lines []*layout.Line) int {
	seen := map[string]bool{}
	for _, l := range lines {
		f := lexicon.FoldLabel(l.Text())
		for _, p := range lexicon.Vocab().Card {
			if lexicon.ContainsPhrase(f, p) {
				seen[p] = true
				// Counted once: "credit card statement" is not also a "card statement".
				f = strings.ReplaceAll(f, " "+p+" ", " | ")
			}
		}
	}
	return len(seen)
}

// fallbackPeriod gives dates printed without a year something to resolve
// against when the statement names no period: the span of the full dates the
// document prints near its first one (a statement date, "Beginning balance on
// May 3, 2003"), or half a year either side of a lone one.
func fallbackPeriod(all []*layout.Line, order cells.DateOrder) (*time.Time, *time.Time) {
	var lo, hi, first time.Time
	found := false
	for _, l := range all {
		for _, t := range l.Toks {
			if t.Kind != layout.TokDate || t.Date.YearDigits != 4 {
				continue
			}
			d, ok := t.Date.Resolve(order, nil, nil)
			if !ok {
				continue
			}
			switch {
			case !found:
				first, lo, hi, found = d, d, d, true
			case d.Sub(first).Abs() < 200*24*time.Hour:
				if d.Before(lo) {
					lo = d
				}
				if d.After(hi) {
					hi = d
				}
			}
		}
	}
	if !found {
		return nil, nil
	}
	if lo.Equal(hi) {
		lo, hi = lo.AddDate(0, -6, 0), hi.AddDate(0, 6, 0)
	}
	return &lo, &hi
}

// inPeriod counts the dates that, read under order, fall inside the
// statement's period (with a week's grace either side).
func inPeriod(toks []cells.DateToken, order cells.DateOrder, st ledger.Statement) int {
	if st.PeriodStart == nil {
		return 0
	}
	lo, hi := st.PeriodStart.AddDate(0, 0, -7), st.PeriodEnd.AddDate(0, 0, 7)
	n := 0
	for _, t := range toks {
		if d, ok := t.Resolve(order, st.PeriodStart, st.PeriodEnd); ok && !d.Before(lo) && !d.After(hi) {
			n++
		}
	}
	return n
}

// dropRelistings removes tables that list again, without balances, the
// movements a table with a running balance has already listed (a statement
// "by date with daily balance" followed by the same items "by type"). A
// table goes when at least three quarters of its rows have every amount
// among the ones the balance-carrying tables hold.
func dropRelistings(rows []tables.Row) []tables.Row {
	withBal := map[int]bool{}
	for _, rw := range rows {
		if _, ok := reading.PrintedBalance(rw); ok {
			withBal[rw.SegID] = true
		}
	}
	if len(withBal) == 0 {
		return rows
	}
	pool := map[string]int{}
	for _, rw := range rows {
		if withBal[rw.SegID] {
			for _, c := range rw.Cells {
				if c.Role != lexicon.RoleBalance {
					pool[c.Val.Abs().String()]++
				}
			}
		}
	}
	drop := map[int]bool{}
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && rows[j].SegID == rows[i].SegID {
			j++
		}
		if !withBal[rows[i].SegID] {
			n, matched := 0, 0
			for _, rw := range rows[i:j] {
				if !tables.RowHasMove(rw) {
					continue
				}
				n++
				ok := true
				for _, c := range rw.Cells {
					if k := c.Val.Abs().String(); c.Role != lexicon.RoleBalance && pool[k] > 0 {
						pool[k]--
					} else if c.Role != lexicon.RoleBalance {
						ok = false
					}
				}
				if ok {
					matched++
				}
			}
			if n > 0 && 4*matched >= 3*n {
				drop[rows[i].SegID] = true
			}
		}
		i = j
	}
	if len(drop) == 0 {
		return rows
	}
	kept := rows[:0:0]
	for _, rw := range rows {
		if !drop[rw.SegID] {
			kept = append(kept, rw)
		}
	}
	return kept
}

// namesAccountAlone reports a line that names an account by its shape
// (namedAccount: a few words and a long number) and prints no date and
// no figure: a heading between two accounts' tables ("Compte épargne
// 0576890791"), not a row, a page's small print or a header's fact that
// labels the number ("Account number: 0576890791").
func namesAccountAlone(l *layout.Line) bool {
	if slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind != layout.TokText }) {
		return false
	}
	return !tables.LabelledNumber(l) && tables.NamedAccount(l) != ""
}

// cutAtAccountNames ends a table where a line inside it names an account
// and dated rows follow: the rows from the next dated line on are read as
// a table of their own, so that they go to the account they are printed
// under (splitAccounts), and the lines between (the account's name, its
// balances) are the next account's, outside its tables.
func cutAtAccountNames(segs []tables.Segment) []tables.Segment {
	dated := func(l *layout.Line) bool {
		return slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind == layout.TokDate })
	}
	var out []tables.Segment
	for _, sg := range segs {
		start := 0
		for i := 1; i < len(sg.Lines); i++ {
			if !namesAccountAlone(sg.Lines[i]) {
				continue
			}
			next := slices.IndexFunc(sg.Lines[i+1:], dated)
			if next < 0 {
				// The next account's rows are under a heading of their own.
				next = len(sg.Lines) - i - 1
			}
			part := sg
			part.Lines = sg.Lines[start:i]
			out = append(out, part)
			sg.Cont = true
			start = i + 1 + next
			// The first row's description may stand above its line where
			// the row's cells are centred on it: lines reaching into its band.
			for start > i+1 && start < len(sg.Lines) && sg.Lines[start-1].ReachesInto(sg.Lines[start]) {
				start--
			}
			i = start - 1
		}
		if sg.Lines = sg.Lines[start:]; len(sg.Lines) > 0 || start == 0 {
			out = append(out, sg)
		}
	}
	return out
}

// looseAmounts are the lone amounts of lines above an account's first
// row or below its last that print a few words and one amount: balances,
// limits, sums, named in words the lexicon may not hold, and dated
// ("Kontostand am 31.01.2025 um 20:00 Uhr 1.642,02 EUR").
// The arithmetic decides which, if any, are the opening and closing
// balances (reconcile).
func looseAmounts(lines []*layout.Line, rows []tables.Row) []decimal.Decimal {
	// A set of the rows' lines, not a search of rows for each line: that
	// was lines × rows, half the time of a 500-page statement.
	read := make(map[*layout.Line]bool, len(rows))
	for _, r := range rows {
		read[r.Line] = true
	}
	first, last := len(lines), -1
	for i, l := range lines {
		if read[l] {
			first, last = min(first, i), i
		}
	}
	var out []decimal.Decimal
	for i, l := range lines {
		if i >= first && i <= last {
			continue
		}
		var amounts []layout.Token
		words := 0
		for _, t := range l.Toks {
			switch t.Kind {
			case layout.TokAmount:
				amounts = append(amounts, t)
			default:
				words++
			}
		}
		if len(amounts) == 1 && words >= 1 && words <= 6 {
			out = append(out, amounts[0].Amount)
		}
	}
	return out
}
