package layout

import (
	"testing"

	"passbook/extract/source"
)

// TestJoinWrappedWeekday moves the weekday's name a full date's narrow
// cell wrapped onto the line below back after its date, in each date
// cell of the row, and leaves the description's wrapped words where
// they are.
func TestJoinWrappedWeekday(t *testing.T) {
	at := func(y float64, xs []float64, texts ...string) []source.Word {
		var out []source.Word
		for i, s := range texts {
			out = append(out, source.Word{Text: s, X0: xs[i], Y0: y, X1: xs[i] + 5*float64(len([]rune(s))), Y1: y + 10})
		}
		return out
	}
	a := &Line{Words: at(100, []float64{45, 57, 90, 117, 170, 182, 215, 242, 300, 350}, "14", "noyabr", "2022", "bazar", "14", "noyabr", "2022", "bazar", "Jürgen", "36,57"), Y0: 100, Y1: 110, Em: 10}
	b := &Line{Words: at(112, []float64{45, 170, 300}, "ertəsi", "ertəsi", "Weiß"), Y0: 112, Y1: 122, Em: 10}
	c := &Line{Words: at(125, []float64{45, 57, 90, 170, 182, 215, 300}, "29", "noyabr", "2022", "29", "noyabr", "2022", "Lidl"), Y0: 125, Y1: 135, Em: 10}
	d := &Line{Words: at(137, []float64{45, 90, 170, 215, 300}, "çərşənbə", "axşamı", "çərşənbə", "axşamı", "Markt"), Y0: 137, Y1: 147, Em: 10}
	lines := JoinWrappedDates([]*Line{a, b, c, d})
	if len(lines) != 4 || b.Text() != "Weiß" || d.Text() != "Markt" {
		t.Fatalf("lines below %q, %q: want only the descriptions' words", b.Text(), d.Text())
	}
	for _, l := range []*Line{a, c} {
		Tokenize(l, true)
		var dates int
		for _, tok := range l.Toks {
			if tok.Kind == TokDate {
				dates++
			}
			if tok.Kind == TokText && tok.Text != "Jürgen" && tok.Text != "Lidl" {
				t.Errorf("%q: text %q beside the dates", l.Text(), tok.Text)
			}
		}
		if dates != 2 {
			t.Errorf("%q: %d dates, want 2", l.Text(), dates)
		}
	}
}
