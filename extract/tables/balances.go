package tables

import (
	"strings"
	"unicode"

	"passbook/extract/layout"
	"passbook/extract/lexicon"

	"github.com/shopspring/decimal"
)

// Lines that print balances and totals beside the rows: by their words
// (a balance restated) or by their arithmetic (the sums of the columns).

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
	return sumsAtLeast(rows, amounts, segID, 2)
}

// sumsAtLeast is sumsOf where minRows rows of one column make a sum.
func sumsAtLeast(rows []Row, amounts []Cell, segID, minRows int) bool {
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
		summed = summed || n >= minRows && !sum.IsZero()
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
		if below && len(m.Toks) > 0 && m.Has(layout.TokDate) &&
			m.Has(layout.TokAmount) {
			return true
		}
	}
	return false
}
