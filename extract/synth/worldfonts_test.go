package synth

import (
	"bytes"
	"strings"
	"testing"
)

// TestPenRuns: fpdf draws what the world's face lacks (Han, Devanagari)
// in a fallback that carries it, and the rest in the face.
func TestPenRuns(t *testing.T) {
	p := &pen{regular: "DejaVuSans.ttf"}
	lib := &pen{regular: "LiberationSans-Regular.ttf"}
	if got, err := lib.runs("١.٢.٢٠٢٥"); err != nil || len(got) != 1 || got[0].font != 0 {
		t.Errorf("Arabic-Indic digits in a Liberation face: runs %v (%v), want one of DejaVu Sans", got, err)
	}
	for _, c := range []struct {
		in   string
		want []penRun
	}{
		{"17 мар. 2025 г.", []penRun{{-1, "17 мар. 2025 г."}}},
		{"2025年3月17日", []penRun{{-1, "2025"}, {5, "年3月17日"}}},
		{"17 मार्च 2025", []penRun{{-1, "17 "}, {1, "मार्च 2025"}}},
	} {
		got, err := p.runs(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: runs %v, want %v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: runs %v, want %v", c.in, got, c.want)
				break
			}
		}
	}
}

// TestWorldPrintsScripts: a world statement that dates in Han characters
// ("2025年3月17日") is drawn by fpdf with a font that carries them beside
// its face (embedded: more font files than the face's regular and bold),
// not as empty boxes.
func TestWorldPrintsScripts(t *testing.T) {
	for seed := int64(1); seed < 5000; seed++ {
		s, err := GenerateWorld(seed, WorldOptions{Short: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Printed.Dates) == 0 || !strings.Contains(s.Printed.Dates[0], "月") {
			continue
		}
		if n := bytes.Count(s.PDF, []byte("/FontFile2")); n <= 2 {
			t.Errorf("seed %d (%s, dates like %s): %d fonts embedded, want the face's two and a fallback for Han", seed, s.Locale.ID, s.Printed.Dates[0], n)
		}
		return
	}
	t.Fatal("no statement of dates in Han characters among 5000 seeds")
}
