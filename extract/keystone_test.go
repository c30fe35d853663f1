package extract

import (
	"fmt"
	"testing"

	"passbook/extract/layout"
	"passbook/extract/source"
)

// A photo taken at an angle widens the page towards its foot: figures of
// the amount column drift under the balance column's. Straightened, the
// columns come apart and the rows read as printed; a scan's upright page
// is left as it is.
func TestStraightenColumns(t *testing.T) {
	lines := [][]cellAt{
		{at(10, "Statement period 01/05/2024 to 31/05/2024")},
		nil,
		{at(10, "Date"), at(90, "Description"), at(420, "Amount"), at(480, "Balance")},
		{at(90, "Opening balance"), rat(540, "1,000.00")},
	}
	var want []string
	bal := 100000
	for d := 1; d <= 24; d++ {
		amt := 1234 + 97*d
		bal -= amt
		lines = append(lines, []cellAt{at(10, fmt.Sprintf("%02d/05/2024", d)), at(90, "CARD PAYMENT"), rat(470, plain(amt)), rat(540, plain(bal))})
		want = append(want, fmt.Sprintf("2024-05-%02d|CARD PAYMENT||%s|%s", d, plain(amt), plain(bal)))
	}
	lines[3] = []cellAt{at(90, "Opening balance"), rat(540, plain(100000))}
	pg := synthPage(1, lines...)
	pg.OCR = true
	upright := pg
	upright.Words = append([]source.Word(nil), pg.Words...)
	// Keystone: each line is stretched about x=0 by up to a quarter at the
	// page's foot, and shifted left a little.
	for i, w := range pg.Words {
		k := 1 + 0.25*(w.Y0-40)/float64(12*len(lines))
		pg.Words[i].X0, pg.Words[i].X1 = w.X0*k-0.02*w.Y0, w.X1*k-0.02*w.Y0
	}
	if got := layout.StraightenColumns(upright); !sameWords(got.Words, upright.Words) {
		t.Errorf("an upright page's words were moved")
	}
	checkTxs(t, Analyze([]source.Page{pg}), want)
}

func plain(cents int) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

func sameWords(a, b []source.Word) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
