package score

import "testing"

func s(v string) *string { return &v }

func TestDescOK(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"CAFE LUNA", "Cafe Luna", true},                      // normalised
		{"SALARY ACME CORP LTD", "SALARY ACME CORP", true},    // containment
		{"AMAZON MKTPLACE PMTS", "AMAZON MKTPLACE PMT", true}, // similar
		{"AMAZON MKTPLACE PMTS", "SHELL FUEL 0042", false},    // different
		{"", "", true},
		{"", "X", false},
	} {
		if got := DescOK(tc.a, tc.b); got != tc.want {
			t.Errorf("DescOK(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestMatch(t *testing.T) {
	truth := []Txn{
		{Date: "2024-01-02", Description: "A", AmountOut: s("10.00"), Balance: s("90.00")},
		{Date: "2024-01-03", Description: "B", AmountIn: s("5"), Balance: nil}, // the balance is not judged
		{Date: "2024-01-04", Description: "C", AmountOut: s("1.00"), Balance: s("94.00"), Account: "12-3456"},
	}
	for _, tc := range []struct {
		name string
		got  []Txn
		want int
	}{
		{"all", []Txn{
			{Date: "2024-01-02", Description: "A", AmountOut: s("10"), Balance: s("90")},
			{Date: "2024-01-03", Description: "B", AmountIn: s("5.00"), Balance: s("95.00")},
			{Date: "2024-01-04", Description: "C", AmountOut: s("1.00"), Balance: s("94.00"), Account: "123456"},
		}, 3},
		{"wrong way", []Txn{{Date: "2024-01-02", Description: "A", AmountIn: s("10"), Balance: s("90")}}, 0},
		{"out of order counts once", []Txn{
			{Date: "2024-01-03", Description: "B", AmountIn: s("5.00"), Balance: s("95.00")},
			{Date: "2024-01-02", Description: "A", AmountOut: s("10"), Balance: s("90")},
		}, 1},
		{"wrong account", []Txn{{Date: "2024-01-04", Description: "C", AmountOut: s("1.00"), Balance: s("94.00"), Account: "99-9999"}}, 0},
	} {
		if got := Match(truth, tc.got); got != tc.want {
			t.Errorf("%s: Match = %d, want %d", tc.name, got, tc.want)
		}
	}
	if !Exact(truth[:1], truth[:1]) || Exact(truth, truth[:2]) {
		t.Error("Exact")
	}
}
