package reading

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

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
