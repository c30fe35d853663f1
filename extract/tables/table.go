package tables

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"passbook/extract/cells"
	"passbook/extract/explain"
	"passbook/extract/layout"
	"passbook/extract/lexicon"

	"github.com/shopspring/decimal"
)

// column is an amount column found in a table from the amounts printed in
// it, with the heading it sits under.
type column struct {
	x0, x1 float64
	role   lexicon.ColRole
	label  string
	n      int // amounts seen
}

// segment is a run of table lines under one heading (a page's table, or the
// part of it before a repeated heading).
type Segment struct {
	Lines  []*layout.Line
	Labels []Label
	cols   []column
	// section is +1 when the title above the table says it lists money in
	// ("Deposits and other credits"), -1 for money out, 0 when it says neither.
	section int
	// skip marks a table that lists balances, not movements ("Daily ending
	// balance", or headings with dates and balances only).
	skip bool
	// cont marks a page with no heading of its own, whose lines continue
	// the table of the page before.
	Cont bool
	// datesAnywhere: a table read with no heading whose dates stand after
	// other columns (the description first), not at the line's start.
	datesAnywhere bool
	// dateX is, in a table read with no heading, where its dates line up:
	// a row's date is the one there, even after a reference printed left
	// of it. 0 when the table has a heading.
	dateX float64
	// refs are, in a table read with no heading, columns of whole numbers
	// with no money's shape, lined up on one edge beside the figures:
	// references, not money and not the description (see refColumns).
	refs []column
}

// cell is one amount of a row with the column it was read from.
type Cell struct {
	Col    int // index into the segment's columns
	Role   lexicon.ColRole
	Val    decimal.Decimal
	Marked bool
	// drcr says the mark was a Dr/Cr word ("257.34 Cr").
	Drcr bool
	// lost marks an amount printed without the Dr/Cr word every other
	// amount of its column carries (see lostMarks): which way it went is
	// for the balance to say.
	Lost bool
}

// row is a transaction as read from the page, before reconciliation.
type Row struct {
	// seq is the row's place in the order it was read (markers count
	// rows in it).
	Seq     int
	Page    int
	Date    cells.DateToken
	HasDate bool
	Desc    []string
	Cells   []Cell
	Drcr    string // from a Dr/Cr indicator column
	SegID   int
	// section is the direction its table's title gives unsigned amounts (see segment).
	Section int
	// ownDate is false when the row printed no date and took the one above.
	OwnDate bool
	// dateUnread is true when recognition found something under the date
	// heading that does not read as a date ("dec" with its day lost): the
	// row had a date of its own, and the one above stands in for it (the
	// one below, dateBelow, when none was read above it).
	DateUnread, DateBelow bool
	// title is the section title printed over the row inside its table
	// ("payments", "purchases"), folded; "" when none.
	Title string
	// titled is the direction title gives the row (see titleDirection).
	Titled int
	// other is the text the row's line prints under a type or reference
	// heading: its description when it has none.
	other string
	// amountLost is what recognition read where a dated row's amount
	// stands and that reads as no amount ("AAT:", "5§.377,82"); the
	// balance change then gives the amount (see reconcile).
	AmountLost string
	// alt is a second date printed beside the row's in a table with no
	// heading (see postingColumn); nil when none.
	alt *cells.DateToken
	// line is the line the row was started from: its date or amounts.
	Line *layout.Line
	// last is the lowest line read into the row (its amounts or balance
	// printed on a wrapped line below its date); nil when that is line.
	last *layout.Line
	// tail is the row's wrapped line that printed its amounts, and
	// tailParts the description's parts read from it (the last ones):
	// lines shared out below the row's own line but above tail go before
	// them.
	tail      *layout.Line
	tailParts int
	// box is the row's extent on its page: its line and its description's.
	Box [4]float64
}

// marker is a balance the table prints outside transactions.
type Marker struct {
	Kind  string // "opening", "closing", "total" or "unread"
	Val   decimal.Decimal
	After int // number of rows read before it
	// cells are a totals line's sums, each under its money column
	// ("Totals 6,435.32", "Total 1,204.10 980.00"): the rows since the
	// last totals line add up to them.
	Cells []Cell
}

// regionOf returns, for a label list sorted by x, the horizontal band each
// label owns: from the middle of the gap to its left neighbour to the middle
// of the gap to its right one.
func regionOf(labels []Label, i int) (float64, float64) {
	lo, hi := -1e9, 1e9
	if i > 0 {
		lo = (labels[i-1].X1 + labels[i].X0) / 2
	}
	if i+1 < len(labels) {
		hi = (labels[i].X1 + labels[i+1].X0) / 2
	}
	return lo, hi
}

// labelAt returns the label whose region holds x, -1 when there are none.
func labelAt(labels []Label, x float64) int {
	for i := range labels {
		lo, hi := regionOf(labels, i)
		if x >= lo && x < hi {
			return i
		}
	}
	return -1
}

// findColumns clusters a segment's amounts into columns by horizontal
// overlap and names each after the money heading above it.
func findColumns(seg *Segment) {
	// The table's rows run to its last dated line (and the two after it,
	// where its amounts may be printed below its description): figures
	// further down (a fees table, a box of rates) are not its columns.
	end := len(seg.Lines)
	for i := len(seg.Lines) - 1; i >= 0; i-- {
		if slices.ContainsFunc(seg.Lines[i].Toks, func(t layout.Token) bool { return t.Kind == layout.TokDate }) {
			end = min(i+3, len(seg.Lines))
			break
		}
	}
	var toks, bare []layout.Token
	dayHeaded := false // the lines below a day's heading at the date column, up to a line with none
	for _, l := range seg.Lines[:end] {
		if t := dayHeading(l); t != nil && atDateColumn(t, seg.dateX) {
			dayHeaded = true
			continue
		}
		if len(seg.Labels) == 0 && !ledByDate(seg, l) && !dayHeaded {
			// With no heading, only lines led by a date, or under a
			// day's date, show where the columns are.
			continue
		}
		for _, t := range l.Toks {
			switch {
			case t.Kind == layout.TokAmount || t.Bare && len(l.Toks) > 1 && underMoneyLabel(seg.Labels, t):
				toks = append(toks, t)
			case wholeNumber(t):
				bare = append(bare, t)
			}
		}
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].X0 < toks[j].X0 })
	var cols []column
	for _, t := range toks {
		if n := len(cols); n > 0 && t.X0 < cols[n-1].x1-0.5 {
			cols[n-1].x1 = max(cols[n-1].x1, t.X1)
			cols[n-1].n++
			continue
		}
		cols = append(cols, column{x0: t.X0, x1: t.X1, n: 1})
	}
	nameColumns(cols, seg.Labels)
	seg.cols = cols
	if len(seg.Labels) == 0 {
		seg.refs = refColumns(bare, cols)
		guessRoles(seg)
	} else {
		unheadedBalance(seg)
	}
}

// refColumns finds, among the whole numbers of a table with no heading
// (bare tokens, outside its money columns), the columns of references:
// three or more lined up on their left or right edge, as a column's cells
// are. A whole number in a description sits wherever its words end.
func refColumns(bare []layout.Token, money []column) []column {
	bare = slices.DeleteFunc(bare, func(t layout.Token) bool {
		return slices.ContainsFunc(money, func(c column) bool { return t.X0 < c.x1 && t.X1 > c.x0 })
	})
	var refs []column
	for _, edge := range []func(t layout.Token) float64{func(t layout.Token) float64 { return t.X0 }, func(t layout.Token) float64 { return t.X1 }} {
		for _, a := range bare {
			c := column{x0: a.X0, x1: a.X1}
			for _, b := range bare {
				if math.Abs(edge(a)-edge(b)) < 1 {
					c.x0, c.x1, c.n = min(c.x0, b.X0), max(c.x1, b.X1), c.n+1
				}
			}
			if c.n >= 3 && !slices.ContainsFunc(refs, func(r column) bool { return c.x0 < r.x1 && c.x1 > r.x0 }) {
				refs = append(refs, c)
			}
		}
	}
	return refs
}

// wholeNumber reports a token of digits alone: a bare whole number, or
// one too long to be read as money at all.
func wholeNumber(t layout.Token) bool {
	return t.Bare || t.Kind == layout.TokText && len(t.Text) >= 4 && layout.AllDigits(t.Text)
}

// inRefColumn reports a whole number standing in one of seg's reference
// columns.
func inRefColumn(seg *Segment, t layout.Token) bool {
	return wholeNumber(t) && slices.ContainsFunc(seg.refs, func(c column) bool { return t.X0 < c.x1 && t.X1 > c.x0 })
}

// unheadedBalance names the balance of a table whose heading names none
// (its heading left blank, or lost by recognition): the rightmost amount
// column, with no heading over it and right of every money heading. It may
// be printed only at each day's end. The arithmetic then proves it or says
// it breaks.
func unheadedBalance(seg *Segment) {
	n := len(seg.cols)
	if n < 2 || seg.cols[n-1].role != lexicon.RoleNone || seg.cols[n-1].n < 2 {
		return
	}
	last := seg.cols[n-1]
	for _, lb := range seg.Labels {
		if lb.Role == lexicon.RoleBalance || lb.Role.IsMoney() && lb.X1 > last.x0 {
			return
		}
	}
	if slices.ContainsFunc(seg.cols[:n-1], func(c column) bool { return c.role.IsMoney() }) {
		seg.cols[n-1].role = lexicon.RoleBalance
	}
}

// guessRoles names columns of a table with no heading: the rightmost column
// filled on most rows is the balance; of the others, one column is a signed
// amount and two are out and in (reconciliation may swap them).
func guessRoles(seg *Segment) {
	var money []int
	for i := range seg.cols {
		money = append(money, i)
	}
	if len(money) == 0 {
		return
	}
	last := money[len(money)-1]
	rest := money[:len(money)-1]
	if len(money) == 1 {
		seg.cols[last].role = lexicon.RoleAmount
		return
	}
	seg.cols[last].role = lexicon.RoleBalance
	switch len(rest) {
	case 1:
		seg.cols[rest[0]].role = lexicon.RoleAmount
	default:
		seg.cols[rest[len(rest)-2]].role = lexicon.RoleDebit
		seg.cols[rest[len(rest)-1]].role = lexicon.RoleCredit
	}
}

// nameColumns gives amount columns the roles of the money headings above
// them. Headings and columns both run left to right, so they are aligned in
// order (an edit-distance alignment): a heading may have no column on a page
// (nothing paid in), and a stray amount in a description has no heading.
// Headings are often left-aligned or centred over right-aligned figures, so
// nearness, not overlap, decides.
func nameColumns(cols []column, labels []Label) {
	var lbs []Label
	for _, lb := range labels {
		if lb.Role.IsMoney() {
			lbs = append(lbs, lb)
		}
	}
	k, m := len(cols), len(lbs)
	if k == 0 || m == 0 {
		return
	}
	dist := func(c column, lb Label) float64 {
		gap := max(lb.X0-c.x1, c.x0-lb.X1, 0)
		return gap + 0.2*math.Abs((c.x0+c.x1)/2-(lb.X0+lb.X1)/2)
	}
	const skipLabel = 40.0
	skipCol := func(c column) float64 { return 30 * float64(c.n) }
	dp := make([][]float64, k+1)
	for i := range dp {
		dp[i] = make([]float64, m+1)
	}
	for i := 1; i <= k; i++ {
		dp[i][0] = dp[i-1][0] + skipCol(cols[i-1])
	}
	for j := 1; j <= m; j++ {
		dp[0][j] = dp[0][j-1] + skipLabel
	}
	for i := 1; i <= k; i++ {
		for j := 1; j <= m; j++ {
			dp[i][j] = min(dp[i-1][j-1]+dist(cols[i-1], lbs[j-1]),
				dp[i-1][j]+skipCol(cols[i-1]),
				dp[i][j-1]+skipLabel)
		}
	}
	for i, j := k, m; i > 0 && j > 0; {
		switch {
		case dp[i][j] == dp[i-1][j-1]+dist(cols[i-1], lbs[j-1]):
			cols[i-1].role, cols[i-1].label = lbs[j-1].Role, lbs[j-1].Text
			i, j = i-1, j-1
		case dp[i][j] == dp[i-1][j]+skipCol(cols[i-1]):
			i--
		default:
			j--
		}
	}
}

// underMoneyLabel reports a token that stands under a money heading, where a
// bare whole number is an amount.
func underMoneyLabel(labels []Label, t layout.Token) bool {
	xs := []float64{t.Center(), t.X1 - 0.5}
	if t.Marked {
		// "3 Dr": the mark may stand under a Dr/Cr heading of its own;
		// the figure starts under the money's.
		xs = append(xs, t.X0+0.5)
	}
	for _, x := range xs {
		if li := labelAt(labels, x); li >= 0 && labels[li].Role.IsMoney() {
			return true
		}
	}
	return false
}

// colOf returns the column holding an amount token, -1 for none.
func colOf(seg *Segment, t layout.Token) int {
	for i, c := range seg.cols {
		if t.X0 < c.x1 && t.X1 > c.x0 {
			return i
		}
	}
	return -1
}

// dateLabel picks the label whose dates are the posting date: of two date
// headings, the one that names the booking ("Data contabile" beside "Data
// operazione").
func DateLabel(labels []Label) int {
	for _, want := range []lexicon.ColRole{lexicon.RoleDate, lexicon.RoleTransDate, lexicon.RoleValueDate} {
		first := -1
		for i, lb := range labels {
			if lb.Role != want {
				continue
			}
			if first < 0 {
				first = i
			}
			if lexicon.HasPhrase(lexicon.FoldLabel(lb.Text), lexicon.Vocab().Posting) {
				return i
			}
		}
		if first >= 0 {
			return first
		}
	}
	return -1
}

// readRows turns a segment's lines into rows, joining wrapped descriptions
// and setting aside brought-forward, carried-forward and total lines.
func ReadRows(seg *Segment, segID int, rows []Row, markers []Marker, x *explain.Writer) ([]Row, []Marker) {
	if seg.skip {
		if x.On() && len(seg.Lines) > 0 {
			x.Printf("table %d (page %d): skipped: it lists balances, not movements", segID, seg.Lines[0].Page+1)
		}
		return rows, markers
	}
	dl := DateLabel(seg.Labels)
	descLabel := -1
	hasTextLabels := false
	for i, lb := range seg.Labels {
		if lb.Role == lexicon.RoleDesc && descLabel < 0 {
			descLabel = i
		}
		if lb.Role.IsText() {
			hasTextLabels = true
		}
	}
	cur := -1 // index in rows of the row being read, -1 when none
	var prevLine *layout.Line
	// lastLine is the last line read as part of a row or a balance line, and
	// lastDate the last date printed in the table: a line with amounts but no
	// date is a row of that day only when it sits close below lastLine.
	var lastLine *layout.Line
	var lastDate *cells.DateToken
	pitch := linePitch(seg.Lines)
	first := len(rows)
	var texts []descLine
	sumFrom := first // the first row a totals line below sums
	// docFrom is the first row since the document's last totals line: a
	// table continued from the page before sums its rows there too.
	docFrom := 0
	for _, m := range markers {
		if m.Kind == "total" {
			docFrom = m.After
		}
	}
	sums := func(amounts []Cell) bool {
		return sumsOf(rows[sumFrom:], amounts, segID) || docFrom < sumFrom && sumsOf(rows[docFrom:], amounts, segID)
	}
	var markerLines []*layout.Line // the table's balance and totals lines
	title := ""                    // the last section title read in the table
	var headingLine *layout.Line   // the last line read as the heading of a table with none the lexicon knows
	for li, l := range seg.Lines {
		before, markersBefore := len(rows), len(markers)
		var dateTok *layout.Token
		var amounts []Cell
		var descParts, otherText []string
		var refParts []string // under a reference heading, in a table with no description heading
		var drcr string
		var altDate *cells.DateToken // a second date column's, in a table with no heading
		usedDate := -1
		// The row's date: the date under the date heading, else a date that starts the line.
		for ti := range l.Toks {
			t := &l.Toks[ti]
			if t.Kind != layout.TokDate {
				continue
			}
			if dl >= 0 {
				if labelAt(seg.Labels, t.X0) == dl || labelAt(seg.Labels, t.Center()) == dl {
					dateTok, usedDate = t, ti
					break
				}
			} else if ti == 0 || seg.dateX > 0 && (ti == 1 || seg.datesAnywhere) && atDateColumn(t, seg.dateX) {
				dateTok, usedDate = t, ti
				break
			}
		}
		lastDesc := -1 // the last token read as description
		for ti, t := range l.Toks {
			if t.Furniture && t.Kind == layout.TokText {
				continue // a running header's or footer's words: no row's
			}
			if ti == usedDate {
				continue
			}
			// A line that is one whole number alone is a page number.
			// A whole number is money under a money heading, or, in a
			// table with none, where its figures stand ("918" under
			// "10 980" in a currency printed in whole units).
			if t.Kind == layout.TokAmount || t.Bare && len(l.Toks) > 1 && (underMoneyLabel(seg.Labels, t) || len(seg.Labels) == 0 && colOf(seg, t) >= 0) {
				if ci := colOf(seg, t); ci >= 0 && seg.cols[ci].role.IsMoney() {
					_, _, drcr := cells.CutDrCr(t.Text)
					amounts = append(amounts, Cell{Col: ci, Role: seg.cols[ci].role, Val: t.Amount, Marked: t.Marked, Drcr: drcr})
					continue
				}
			}
			li := labelAt(seg.Labels, t.X0)
			// runsOn: text a word space after the description's last word.
			runsOn := t.Kind == layout.TokText && lastDesc >= 0 && ti == lastDesc+1 && !layout.Apart(t.X0-l.Toks[lastDesc].X1, max(t.Y1-t.Y0, l.Em))
			if descLabel >= 0 && runsOn && (li < 0 || math.Abs(t.X0-seg.Labels[li].X0) > 2) {
				// A description running on past its heading's region, a
				// word space after the word before and not where the next
				// column starts: still the description.
				li = descLabel
			}
			switch {
			case li >= 0 && seg.Labels[li].Role == lexicon.RoleDrCr:
				drcr += t.Text
			case li >= 0 && seg.Labels[li].Role.IsDate() && t.Kind == layout.TokDate:
				// another date column (value date): not part of the description
			case descLabel >= 0:
				switch {
				case li == descLabel:
					descParts = append(descParts, t.Text)
					lastDesc = ti
				case li >= 0 && seg.Labels[li].Role.IsDate() && t.Kind == layout.TokText && (dateTok == nil || t.X0 > dateTok.X1):
					// Text printed left of a description heading that is
					// placed over the middle of its column.
					descParts = append(descParts, t.Text)
				case li >= 0 && seg.Labels[li].Role.IsText():
					otherText = append(otherText, t.Text)
				}
			case hasTextLabels:
				switch {
				case li >= 0 && seg.Labels[li].Role.IsDate() && t.Kind == layout.TokText && dateTok != nil && t.X0 > dateTok.X1, runsOn:
					// Text right of the date under a date heading that
					// runs into the description's ("BuchungsdatumBuchungstext"),
					// and the words a word space after it.
					descParts = append(descParts, t.Text)
					lastDesc = ti
				case li >= 0 && seg.Labels[li].Role == lexicon.RoleRef:
					refParts = append(refParts, t.Text)
				case li >= 0 && seg.Labels[li].Role.IsText():
					descParts = append(descParts, t.Text)
				}
			case ti < usedDate:
				// A reference printed left of the date, in a table with no heading.
				otherText = append(otherText, t.Text)
			case t.Kind == layout.TokDate && usedDate >= 0 && ti == usedDate+1:
				// A second date beside the row's, in a table with no
				// heading: another date column (posting and value dates).
				alt := *t.Date
				altDate = &alt
			case inRefColumn(seg, t):
				otherText = append(otherText, t.Text)
			default:
				if (li < 0 || !seg.Labels[li].Role.IsMoney()) && t.Kind != layout.TokAmount {
					descParts = append(descParts, t.Text)
				}
			}
		}
		if len(descParts) == 0 {
			// The reference heading is the only text heading: its column
			// is the description.
			descParts, refParts = refParts, nil
		}
		if len(descParts) == 0 && seg.datesAnywhere && usedDate > 0 {
			// With no heading, the words printed before the row's date
			// are its description when none follow it.
			descParts, otherText = otherText, nil
		}
		otherText = append(otherText, refParts...)
		text := strings.Join(descParts, " ")
		hasMove := false
		var bal *Cell
		for i := range amounts {
			if amounts[i].Role == lexicon.RoleBalance {
				bal = &amounts[i]
			} else {
				hasMove = true
			}
		}
		folded := lexicon.FoldLabel(l.Text())
		isStat := lexicon.HasPhrase(folded, lexicon.Vocab().Stats)
		if dateTok != nil {
			lastDate = dateTok.Date
		}
		// near: close below the last line read, or, with nothing read yet
		// on this page, the table running on from the page before (a
		// day's rows continue over the page break under its date).
		near := lastLine != nil && (lastLine.Page == l.Page && l.Y0-lastLine.Y0 < 2.5*pitch || lastLine.Page == l.Page-1)
		switch {
		case isStat:
			x.Printf("  left out %s: a figure about the balance (average, minimum), not a movement", explain.LineRef(l))
			cur = -1
		case !hasMove && lexicon.HasPhrase(folded, lexicon.Vocab().Opening):
			if v, ok := balanceOn(seg.Lines, li, bal, lexicon.Vocab().Opening); ok {
				markers = append(markers, Marker{Kind: "opening", Val: v, After: len(rows)})
				x.Printf("  opening balance %s from %s", v, explain.LineRef(l))
			}
			cur = -1
		case !hasMove && lexicon.HasPhrase(folded, lexicon.Vocab().Closing):
			if v, ok := balanceOn(seg.Lines, li, bal, lexicon.Vocab().Closing); ok {
				markers = append(markers, Marker{Kind: "closing", Val: v, After: len(rows)})
				x.Printf("  closing balance %s from %s", v, explain.LineRef(l))
			}
			cur = -1
		case hasMove && len(rows) == first && restatesRow(text, lexicon.Vocab().Opening, amounts, bal):
			// "BALANCE B/F 15,000.00" with the balance printed in a money
			// column, above the table's first movement: the balance the
			// rows start from, not a movement.
			v := restatedBalance(amounts, bal)
			markers = append(markers, Marker{Kind: "opening", Val: v, After: len(rows)})
			x.Printf("  opening balance %s from %s: it restates a balance above the first movement", v, explain.LineRef(l))
			cur = -1
		case hasMove && restatesRow(text, lexicon.Vocab().Closing, amounts, bal) && !movementBelow(seg, l):
			v := restatedBalance(amounts, bal)
			markers = append(markers, Marker{Kind: "closing", Val: v, After: len(rows)})
			x.Printf("  closing balance %s from %s: it restates a balance below the last movement", v, explain.LineRef(l))
			cur = -1
		case dateTok == nil && lexicon.HasPhrase(folded, lexicon.Vocab().Totals) && !wrappedDescription(seg, l, prevLine, cur, dl, amounts):
			if len(amounts) > 0 {
				markers = append(markers, Marker{Kind: "total", Cells: amounts, After: len(rows)})
				x.Printf("  totals line %s: the rows above it must add up to it", explain.LineRef(l))
				sumFrom, docFrom = len(rows), len(rows)
				title = "" // a section's totals end it
			} else {
				x.Printf("  left out %s: a totals line", explain.LineRef(l))
			}
			cur = -1
		case hasMove && (dateTok == nil || sumsBoth(amounts) || repeatsBalance(rows[first:], bal)) && sums(amounts):
			// A line whose every figure is the sum of its column above it,
			// whatever its words: the table's totals, which prove the
			// rows, not a row. A dated one too when it sums both money
			// columns or prints the balance of the row above, which no
			// movement leaves as it was ("31-Mar Closing Balance 18,436.73
			// 7,762.55 -10,399.06").
			markers = append(markers, Marker{Kind: "total", Cells: amounts, After: len(rows)})
			x.Printf("  totals line %s: its figures are the sums of their columns above it", explain.LineRef(l))
			sumFrom, docFrom = len(rows), len(rows)
			title = ""
			cur = -1
		case dateTok != nil && hasMove:
			rows = append(rows, Row{Page: l.Page, Date: *dateTok.Date, HasDate: true, OwnDate: true, Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case dateTok != nil:
			// A dated line with no movement: its amounts may follow on the next line.
			rows = append(rows, Row{Page: l.Page, Date: *dateTok.Date, HasDate: true, OwnDate: true, Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section,
				AmountLost: lostAmount(seg, l, bal)})
			cur = len(rows) - 1
		case hasMove && cur >= 0 && !RowHasMove(rows[cur]) && follows(prevLine, l):
			// The amounts of a dated line printed on its last wrapped line.
			rows[cur].Cells = append(rows[cur].Cells, amounts...)
			rows[cur].Desc = append(rows[cur].Desc, nonEmpty(text)...)
			rows[cur].last, rows[cur].tail, rows[cur].tailParts = l, l, len(nonEmpty(text))
		case hasMove && dateTok == nil && (labelled(l) || proseOverMoney(seg, l)):
			// An undated line that names its figure ("Monthly Salary:
			// Rs. 85,000 / month"), or a sentence that runs over the
			// money columns ("insured … for up to S$100,000"): no row.
			x.Printf("  left out %s: a label's figure or a sentence, not a row", explain.LineRef(l))
			cur = -1
		case hasMove && lastDate != nil && (near || lastLine == nil):
			// No date printed: the same day as the line above (a row, or the
			// brought-forward line); at the top of a table, the last date read.
			rows = append(rows, Row{Page: l.Page, Date: *lastDate, HasDate: true, DateUnread: l.OCR && underDateHeading(seg, l), Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case hasMove && len(rows) > 0 && (near || lastLine == nil):
			last := rows[len(rows)-1]
			rows = append(rows, Row{Page: l.Page, Date: last.Date, HasDate: last.HasDate, DateUnread: l.OCR && underDateHeading(seg, l) || !last.HasDate && last.DateUnread,
				Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case hasMove && len(rows) == 0 && l.OCR && text != "" && dl >= 0 && !lexicon.HasPhrase(folded, lexicon.Vocab().BalanceTitles):
			// A recognised row at the top of the first table whose date
			// recognition lost (not a balance carried in: "Solde
			// créditeur au 31/03"): it takes the first date read below
			// it, and says its own was not read.
			rows = append(rows, Row{Page: l.Page, DateUnread: true, Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case bal != nil && cur >= 0 && follows(prevLine, l) && !rowHasBalance(rows[cur]):
			rows[cur].Cells = append(rows[cur].Cells, *bal)
			rows[cur].last = l
		case len(amounts) == 0 && dateTok == nil && sectionTitle(l.Text()) && (!follows(prevLine, l) || leftOfDescription(seg, l, descLabel)):
			// "PURCHASES", "Payments and other credits" over the rows of
			// a section: not the next row's description, nor the last's.
			// The rows under it take its direction where it names one.
			x.Printf("  left out %s: a section's title", explain.LineRef(l))
			title = strings.TrimSpace(lexicon.FoldLabel(l.Text()))
			cur = -1
		case len(amounts) == 0 && len(seg.Labels) == 0 && overMoney(seg, l):
			// In a table with no heading the lexicon knows, a line of
			// words over its money columns is its heading, not a
			// description: descriptions stand left of the figures.
			x.Printf("  left out %s: words over the money columns, the table's heading, or a line of it", explain.LineRef(l))
			cur = -1
			headingLine = l
		case len(amounts) == 0 && len(seg.Labels) == 0 && headingLine != nil && prevLine == headingLine && dateTok == nil && follows(prevLine, l):
			// The line under such a heading: its second line, or the
			// first row's description hanging above its date; the first
			// row's when nearer to it than to the heading (see
			// assignDescriptions). A line at the dates is the heading's.
			if len(l.Toks) > 0 && !inDateColumn(seg, l, dl) && !(seg.dateX > 0 && atDateColumn(&l.Toks[0], seg.dateX)) {
				texts = append(texts, descLine{l: l, text: text, headGap: l.Y0 - prevLine.Y1})
			}
			cur = -1
			headingLine = l
		case len(amounts) == 0 && cur >= 0 && follows(prevLine, l) && text != "" && !inDateColumn(seg, l, dl):
			// A wrapped description: which row it belongs to is decided
			// once the table's rows are known (see assignDescriptions).
			if !allHeadings(l) {
				texts = append(texts, descLine{l: l, text: text})
			}
		default:
			switch {
			case len(amounts) == 0 && text != "" && !inDateColumn(seg, l, dl) && !allHeadings(l):
				texts = append(texts, descLine{l: l, text: text})
			case unreadDate(seg, l, dl, amounts):
				// A movement under a date that no pattern reads ("12 дец"):
				// a row the reading lost, which the arithmetic of the rows
				// read cannot vouch for.
				x.Printf("  left out %s: figures in the money columns under a date that could not be read", explain.LineRef(l))
				markers = append(markers, Marker{Kind: "unread", After: len(rows)})
			default:
				x.Printf("  left out %s: no date, no movement, and not a description's line", explain.LineRef(l))
			}
			cur = -1
			// A line left out is no row for the lines below it to be
			// near: a fees table's lines do not lead one another in.
			amounts = nil
		}
		if len(markers) > markersBefore {
			markerLines = append(markerLines, l)
		}
		if len(rows) > before {
			rows[len(rows)-1].alt = altDate
			rows[len(rows)-1].Line = l
			rows[len(rows)-1].other = strings.Join(otherText, " ")
			rows[len(rows)-1].Title = title
		}
		if cur >= 0 || len(amounts) > 0 && !isStat {
			lastLine = l
		}
		prevLine = l
	}
	// The last row of the page before, when this table opens the next
	// page under its heading printed again, may have its description go
	// on above this table's first row. A page with no heading of its own
	// opens with its running header, no row's words.
	from := first
	if !seg.Cont && len(seg.Labels) > 0 && first > 0 && len(seg.Lines) > 0 && rows[first-1].Line != nil && rows[first-1].Line.Page == seg.Lines[0].Page-1 {
		from = first - 1
	}
	assignDescriptions(rows[from:], texts, markerLines)
	// Rows whose date was lost before any was read take the next one read.
	for i := len(rows) - 2; i >= first; i-- {
		if !rows[i].HasDate && rows[i].DateUnread && rows[i+1].HasDate {
			rows[i].Date, rows[i].HasDate, rows[i].DateBelow = rows[i+1].Date, true, true
		}
	}
	// Only this table's rows: those before first were sifted when their
	// own table was read (sifting them all again made a long statement's
	// reading quadratic in its pages).
	rows = rows[:first+len(slices.DeleteFunc(rows[first:], func(r Row) bool { return !r.HasDate && r.DateUnread }))]
	for i := first; i < len(rows); i++ {
		if len(rows[i].Desc) == 0 && rows[i].other != "" {
			// No description printed, on its line or wrapped about it:
			// the reference or type says what the row is.
			rows[i].Desc = []string{rows[i].other}
		}
	}
	if !hasTextLabel(seg.Labels) && len(seg.Labels) > 0 && !slices.ContainsFunc(rows[first:], func(r Row) bool { return len(r.Desc) > 0 }) {
		// Figures under headings with no description column, and none
		// printed: a box of dates and sums ("Statement date | Payment
		// due date | Credit limit"), not a table of movements.
		if len(rows) > first {
			x.Printf("  left out the %d row(s) of table %d: figures with no description under headings with none, a summary box", len(rows)-first, segID)
		}
		rows = rows[:first]
	}
	return rows, markers
}

// postingColumn picks, for rows that print two dates under no heading,
// the booking date, decided for the document in this order: the column
// whose dates run in order (value dates run out of it); the one whose
// dates stay inside the period [ps, pe] when the statement prints it; the
// second when it is never earlier than the first and differs from it on
// most rows (a card's purchase and booking dates). Rows keep the first
// date otherwise: a booking date is printed before its value date. It
// reports a guess: columns that differ, decided by neither order nor
// period.
func PostingColumn(rows []Row, order cells.DateOrder, ps, pe *time.Time, printed bool, x *explain.Writer) (guessed bool) {
	var first, second []cells.DateToken
	for _, r := range rows {
		if r.alt != nil {
			first, second = append(first, r.Date), append(second, *r.alt)
		}
	}
	if len(second) < 2 || 2*len(second) < len(rows) {
		return false
	}
	out := func(toks []cells.DateToken) int {
		return min(cells.Disorder(toks, cells.OrderDMY), cells.Disorder(toks, cells.OrderMDY), cells.Disorder(toks, cells.OrderYMD))
	}
	outside := func(toks []cells.DateToken) int {
		n := 0
		for _, t := range toks {
			if d, ok := t.Resolve(order, ps, pe); ok && (d.Before(*ps) || d.After(*pe)) {
				n++
			}
		}
		return n
	}
	later := func(a, b []cells.DateToken) bool { // a never before b, after it at least once
		after := false
		for i := range a {
			da, oka := a[i].Resolve(order, ps, pe)
			db, okb := b[i].Resolve(order, ps, pe)
			if !oka || !okb || da.Before(db) {
				return false
			}
			after = after || da.After(db)
		}
		return after
	}
	differ := differing(first, second) > 0
	var why string
	switch o1, o2 := out(first), out(second); {
	case o1 != o2:
		if o1 < o2 {
			return false
		}
		why = "runs in order, the first does not"
	case printed && ps != nil && pe != nil && outside(first) != outside(second):
		if outside(first) < outside(second) {
			return false
		}
		why = "stays inside the statement's period, the first does not"
	case later(second, first) && 2*differing(first, second) > len(first):
		// A card prints when a purchase was made and, days later, when it
		// was booked: the dates differ on most rows. A value date mostly
		// equals its booking date, which is printed first.
		why, guessed = "is never earlier than the first and differs from it on most rows, as a card's booking dates differ from its purchase dates", true
	default:
		return differ
	}
	x.Printf("  the second date column %s: it is the booking date", why)
	for i := range rows {
		if rows[i].alt != nil {
			rows[i].Date, *rows[i].alt = *rows[i].alt, rows[i].Date
		}
	}
	return guessed
}

// differing counts the rows whose two dates differ.
func differing(first, second []cells.DateToken) int {
	n := 0
	for i := range first {
		if first[i] != second[i] {
			n++
		}
	}
	return n
}

// restates reports a row's description that names a balance brought or
// carried forward ("BALANCE B/F", "Nouveau solde créditeur", "Opening
// Balance"): one of phrases with at most three other words beside it
// (numbers aside: "Solde au 28 février 2002"). A phrase that names no
// balance by itself ("Report", "B/F") must stand alone: a movement's
// description may hold such a word ("report Gehalt Pingo Doce").
func Restates(text string, phrases []string) bool {
	f := lexicon.FoldLabel(text)
	k, _ := lexicon.FirstPhrase(f, phrases)
	if k < 0 {
		return false
	}
	p := phrases[k]
	others := 0
	for _, w := range strings.Fields(strings.Replace(f, " "+p+" ", " ", 1)) {
		if strings.Trim(w, "0123456789x") != "" {
			others++
		}
	}
	if strings.Contains(p, " ") || lexicon.HasPhrase(" "+p+" ", lexicon.Vocab().BalanceTitles) {
		return others <= 3
	}
	return others == 0
}

// sumsOf reports whether each movement figure of a line is the sum of its
// column's figures in rows, one of them the sum of two figures at least
// (a figure equal to the one row above is that row's twin, not its total).
func sumsOf(rows []Row, amounts []Cell, segID int) bool {
	summed := false
	for _, a := range amounts {
		if a.Role == lexicon.RoleBalance {
			continue
		}
		var sum decimal.Decimal
		n := 0
		for _, r := range rows {
			for _, c := range r.Cells {
				// A table's own rows by column; a table on an earlier
				// page, whose columns are its own, by role.
				if r.SegID == segID && c.Col == a.Col || r.SegID != segID && c.Role == a.Role {
					sum = sum.Add(c.Val)
					n++
				}
			}
		}
		if !sum.Abs().Equal(a.Val.Abs()) {
			return false
		}
		summed = summed || n >= 2 && !sum.IsZero()
	}
	return summed
}

// labelled reports a line whose words before its first amount end in a
// colon: a label and its value, as a summary prints them.
func labelled(l *layout.Line) bool {
	for i, t := range l.Toks {
		if t.Kind == layout.TokAmount {
			return i > 0 && l.Toks[i-1].Kind == layout.TokText && strings.HasSuffix(l.Toks[i-1].Text, ":")
		}
	}
	return false
}

// proseOverMoney reports a line whose words stand over a money column of
// the table: a sentence across the page, not a row, whose words keep to
// the columns of text.
func proseOverMoney(seg *Segment, l *layout.Line) bool {
	for _, t := range l.Toks {
		if t.Kind != layout.TokText || t.Bare || !strings.ContainsFunc(t.Text, unicode.IsLetter) {
			continue // a figure in whole units is no word of a sentence
		}
		for _, c := range seg.cols {
			if c.role.IsMoney() && t.X0 < c.x1 && t.X1 > c.x0 && min(t.X1, c.x1)-max(t.X0, c.x0) > 0.5*(t.X1-t.X0) {
				return true
			}
		}
	}
	return false
}

// sumsBoth reports a line with figures in two money columns besides its
// balance: a movement prints one.
func sumsBoth(amounts []Cell) bool {
	cols := map[int]bool{}
	for _, a := range amounts {
		if a.Role != lexicon.RoleBalance {
			cols[a.Col] = true
		}
	}
	return len(cols) >= 2
}

// repeatsBalance reports a balance printed on a line that equals the last
// row's printed balance: a line with a movement that leaves the balance as
// it was restates it.
func repeatsBalance(rows []Row, bal *Cell) bool {
	if bal == nil || len(rows) == 0 {
		return false
	}
	for _, c := range rows[len(rows)-1].Cells {
		if c.Role == lexicon.RoleBalance {
			return c.Val.Equal(bal.Val)
		}
	}
	return false
}

// wrappedDescription reports a line that holds a totals word but reads as
// the wrapped description of the row above ("Transfer to Pingo / total
// Doce"): no amounts, several words, set under the row's description and
// not in the date column.
func wrappedDescription(seg *Segment, l, prevLine *layout.Line, cur, dl int, cells []Cell) bool {
	return len(cells) == 0 && cur >= 0 && follows(prevLine, l) && !inDateColumn(seg, l, dl) && len(l.Words) > 1
}

// restatesRow reports a row that restates a balance: its words say so,
// and a balance it prints is its amount ("BALANCE B/F 15,000.00
// 15,000.00"), not the balance after a movement.
func restatesRow(text string, phrases []string, cells []Cell, bal *Cell) bool {
	if !Restates(text, phrases) {
		return false
	}
	if bal == nil {
		return true
	}
	for _, c := range cells {
		if c.Role != lexicon.RoleBalance && !c.Val.Abs().Equal(bal.Val.Abs()) {
			return false
		}
	}
	return true
}

// restatedBalance is the balance a restating row prints: its balance
// column's, else its one amount with its own sign, else signed as its
// column says (a balance "in credit" printed under Credit is positive,
// under Debit negative).
func restatedBalance(cells []Cell, bal *Cell) decimal.Decimal {
	if bal != nil {
		return bal.Val
	}
	for _, c := range cells {
		switch {
		case c.Marked:
			return c.Val
		case c.Role == lexicon.RoleDebit:
			return c.Val.Abs().Neg()
		case c.Role == lexicon.RoleCredit:
			return c.Val.Abs()
		case c.Role == lexicon.RoleAmount:
			return c.Val
		}
	}
	return decimal.Zero
}

// balanceOn is the balance an opening or closing line of a table
// (lines[i]) prints: under the balance column, else the amount its label
// gives wherever it stands ("Saldo finale al 27/04/2024 EUR 25.360,59"
// under the description, or the value under "Neuer Kontostand").
func balanceOn(lines []*layout.Line, i int, bal *Cell, phrases []string) (decimal.Decimal, bool) {
	if bal != nil {
		return bal.Val, true
	}
	return LabelAmount(lines, i, phrases)
}

// movementBelow reports a dated line with an amount below l in its table:
// l is not the table's last row.
func movementBelow(seg *Segment, l *layout.Line) bool {
	below := false
	for _, m := range seg.Lines {
		if m == l {
			below = true
			continue
		}
		if below && len(m.Toks) > 0 && slices.ContainsFunc(m.Toks, func(t layout.Token) bool { return t.Kind == layout.TokDate }) &&
			slices.ContainsFunc(m.Toks, func(t layout.Token) bool { return t.Kind == layout.TokAmount }) {
			return true
		}
	}
	return false
}

// sectionTitle reports a line that is, whole, a section's title: a
// title of money in or out, or of a kind of rows ("Purchases and
// adjustments", "Fees charged").
func sectionTitle(text string) bool {
	f := strings.TrimSpace(lexicon.FoldLabel(text))
	return f != "" && (slices.Contains(lexicon.Vocab().SectionIn, f) || slices.Contains(lexicon.Vocab().SectionOut, f) || slices.Contains(lexicon.Vocab().SectionTitles, f))
}

// leftOfDescription reports a line that starts left of the description
// heading: not a description's wrapped line.
func leftOfDescription(seg *Segment, l *layout.Line, descLabel int) bool {
	return descLabel >= 0 && len(l.Words) > 0 && l.Words[0].X1 < seg.Labels[descLabel].X0
}

// titleDirection is the direction a section title inside a table gives
// its rows: money in or out as the lexicon's section titles say, or, on a
// card, its payments and refunds in and its purchases, fees and interest
// out; 0 when it says neither.
func TitleDirection(title string, card bool) int {
	f := " " + title + " "
	if card {
		switch {
		case lexicon.HasPhrase(f, lexicon.Vocab().CardSectionIn):
			return 1
		case lexicon.HasPhrase(f, lexicon.Vocab().CardSectionOut):
			return -1
		}
	}
	return SectionDirection(title)
}

// descLine is a line of description text with no date or amount.
type descLine struct {
	l    *layout.Line
	text string
	// headGap is, for the line just under a heading the lexicon does not
	// know, the gap to the heading above it (0 for other lines): the line
	// is the first row's only when nearer to that row than to the heading.
	headGap float64
}

// assignDescriptions gives each wrapped description line to its row.
// A description may wrap below its row's line, above it, or both (the
// row's line in the middle of the block). Between two rows' lines, the
// widest vertical gap separates one row's block from the next; when the
// gaps are all alike, the table's own habit decides, read from the lines
// above its first row and below its last one. Lines that no row reaches
// through line-sized gaps (a footer, a note) belong to none. The lines of
// balances and totals (stops) stand among the rows as rows whose words are
// no row's: a totals line's label centred over two lines is its own.
func assignDescriptions(real []Row, texts []descLine, stops []*layout.Line) {
	rows := slices.Grow(slices.Clone(real), len(stops))
	for _, l := range stops {
		rows = append(rows, Row{Line: l})
	}
	defer copy(real, rows)
	above := make([][]string, len(rows))
	below := make([][]string, len(rows))
	before := make([]int, len(rows)) // how many of below[i] stand above rows[i].tail
	// Items in reading order: rows (by their line) and text lines.
	var items []runItem
	for i := range rows {
		if rows[i].Line != nil {
			items = append(items, runItem{row: i, l: rows[i].Line})
		}
	}
	for i, t := range texts {
		items = append(items, runItem{row: -1, text: i, l: t.l})
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].l.Page != items[b].l.Page {
			return items[a].l.Page < items[b].l.Page
		}
		return items[a].l.Y0 < items[b].l.Y0
	})
	gap := func(a, b *layout.Line) float64 {
		if a.Page != b.Page {
			return 1e9
		}
		_, aBottom := a.Band()
		bTop, _ := b.Band()
		return bTop - max(aBottom, a.WrapBottom)
	}
	small := func(a, b *layout.Line) bool { return closeBelow(gap(a, b), bandHeight(b)) }
	// The table's habit, counted on each page: text hanging above its first
	// row, or below its last. With no sign of either, descriptions wrap
	// below their row's line, the commonest layout.
	nAbove, nBelow := 0, 0
	firstRow, lastRow := map[int]int{}, map[int]int{} // page -> item index
	for k, it := range items {
		if it.row < 0 || it.row >= len(real) {
			continue // a text line, or a balance or totals line: no row's habit
		}
		if _, ok := firstRow[it.l.Page]; !ok {
			firstRow[it.l.Page] = k
		}
		lastRow[it.l.Page] = k
	}
	for _, k := range firstRow {
		// A heading's own second line above the first row is no
		// description hanging above it, nor is the text that opens a page
		// after a row of the page before: it may be that row's.
		if k > 0 && items[k-1].row < 0 && texts[items[k-1].text].headGap == 0 && small(items[k-1].l, items[k].l) && !afterPageBreak(items, k) {
			nAbove++
		}
	}
	for _, k := range lastRow {
		if k+1 < len(items) && items[k+1].row < 0 && small(items[k].l, items[k+1].l) {
			nBelow++
		}
	}
	// A run of text lines between two rows, with the gap before each of
	// its lines and the one after it.
	type textRun struct {
		run              []runItem
		prevRow, nextRow int
		gaps             []float64
	}
	var runs []textRun
	for k := 0; k < len(items); {
		if items[k].row >= 0 {
			k++
			continue
		}
		j := k
		for j < len(items) && items[j].row < 0 {
			j++
		}
		tr := textRun{run: items[k:j], prevRow: -1, nextRow: -1}
		if k > 0 {
			tr.prevRow = items[k-1].row
		}
		if j < len(items) {
			tr.nextRow = items[j].row
		}
		// gaps[c] is the gap before run[c]; gaps[len(run)] the one after.
		tr.gaps = make([]float64, len(tr.run)+1)
		for c := range tr.gaps {
			var a, b *layout.Line
			if c == 0 {
				if tr.prevRow >= 0 {
					a = rows[tr.prevRow].Line
					if rows[tr.prevRow].last != nil {
						a = rows[tr.prevRow].last
					}
				}
			} else {
				a = tr.run[c-1].l
			}
			if c == len(tr.run) {
				if tr.nextRow >= 0 {
					b = rows[tr.nextRow].Line
				}
			} else {
				b = tr.run[c].l
			}
			tr.gaps[c] = 1e9
			if a != nil && b != nil {
				tr.gaps[c] = gap(a, b)
			}
		}
		// Between two rows, the wider of the gaps at the run's ends is
		// where one row's cell ends: more evidence of the habit.
		if g0, g1 := tr.gaps[0], tr.gaps[len(tr.run)]; g0 < 1e9 && g1 < 1e9 && tr.prevRow < len(real) && tr.nextRow < len(real) {
			switch h := tr.run[0].l.Height(); {
			case g1 > g0+0.1*h:
				nBelow++
			case g0 > g1+0.1*h:
				nAbove++
			}
		}
		runs = append(runs, tr)
		k = j
	}
	hangsAbove, hangsBelow := nAbove > 2*nBelow, nBelow > 2*nAbove || nAbove == 0
	for _, tr := range runs {
		run, prevRow, nextRow, gaps := tr.run, tr.prevRow, tr.nextRow, tr.gaps
		// Reach: how far down the run the row above reaches, and how far
		// up the row below reaches, through line-sized gaps.
		down := 0
		for down < len(run) && closeBelow(gaps[down], bandHeight(run[down].l)) {
			down++
		}
		up := len(run)
		for up > 0 && closeBelow(gaps[up], bandHeight(run[up-1].l)) {
			up--
		}
		if prevRow < 0 {
			down = 0
		}
		if nextRow < 0 {
			up = len(run)
		}
		cut := down // run[:cut] goes to the row above, run[cut:] below
		if f := splitOverPage(run, rows, prevRow, nextRow); f > 0 {
			// A row split by the page break: its last lines open the
			// page, above the lines of the next row's centred cell.
			down, up, cut = f, f, f
		} else if hangsBelow && !hangsAbove && opensPage(run, rows, prevRow, nextRow) {
			// In a table whose descriptions wrap below their row's line,
			// the lines that open the page above the next row end the
			// description of the page before's last row.
			down, up, cut = len(run), len(run), len(run)
		}
		if down > up {
			// Both rows reach the whole stretch: split at the widest gap,
			// or by the table's habit when the gaps are alike.
			lo, hi := up, down
			widest, second := lo, math.Inf(-1)
			for c := lo; c <= hi; c++ {
				if gaps[c] > gaps[widest] {
					widest = c
				}
			}
			for c := lo; c <= hi; c++ {
				if c != widest && gaps[c] > second {
					second = gaps[c]
				}
			}
			switch {
			case gaps[widest]-second > 0.25*run[0].l.Height():
				cut = widest
			case hangsAbove && !hangsBelow:
				cut = lo
			case hangsBelow && !hangsAbove:
				cut = hi
			default:
				cut = (lo + hi + 1) / 2
			}
		}
		for c, it := range run {
			switch {
			case texts[it.text].headGap > 0 && gaps[c+1] >= texts[it.text].headGap:
				// The heading's own second line.
			case c < cut && c < down && prevRow >= 0:
				below[prevRow] = append(below[prevRow], texts[it.text].text)
				if tail := rows[prevRow].tail; tail != nil && tail.Page == it.l.Page && it.l.Y0 < tail.Y0 {
					before[prevRow]++
				}
				growBox(&rows[prevRow], it.l)
			case c >= cut && c >= up && nextRow >= 0:
				above[nextRow] = append(above[nextRow], texts[it.text].text)
				growBox(&rows[nextRow], it.l)
			}
		}
	}
	for i := range rows {
		if rows[i].Line != nil {
			growBox(&rows[i], rows[i].Line)
		}
		// The row's own parts, with the lines that stand between its
		// line and its last wrapped line in their place.
		own, n := rows[i].Desc, len(rows[i].Desc)-rows[i].tailParts
		rows[i].Desc = slices.Concat(above[i], own[:n], below[i][:before[i]], own[n:], below[i][before[i]:])
	}
}

// runItem is a row (by its line) or a text line (row -1), in reading
// order, for assignDescriptions.
type runItem struct {
	row  int // -1 for a text line
	text int
	l    *layout.Line
}

// afterPageBreak reports a row item k whose nearest row above, past text
// lines, is on an earlier page.
func afterPageBreak(items []runItem, k int) bool {
	j := k - 1
	for j >= 0 && items[j].row < 0 {
		j--
	}
	return j >= 0 && items[j].l.Page < items[k].l.Page
}

// opensPage reports a run of text lines that opens a page, between the
// previous page's last row and the first row of its own page.
func opensPage(run []runItem, rows []Row, prevRow, nextRow int) bool {
	return prevRow >= 0 && nextRow >= 0 && rows[prevRow].Line != nil && rows[nextRow].Line != nil &&
		rows[prevRow].Line.Page < run[0].l.Page && rows[nextRow].Line.Page == run[len(run)-1].l.Page
}

// splitOverPage finds, in a run of text lines that opens a page after
// the previous page's last row, where the next row's own lines start: a
// row whose cells are centred on its line has the lines of its cell
// overlap that line's band. The lines before them, when some do, are the
// end of the previous page's row, split by the page break. 0 when the run
// is not so.
func splitOverPage(run []runItem, rows []Row, prevRow, nextRow int) int {
	if !opensPage(run, rows, prevRow, nextRow) {
		return 0
	}
	r := rows[nextRow].Line
	overlaps := func(l *layout.Line) bool { return min(l.Y1, r.Y1)-max(l.Y0, r.Y0) > 0 }
	f := slices.IndexFunc(run, func(it runItem) bool { return overlaps(it.l) })
	if f <= 0 || slices.ContainsFunc(run[f:], func(it runItem) bool { return !overlaps(it.l) }) {
		return 0
	}
	return f
}

// closeBelow reports a line set a gap below the one above it that is less
// than nine tenths of its height: the next line of one cell or paragraph,
// not of the next.
func closeBelow(gap, h float64) bool { return gap < 0.9*h }

// bandHeight is the height of a line's band (layout.Line.Band).
func bandHeight(l *layout.Line) float64 {
	top, bottom := l.Band()
	return bottom - top
}

// allHeadings reports a line of two or more words that are all column
// headings: a heading's second line, not a description.
func allHeadings(l *layout.Line) bool {
	if len(l.Words) < 2 {
		return false
	}
	for _, w := range l.Words {
		if lexicon.ClassifyLabel(w.Text) == lexicon.RoleNone {
			return false
		}
	}
	return true
}

// growBox widens a row's box to take in line l, on the row's page: the
// part of a description a page break carried over is not boxed.
func growBox(r *Row, l *layout.Line) {
	if len(l.Words) == 0 || l.Page != r.Page {
		return
	}
	x0, x1 := l.Words[0].X0, l.Words[len(l.Words)-1].X1
	if r.Box == [4]float64{} {
		r.Box = [4]float64{x0, l.Y0, x1, l.Y1}
		return
	}
	r.Box = [4]float64{min(r.Box[0], x0), min(r.Box[1], l.Y0), max(r.Box[2], x1), max(r.Box[3], l.Y1)}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// lostAmount is, on a recognised line that prints a balance and no
// movement, the text recognition read in a money-in or money-out column
// where the amount stands, when it reads as no amount; "" otherwise.
func lostAmount(seg *Segment, l *layout.Line, bal *Cell) string {
	if !l.OCR || bal == nil {
		return ""
	}
	for _, t := range l.Toks {
		if t.Kind != layout.TokText || t.Bare || !strings.ContainsFunc(t.Text, unicode.IsLetter) {
			continue // a figure in whole units is no word of a sentence
		}
		for _, c := range seg.cols {
			if c.role.IsMoney() && c.role != lexicon.RoleBalance && t.X0 < c.x1 && c.x0 < t.X1 {
				return t.Text
			}
		}
	}
	return ""
}

func RowHasMove(r Row) bool {
	for _, c := range r.Cells {
		if c.Role != lexicon.RoleBalance {
			return true
		}
	}
	return false
}

func rowHasBalance(r Row) bool {
	for _, c := range r.Cells {
		if c.Role == lexicon.RoleBalance {
			return true
		}
	}
	return false
}

// follows reports whether l follows prev closely enough to continue its row.
func follows(prev, l *layout.Line) bool {
	if prev == nil || prev.Page != l.Page {
		return false
	}
	return closeBelow(l.Y0-prev.Y1, l.Height())
}

// inDateColumn reports a line whose first word starts in the date column:
// not a wrapped description but a new kind of line (a footer, a note).
// overMoney reports a line with a word over one of the segment's money
// columns.
func overMoney(seg *Segment, l *layout.Line) bool {
	for _, w := range l.Words {
		for _, c := range seg.cols {
			if c.role.IsMoney() && w.X1 > c.x0 && w.X0 < c.x1 {
				return true
			}
		}
	}
	return false
}

func inDateColumn(seg *Segment, l *layout.Line, dl int) bool {
	if dl < 0 || len(l.Words) == 0 {
		return false
	}
	lo, _ := regionOf(seg.Labels, dl)
	lb := seg.Labels[dl]
	x := l.Words[0].X0
	return x >= lo && x < lb.X1+2 && labelAt(seg.Labels, x) == dl
}

// unreadDate reports a line left out of the rows that starts where the
// table's dates stand with a number and a word in one cell ("12 дец"),
// which no pattern reads as a date, and prints a movement in its money
// columns: a row whose date no pattern reads.
func unreadDate(seg *Segment, l *layout.Line, dl int, amounts []Cell) bool {
	if len(l.Toks) == 0 || l.Toks[0].Kind == layout.TokDate || !cells.IsDigitAt(l.Words[0].Text, 0) {
		return false
	}
	letters := func(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
	if !letters(l.Words[0].Text) && (len(l.Words) < 2 || layout.Apart(l.Words[1].X0-l.Words[0].X1, l.Height()) || !letters(l.Words[1].Text)) {
		return false
	}
	atDates := inDateColumn(seg, l, dl) || seg.dateX > 0 && atDateColumn(&l.Toks[0], seg.dateX)
	return atDates && slices.ContainsFunc(amounts, func(c Cell) bool { return c.Role.IsMoney() && c.Role != lexicon.RoleBalance })
}

// underDateHeading reports a line that starts under one of the segment's
// date headings (the booking date's or another).
func underDateHeading(seg *Segment, l *layout.Line) bool {
	for i, lb := range seg.Labels {
		if lb.Role.IsDate() && inDateColumn(seg, l, i) {
			return true
		}
	}
	return false
}

// dateColumn finds, among lines with no heading above them, the dates that
// open a table's rows: a date that starts a line with figures after it, or
// follows one word printed left of it (a reference or a row number). It
// returns where most such dates start, where the furthest of them ends, and
// how many lines have one there.
func dateColumn(lines []*layout.Line, anywhere bool) (x0, x1 float64, n int) {
	var xs []float64
	for i := range lines {
		if t := leadingDate(lines, i, anywhere); t != nil {
			xs = append(xs, t.X0)
		}
	}
	if len(xs) == 0 {
		return 0, 0, 0
	}
	slices.Sort(xs)
	x0 = xs[len(xs)/2]
	for i := range lines {
		if t := leadingDate(lines, i, anywhere); t != nil && atDateColumn(t, x0) {
			n++
			x1 = max(x1, t.X1)
		}
	}
	return x0, x1, n
}

// leadingDate is the date that leads the figures of line i: its opening
// date (openingDate), or, for a day's heading (a date alone on its line)
// over a line of figures with no date (one of the next three), the
// heading's date.
func leadingDate(lines []*layout.Line, i int, anywhere bool) *layout.Token {
	if t := openingDate(lines[i], anywhere); t != nil {
		return t
	}
	// The figures may stand on the row's second or third line, its
	// description wrapped around them.
	if t := dayHeading(lines[i]); t != nil {
		for _, next := range lines[i+1 : min(len(lines), i+4)] {
			if slices.ContainsFunc(next.Toks, func(t layout.Token) bool { return t.Kind == layout.TokDate }) {
				break
			}
			if slices.ContainsFunc(next.Toks, func(t layout.Token) bool { return t.Kind == layout.TokAmount }) {
				return t
			}
		}
	}
	return nil
}

// dayHeading is the date of a line that prints a date first and no
// figure, with at most a few words beside it ("Monday"): the heading of
// the rows of one day. nil for any other line.
func dayHeading(l *layout.Line) *layout.Token {
	if len(l.Toks) == 0 || l.Toks[0].Kind != layout.TokDate || len(l.Toks) > 4 {
		return nil
	}
	for _, t := range l.Toks[1:] {
		if t.Kind != layout.TokText || t.Bare {
			return nil // a figure: a row's ("417 KRW" in a currency of whole units)
		}
	}
	return &l.Toks[0]
}

// openingDate is the date that opens a line with figures after it: its
// first token, or its second after one word; anywhere, its first date
// with no figure before it, wherever the line's columns put it (a
// description may come first). nil when there is none.
func openingDate(l *layout.Line, anywhere bool) *layout.Token {
	for ti := range l.Toks {
		t := &l.Toks[ti]
		switch {
		case t.Kind == layout.TokAmount:
			return nil
		case t.Kind == layout.TokDate:
			if slices.ContainsFunc(l.Toks[ti+1:], func(t layout.Token) bool { return t.Kind == layout.TokAmount }) {
				return t
			}
			return nil
		case !anywhere && (ti >= 1 || strings.Contains(t.Text, " ")):
			return nil
		}
	}
	return nil
}

// ledByDate reports a line of a table with no heading that opens with a
// date where the table's dates line up.
func ledByDate(seg *Segment, l *layout.Line) bool {
	t := openingDate(l, seg.datesAnywhere)
	return t != nil && atDateColumn(t, seg.dateX)
}

// atDateColumn reports a date that starts within its own height of x, where
// a headless table's dates line up.
func atDateColumn(t *layout.Token, x float64) bool {
	return math.Abs(t.X0-x) <= max(t.Y1-t.Y0, 4)
}

// rowsUnder reads lines with no heading of their own as a table under
// labels, from the first line whose date stands under their date heading
// with figures after it, when least lines or more do.
func rowsUnder(lines []*layout.Line, labels []Label, least int) (Segment, bool) {
	dl := DateLabel(labels)
	if dl < 0 {
		return Segment{}, false
	}
	first, n := -1, 0
	for i, l := range lines {
		for ti, t := range l.Toks {
			if t.Kind == layout.TokDate && (labelAt(labels, t.X0) == dl || labelAt(labels, t.Center()) == dl) &&
				slices.ContainsFunc(l.Toks[ti+1:], func(t layout.Token) bool { return t.Kind == layout.TokAmount }) {
				if first < 0 {
					first = i
				}
				n++
				break
			}
		}
	}
	if n < least {
		return Segment{}, false
	}
	return Segment{Lines: lines[first:], Labels: labels, Cont: true}, true
}

// buildSegments cuts the document's lines into table segments: from each
// heading to the next heading or the end of its page. A page with no heading
// continues the table of the page before it.
func BuildSegments(pages [][]*layout.Line, x *explain.Writer) []Segment {
	var segs []Segment
	var lastLabels []Label
	lastSection := 0
	lastSkip := false
	found := false
	var before []int // pages with no heading before the first heading
	for pi, lines := range pages {
		hs := FindHeaders(lines)
		if len(hs) == 0 {
			if found {
				segs = append(segs, Segment{Lines: lines, Labels: lastLabels, section: lastSection, skip: lastSkip, Cont: true})
				x.Printf("page %d: no heading: its lines continue the table above", pi+1)
			} else {
				before = append(before, pi)
				x.Printf("page %d: no heading", pi+1)
			}
			continue
		}
		if !found {
			// Pages before the first heading found (recognition lost
			// theirs) hold the same table when their dates line up under
			// its date heading.
			for _, pj := range before {
				if seg, ok := rowsUnder(pages[pj], hs[0].Labels, 2); ok {
					segs = append(segs, seg)
					x.Printf("page %d: its dated lines line up under the heading of page %d: read with it", pj+1, pi+1)
				}
			}
		} else if seg, ok := rowsUnder(lines[:hs[0].First], lastLabels, 1); ok {
			// Rows above the page's first heading continue the table
			// before it (the next account's table starts lower down).
			seg.section, seg.skip = lastSection, lastSkip
			segs = append(segs, seg)
			x.Printf("page %d: its rows above the heading continue the table above", pi+1)
		}
		for k, h := range hs {
			end := len(lines)
			if k+1 < len(hs) {
				end = max(hs[k+1].First, h.Last+1) // bands never overlap (findHeaders)
			}
			sec, titled, balances := SectionAbove(lines, h.First)
			if !titled && k == 0 && found {
				// A heading repeated at the top of a page continues the section before it.
				sec = lastSection
			}
			if k == 0 && found {
				// A heading repeated over a page break: each copy gives
				// back what recognition lost of the other.
				prev := &segs[len(segs)-1]
				prev.Labels = CompleteHeading(prev.Labels, h.Labels)
				h.Labels = CompleteHeading(h.Labels, lastLabels)
			}
			skip := balances && !hasTextLabel(h.Labels) || !hasMovementLabel(h.Labels)
			x.Printf("page %d: heading at %s: %s (section %+d)", pi+1, explain.LineRef(lines[h.First]), LabelsText(h.Labels), sec)
			segs = append(segs, Segment{Lines: lines[h.Last+1 : end], Labels: h.Labels, section: sec, skip: skip})
			lastLabels, lastSection, lastSkip = h.Labels, sec, skip
			found = true
		}
	}
	if !found {
		// No heading anywhere: read every line that starts with a date,
		// when there are two or more such lines with figures (one is a
		// letter's or a bill's date and sum, not a table).
		var all []*layout.Line
		for _, lines := range pages {
			all = append(all, lines...)
		}
		dateX, _, dated := dateColumn(all, false)
		anywhere := false
		if dated < 2 {
			// Dates that stand after the description (the columns in
			// another order) line up too; three of them make a table,
			// where a bill prints its date and sum twice.
			if x2, _, n := dateColumn(all, true); n >= 3 {
				dateX, dated, anywhere = x2, n, true
			}
		}
		if dated < 2 {
			x.Printf("no heading anywhere, and %d dated line(s) with figures: no table", dated)
			return nil
		}
		x.Printf("no heading anywhere: every line with a date at %.0f, where %d dated lines with figures start, is read", dateX, dated)
		segs = append(segs, Segment{Lines: all, dateX: dateX, datesAnywhere: anywhere})
	}
	for i := range segs {
		findColumns(&segs[i])
		if segs[i].Cont {
			// The table above is the last one whose rows showed its money
			// columns (a heading at a page's foot shows none).
			for j := i - 1; j >= 0; j-- {
				if slices.ContainsFunc(segs[j].cols, func(c column) bool { return c.role.IsMoney() }) {
					keepColumns(&segs[i], segs[j].cols, x)
					break
				}
			}
		}
		if x.On() && len(segs[i].Lines) > 0 {
			var cs []string
			for _, c := range segs[i].cols {
				why := "under heading " + fmt.Sprintf("%q", c.label)
				if c.label == "" {
					why = "no heading above it"
					if len(segs[i].Labels) == 0 {
						why = "guessed from its place"
					}
				}
				cs = append(cs, fmt.Sprintf("%.0f-%.0f %s (%d amounts; %s)", c.x0, c.x1, c.role, c.n, why))
			}
			x.Printf("table %d (page %d, %d lines): amount columns: %s", i, segs[i].Lines[0].Page+1, len(segs[i].Lines), strings.Join(cs, "; "))
		}
	}
	return segs
}

// keepColumns keeps, on a page that continues the table above with no
// heading of its own, only the money columns that stand where a column
// of that role stood above: figures elsewhere on the page (a fees table
// under the last rows) are not the table's.
func keepColumns(seg *Segment, above []column, x *explain.Writer) {
	const slack = 20.0
	for i := range seg.cols {
		c := &seg.cols[i]
		if !c.role.IsMoney() {
			continue
		}
		if !slices.ContainsFunc(above, func(a column) bool { return a.role == c.role && c.x0 < a.x1+slack && a.x0 < c.x1+slack }) {
			x.Printf("  column %.0f-%.0f stands where no %s column stood above: not the table's", c.x0, c.x1, c.role)
			c.role, c.label = lexicon.RoleNone, ""
		}
	}
}

// completeHeading fills in a heading repeated on another page from the
// other copy, when the one is part of the other (every heading it kept stands
// where it stood before, with the same meaning, two of them at least) and
// lacks some: recognition lost a word or two of it, and the lost headings
// come back where they stood.
func CompleteHeading(labels, before []Label) []Label {
	overlaps := func(a, b Label) bool { return a.X0 < b.X1 && b.X0 < a.X1 }
	agree := 0
	for _, l := range labels {
		i := slices.IndexFunc(before, func(b Label) bool { return overlaps(l, b) })
		if i < 0 || before[i].Role != l.Role {
			return labels // a heading of another table
		}
		if l.Role != lexicon.RoleNone {
			agree++
		}
	}
	var lost []Label
	for _, b := range before {
		if !slices.ContainsFunc(labels, func(l Label) bool { return overlaps(l, b) }) {
			lost = append(lost, b)
		}
	}
	if agree < 2 || len(lost) == 0 {
		return labels
	}
	out := append(slices.Clone(labels), lost...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].X0 < out[j].X0 })
	return out
}

// sectionDirection reads a line as a section title: +1 when it names money
// in, -1 money out, 0 when it names neither or both ("Payments and credits").
func SectionDirection(text string) int {
	f := lexicon.FoldLabel(text)
	in, out := lexicon.HasPhrase(f, lexicon.Vocab().SectionIn), lexicon.HasPhrase(f, lexicon.Vocab().SectionOut)
	switch {
	case in && !out:
		return 1
	case out && !in:
		return -1
	}
	return 0
}

// sectionAbove looks at the few plain-text lines just above a table heading
// (at lines[first]) for a section title. titled reports that a title line
// with a direction was found there; balances that the title names a list
// of balances and no movement of money.
func SectionAbove(lines []*layout.Line, first int) (dir int, titled, balances bool) {
	h := lines[first].Height()
	for i := first - 1; i >= 0 && i >= first-3; i-- {
		l := lines[i]
		if !isPlainText(l) || lines[first].Y0-l.Y1 > 6*h {
			break
		}
		text := l.Text()
		if end := lexicon.PhraseEnd(l.Words, lexicon.Vocab().Account); end >= 0 && accountLike(AccountValue(l.Words[end:])) {
			// A page's running header that names the account ("Relevé de
			// carte de crédit - Numéro de compte: ****5725"): its "credit"
			// titles no section.
			continue
		}
		if d := SectionDirection(text); d != 0 {
			return d, true, false
		}
		if f := lexicon.FoldLabel(text); lexicon.HasPhrase(f, lexicon.Vocab().BalanceTitles) && !strings.Contains(f, " transaction") {
			return 0, false, true
		}
	}
	return 0, false, false
}

// hasTextLabel reports a heading with a description, type or reference column.
func hasTextLabel(labels []Label) bool {
	for _, lb := range labels {
		if lb.Role.IsText() {
			return true
		}
	}
	return false
}

// hasMovementLabel reports a heading that names a column of money moving,
// not only balances.
func hasMovementLabel(labels []Label) bool {
	for _, lb := range labels {
		if lb.Role == lexicon.RoleDebit || lb.Role == lexicon.RoleCredit || lb.Role == lexicon.RoleAmount {
			return true
		}
	}
	return false
}

// linePitch is the usual distance between the tops of consecutive lines of a
// table: its rows' spacing.
func linePitch(lines []*layout.Line) float64 {
	var ds []float64
	for i := 1; i < len(lines); i++ {
		if lines[i].Page == lines[i-1].Page {
			if d := lines[i].Y0 - lines[i-1].Y0; d > 0 {
				ds = append(ds, d)
			}
		}
	}
	if len(ds) == 0 {
		if len(lines) > 0 {
			return 1.5 * lines[0].Height()
		}
		return 0
	}
	sort.Float64s(ds)
	return ds[len(ds)/2]
}
