package extract

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func decp(s string) *decimal.Decimal {
	v := dec(s)
	return &v
}

// steps builds a chain from "move balance" pairs; balance "" is not printed.
func steps(pairs ...string) []chainStep {
	var out []chainStep
	for i := 0; i < len(pairs); i += 2 {
		s := chainStep{Move: dec(pairs[i]), Known: true}
		if pairs[i+1] != "" {
			s.Balance, s.Printed = dec(pairs[i+1]), true
		}
		out = append(out, s)
	}
	return out
}

func TestRepairOCRChain(t *testing.T) {
	type fix struct {
		row     int
		move    string // corrected movement, or
		balance string // corrected balance
		why     string // in the warning
	}
	tests := []struct {
		name    string
		opening *decimal.Decimal
		closing *decimal.Decimal
		steps   []chainStep
		want    []fix
	}{
		{
			name:    "clean chain",
			opening: decp("100.00"),
			steps:   steps("-20.00", "80.00", "5.00", "85.00"),
		},
		{
			name:    "overdrawn balances all lost their minus",
			opening: decp("670.55"),
			steps:   steps("-1502.70", "832.15", "-162.06", "994.21", "1500.00", "505.79"),
			want: []fix{
				{row: 0, balance: "-832.15", why: "lost minus"},
				{row: 1, balance: "-994.21", why: "lost minus"},
			},
		},
		{
			name:    "plus sign read as a 4",
			opening: decp("1000.00"),
			steps:   steps("-10.00", "990.00", "4238.56", "1228.56", "-28.56", "1200.00"),
			want:    []fix{{row: 1, move: "238.56", why: "stray digit"}},
		},
		{
			name:    "digit misread in a balance",
			opening: decp("2043.11"),
			steps:   steps("-92.26", "1950.85", "-247.15", "1708.70", "100.00", "1803.70"),
			want:    []fix{{row: 1, balance: "1703.70", why: "one digit"}},
		},
		{
			name:    "minus of a debit lost",
			opening: decp("500.00"),
			steps:   steps("92.26", "407.74", "-7.74", "400.00"),
			want:    []fix{{row: 0, move: "-92.26", why: "lost minus"}},
		},
		{
			name:    "digit misread in an amount on a row without a balance",
			opening: decp("2321.17"),
			steps:   steps("-270.75", "", "-27.36", "2016.06", "10.00", "2026.06"),
			want:    []fix{{row: 0, move: "-277.75", why: "one digit"}},
		},
		{
			name:    "last balance lost its minus, nothing after it",
			opening: decp("10.00"),
			steps:   steps("-20.00", "10.00"),
			want:    []fix{{row: 0, balance: "-10.00", why: "lost minus"}},
		},
		{
			name:    "closing balance settles the last row",
			opening: decp("100.00"),
			closing: decp("75.00"),
			steps:   steps("-20.00", "80.00", "-5.00", "95.00"),
			want:    []fix{{row: 1, balance: "75.00", why: "one digit"}},
		},
		{
			name:    "a missing row is not an OCR misread",
			opening: decp("100.00"),
			steps:   steps("-20.00", "80.00", "-33.33", "12.34", "1.00", "13.34"),
		},
		{
			name:  "no opening: the first balance is the start",
			steps: steps("-20.00", "80.00", "-5.00", "75.00"),
		},
		{
			name:    "two rows could hold the misread: no telling which",
			opening: decp("100.00"),
			steps:   steps("-10.00", "", "-10.00", "", "-10.00", "69.00"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := repairOCRChain(tc.opening, tc.steps, tc.closing)
			if len(got) != len(tc.want) {
				t.Errorf("got %d fixes, want %d: %+v", len(got), len(tc.want), got)
			}
			for _, w := range tc.want {
				g, ok := got[w.row]
				if !ok {
					t.Errorf("row %d not fixed", w.row)
					continue
				}
				switch {
				case w.move != "" && (g.Move == nil || !g.Move.Equal(dec(w.move))):
					t.Errorf("row %d: move fix %v, want %s", w.row, g.Move, w.move)
				case w.balance != "" && (g.Balance == nil || !g.Balance.Equal(dec(w.balance))):
					t.Errorf("row %d: balance fix %v, want %s", w.row, g.Balance, w.balance)
				}
				if !strings.Contains(g.Warning, w.why) || !strings.HasPrefix(g.Warning, "OCR correction") {
					t.Errorf("row %d: warning %q, want it to name %q", w.row, g.Warning, w.why)
				}
			}
		})
	}
}

func TestRepairOCRChainUnknownDirection(t *testing.T) {
	s := steps("-20.00", "80.00", "5.00", "95.00", "-5.00", "90.00")
	s[1].Known = false // the balance after it must not be checked against it
	if got := repairOCRChain(decp("100.00"), s, nil); len(got) != 0 {
		t.Errorf("fixed across a row of unknown direction: %+v", got)
	}
}

func TestOCRConfusable(t *testing.T) {
	tests := []struct {
		got, want string
		kind      string
	}{
		{"832.15", "-832.15", "a lost minus sign"},
		{"-5.00", "5.00", "a stray minus sign"},
		{"2108.76", "2106.76", "one digit misread"},
		{"4238.56", "238.56", "a stray digit"},
		{"44079.81", "4079.81", "a stray digit"},
		{"238.56", "4238.56", "a lost digit"},
		{"2108.76", "2160.76", ""},
		{"-2108.76", "2106.76", ""},
		{"12.34", "12.34", ""},
		{"26", "0.26", "a lost decimal point"},
		{"1234", "12.34", "a lost decimal point"},
		{"2.60", "0.26", ""},
	}
	for _, tc := range tests {
		if got := ocrConfusable(dec(tc.got), dec(tc.want)); got != tc.kind {
			t.Errorf("ocrConfusable(%s, %s) = %q, want %q", tc.got, tc.want, got, tc.kind)
		}
	}
}
