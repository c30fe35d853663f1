package ocr

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// TestPageClockCountsThreadCPU: a pass that spins counts its CPU, and
// the first pass's cost is what the budget weighs the next by.
func TestPageClockCountsThreadCPU(t *testing.T) {
	c := &pageClock{budget: time.Hour}
	spin := func() error {
		x := 0
		for t0 := threadCPU(); threadCPU()-t0 < 20*time.Millisecond; {
			x++
		}
		_ = x
		return nil
	}
	c.run(spin)
	if c.first < 20*time.Millisecond || c.spent != c.first {
		t.Fatalf("after one 20 ms pass: first %v spent %v", c.first, c.spent)
	}
	if !c.affords() || c.skipped {
		t.Fatalf("an hour's budget does not afford a second pass of %v", c.first)
	}
	c.budget = c.first + c.first/2
	if c.affords() || !c.skipped {
		t.Fatalf("a budget of %v affords a second pass of %v", c.budget, c.first)
	}
}

// TestPageOutOfCPU: a page whose first reading used its CPU budget is
// read once, in English (its accents lost), and says so; with the
// budget Read gives, the same page is read with its language's model and
// has no such warning.
func TestPageOutOfCPU(t *testing.T) {
	g, _ := renderFixture(t, "fr_debit_credit", 200)
	accents := func(ws []string) int {
		n := 0
		for _, w := range ws {
			if strings.IndexFunc(w, func(r rune) bool { return r > unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
				n++
			}
		}
		return n
	}
	texts := func(opt readOptions) ([]string, []string) {
		pg, err := readPrepared(g, 200, 1, opt)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, w := range pg.Words {
			out = append(out, w.Text)
		}
		return out, pg.Warnings
	}
	short, warned := texts(readOptions{blockFigures: true, reread: true, cpu: time.Nanosecond})
	if !slices.Contains(warned, tooSlow) {
		t.Errorf("out of CPU, warnings %q, want %q", warned, tooSlow)
	}
	full, warned := texts(readOptions{blockFigures: true, reread: true, cpu: pageCPU})
	if len(warned) > 0 {
		t.Errorf("within its budget, warnings %q", warned)
	}
	if a, b := accents(short), accents(full); a >= b || b < 3 {
		t.Errorf("accented words: %d read once, %d read fully; want the full reading's (at least 3) over the single one", a, b)
	}
}
