package reading

import (
	"maps"
	"slices"
	"testing"

	"passbook/extract/lexicon"
	"passbook/extract/tables"

	"github.com/shopspring/decimal"
)

// TestLearnDirections: an unsigned amount takes the direction of the
// proven rows whose description begins alike, the longest such beginning
// first, when at least two of them agree by a clear margin.
func TestLearnDirections(t *testing.T) {
	row := func(seq int, desc string) tables.Row {
		return tables.Row{Seq: seq, Desc: []string{desc}, Cells: []tables.Cell{{Role: lexicon.RoleAmount, Val: decimal.NewFromInt(5)}}}
	}
	tests := []struct {
		name   string
		proven map[string]int // description: direction
		desc   string
		want   learned // zero: left to the guess
	}{
		{"two words", map[string]int{"Salary Acme Jan": 1, "Salary Acme Feb": 1}, "Salary Acme Mar", learned{1, 2}},
		{"one word", map[string]int{"LIDL 0443": -1, "LIDL Berlin": -1, "Rent": -1}, "Lidl Munich", learned{-1, 2}},
		{"one example teaches nothing", map[string]int{"Transfer from John": 1}, "Transfer to savings", learned{}},
		{"no clear margin", map[string]int{"Card A": -1, "Card B": -1, "Card C": 1}, "Card D", learned{}},
		{"the longer beginning decides", map[string]int{"Card refund A": 1, "Card refund B": 1, "Card x": -1, "Card y": -1, "Card z": -1, "Card w": -1, "Card v": -1}, "Card refund C", learned{1, 2}},
		{"numbers are no kind", map[string]int{"0443 Lidl": -1, "0443 Rewe": -1}, "0443 Salary", learned{}},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			var rows []tables.Row
			proven := map[int]int{}
			for _, d := range slices.Sorted(maps.Keys(c.proven)) {
				proven[len(rows)] = c.proven[d]
				rows = append(rows, row(len(rows), d))
			}
			u := len(rows)
			rows = append(rows, row(u, c.desc))
			got := learnDirections(rows, map[int]Reading{}, true, proven)
			if got[u] != c.want {
				t.Errorf("learned %+v, want %+v", got[u], c.want)
			}
		})
	}
}

func TestOnlySubset(t *testing.T) {
	decs := func(ss ...string) []decimal.Decimal {
		var out []decimal.Decimal
		for _, s := range ss {
			out = append(out, decimal.RequireFromString(s))
		}
		return out
	}
	many := make([]string, 60)
	for i := range many {
		many[i] = decimal.NewFromInt(int64(i + 1)).Div(decimal.NewFromInt(4)).StringFixed(2)
	}
	tests := []struct {
		name   string
		sizes  []decimal.Decimal
		target string
		want   []bool // nil: no one choice
	}{
		{"one way", decs("50.00", "30.00", "60.00"), "30", []bool{false, true, false}},
		{"two ways", decs("10.00", "20.00", "30.00"), "30", nil},
		{"no way", decs("10.00", "20.00"), "15", nil},
		{"between the cents", decs("10.00", "20.00"), "10.005", nil},
		{"negative", decs("10.00"), "-10", nil},
		{"all out, however many", decs(many...), "0", make([]bool, 60)},
		{"all in, however many", decs(many...), decimal.Sum(decimal.Zero, decs(many...)...).String(), slices.Repeat([]bool{true}, 60)},
		{"many ways", decs(many...), "100", nil},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			got, ok := onlySubset(c.sizes, decimal.RequireFromString(c.target))
			if ok != (c.want != nil) || ok && !slices.Equal(got, c.want) {
				t.Errorf("onlySubset = %v, %v; want %v", got, ok, c.want)
			}
		})
	}
}
