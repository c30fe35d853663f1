package pdfcontent

import (
	"math"
	"testing"
)

// oneByte is a font of one-byte codes, each 0.5 em wide, a space 0.25.
type oneByte struct{}

func (oneByte) Code(s []byte) (uint32, int) { return uint32(s[0]), 1 }
func (oneByte) Advance(c uint32) float64 {
	if c == ' ' {
		return 0.25
	}
	return 0.5
}

func TestParseKeepsPlaces(t *testing.T) {
	src := []byte("q 1 0 0 1 10 20 cm BT /F#31 12 Tf [(A\\051) -250 <4243>] TJ ET BI /W 1 ID \x00EI\x01 EI Q")
	ops, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range ops {
		names = append(names, o.Name)
	}
	want := []string{"q", "cm", "BT", "Tf", "TJ", "ET", "BI", "EI", "Q"}
	if len(names) != len(want) {
		t.Fatalf("operations %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("operations %q, want %q", names, want)
		}
	}
	if got := string(ops[3].Args[0].Val); got != "F1" {
		t.Errorf("a name's #31 reads %q, want F1", got)
	}
	tj := ops[4]
	if got := string(src[tj.Start:tj.End]); got != "[(A\\051) -250 <4243>] TJ" {
		t.Errorf("TJ's bytes are %q", got)
	}
	if got := string(src[tj.OperatorAt():tj.End]); got != "TJ" {
		t.Errorf("TJ's operator reads %q", got)
	}
	arr := tj.Args[0].Arr
	if string(arr[0].Val) != "A)" || string(arr[2].Val) != "BC" || arr[1].Num != -250 {
		t.Errorf("TJ's items read %q %v %q", arr[0].Val, arr[1].Num, arr[2].Val)
	}
	if got := string(src[arr[2].At:arr[2].End]); got != "<4243>" {
		t.Errorf("the hex string's bytes are %q", got)
	}
	if got := string(src[ops[7].Start:ops[7].End]); got != "/W 1 ID \x00EI\x01 EI" {
		t.Errorf("the inline image's bytes are %q", got)
	}
}

func TestParseStopsAtBrokenSyntax(t *testing.T) {
	ops, err := Parse([]byte("q 1 0 0 1 0 0 cm (unterminated Tj"))
	if err == nil {
		t.Fatal("an unterminated string is no error")
	}
	if len(ops) != 2 {
		t.Errorf("%d operations before the error, want 2", len(ops))
	}
}

// TestMachinePlacesGlyphs runs text through Tm, TJ's kerning, Tc, Tw, Tz,
// T* and q/Q, and checks each glyph's origin and advance.
func TestMachinePlacesGlyphs(t *testing.T) {
	src := []byte("q 2 0 0 2 0 0 cm BT /F 10 Tf 1 0 0 1 5 100 Tm 14 TL (A B) Tj [(C) -500 (D)] TJ T* 1 Tc 3 Tw 50 Tz (E F) Tj ET Q 1 0 0 1 7 7 cm BT /F 10 Tf (G) Tj ET")
	type at struct {
		code uint32
		x, y float64
	}
	var got []at
	m := Machine{
		Font:  func(string) (Font, error) { return oneByte{}, nil },
		Glyph: func(g *Glyph) { x, y := g.Trm.Apply(0, 0); got = append(got, at{g.Code, x, y}) },
	}
	want := []at{
		// cm doubles everything: text space 5,100 is 10,200.
		{'A', 10, 200}, {' ', 20, 200}, {'B', 25, 200},
		{'C', 35, 200}, {'D', 55, 200}, // TJ's -500 moves 5 points of text space
		// T* goes down 14; Tz 50 halves widths; Tc 1 and Tw 3 add spacing.
		{'E', 10, 172}, {' ', 10 + 2*(5+1)*0.5, 172}, {'F', 10 + 2*(5+1)*0.5 + 2*(2.5+1+3)*0.5, 172},
		// Q drops the doubling; the new cm moves the origin.
		{'G', 7, 7},
	}
	check := func(how string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d glyphs, want %d: %v", how, len(got), len(want), got)
		}
		for i := range want {
			if got[i].code != want[i].code || math.Abs(got[i].x-want[i].x) > 1e-9 || math.Abs(got[i].y-want[i].y) > 1e-9 {
				t.Errorf("%s: glyph %d is %c at %.2f,%.2f, want %c at %.2f,%.2f", how, i, got[i].code, got[i].x, got[i].y, want[i].code, want[i].x, want[i].y)
			}
		}
	}
	ops, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(ops, NewState(Identity)); err != nil {
		t.Fatal(err)
	}
	check("Run")
	got = nil
	if err := m.RunStream(src, NewState(Identity)); err != nil {
		t.Fatal(err)
	}
	check("RunStream")
}

// TestMachineSavesFillAlpha: q and Q save and restore what a hook sets.
func TestMachineSavesFillAlpha(t *testing.T) {
	var seen []float64
	m := Machine{Op: func(o *Op, st *State) error {
		switch o.Name {
		case "gs":
			st.FillAlpha = 0.5
		case "f":
			seen = append(seen, st.FillAlpha)
		}
		return nil
	}}
	if err := m.RunStream([]byte("q /G gs 0 0 1 1 re f Q 0 0 1 1 re f"), NewState(Identity)); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != 0.5 || seen[1] != 1 {
		t.Errorf("fill alpha %v, want [0.5 1]", seen)
	}
}
