package tables

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
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
	// minorUnits: the table's money prints its minor unit (all but a
	// tenth of its figures have decimals): a whole number among them
	// ("+69 241 101 732", a footer's telephone) is no money.
	minorUnits bool
	// wholeUnits: every figure of the table's money columns is a whole
	// number (a currency printed in whole units; see wholeInColumn).
	wholeUnits bool
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
	// DescShared: a wrapped description line beside the row stands as
	// near it as its neighbour, and the table's layout does not tell
	// whose it is.
	DescShared bool
	// title is the section title printed over the row inside its table
	// ("payments", "purchases"), folded; "" when none.
	Title string
	// titled is the direction title gives the row (see titleDirection).
	Titled int
	// other is the text the row's line prints under a type or reference
	// heading: its description when it has none.
	other string
	// unnamed is the text the row's line prints under each heading the
	// lexicon does not know, by the heading's index (see keepUnnamed).
	unnamed map[int]string
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
		// A section's total sums the rows since the last totals line;
		// a grand total, every row of the table or of the document.
		return sumsOf(rows[sumFrom:], amounts, segID) || docFrom < sumFrom && sumsOf(rows[docFrom:], amounts, segID) ||
			first < sumFrom && sumsOf(rows[first:], amounts, segID) || 0 < first && sumsOf(rows, amounts, segID)
	}
	var markerLines []*layout.Line // the table's balance and totals lines
	var figureLines []*layout.Line // lines left out that print a figure
	title := ""                    // the last section title read in the table
	var headingLine *layout.Line   // the last line read as the heading of a table with none the lexicon knows
	summaryHead := false           // below a summary's heading, up to the next date
	dateCols := dateSpans(seg.Lines)
	hanging := hangingDescriptions(seg.Lines)
	totalWords := map[string]bool{} // the words of the totals lines read by their sums
	for li, l := range seg.Lines {
		before, markersBefore := len(rows), len(markers)
		var dateTok *layout.Token
		var amounts []Cell
		var descParts, otherText []string
		var refParts []string // under a reference heading, in a table with no description heading
		var unnamed map[int]string
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
			} else if ti == 0 || seg.dateX > 0 && atDateColumn(t, seg.dateX) {
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
			if t.Kind == layout.TokText && layout.DateWord(t.Text) && inSpans(dateCols, t) {
				continue // a date cell's wrapped words ("2022. gada", "07:21"): no description's
			}
			// A line that is one whole number alone is a page number.
			// A whole number is money under a money heading, or, in a
			// table with none, where its figures stand ("918" under
			// "10 980" in a currency printed in whole units).
			if t.Kind == layout.TokAmount || t.Bare && len(l.Toks) > 1 && (underMoneyLabel(seg.Labels, t) || len(seg.Labels) == 0 && colOf(seg, t) >= 0) || wholeInColumn(seg, t) {
				if ci := colOf(seg, t); ci >= 0 && seg.cols[ci].role.IsMoney() && !(seg.minorUnits && t.Amount.Exponent() >= 0) {
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
				case li >= 0 && seg.Labels[li].Role == lexicon.RoleNone && t.Kind == layout.TokText:
					if unnamed == nil {
						unnamed = map[int]string{}
					}
					unnamed[li] = strings.TrimSpace(unnamed[li] + " " + t.Text)
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
		// Above the rows, a line that prints a range of dates and no
		// figure: the statement's period, no row, and no date for the
		// lines below it.
		period := dateTok != nil && !hasMove && len(rows) == first && dateRange(l)
		if dateTok != nil && !period {
			lastDate, summaryHead = dateTok.Date, false
		}
		// near: close below the last line read, or, with nothing read yet
		// on this page, the table running on from the page before (a
		// day's rows continue over the page break under its date).
		near := lastLine != nil && (lastLine.Page == l.Page && l.Y0-lastLine.Y0 < 2.5*pitch || lastLine.Page == l.Page-1)
		switch {
		case isStat:
			x.Printf("  left out %s: a figure about the balance (average, minimum), not a movement", explain.LineRef(l))
			cur = -1
		case summaryHead && dateTok == nil:
			x.Printf("  left out %s: the figures of a summary's heading above", explain.LineRef(l))
			cur = -1
		case !hasMove && lexicon.HasPhrase(folded, lexicon.Vocab().Opening):
			after := len(rows)
			if len(rows) > first && !l.Has(layout.TokAmount) {
				// The heading of a summary below the rows, its figures on
				// the lines under it ("Saldo inicial | Abono | Debe |
				// Nuevo saldo"): the opening is the rows'.
				after, summaryHead = first, true
			}
			if v, ok := balanceOn(seg.Lines, li, bal, lexicon.Vocab().Opening); ok {
				markers = append(markers, Marker{Kind: "opening", Val: v, After: after})
				x.Printf("  opening balance %s from %s", v, explain.LineRef(l))
			}
			if v, ok := balanceOn(seg.Lines, li, bal, lexicon.Vocab().Closing); ok && summaryHead {
				markers = append(markers, Marker{Kind: "closing", Val: v, After: len(rows)})
				x.Printf("  closing balance %s from %s", v, explain.LineRef(l))
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
		case hasMove && dateTok == nil && len(amounts) == 1 && len(rows) > first && text != "" && balanceOf(rows[len(rows)-1], amounts[0].Val) && !movementBelow(seg, l):
			// Below the last row, in words no lexicon holds, the one
			// figure that row's balance printed: the closing balance
			// restated, no movement of it again.
			markers = append(markers, Marker{Kind: "closing", Val: amounts[0].Val, After: len(rows)})
			x.Printf("  closing balance %s from %s: it restates the last row's balance", amounts[0].Val, explain.LineRef(l))
			cur = -1
		case hasMove && dateTok == nil && len(rows) > first && restatesRow(text, lexicon.Vocab().Opening, amounts, bal) && !movementBelow(seg, l):
			// The opening balance in a summary printed below the rows: the
			// balance they start from, not a movement.
			v := restatedBalance(amounts, bal)
			markers = append(markers, Marker{Kind: "opening", Val: v, After: first})
			x.Printf("  opening balance %s from %s: it names the opening balance below the last movement", v, explain.LineRef(l))
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
		case hasMove && dateTok == nil && len(amounts) == 1 && len(rows) > first+1 && loneFigure(rows[len(rows)-1]) && sums(amounts) && !sumsOf(rows[sumFrom:len(rows)-1], amounts, segID):
			// A line whose figure sums the rows above only with the lone
			// figure under no date just above it: that line printed the
			// opening balance and this one the closing, in words no
			// lexicon holds (a summary below the rows), not a row and
			// a total.
			op := rows[len(rows)-1]
			rows = rows[:len(rows)-1]
			markers = append(markers, Marker{Kind: "opening", Val: op.Cells[0].Val, After: first}, Marker{Kind: "closing", Val: amounts[0].Val, After: len(rows)})
			x.Printf("  opening balance %s and closing balance %s from %s and the line above it: the opening plus the rows above is the closing", op.Cells[0].Val, amounts[0].Val, explain.LineRef(l))
			cur = -1
		case hasMove && (dateTok == nil || sumsBoth(amounts) || repeatsBalance(rows[first:], bal)) && sums(amounts),
			hasMove && dateTok == nil && text != "" && totalWords[text] && sumsAtLeast(rows[sumFrom:], amounts, segID, 1):
			// The second: a line in the words of the table's totals lines
			// that sums its section of one row.
			// A line whose every figure is the sum of its column above it,
			// whatever its words: the table's totals, which prove the
			// rows, not a row. A dated one too when it sums both money
			// columns or prints the balance of the row above, which no
			// movement leaves as it was ("31-Mar Closing Balance 18,436.73
			// 7,762.55 -10,399.06").
			markers = append(markers, Marker{Kind: "total", Cells: amounts, After: len(rows)})
			x.Printf("  totals line %s: its figures are the sums of their columns above it", explain.LineRef(l))
			totalWords[text] = text != ""
			sumFrom, docFrom = len(rows), len(rows)
			title = ""
			cur = -1
		case dateTok != nil && hasMove:
			rows = append(rows, Row{Page: l.Page, Date: *dateTok.Date, HasDate: true, OwnDate: true, Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case period:
			x.Printf("  left out %s: a range of dates above the rows, the period", explain.LineRef(l))
			cur = -1
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
		case hasMove && dateTok == nil && closedAbove(markers, markerLines, len(rows), l):
			// Under the closing balance printed below the last row, with
			// no date since: the page's footing (a telephone number), no
			// row of the day above.
			x.Printf("  left out %s: below the closing balance, with no date of its own", explain.LineRef(l))
			cur = -1
		case hasMove && lastDate != nil && (near || lastLine == nil):
			// No date printed: the same day as the line above (a row, or the
			// brought-forward line); at the top of a table, the last date
			// read. A date printed elsewhere on the line may be the row's
			// own: the one above is not proven.
			rows = append(rows, Row{Page: l.Page, Date: *lastDate, HasDate: true, DateUnread: l.OCR && underDateHeading(seg, l) || l.Has(layout.TokDate) || dateWordsIn(l, dateCols), Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case hasMove && len(rows) > 0 && (near || lastLine == nil):
			last := rows[len(rows)-1]
			rows = append(rows, Row{Page: l.Page, Date: last.Date, HasDate: last.HasDate, DateUnread: l.OCR && underDateHeading(seg, l) || !last.HasDate && last.DateUnread || l.Has(layout.TokDate) || dateWordsIn(l, dateCols),
				Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case hasMove && len(rows) == 0 && l.OCR && text != "" && dl >= 0 && !lexicon.HasPhrase(folded, lexicon.Vocab().BalanceTitles):
			// A recognised row at the top of the first table whose date
			// recognition lost (not a balance carried in: "Solde
			// créditeur au 31/03"): it takes the first date read below
			// it, and says its own was not read.
			rows = append(rows, Row{Page: l.Page, DateUnread: true, Desc: nonEmpty(text), Cells: amounts, Drcr: drcr, SegID: segID, Section: seg.section})
			cur = len(rows) - 1
		case bal != nil && cur >= 0 && follows(prevLine, l) && !rowHasBalance(rows[cur]) && seg.cols[bal.Col].n > 1:
			// A row's balance printed on its last line. A column with no
			// other figure prints no row's balance: a closing line's.
			rows[cur].Cells = append(rows[cur].Cells, *bal)
			// A line of its own: a label centred on it (the day's
			// balance) is its, no row's.
			figureLines = append(figureLines, l)
		case len(amounts) == 0 && dateTok == nil && sectionTitle(l.Text()) && (!follows(prevLine, l) || leftOfDescription(seg, l, descLabel)) && !(hanging && hangsOver(seg.Lines, li)):
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
		case len(amounts) == 0 && dateTok == nil && text == "" && len(unnamed) > 0 && len(rows) > 0 && cellGoesOn(rows[len(rows)-1], l, unnamed, pitch, len(rows) == first):
			// A wrapped line of a cell under a heading the lexicon does
			// not know ("NL97PARK7122682547" under "PARKEERGARAGE"), past
			// a page's small print between them or at the top of the
			// next page: the cell above goes on.
			r := &rows[len(rows)-1]
			for li, v := range unnamed {
				old := r.unnamed[li]
				r.unnamed[li] += " " + v
				if k := slices.Index(r.Desc, old); len(rows)-1 < first && k >= 0 {
					// The row's table was read on the page before, and
					// its description took the cell as it stood there.
					r.Desc = slices.Clone(r.Desc)
					r.Desc[k] = r.unnamed[li]
				}
			}
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
			case hasMove && l.Has(layout.TokDate) && len(rows) > first:
				// A date and a movement where the table's dates do not
				// stand, below its first row: a row the reading could not
				// place, which the arithmetic of the rows read cannot
				// vouch for either. Above them it may be the balance the
				// rows start from ("Kontostand am 31.03.").
				x.Printf("  left out %s: a date and a movement, but not where the table's dates stand", explain.LineRef(l))
				markers = append(markers, Marker{Kind: "unread", After: len(rows)})
			default:
				x.Printf("  left out %s: no date, no movement, and not a description's line", explain.LineRef(l))
				if len(amounts) > 0 {
					// A figure's label centred over the lines above and
					// below (a day's balance) is its own, no row's.
					figureLines = append(figureLines, l)
				}
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
			rows[len(rows)-1].unnamed = unnamed
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
	assignDescriptions(rows[from:], texts, slices.Concat(markerLines, figureLines))
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
	keepUnnamed(seg, rows, first, descLabel)
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

// dateSpans are the x-ranges of a table's date columns: where three or
// more of its dates overlap.
func dateSpans(lines []*layout.Line) [][2]float64 {
	var spans [][2]float64
	var counts []int
	for _, l := range lines {
		for _, t := range l.Toks {
			if t.Kind != layout.TokDate {
				continue
			}
			k := slices.IndexFunc(spans, func(s [2]float64) bool { return t.X0 < s[1] && s[0] < t.X1 })
			if k < 0 {
				spans, counts = append(spans, [2]float64{t.X0, t.X1}), append(counts, 1)
				continue
			}
			spans[k] = [2]float64{min(spans[k][0], t.X0), max(spans[k][1], t.X1)}
			counts[k]++
		}
	}
	var out [][2]float64
	for k, s := range spans {
		if counts[k] >= 3 {
			out = append(out, s)
		}
	}
	return out
}

// dateWordsIn reports a line that prints a date's words in a date column
// ("piektdiena, 2022. gada" over "16. decembris"), or starts it with
// digits no pattern reads as a date ("2568/12"): a date printed that was
// not read.
func dateWordsIn(l *layout.Line, spans [][2]float64) bool {
	return slices.ContainsFunc(l.Toks, func(t layout.Token) bool {
		return t.Kind == layout.TokText && (layout.DateWord(t.Text) && inSpans(spans, t) || layout.HasDigit(t.Text) && l.Toks[0].X0 == t.X0 && startsIn(spans, t))
	})
}

// startsIn reports a token starting within one of spans.
func startsIn(spans [][2]float64, t layout.Token) bool {
	return slices.ContainsFunc(spans, func(s [2]float64) bool { return t.X0 >= s[0]-2 && t.X0 <= s[1] })
}

// inSpans reports a token lying within one of spans.
func inSpans(spans [][2]float64, t layout.Token) bool {
	return slices.ContainsFunc(spans, func(s [2]float64) bool { return t.X0 >= s[0]-2 && t.X1 <= s[1]+2 })
}

// cellGoesOn reports a line close below the row r (within a few lines,
// or above the first row of the next page) whose words under headings
// the lexicon does not know go on cells r printed there.
func cellGoesOn(r Row, l *layout.Line, unnamed map[int]string, pitch float64, pageTop bool) bool {
	last := r.Line
	if r.last != nil {
		last = r.last
	}
	if last == nil || !(last.Page == l.Page && l.Y0-last.Y0 <= 4*pitch || pageTop && l.Page == last.Page+1) {
		return false
	}
	for li := range unnamed {
		if r.unnamed[li] == "" {
			return false
		}
	}
	return true
}

// keepUnnamed puts into the rows' descriptions, before or after the
// description's column as printed, the text of a column under a heading
// the lexicon does not know whose cells say something of their own on
// most rows ("Counterparty", "Gegenrekening"): many values, not a few
// words repeated (a status, a type: "DEPOSIT", "WITHDRAWAL").
//
// The column's cells are counted over the rows read so far, of the pages
// before too (the table goes on under the same headings); the rows from
// first on take them.
func keepUnnamed(seg *Segment, rows []Row, first, descLabel int) {
	if descLabel < 0 {
		return
	}
	for li, lb := range seg.Labels {
		if lb.Role != lexicon.RoleNone {
			continue
		}
		n, seen := 0, map[string]bool{}
		for _, r := range rows {
			if v := r.unnamed[li]; v != "" {
				n++
				seen[v] = true
			}
		}
		if n < 3 || len(seen) < 3 || 2*len(seen) <= n {
			continue
		}
		for i := first; i < len(rows); i++ {
			v := rows[i].unnamed[li]
			switch {
			case v == "":
			case lb.X0 < seg.Labels[descLabel].X0:
				rows[i].Desc = append([]string{v}, rows[i].Desc...)
			default:
				rows[i].Desc = append(rows[i].Desc, v)
			}
		}
	}
}

// wholeInColumn reports a whole number ending where a money column's
// figures end, in a table whose money is printed in whole units ("993"
// under "20 426", "364 CLP D"), though the next column's words follow it
// closely.
func wholeInColumn(seg *Segment, t layout.Token) bool {
	// Below a thousand: a larger figure prints its group separator and
	// reads as money already ("+69 760 040 828" is a telephone).
	if !seg.wholeUnits || t.Kind != layout.TokText || t.Amount.IsZero() && !layout.AllDigits(t.Text) || t.Amount.Abs().Cmp(decimal.NewFromInt(1000)) >= 0 {
		return false
	}
	ci := colOf(seg, t)
	return ci >= 0 && math.Abs(t.X1-seg.cols[ci].x1) < 1
}

// loneFigure reports a row that took its date from above and prints one
// figure.
func loneFigure(r Row) bool {
	return !r.OwnDate && len(r.Cells) == 1 && r.Cells[0].Role != lexicon.RoleBalance
}

// lostAmount is, on a line that prints a balance and no movement, the
// text in a money-in or money-out column where the amount stands, when it
// reads as no amount: what recognition read there, or digits the text
// layer prints that no figure's pattern reads ("(754,00" whose bracket
// closes on the line below); "" otherwise.
func lostAmount(seg *Segment, l *layout.Line, bal *Cell) string {
	if bal == nil {
		return ""
	}
	for _, t := range l.Toks {
		if t.Kind != layout.TokText || !l.OCR && !layout.HasDigit(t.Text) {
			continue
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

// balanceOf reports a row that printed v as its balance.
func balanceOf(r Row, v decimal.Decimal) bool {
	return slices.ContainsFunc(r.Cells, func(c Cell) bool { return c.Role == lexicon.RoleBalance && c.Val.Equal(v) })
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
	pages = slices.Clone(pages)
	for pi, lines := range pages {
		// A block of text beside the rows is no part of any table.
		lines = slices.DeleteFunc(slices.Clone(lines), func(l *layout.Line) bool { return l.Side })
		pages[pi] = lines
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
		{
			// Dates that stand after the description (the columns in
			// another order) line up too; three of them make a table,
			// where a bill prints its date and sum twice, and twice as
			// many as start a line make it the table's date column.
			// So does a column of words before every date: a
			// reference printed left of the date prints digits.
			if x2, _, n := dateColumn(all, true); n >= 3 && (n >= 2*dated || 2*wordsBeforeDates(all, x2) > n) {
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

// closedAbove reports that the table's last marker is a closing balance
// printed below its last row on l's page: no row has followed it.
func closedAbove(markers []Marker, markerLines []*layout.Line, rows int, l *layout.Line) bool {
	if len(markers) == 0 || len(markerLines) == 0 {
		return false
	}
	m := markers[len(markers)-1]
	return m.Kind == "closing" && m.After == rows && rows > 0 && markerLines[len(markerLines)-1].Page == l.Page
}

// dateRange reports a line that prints two dates with a dash between
// them ("19 tet 2022 – 18 nën 2022").
func dateRange(l *layout.Line) bool {
	for i := 0; i+2 < len(l.Toks); i++ {
		if l.Toks[i].Kind == layout.TokDate && l.Toks[i+2].Kind == layout.TokDate && strings.Trim(l.Toks[i+1].Text, "-–—") == "" {
			return true
		}
	}
	return false
}

// wordsBeforeDates counts the lines whose date at x, leading their
// figures, follows words of letters only.
func wordsBeforeDates(lines []*layout.Line, x float64) int {
	n := 0
	for _, l := range lines {
		t := openingDate(l, true)
		if t == nil || !atDateColumn(t, x) {
			continue
		}
		for _, u := range l.Toks {
			if u.X0 >= t.X0 {
				break
			}
			if u.Kind == layout.TokText && !layout.HasDigit(u.Text) && strings.ContainsFunc(u.Text, unicode.IsLetter) {
				n++
				break
			}
		}
	}
	return n
}
