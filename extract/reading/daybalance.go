package reading

import (
	"strings"

	"github.com/shopspring/decimal"

	"passbook/extract/explain"
	"passbook/extract/lexicon"
	"passbook/extract/tables"
)

// BalanceLines finds, in a table of one signed amount column and no
// balance column, the lines that print the balance rather than a
// movement, whatever their words: a balance of the day between a day's
// rows ("SALDO DO DIA"), a dated line of the balance at the end
// ("Kontostand am 28.02.2025"). Each such figure equals the opening plus
// every movement above it, which a movement's figure does not. The
// opening is the one printed (a brought-forward line, else the
// summary's, st), else the one lone amount outside the tables from which
// such a line is reached, which becomes the rows' opening. It returns the
// rows without those lines, each of whose figures becomes the printed
// balance of the row above it, the markers counted again, and whether a
// line stood between rows: a running balance, as a bank prints one.
func BalanceLines(rows []tables.Row, markers []tables.Marker, summary *decimal.Decimal, loose []decimal.Decimal, x *explain.Writer) ([]tables.Row, []tables.Marker, bool) {
	printed := printedOpening(markers, summary)
	n := len(rows)
	kept, keptMarkers, open := balanceLines(rows, markers, printed, loose, x)
	between := len(kept) < n-1 || len(kept) == n-1 && !lastIsBalance(rows, kept)
	if !between && printed == nil && open != nil {
		// Only the last line, reached from a lone amount: both are the
		// balances printed around the rows, whose words the lexicon does
		// not hold. The last leaves the rows, and the reading weighs the
		// two as it weighs every balance printed outside them (a bank's
		// or a card's: the arithmetic of one signed column is the same).
		return rows[:n-1], markers, false
	}
	rows, markers = kept, keptMarkers
	if printed == nil && open != nil {
		// The opening the balance lines were reached from, printed
		// outside the tables in words no lexicon holds.
		markers = append([]tables.Marker{{Kind: "opening", Val: *open}}, markers...)
	}
	return rows, markers, between
}

// lastIsBalance reports that the one line balanceLines took out of rows
// was the last.
func lastIsBalance(rows, kept []tables.Row) bool {
	return len(kept) > 0 && kept[len(kept)-1].Line == rows[len(rows)-2].Line
}

func balanceLines(rows []tables.Row, markers []tables.Marker, printed *decimal.Decimal, loose []decimal.Decimal, x *explain.Writer) ([]tables.Row, []tables.Marker, *decimal.Decimal) {
	amount := func(rw tables.Row) (tables.Cell, bool) {
		if len(rw.Cells) != 1 || rw.Cells[0].Role == lexicon.RoleBalance || rw.Cells[0].Role.IsMoney() && rw.Cells[0].Role != lexicon.RoleAmount {
			return tables.Cell{}, false
		}
		return rw.Cells[0], true
	}
	signed := false
	for _, rw := range rows {
		c, ok := amount(rw)
		if !ok {
			return rows, markers, nil // not one signed amount column
		}
		signed = signed || c.Val.IsNegative()
	}
	if !signed || len(rows) < 3 {
		return rows, markers, nil
	}
	linesFrom := func(open decimal.Decimal) []int {
		var at []int
		run, moved := open, false
		for i, rw := range rows {
			v := rw.Cells[0].Val
			if moved && v.Equal(run) {
				at, moved = append(at, i), false
				continue
			}
			run, moved = run.Add(v), true
		}
		return at
	}
	var at []int
	var open decimal.Decimal
	if printed != nil {
		open, at = *printed, linesFrom(*printed)
	} else {
		found := 0
		for _, v := range loose {
			if l := linesFrom(v); len(l) > 0 {
				open, at = v, l
				found++
			}
		}
		if found != 1 {
			return rows, markers, nil
		}
	}
	if len(at) == 0 {
		return rows, markers, nil
	}
	drop := map[int]bool{}
	for _, i := range at {
		drop[i] = true
	}
	var kept []tables.Row
	newIndex := make([]int, len(rows)+1) // rows kept before each old index
	for i, rw := range rows {
		newIndex[i] = len(kept)
		if !drop[i] {
			kept = append(kept, rw)
			continue
		}
		b := rw.Cells[0]
		b.Role, b.Marked = lexicon.RoleBalance, false
		prev := &kept[len(kept)-1]
		prev.Cells = append(append([]tables.Cell(nil), prev.Cells...), b)
		x.Printf("  %q %s is the balance after the rows above it (the opening plus their movements), not a movement", strings.Join(rw.Desc, " "), b.Val)
	}
	newIndex[len(rows)] = len(kept)
	out := make([]tables.Marker, len(markers))
	for i, m := range markers {
		m.After = newIndex[min(m.After, len(rows))]
		out[i] = m
	}
	return kept, out, &open
}
