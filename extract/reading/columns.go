package reading

import (
	"cmp"
	"maps"
	"slices"

	"passbook/extract/lexicon"
	"passbook/extract/tables"
)

// moneyColumns are the rows' money columns in the order the statement
// prints them, as the chosen readings took them (bySeg: a table whose
// columns headed "debit" and "credit" hold the opposite prints its money
// in first): "out", "in", "amount" and "balance". A table's columns are
// numbered left to right (tables.Cell.Col), so a row's cells give their
// order; the table with the most rows gives the statement's. Nil when no
// row has two money columns to order.
func moneyColumns(rows []tables.Row, bySeg map[int]Reading) []string {
	type seen struct {
		cols map[int]lexicon.ColRole
		rows int
	}
	bySegment := map[int]*seen{}
	for _, rw := range rows {
		s := bySegment[rw.SegID]
		if s == nil {
			s = &seen{cols: map[int]lexicon.ColRole{}}
			bySegment[rw.SegID] = s
		}
		s.rows++
		r := bySeg[rw.SegID]
		for _, c := range rw.Cells {
			role := c.Role
			if o, ok := r.cols[c.Col]; ok {
				role = o
			}
			switch {
			case r.swap && role == lexicon.RoleDebit:
				role = lexicon.RoleCredit
			case r.swap && role == lexicon.RoleCredit:
				role = lexicon.RoleDebit
			}
			if role.IsMoney() {
				s.cols[c.Col] = role
			}
		}
	}
	var best *seen
	for _, id := range slices.Sorted(maps.Keys(bySegment)) {
		if s := bySegment[id]; len(s.cols) >= 2 && (best == nil || s.rows > best.rows) {
			best = s
		}
	}
	if best == nil {
		return nil
	}
	cols := make([]int, 0, len(best.cols))
	for c := range best.cols {
		cols = append(cols, c)
	}
	slices.SortFunc(cols, cmp.Compare)
	name := map[lexicon.ColRole]string{lexicon.RoleDebit: "out", lexicon.RoleCredit: "in", lexicon.RoleAmount: "amount", lexicon.RoleBalance: "balance"}
	var out []string
	for _, c := range cols {
		if n := name[best.cols[c]]; !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
