package reading

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"passbook/extract/cells"
	"passbook/extract/explain"
	"passbook/extract/ledger"
	"passbook/extract/lexicon"
	"passbook/extract/tables"

	"github.com/shopspring/decimal"
)

// reading is one way to read a document's amount columns. Reconciliation
// tries each and keeps the one the printed balances agree with most.
type Reading struct {
	swap bool // the columns headed "debit" and "credit" (or guessed so) hold the opposite
	flip bool // a signed amount column counts money out as positive
	// card is a credit card's balance: the amount owed, which money going
	// out (a purchase) raises.
	Card bool
	// cols gives a table's money-out and money-in columns (by index) the
	// roles the arithmetic found for them, where their headings were
	// misplaced or misread; nil keeps the headings' roles.
	cols map[int]lexicon.ColRole
	// ind gives the words of a Dr/Cr indicator column that the lexicon
	// does not know the direction the arithmetic found for them.
	ind map[string]int
}

var readings = []Reading{{}, {swap: true}, {flip: true}, {swap: true, flip: true}}

func (r Reading) String() string {
	var parts []string
	if r.swap {
		parts = append(parts, "debit and credit columns swapped")
	}
	if r.flip {
		parts = append(parts, "signed amounts count money out as positive")
	}
	if r.Card {
		parts = append(parts, "a card's balance owed")
	}
	if len(r.cols) > 0 {
		var cs []string
		for _, c := range slices.Sorted(maps.Keys(r.cols)) {
			cs = append(cs, fmt.Sprintf("column %d %s", c, r.cols[c]))
		}
		parts = append(parts, strings.Join(cs, ", "))
	}
	if len(r.ind) > 0 {
		var ws []string
		for _, w := range slices.Sorted(maps.Keys(r.ind)) {
			ws = append(ws, fmt.Sprintf("%q money %s", w, map[int]string{-1: "out", 1: "in"}[r.ind[w]]))
		}
		parts = append(parts, "indicator "+strings.Join(ws, ", "))
	}
	if len(parts) == 0 {
		return "as headed"
	}
	return strings.Join(parts, ", ")
}

// chain is what a movement d (money in positive) does to the balance as
// the statement prints it.
func (r Reading) Chain(d decimal.Decimal) decimal.Decimal {
	if r.Card {
		return d.Neg()
	}
	return d
}

// readingsFor lists the readings to try, in the order ties are settled. On
// a card statement, purchases are most rows: when most signed amounts are
// printed positive, positive is first read as money out. An amount whose
// Dr/Cr word says its direction, or that lost the word its column prints,
// shows no sign convention.
func readingsFor(rows []tables.Row, card bool) []Reading {
	if !card {
		return readings
	}
	pos, neg := 0, 0
	for _, rw := range rows {
		for _, c := range rw.Cells {
			if c.Role == lexicon.RoleAmount && !c.Drcr && !c.Lost {
				if c.Val.IsNegative() {
					neg++
				} else {
					pos++
				}
			}
		}
	}
	order := []Reading{{Card: true}, {swap: true, Card: true}, {flip: true, Card: true}, {swap: true, flip: true, Card: true}}
	if pos > neg {
		order = []Reading{{flip: true, Card: true}, {swap: true, flip: true, Card: true}, {Card: true}, {swap: true, Card: true}}
	}
	return order
}

// movement is a row's change to the balance under r. known is false when the
// row's only amount carries no sign and nothing else says which way it went;
// then abs is its size.
func (r Reading) movement(rw tables.Row, unsigned bool) (d, abs decimal.Decimal, known, any bool) {
	for _, c := range rw.Cells {
		v := c.Val.Abs()
		role := c.Role
		if o, ok := r.cols[c.Col]; ok {
			role = o
		}
		if r.swap && role == lexicon.RoleDebit {
			role = lexicon.RoleCredit
		} else if r.swap && role == lexicon.RoleCredit {
			role = lexicon.RoleDebit
		}
		switch role {
		case lexicon.RoleDebit:
			d = d.Sub(v)
			any = true
		case lexicon.RoleCredit:
			d = d.Add(v)
			any = true
		case lexicon.RoleAmount:
			any = true
			switch ind := r.indicated(rw.Drcr); {
			case ind < 0:
				d = d.Sub(v)
			case ind > 0:
				d = d.Add(v)
			case rw.Section != 0 && c.Marked:
				// A sign printed in a titled section is the sign ("-5.00" among deposits is a reversal).
				d = d.Add(c.Val)
			case rw.Section > 0:
				d = d.Add(v)
			case rw.Section < 0:
				d = d.Sub(v)
			// A title in the table gives no direction to an amount that
			// carries a Dr/Cr word ("102.92 C" under "débit" on a card):
			// the word says it, as the reading counts it.
			case rw.Titled > 0 && !c.Drcr:
				d = d.Add(v)
			case rw.Titled < 0 && !c.Drcr:
				d = d.Sub(v)
			case unsigned, c.Lost:
				abs = abs.Add(v)
				continue
			default:
				if r.flip {
					d = d.Sub(c.Val)
				} else {
					d = d.Add(c.Val)
				}
			}
		}
	}
	known = abs.IsZero()
	return d, abs, known, any
}

// indicated is the direction a Dr/Cr indicator column's word gives: -1
// money out, +1 money in, 0 for none or a word nothing tells.
func (r Reading) indicated(word string) int {
	f := strings.TrimSpace(lexicon.FoldLabel(word))
	if d, ok := r.ind[f]; ok {
		return d
	}
	return indicatorDir(word)
}

// indicatorDir is the direction the lexicon gives an indicator word; a
// word it does not hold that starts as a debit or credit mark does ("DR.",
// "Deb") is taken by its first letter.
func indicatorDir(word string) int {
	f := strings.TrimSpace(lexicon.FoldLabel(word))
	switch {
	case strings.TrimSpace(word) == "-" || slices.Contains(lexicon.Vocab().IndicatorOut, f):
		return -1
	case strings.TrimSpace(word) == "+" || slices.Contains(lexicon.Vocab().IndicatorIn, f):
		return 1
	}
	switch u := strings.ToUpper(f); {
	case strings.HasPrefix(u, "D") || strings.HasPrefix(u, "S"):
		return -1
	case strings.HasPrefix(u, "C") || strings.HasPrefix(u, "H"):
		return 1
	}
	return 0
}

// variants lists the readings to weigh for one table: the readings as
// headed first, then each with the table's money-out and money-in columns
// given other roles (every way of making each of them out, in or not
// money, for a table whose headings sit over the wrong columns), and with
// indicator words nothing tells given each direction (at most two such
// words).
func variants(rows []tables.Row, readings []Reading) []Reading {
	var cols []int
	seenCol := map[int]bool{}
	var words []string
	seenWord := map[string]bool{}
	for _, rw := range rows {
		for _, c := range rw.Cells {
			if (c.Role == lexicon.RoleDebit || c.Role == lexicon.RoleCredit) && !seenCol[c.Col] {
				seenCol[c.Col] = true
				cols = append(cols, c.Col)
			}
		}
		if w := strings.TrimSpace(lexicon.FoldLabel(rw.Drcr)); w != "" && indicatorDir(rw.Drcr) == 0 && !seenWord[w] {
			seenWord[w] = true
			words = append(words, w)
		}
	}
	var colMaps []map[int]lexicon.ColRole
	if len(cols) <= 4 {
		// Each column out, in, or not money at all (points or units under
		// a heading read as money); at least one stays money.
		n := 1
		for range cols {
			n *= 3
		}
		for code := 0; code < n; code++ {
			m := map[int]lexicon.ColRole{}
			money := false
			rest := code
			for _, c := range cols {
				m[c] = []lexicon.ColRole{lexicon.RoleDebit, lexicon.RoleCredit, lexicon.RoleNone}[rest%3]
				money = money || m[c] != lexicon.RoleNone
				rest /= 3
			}
			if money {
				colMaps = append(colMaps, m)
			}
		}
	}
	var indMaps []map[string]int
	switch len(words) {
	case 1:
		indMaps = []map[string]int{{words[0]: -1}, {words[0]: 1}}
	case 2:
		indMaps = []map[string]int{{words[0]: -1, words[1]: 1}, {words[0]: 1, words[1]: -1}}
	}
	out := slices.Clone(readings)
	for _, r := range readings {
		for _, cm := range colMaps {
			v := r
			v.cols = cm
			out = append(out, v)
		}
		for _, im := range indMaps {
			v := r
			v.ind = im
			out = append(out, v)
		}
	}
	return out
}

// printedBalance returns the balance a row prints, if any.
func PrintedBalance(rw tables.Row) (decimal.Decimal, bool) {
	for _, c := range rw.Cells {
		if c.Role == lexicon.RoleBalance {
			return c.Val, true
		}
	}
	return decimal.Decimal{}, false
}

// unsignedAmounts reports a signed-amount column that never shows a sign:
// its direction must come from the balance.
func unsignedAmounts(rows []tables.Row) bool {
	seen := false
	for _, rw := range rows {
		if strings.TrimSpace(rw.Drcr) != "" {
			return false
		}
		for _, c := range rw.Cells {
			if c.Role == lexicon.RoleAmount {
				seen = true
				if c.Marked || c.Val.IsNegative() {
					return false
				}
			}
		}
	}
	return seen
}

// score counts the printed balances that follow from the one before under
// r, starting from prev when have is set.
func score(rows []tables.Row, r Reading, unsigned bool, prev decimal.Decimal, have bool) int {
	n := 0
	for _, rw := range rows {
		d, abs, known, _ := r.movement(rw, unsigned)
		b, ok := PrintedBalance(rw)
		if ok && have {
			if known && prev.Add(r.Chain(d)).Equal(b) || !known && (prev.Add(r.Chain(d.Add(abs))).Equal(b) || prev.Add(r.Chain(d.Sub(abs))).Equal(b)) {
				n++
			}
		}
		switch {
		case ok:
			prev, have = b, true
		case have && known:
			prev = prev.Add(r.Chain(d))
		default:
			have = false
		}
	}
	return n
}

// chooseReadings picks, for each table segment, the reading of its amount
// columns that the printed balances agree with most; ties keep the headings'
// plain meaning. Segments are judged apart because a page's headings can be
// placed so that a lone column is matched to the wrong heading.
func chooseReadings(rows []tables.Row, readings []Reading, unsigned bool, opening *decimal.Decimal, x *explain.Writer) map[int]Reading {
	out := map[int]Reading{}
	var prev decimal.Decimal
	have := opening != nil
	if have {
		prev = *opening
	}
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && rows[j].SegID == rows[i].SegID {
			j++
		}
		best, bestScore := readings[0], -1
		type scored struct {
			r Reading
			s int
		}
		var all []scored
		for _, r := range variants(rows[i:j], readings) {
			s := score(rows[i:j], r, unsigned, prev, have)
			all = append(all, scored{r, s})
			if s > bestScore {
				best, bestScore = r, s
			}
		}
		out[rows[i].SegID] = best
		// The runner-up, for --explain: the best of the readings that
		// move some row otherwise than the chosen one.
		var second *Reading
		secondScore := -1
		for _, c := range all {
			if c.s > secondScore && !sameMovements(rows[i:j], c.r, best, unsigned) {
				r := c.r
				second, secondScore = &r, c.s
			}
		}
		if second != nil {
			x.Printf("table %d: reading %s: %d printed balance(s) follow; runner-up %s: %d", rows[i].SegID, best, bestScore, *second, secondScore)
		} else {
			x.Printf("table %d: reading %s: %d printed balance(s) follow", rows[i].SegID, best, bestScore)
		}
		for _, rw := range rows[i:j] {
			if b, ok := PrintedBalance(rw); ok {
				prev, have = b, true
			}
		}
		i = j
	}
	return out
}

// sameMovements reports two readings that move every row alike.
func sameMovements(rows []tables.Row, a, b Reading, unsigned bool) bool {
	for _, rw := range rows {
		da, _, _, _ := a.movement(rw, unsigned)
		db, _, _, _ := b.movement(rw, unsigned)
		if !da.Equal(db) || !a.Chain(da).Equal(b.Chain(db)) {
			return false
		}
	}
	return true
}

// reconcile turns rows into transactions: it resolves dates, picks the
// reading of the amount columns the balances agree with, fills in balances
// the statement does not print and checks the chain from the opening to the
// closing balance.
func Reconcile(rows []tables.Row, markers []tables.Marker, loose []decimal.Decimal, st *ledger.Statement, order cells.DateOrder, periodStart, periodEnd *time.Time, card bool, x *explain.Writer) []ledger.Transaction {
	if newestFirst(rows, order, periodStart, periodEnd) {
		// The rows run from the newest: read them from the oldest, so
		// the balances chain forward and the rows come out in the order
		// they were booked. Balances printed below the rows stand before
		// them now, and those above after them.
		x.Printf("the rows' dates run from the newest to the oldest: read in the order they were booked")
		rows = slices.Clone(rows)
		slices.Reverse(rows)
		markers = slices.Clone(markers)
		for i := range markers {
			markers[i].After = len(rows) - markers[i].After
		}
		slices.Reverse(markers)
	}
	for i := range rows {
		rows[i].Seq = i
	}
	if x.On() {
		x.Printf("summary: opening %s, closing %s, total in %s, total out %s", decText(st.OpeningBalance), decText(st.ClosingBalance), decText(st.TotalIn), decText(st.TotalOut))
	}
	rows, dropped := dropAfterClosing(rows, markers)
	rows = oneWaySections(rows)
	signUnmarked(rows)
	lostMarks(rows)
	rows = mergeSections(rows, order, periodStart, periodEnd)
	for i := range rows {
		// Inside a table, a section's title gives its unsigned rows
		// their direction (rows stay in the order printed).
		rows[i].Titled = tables.TitleDirection(rows[i].Title, card)
	}
	unsigned := unsignedAmounts(rows)
	readings := readingsFor(rows, card)
	best, bestScore := readings[0], -1
	for _, r := range readings {
		s := score(rows, r, unsigned, decimal.Zero, false)
		x.Printf("reading %s: %d printed balance(s) follow", r, s)
		if s > bestScore {
			best, bestScore = r, s
		}
	}

	opening, derivedOpening, anchor := openingOf(rows, markers, st.OpeningBalance, best, unsigned)
	if st.OpeningBalance == nil && opening != nil && !derivedOpening {
		v := *opening
		st.OpeningBalance = &v
	}

	bySeg := chooseReadings(rows, readings, unsigned, opening, x)
	// Closing balance: the summary, else a carried-forward line at the end.
	if st.ClosingBalance == nil {
		st.ClosingBalance = closingMarker(markers, len(rows))
	}
	if r, ok := readingByTotal(rows, readings, unsigned, opening, st.ClosingBalance); ok {
		for id := range bySeg {
			bySeg[id] = r
		}
	} else if r, ok := readingBySums(rows, readings, unsigned, st.TotalIn, st.TotalOut); ok {
		for id := range bySeg {
			bySeg[id] = r
		}
	}
	st.MoneyColumns = moneyColumns(rows, bySeg)
	// Balances printed in words no lexicon holds (loose: lone amounts
	// beside a label, outside the tables) are known by the arithmetic:
	// one the first printed balance works back to is the opening, one
	// the rows end at is the closing, and with no balance on the rows two
	// whose difference is the rows' net movement are both. Rows whose
	// direction nothing proves count as money out, as they are read
	// unless the balances found say otherwise (sumDirections); then the
	// opening must be printed before the closing, and neither may be a
	// sum of the rows' moves.
	// Rows of unproven direction before the first printed balance work
	// back to no one opening; a lone amount from which only one choice of
	// their directions reaches it does (openingAmong).
	if a, ok := openingAmong(loose, rows, bySeg, unsigned); ok && opening == nil {
		opening, derivedOpening = &a, true
	}
	if net, moved, guessed := netMovement(rows, bySeg, unsigned); len(loose) > 0 {
		switch {
		case derivedOpening && slices.ContainsFunc(loose, opening.Equal):
			x.Printf("opening balance %s: printed outside the tables", opening)
			derivedOpening, anchor = false, -1
			v := *opening
			st.OpeningBalance = &v
		case opening == nil && st.ClosingBalance == nil && !AnyPrintedBalance(rows) && !net.IsZero():
			isMoved := func(v decimal.Decimal) bool { return v.Equal(moved[0]) || v.Equal(moved[1]) }
			for i, a := range loose {
				// The printed sums of money in and out are as far apart
				// as the rows move: they are no balances.
				b := a.Add(net)
				j := slices.IndexFunc(loose, b.Equal)
				if j >= 0 && !isMoved(a) && (!guessed || j > i && !isMoved(b)) {
					x.Printf("opening balance %s and closing balance %s: printed outside the tables, %s apart as the rows move", a, b, net)
					o, c := a, b
					opening, st.OpeningBalance, st.ClosingBalance = &o, &o, &c
					break
				}
			}
		}
		if opening != nil && st.ClosingBalance == nil {
			if end := opening.Add(net); slices.ContainsFunc(loose, end.Equal) {
				x.Printf("closing balance %s: printed outside the tables", end)
				st.ClosingBalance = &end
			}
		}
	}
	// The last lines, when they took the date above them and print one
	// figure each, are a summary printed below the rows in words no
	// lexicon holds when one of them is the balance the rows above them
	// end at, from the opening balance, a balance printed outside the
	// tables or another of them (the closing balance), or when the
	// closing balance is reached from one of them (the opening): no
	// movements.
	if !AnyPrintedBalance(rows) {
		rows, opening = summaryBelow(rows, loose, opening, st, bySeg, unsigned, x)
		if st.OpeningBalance != nil {
			derivedOpening = false
		}
	}
	// With no balance printed on any row and no opening balance, the
	// closing balance gives it back; then the closing balance checks
	// nothing.
	openingFromClosing := false
	if opening == nil && st.ClosingBalance != nil && !AnyPrintedBalance(rows) {
		v := *st.ClosingBalance
		for _, rw := range rows {
			d, _, _, _ := bySeg[rw.SegID].movement(rw, unsigned)
			v = v.Sub(bySeg[rw.SegID].Chain(d))
		}
		opening, openingFromClosing = &v, true
	}
	// Rows whose direction nothing printed on them proves take the one
	// that the statement's sums allow, else that of the proven rows of
	// their kind, where there is one (direction.go).
	proven := provenDirections(rows, bySeg, unsigned, opening)
	closingChecks := st.ClosingBalance
	if openingFromClosing {
		closingChecks = nil
	}
	bySums := sumDirections(rows, bySeg, unsigned, proven, opening, closingChecks, st.TotalIn, st.TotalOut)
	learnt := learnDirections(rows, bySeg, unsigned, proven)
	var txs []ledger.Transaction
	// proof.Proven is how many leading transactions a printed balance has
	// checked; rows after it stand on nothing.
	proof := ledger.Proof{OpeningDerived: derivedOpening}
	prev := decimal.Zero
	havePrev := opening != nil
	if havePrev {
		prev = *opening
	}
	var txSeq []int      // each transaction's row's seq
	lastPrinted := false // the balance after the last row read is printed
	// An opening balance printed among the rows (a second account or
	// statement read as one) that the running balance does not reach
	// starts the chain again, unless the next printed balance follows from
	// the running balance and not from it.
	restarts := map[int]decimal.Decimal{}
	lastRestart := -1        // the row the last restart was printed before
	firstEnd := decimal.Zero // the running balance where the first chain ended
	for _, m := range markers {
		if m.Kind == "opening" && m.After > 0 {
			restarts[m.After] = m.Val
		}
	}
	for ri, rw := range rows {
		if v, ok := restarts[rw.Seq]; ok && havePrev {
			switch {
			case prev.Equal(v):
				proof.Checks++
				proof.Proven = len(txs)
			case restartHolds(rows[ri:], bySeg, unsigned, prev, v):
				x.Printf("opening balance %s printed before row %d starts the chain again (the running balance was %s)", v, rw.Seq, prev)
				if lastRestart < 0 {
					firstEnd = prev
				}
				prev, lastRestart = v, rw.Seq
			}
		}
		r := bySeg[rw.SegID]
		d, abs, known, any := r.movement(rw, unsigned)
		b, hasBal := PrintedBalance(rw)
		// A row whose amount recognition could not read moved its balance
		// from the one before: that change is its amount.
		lost := !any && rw.AmountLost != "" && hasBal && havePrev
		if lost {
			d, known = r.Chain(b.Sub(prev)), true
		}
		if !any && !lost {
			// A dated line with no money moving: a note, or a day's balance to check.
			if hasBal && havePrev {
				if !(derivedOpening && rw.Seq == anchor) {
					proof.Checks++
					proof.Proven = len(txs)
				}
				if !prev.Equal(b) {
					proof.BreakAt(len(txs)-1, b.Sub(prev))
				}
				prev, lastPrinted = b, true
			}
			continue
		}
		tx := ledger.Transaction{Description: strings.Join(strings.Fields(strings.Join(rw.Desc, " ")), " "), Page: rw.Page + 1, Box: rw.Box}
		if rw.DescShared {
			tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnDescriptionShared, Message: "a wrapped line of text stands as near this row as its neighbour: check which row's description it belongs to"})
		}
		if rw.HasDate {
			if t, ok := rw.Date.Resolve(order, periodStart, periodEnd); ok {
				tx.Date = t
			} else {
				// No date at all: the row is never proven.
				tx.Provenance.DateUnread = true
				tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnDateUnresolved, Read: rw.Date.Text, Message: "date could not be read: " + rw.Date.Text})
			}
		}
		if lost {
			tx.Provenance.AmountFromBalance = true
			tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnAmountFromBalance, Read: rw.AmountLost,
				Message: fmt.Sprintf("amount not readable (recognised as %q): taken from the change in the balance", rw.AmountLost)})
		}
		if rw.Line != nil {
			if c := lowConfidence(rw.Line); c > 0 {
				tx.Provenance.LowConfidence = c
				tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnLowConfidence, Confidence: c,
					Message: fmt.Sprintf("recognised with low confidence (%.0f%%): check this row first", c)})
			}
		}
		switch {
		case rw.DateUnread:
			tx.Provenance.DateUnread = true
			tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnDateUnread,
				Message: "the date printed on this row could not be read: the date " + map[bool]string{false: "above", true: "below"}[rw.DateBelow] + " is used"})
		case !rw.OwnDate:
			tx.Provenance.DateFromAbove = true
			tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnDateFromAbove, Message: "no date printed on this row: the date above is used"})
		}
		if !known {
			// The amount carries no sign: the balances say which way it
			// went, else the sums, else the proven rows of its kind; else
			// it is read as money out.
			fits := func(dir int) bool { return hasBal && havePrev && prev.Add(r.Chain(d.Add(toward(abs, dir)))).Equal(b) }
			dir, w := -1, ledger.Warning{Kind: ledger.WarnDirectionUnknown, Message: "direction unknown: read as money out"}
			fromBalance := ledger.Warning{Kind: ledger.WarnDirectionFromBalance, Message: "direction inferred from the running balance"}
			switch {
			case fits(1):
				dir, w = 1, fromBalance
			case fits(-1):
				w = fromBalance
			case proven[rw.Seq] != 0:
				dir, w = proven[rw.Seq], fromBalance
			case bySums[rw.Seq] != 0:
				dir, w = bySums[rw.Seq], ledger.Warning{Kind: ledger.WarnDirectionFromSums,
					Message: "direction not printed: only so do the amounts add up to the statement's printed sums"}
			case learnt[rw.Seq].dir != 0:
				dir, w = learnt[rw.Seq].dir, ledger.Warning{Kind: ledger.WarnDirectionLearned,
					Message: fmt.Sprintf("direction not printed: taken from %d row(s) whose description begins alike and whose direction the statement proves", learnt[rw.Seq].from)}
			}
			d = d.Add(toward(abs, dir))
			tx.Warnings = append(tx.Warnings, w)
			switch w.Kind {
			case ledger.WarnDirectionFromBalance:
				tx.Provenance.DirectionFromBalance = true
			case ledger.WarnDirectionFromSums:
				tx.Provenance.DirectionFromSums = true
			case ledger.WarnDirectionLearned:
				tx.Provenance.DirectionLearned = true
			default:
				tx.Provenance.DirectionGuessed = true
			}
		}
		if againstMark(rw, d) {
			tx.Provenance.AgainstMark = true
			tx.Warnings = append(tx.Warnings, ledger.Warning{Kind: ledger.WarnAgainstMark, Message: "counted against the Dr/Cr word printed beside the amount, as the balances require"})
		}
		if d.IsNegative() {
			v := d.Neg()
			tx.AmountOut = &v
		} else {
			v := d
			tx.AmountIn = &v
		}
		switch {
		case hasBal:
			// The balance the opening was worked back from meets it by
			// construction: it checks nothing.
			if havePrev && !(derivedOpening && rw.Seq == anchor) {
				proof.Checks++
				proof.Proven = len(txs) + 1
				if want := prev.Add(r.Chain(d)); !want.Equal(b) {
					proof.BreakAt(len(txs), b.Sub(want))
					tx.Warnings = append(tx.Warnings, ledger.BreakWarning(b, prev, want))
				}
			}
			tx.Balance = b
			prev, havePrev = b, true
		case havePrev:
			prev = prev.Add(r.Chain(d))
			tx.Balance = prev
			tx.Provenance.BalanceComputed = true
			tx.Warnings = append(tx.Warnings, ledger.ComputedWarning())
		default:
			prev, havePrev = r.Chain(d), true
			tx.Balance = prev
			tx.Provenance.BalanceFromZero = true
			tx.Warnings = append(tx.Warnings, ledger.FromZeroWarning())
		}
		txs = append(txs, tx)
		txSeq = append(txSeq, rw.Seq)
		lastPrinted = hasBal
	}

	// A closing balance checks the rows after the last printed balance;
	// below a row that prints its balance it only restates it.
	closing := st.ClosingBalance
	if lastRestart >= 0 && closing != nil && closing.Equal(firstEnd) {
		// The summary's closing balance is the first chain's, where it
		// ended; the last chain ends at a closing balance printed with
		// its own opening, or at none.
		proof.Checks++
		closing = nil
		for _, m := range markers {
			if m.Kind == "closing" && m.After >= lastRestart {
				v := m.Val
				closing = &v
			}
		}
	}
	if closing != nil && len(txs) > 0 && !openingFromClosing {
		if !lastPrinted {
			proof.Checks++
			proof.Proven = len(txs)
		}
		if last := txs[len(txs)-1].Balance; !last.Equal(*closing) {
			proof.BreakAt(len(txs)-1, closing.Sub(last))
		}
	}
	// Printed sums of money in and out check every row's amount and way.
	proof.CheckTotals(txs, st.TotalIn, st.TotalOut)
	if st.OpeningBalance != nil && derivedOpening {
		proof.Checks++
	}
	// Totals lines prove the rows above them, back to the last one.
	byTotals, totalsOK := totalsProve(txs, txSeq, markers, opening, card, x)
	proof.Checks += totalsOK
	proof.Totals = totalsOK
	for proof.Proven < len(txs) && byTotals[proof.Proven] > 0 {
		proof.Proven++
	}
	// A first row whose amount is its whole balance, worked back to an
	// opening of zero, and whose words name a balance ("BALANCE 500.00
	// 500.00"), may restate the opening balance rather than move money:
	// nothing printed tells which.
	proof.RestatedOpening = derivedOpening && opening.IsZero() && len(txs) > 0 && st.OpeningBalance == nil &&
		lexicon.HasPhrase(lexicon.FoldLabel(txs[0].Description), lexicon.Vocab().BalanceTitles)
	proof.Restarted = lastRestart >= 0
	proof.Dropped = dropped
	for _, m := range markers {
		if m.Kind == "unread" {
			proof.Unread++
		}
	}
	st.Proof = proof
	rec := ledger.Judge(txs, proof, st.ClosingBalance != nil)
	st.Reconciliation = rec
	x.Printf("%d transaction(s); %s: %s", len(txs), rec.Status, rec.Message)
	if dropped > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%d line(s) with amounts after the closing balance were not read as transactions", dropped))
	}
	return txs
}

// summaryBelow finds the summary printed below the rows (see Reconcile):
// the rows without its lines and the opening, setting st's balances.
func summaryBelow(rows []tables.Row, loose []decimal.Decimal, opening *decimal.Decimal, st *ledger.Statement, bySeg map[int]Reading, unsigned bool, x *explain.Writer) ([]tables.Row, *decimal.Decimal) {
	n, k := len(rows), 0
	for k < 3 && k < n-1 && !rows[n-1-k].OwnDate && len(rows[n-1-k].Cells) == 1 {
		k++
	}
	for t := k; t >= 1; t-- {
		tail := rows[n-t:]
		var starts []decimal.Decimal
		if opening != nil {
			starts = []decimal.Decimal{*opening}
		} else {
			starts = slices.Clone(loose)
			for _, rw := range tail {
				starts = append(starts, rw.Cells[0].Val.Abs())
			}
		}
		net, _, _ := netMovement(rows[:n-t], bySeg, unsigned)
		for i, a := range starts {
			end := a.Add(net)
			if c := st.ClosingBalance; c != nil {
				// The closing balance is known: the lines print the
				// opening it is reached from.
				if !c.Abs().Equal(end.Abs()) || opening != nil || i < len(loose) {
					continue
				}
			} else if j := slices.IndexFunc(tail, func(rw tables.Row) bool { return rw.Cells[0].Val.Abs().Equal(end.Abs()) }); j < 0 || opening == nil && i == len(loose)+j {
				continue
			}
			x.Printf("opening balance %s, closing balance %s: %d line(s) below the rows print the balance they end at", a, end, t)
			if opening == nil {
				o := a
				opening, st.OpeningBalance = &o, &o
			}
			if st.ClosingBalance == nil {
				st.ClosingBalance = &end
			}
			return rows[:n-t], opening
		}
	}
	return rows, opening
}

// totalsProve checks each totals line against the transactions read
// since the one before it: a sum under a money-out column against their
// money out, under a money-in column against their money in, under a
// signed column against their net (or, on a card, its negation), or,
// for the first totals line, the opening balance carried through them (a
// card's "TOTAL" that is its new balance). It returns, per transaction,
// the number of totals lines that prove it, and how many lines prove
// something.
func totalsProve(txs []ledger.Transaction, txSeq []int, markers []tables.Marker, opening *decimal.Decimal, card bool, x *explain.Writer) (proven []int, lines int) {
	proven = make([]int, len(txs))
	from := 0
	for _, m := range markers {
		if m.Kind != "total" {
			continue
		}
		var in, out decimal.Decimal
		var covered []int
		for i, seq := range txSeq {
			if seq >= from && seq < m.After {
				covered = append(covered, i)
				if txs[i].AmountIn != nil {
					in = in.Add(*txs[i].AmountIn)
				}
				if txs[i].AmountOut != nil {
					out = out.Add(*txs[i].AmountOut)
				}
			}
		}
		first := from == 0
		from = m.After
		if len(covered) == 0 {
			continue
		}
		ok := true
		for _, c := range m.Cells {
			switch net := in.Sub(out); c.Role {
			case lexicon.RoleDebit:
				ok = ok && c.Val.Abs().Equal(out)
			case lexicon.RoleCredit:
				ok = ok && c.Val.Abs().Equal(in)
			case lexicon.RoleAmount:
				carried := opening != nil && first && (c.Val.Equal(opening.Add(net)) || card && c.Val.Equal(opening.Sub(net)))
				ok = ok && (c.Val.Equal(net) || card && c.Val.Equal(net.Neg()) || carried)
			case lexicon.RoleBalance:
				// The balance a totals line prints beside its sums is
				// the running balance's to check, not a sum.
			default:
				ok = false
			}
		}
		x.Printf("totals line after %d row(s): %d transaction(s) add up to it: %v", m.After, len(covered), ok)
		if ok {
			lines++
			for _, i := range covered {
				proven[i]++
			}
		}
	}
	return proven, lines
}

// decText is a balance as --explain prints it: "none" when not read.
func decText(d *decimal.Decimal) string {
	if d == nil {
		return "none"
	}
	return d.String()
}

// readingBySums settles the reading of a statement that prints no running
// balance by its printed sums of money in and out.
func readingBySums(rows []tables.Row, readings []Reading, unsigned bool, totalIn, totalOut *decimal.Decimal) (Reading, bool) {
	if totalIn == nil || totalOut == nil || unsigned || AnyPrintedBalance(rows) {
		return Reading{}, false
	}
	for _, r := range readings {
		in, out := decimal.Zero, decimal.Zero
		for _, rw := range rows {
			d, _, _, _ := r.movement(rw, unsigned)
			if d.IsNegative() {
				out = out.Sub(d)
			} else {
				in = in.Add(d)
			}
		}
		if in.Equal(*totalIn) && out.Equal(*totalOut) {
			return r, true
		}
	}
	return Reading{}, false
}

// anyPrintedBalance reports whether any row prints a balance.
func AnyPrintedBalance(rows []tables.Row) bool {
	for _, rw := range rows {
		if _, ok := PrintedBalance(rw); ok {
			return true
		}
	}
	return false
}

// readingByTotal settles the reading of a statement that prints no
// running balance by its closing balance: the first reading under which the
// opening balance and every row's movement come to it.
func readingByTotal(rows []tables.Row, readings []Reading, unsigned bool, opening, closing *decimal.Decimal) (Reading, bool) {
	if opening == nil || closing == nil || unsigned {
		return Reading{}, false
	}
	for _, rw := range rows {
		if _, ok := PrintedBalance(rw); ok {
			return Reading{}, false
		}
	}
	for _, r := range readings {
		sum := *opening
		for _, rw := range rows {
			d, _, _, _ := r.movement(rw, unsigned)
			sum = sum.Add(r.Chain(d))
		}
		if sum.Equal(*closing) {
			return r, true
		}
	}
	return Reading{}, false
}

// printedOpening is the opening balance the statement prints: a
// brought-forward line above the first row, else the summary's.
func printedOpening(markers []tables.Marker, summary *decimal.Decimal) *decimal.Decimal {
	for _, m := range markers {
		if m.Kind == "opening" && m.After == 0 {
			v := m.Val
			return &v
		}
	}
	if summary != nil {
		v := *summary
		return &v
	}
	return nil
}

// openingOf is the rows' opening balance: the one printed, else worked
// back under the reading best from the first printed balance (derived,
// with anchor the Seq of the row it was worked back from; -1 for none).
func openingOf(rows []tables.Row, markers []tables.Marker, summary *decimal.Decimal, best Reading, unsigned bool) (opening *decimal.Decimal, derived bool, anchor int) {
	if opening = printedOpening(markers, summary); opening != nil {
		return opening, false, -1
	}
	sum := decimal.Zero
	for _, rw := range rows {
		d, _, known, _ := best.movement(rw, unsigned)
		if b, ok := PrintedBalance(rw); ok && known {
			v := b.Sub(sum).Sub(best.Chain(d))
			return &v, true, rw.Seq
		}
		if !known {
			break
		}
		sum = sum.Add(best.Chain(d))
	}
	return nil, false, -1
}

// closingMarker is the balance a carried-forward line prints after the
// last of n rows, nil for none.
func closingMarker(markers []tables.Marker, n int) *decimal.Decimal {
	for i := len(markers) - 1; i >= 0; i-- {
		if markers[i].Kind == "closing" && markers[i].After == n {
			v := markers[i].Val
			return &v
		}
	}
	return nil
}

// restartHolds reports whether the rows after an opening balance v printed
// among them follow from v rather than from the running balance prev: the
// first printed balance among them is v, not prev, moved by the rows up to
// it; with no printed balance, the printed opening is all there is.
func restartHolds(rows []tables.Row, bySeg map[int]Reading, unsigned bool, prev, v decimal.Decimal) bool {
	sum := decimal.Zero
	for _, rw := range rows {
		r := bySeg[rw.SegID]
		d, abs, known, _ := r.movement(rw, unsigned)
		if b, ok := PrintedBalance(rw); ok {
			// Either way a row of unknown direction may have gone.
			reaches := func(from decimal.Decimal) bool {
				at := from.Add(sum)
				return at.Add(r.Chain(d.Add(abs))).Equal(b) || !known && at.Add(r.Chain(d.Sub(abs))).Equal(b)
			}
			return reaches(v) && !reaches(prev)
		}
		if !known {
			return true
		}
		sum = sum.Add(r.Chain(d))
	}
	return true
}

// dropAfterClosing removes the rows read after the table's closing balance
// line (a fees or rates table printed below it) when no opening line starts
// a new chain after it. It returns the rows kept and how many were dropped.
func dropAfterClosing(rows []tables.Row, markers []tables.Marker) ([]tables.Row, int) {
	end := -1
	for _, m := range markers {
		if m.Kind == "closing" && m.After > 0 {
			end = m.After
		}
	}
	// An opening balance at or after it starts a new chain: a box that
	// prints a table's opening and closing balances above it, or a second
	// statement after the first's closing balance.
	for _, m := range markers {
		if m.Kind == "opening" && end >= 0 && m.After >= end {
			end = -1
		}
	}
	if end < 0 || end >= len(rows) {
		return rows, 0
	}
	for _, rw := range rows[end:] {
		if _, ok := PrintedBalance(rw); ok {
			return rows, 0 // a chain that goes on: a page's carried-forward line
		}
	}
	return rows[:end], len(rows) - end
}

// netMovement is what the rows move the balance by under their readings,
// and the sums of their moves up and down. A row whose direction nothing
// proves counts as money out; guessed says some did.
func netMovement(rows []tables.Row, bySeg map[int]Reading, unsigned bool) (net decimal.Decimal, moved [2]decimal.Decimal, guessed bool) {
	for _, rw := range rows {
		r := bySeg[rw.SegID]
		d, abs, known, any := r.movement(rw, unsigned)
		if !any {
			continue
		}
		if !known {
			d, guessed = d.Sub(abs), true
		}
		c := r.Chain(d)
		net = net.Add(c)
		if c.IsNegative() {
			moved[0] = moved[0].Sub(c)
		} else {
			moved[1] = moved[1].Add(c)
		}
	}
	return net, moved, true
}

// newestFirst reports rows whose dates never rise and fall at least
// twice: a statement printed from its newest row.
func newestFirst(rows []tables.Row, order cells.DateOrder, periodStart, periodEnd *time.Time) bool {
	var last time.Time
	up, down := 0, 0
	for _, rw := range rows {
		if !rw.HasDate {
			continue
		}
		t, ok := rw.Date.Resolve(order, periodStart, periodEnd)
		if !ok {
			continue
		}
		switch {
		case last.IsZero():
		case t.After(last):
			up++
		case t.Before(last):
			down++
		}
		last = t
	}
	return up == 0 && down >= 2
}

// againstMark reports a row whose one amount prints a Dr/Cr word that
// says the other way than d, its movement under the chosen reading.
func againstMark(rw tables.Row, d decimal.Decimal) bool {
	if len(rw.Cells) != 1 || !rw.Cells[0].Drcr || rw.Cells[0].Lost || d.IsZero() {
		return false
	}
	return rw.Cells[0].Val.IsNegative() != d.IsNegative()
}

// signUnmarked reads an amount column that marks only its credits ("117.14
// CR" among plain "90.63"): there the plain amounts are the debits. It
// turns them negative, as a column that marks its debits would print them.
func signUnmarked(rows []tables.Row) {
	creditMarks := false
	for _, rw := range rows {
		for _, c := range rw.Cells {
			if c.Role != lexicon.RoleAmount {
				continue
			}
			if c.Val.IsNegative() {
				return // debits are marked: the plain amounts are credits
			}
			creditMarks = creditMarks || c.Marked
		}
	}
	if !creditMarks {
		return
	}
	for i := range rows {
		for j := range rows[i].Cells {
			if c := &rows[i].Cells[j]; c.Role == lexicon.RoleAmount && !c.Marked {
				c.Val, c.Marked = c.Val.Neg(), true
			}
		}
	}
}

// lostMarks finds, in an amount column that marks both ways with Dr/Cr
// words, the amounts printed with neither: recognition dropped or garbled
// their word ("45.23 Or"). Their direction is left for the balance to say.
func lostMarks(rows []tables.Row) {
	debit, credit := false, false
	for _, rw := range rows {
		for _, c := range rw.Cells {
			if c.Role == lexicon.RoleAmount && c.Drcr {
				debit = debit || c.Val.IsNegative()
				credit = credit || !c.Val.IsNegative()
			}
		}
	}
	if !debit || !credit {
		return
	}
	for i := range rows {
		for j := range rows[i].Cells {
			if c := &rows[i].Cells[j]; c.Role == lexicon.RoleAmount && !c.Drcr && !c.Val.IsZero() {
				c.Lost = true
			}
		}
	}
}

// oneWaySections forgets the direction section titles give when the
// document titles only one way: a statement that lists money in and money
// out apart names both, while a lone "credit" is more often a document's
// title ("Credit Card Statement") than a table of money in.
func oneWaySections(rows []tables.Row) []tables.Row {
	in, out := false, false
	for _, rw := range rows {
		in = in || rw.Section > 0
		out = out || rw.Section < 0
	}
	if in == out {
		return rows
	}
	for i := range rows {
		rows[i].Section = 0
	}
	return rows
}

// mergeSections puts the rows of a statement that lists money in and money
// out in separate titled tables ("Deposits", then "Withdrawals") back into
// date order, keeping the printed order within a day, so that the running
// balance can be counted through them. Tables that print their own balances
// are left as printed.
func mergeSections(rows []tables.Row, order cells.DateOrder, periodStart, periodEnd *time.Time) []tables.Row {
	in, out := false, false
	for _, rw := range rows {
		if rw.Section == 0 {
			continue
		}
		if _, ok := PrintedBalance(rw); ok {
			return rows
		}
		in = in || rw.Section > 0
		out = out || rw.Section < 0
	}
	if !in || !out {
		return rows
	}
	keys := make([]time.Time, len(rows))
	var last time.Time
	for i, rw := range rows {
		if rw.HasDate {
			if t, ok := rw.Date.Resolve(order, periodStart, periodEnd); ok {
				last = t
			}
		}
		keys[i] = last
	}
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]].Before(keys[idx[b]]) })
	merged := make([]tables.Row, len(rows))
	for i, j := range idx {
		merged[i] = rows[j]
	}
	return merged
}
