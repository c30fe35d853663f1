package tables

import (
	"math"
	"slices"
	"sort"

	"passbook/extract/explain"
	"passbook/extract/layout"
	"passbook/extract/lexicon"
)

// The money columns of a table, found from its figures and named by its
// headings or their place.

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
			if len(seg.Labels) > 0 {
				// Under a heading, the rows of the last day, printed
				// with its date on its first row only, run on below it
				// for as long as its lines keep the table's pitch and
				// their figures stand each under one money heading (a
				// centred footer's number spans two).
				pitch := linePitch(seg.Lines)
				k := i + 1
				for k < len(seg.Lines) && seg.Lines[k].Page == seg.Lines[k-1].Page && seg.Lines[k].Y0-seg.Lines[k-1].Y0 < 2.5*pitch && inColumns(seg.Labels, seg.Lines[k]) {
					k++
				}
				end = max(end, k)
			}
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
	if len(seg.Labels) == 0 {
		// Among the rows: a summary above them prints its figures
		// right of theirs too.
		start := slices.IndexFunc(seg.Lines[:end], func(l *layout.Line) bool { return ledByDate(seg, l) })
		if start >= 0 {
			toks = append(toks, rightOfRows(seg.Lines[start:end], toks)...)
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
	whole := 0
	for _, t := range toks {
		if t.Amount.Exponent() >= 0 {
			whole++
		}
	}
	seg.minorUnits = len(toks) >= 5 && 10*whole <= len(toks)
	seg.wholeUnits = len(toks) >= 3 && whole == len(toks)
	nameColumns(cols, seg.Labels)
	seg.cols = cols
	if len(seg.Labels) == 0 {
		seg.refs = refColumns(bare, cols)
		guessRoles(seg)
	} else {
		unheadedBalance(seg)
	}
}

// rightOfRows finds, in a table with no heading, the figures of a column
// right of every figure of its dated lines, that only its undated lines
// print: a balance of the day under the day's last row ("Saldo do dia"),
// in a column of its own. Three or more must end at one edge.
func rightOfRows(lines []*layout.Line, toks []layout.Token) []layout.Token {
	if len(toks) == 0 {
		return nil
	}
	right := 0.0
	for _, t := range toks {
		right = max(right, t.X1)
	}
	var out []layout.Token
	for _, l := range lines {
		for _, t := range l.Toks {
			if t.Kind == layout.TokAmount && t.X0 > right+1 {
				out = append(out, t)
			}
		}
	}
	var best []layout.Token
	for _, a := range out {
		var at []layout.Token
		for _, b := range out {
			if math.Abs(a.X1-b.X1) < 1.5 {
				at = append(at, b)
			}
		}
		if len(at) > len(best) {
			best = at
		}
	}
	if len(best) < 3 {
		return nil
	}
	return best
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

// inColumns reports a line whose amounts each stand under one money
// heading and across no other heading.
func inColumns(labels []Label, l *layout.Line) bool {
	for _, t := range l.Toks {
		if t.Kind != layout.TokAmount {
			continue
		}
		n := 0
		for _, lb := range labels {
			if t.X0 < lb.X1 && lb.X0 < t.X1 {
				n++
			}
		}
		if n > 1 || !underMoneyLabel(labels, t) {
			return false
		}
	}
	return true
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
