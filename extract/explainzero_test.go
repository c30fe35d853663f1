package extract

import (
	"strings"
	"testing"

	"passbook/extract/source"
)

// TestExplainZeroRows: a document that gives no rows ends its explanation
// with one line naming the stage that found nothing to pass on (issue 39).
func TestExplainZeroRows(t *testing.T) {
	// line lays out words on one line at y, each 40 points on.
	line := func(y float64, words ...string) []source.Word {
		var out []source.Word
		for i, w := range words {
			x := 40 + 90*float64(i)
			out = append(out, source.Word{Text: w, X0: x, Y0: y, X1: x + 6*float64(len([]rune(w))), Y1: y + 10})
		}
		return out
	}
	page := func(lines ...[]source.Word) []source.Page {
		var ws []source.Word
		for _, l := range lines {
			ws = append(ws, l...)
		}
		return []source.Page{{Number: 1, Width: 595, Height: 842, Words: ws}}
	}
	for _, tc := range []struct {
		name  string
		pages []source.Page
		want  string
	}{
		{"no words", []source.Page{{Number: 1, Width: 595, Height: 842}}, "stopped at the words"},
		{"no dates", page(line(100, "Opening", "balance", "120.00"), line(120, "Coffee", "shop", "3.50"), line(140, "Rent", "paid", "700.00")), "stopped at the dates"},
		{"no amounts", page(line(100, "Statement", "of", "12/03/2024"), line(120, "Thank", "you")), "stopped at the amounts"},
		{"no line with both", page(line(100, "From", "01/03/2024"), line(120, "Coffee", "shop", "3.50"), line(140, "Rent", "paid", "700.00")), "stopped at the table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			res := Explain(tc.pages, &b)
			if len(res.Transactions) != 0 {
				t.Fatalf("%d rows, want none", len(res.Transactions))
			}
			out := strings.TrimSpace(b.String())
			last := out[strings.LastIndex(out, "\n")+1:]
			if !strings.HasPrefix(last, tc.want) {
				t.Errorf("last line %q, want it to start %q\n%s", last, tc.want, out)
			}
		})
	}
	// A document with rows says no such thing.
	var b strings.Builder
	res := Explain(page(line(100, "01/03/2024", "Coffee", "3.50", "96.50"), line(120, "02/03/2024", "Rent", "700.00", "-603.50")), &b)
	if len(res.Transactions) == 0 {
		t.Fatalf("no rows read from two dated lines with amounts:\n%s", b.String())
	}
	if strings.Contains(b.String(), "stopped at") {
		t.Errorf("rows read, and the explanation says a stage stopped:\n%s", b.String())
	}
}
