package layout

import (
	"testing"

	"passbook/extract/source"
)

// TestSplitGluedDates cuts a date from the text glued after it where the
// script does not space its words, and a bracketed figure from the number
// before it, and leaves alone what is one word.
func TestSplitGluedDates(t *testing.T) {
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"２０２３年１１月２８日Tilisiirto", []string{"２０２３年１１月２８日", "Tilisiirto"}},
		{"2024年3月4日振込", []string{"2024年3月4日", "振込"}},
		{"２０２２年１１月９日２０２２年１１月９日Amazon", []string{"２０２２年１１月９日", "２０２２年１１月９日", "Amazon"}},
		{"２０２３/１１/２１Tilisiirto", []string{"２０２３/１１/２１", "Tilisiirto"}},
		{"2024/03/04ค่าธรรมเนียม", []string{"2024/03/04", "ค่าธรรมเนียม"}},
		// Latin text after an ASCII date is one word as printed: a
		// reference, not a date and a description.
		{"12.03.2023Payment", []string{"12.03.2023Payment"}},
		{"2023/11/21", []string{"2023/11/21"}},
		{"2024年3月4日", []string{"2024年3月4日"}},
		{"Tilisiirto", []string{"Tilisiirto"}},
		// A reference that filled its column, a figure in brackets
		// glued after it; a word and a bracket stay one.
		{"26023600040673(563.36", []string{"26023600040673", "(563.36"}},
		{"Ref(123)", []string{"Ref(123)"}},
		{"12(3)", []string{"12(3)"}},
	} {
		ws := []source.Word{{Text: "x", X0: 0, X1: 5, Y1: 10}, {Text: tc.word, X0: 10, X1: 110, Y1: 10}}
		got := splitGluedDates(ws)
		if len(got) != len(tc.want)+1 {
			t.Errorf("%q: %d words %+v, want %q", tc.word, len(got), got, tc.want)
			continue
		}
		x := 10.0
		for i, w := range got[1:] {
			if w.Text != tc.want[i] || w.X0 != x || w.X1 <= w.X0 || w.Y1 != 10 {
				t.Errorf("%q: word %d %+v, want %q from x %.1f", tc.word, i, w, tc.want[i], x)
			}
			x = w.X1
		}
		if x != 110 {
			t.Errorf("%q: the parts end at %.1f, not the word's 110", tc.word, x)
		}
		if len(tc.want) == 1 && &got[0] != &ws[0] {
			t.Errorf("%q: copied a line that had nothing to split", tc.word)
		}
	}
}
