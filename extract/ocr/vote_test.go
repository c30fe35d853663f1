package ocr

import (
	"cmp"
	"image"
	"strings"
	"testing"
)

// w makes a word on line (1,1,line) spanning x0–x1, 20 px tall on row y.
func vw(text string, x0, x1, y, line int) ocrWord {
	return ocrWord{text: text, box: image.Rect(x0, y, x1, y+20), conf: 90, line: [3]int{1, 1, line}}
}

func texts(ws []ocrWord) string {
	var s []string
	for _, w := range ws {
		s = append(s, w.text)
	}
	return strings.Join(s, " ")
}

// TestMergeFigures: each case's words after the merge, and the other
// reading each carries (alts, "-" for none) where the case says: where
// the two modes read other digits or sign in one place, the figure kept
// carries the other reading for a third to settle; where they agree, or
// differ only in marks, it carries none.
func TestMergeFigures(t *testing.T) {
	for _, tc := range []struct {
		name          string
		sparse, block []ocrWord
		want, alts    string
	}{
		{
			name:   "a decimal point lost: the pieces give way to the whole figure",
			sparse: []ocrWord{vw("Rent", 0, 60, 100, 1), vw("351", 300, 340, 100, 2), vw("20", 346, 366, 100, 2)},
			block:  []ocrWord{vw("Rent", 0, 60, 100, 1), vw("351.20", 300, 366, 100, 1)},
			want:   "Rent 351.20",
			alts:   "- -",
		},
		{
			name:   "a group cut off",
			sparse: []ocrWord{vw("10,", 290, 318, 100, 2), vw("392.27", 322, 380, 100, 2), vw("20,278.57", 420, 510, 100, 3)},
			block:  []ocrWord{vw("10,392.27", 290, 380, 100, 1), vw("20,278.57", 420, 510, 100, 1)},
			want:   "10,392.27 20,278.57",
		},
		{
			name:   "garbled digits, read whole in block mode",
			sparse: []ocrWord{vw("1O7.45", 300, 360, 100, 2)},
			block:  []ocrWord{vw("107.45", 300, 360, 100, 1)},
			want:   "107.45", // letters that look like digits: a garbled figure
		},
		{
			name:   "decimals garbled into letters that look like digits",
			sparse: []ocrWord{vw("215", 300, 340, 100, 2), vw("-ol", 344, 366, 100, 2)},
			block:  []ocrWord{vw("215.51", 300, 366, 100, 1)},
			want:   "215.51",
		},
		{
			name:   "a figure garbled into marks",
			sparse: []ocrWord{vw("195:92;", 300, 362, 100, 2)},
			block:  []ocrWord{vw("195.92", 300, 360, 100, 1)},
			want:   "195.92",
		},
		{
			name:   "a date the sparse mode dropped is added",
			sparse: []ocrWord{vw("Coffee", 100, 160, 100, 2), vw("4.50", 300, 340, 100, 3)},
			block:  []ocrWord{vw("03/02/2024", 0, 90, 100, 1), vw("Coffee", 100, 160, 100, 1), vw("4.50", 300, 340, 100, 1)},
			want:   "Coffee 4.50 03/02/2024",
		},
		{
			name:   "two whole figures that disagree: sparse stays, block's is the other reading",
			sparse: []ocrWord{vw("300.00", 300, 360, 100, 2)},
			block:  []ocrWord{vw("200.00", 300, 360, 100, 1)},
			want:   "300.00",
			alts:   "200.00",
		},
		{
			name:   "pieces with other digits than the block's figure",
			sparse: []ocrWord{vw("215", 300, 340, 100, 2), vw("51", 346, 366, 100, 2)},
			block:  []ocrWord{vw("215.01", 300, 366, 100, 1)},
			want:   "215.01",
			alts:   "21551",
		},
		{
			name:   "a sign one mode lost",
			sparse: []ocrWord{vw("-5,607.72", 280, 366, 100, 2)},
			block:  []ocrWord{vw("5,607.72", 288, 366, 100, 1)},
			want:   "-5,607.72",
			alts:   "5,607.72",
		},
		{
			name:   "the same figure, marks apart",
			sparse: []ocrWord{vw("1.234,56", 300, 380, 100, 2)},
			block:  []ocrWord{vw("1,234.56", 300, 380, 100, 1)},
			want:   "1.234,56",
			alts:   "-",
		},
		{
			name:   "words with letters under the figure: sparse stays",
			sparse: []ocrWord{vw("INV", 300, 330, 100, 2), vw("2024", 334, 370, 100, 2)},
			block:  []ocrWord{vw("12.20", 300, 370, 100, 1)},
			want:   "INV 2024",
		},
		{
			name:   "a figure the block mode cut short is not taken",
			sparse: []ocrWord{vw("1,234.56", 280, 366, 100, 2)},
			block:  []ocrWord{vw("234.56", 310, 366, 100, 1)},
			want:   "1,234.56",
		},
		{
			name:   "a figure on the next row is not this row's",
			sparse: []ocrWord{vw("351", 300, 340, 100, 2), vw("20", 346, 366, 100, 2)},
			block:  []ocrWord{vw("351.20", 300, 366, 130, 1)},
			want:   "351 20 351.20",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			merged := mergeFigures(tc.sparse, tc.block)
			if got := texts(merged); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			var alts []string
			for _, w := range merged {
				alts = append(alts, cmp.Or(w.alt, "-"))
			}
			if got := strings.Join(alts, " "); tc.alts != "" && got != tc.alts {
				t.Errorf("other readings %q, want %q", got, tc.alts)
			}
		})
	}
}

func TestIsWholeFigure(t *testing.T) {
	for s, want := range map[string]bool{
		"351.20": true, "1,234.56": true, "1.234,56": true, "-6,368.06": true, "(1,469.00)": true,
		"12.50CR": true, "$4.50": true, "03/02/2024": true, "3.2.24": true, "2024-03-02": true,
		"351": false, "20": false, "10,": false, "E9592": false, "1O7.45": false, "INV": false,
	} {
		if got := isWholeFigure(s); got != want {
			t.Errorf("isWholeFigure(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSuspectFigures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		words []ocrWord
		want  int
	}{
		{"whole figures and text", []ocrWord{vw("03/02", 0, 50, 100, 1), vw("SHELL", 60, 110, 100, 1), vw("0042", 120, 160, 100, 1), vw("1,234.56", 300, 380, 100, 1)}, 0},
		{"a lost decimal point", []ocrWord{vw("351", 300, 340, 100, 1), vw("20", 346, 366, 100, 1)}, 1},
		{"a number and a distant two-digit word", []ocrWord{vw("351", 300, 340, 100, 1), vw("20", 400, 420, 100, 1)}, 0},
		{"a number and two digits on the next line", []ocrWord{vw("351", 300, 340, 100, 1), vw("20", 346, 366, 130, 2)}, 0},
		{"a lost decimal point, the halves on lines of their own", []ocrWord{vw("20", 346, 366, 101, 7), vw("Rent", 0, 60, 100, 1), vw("351", 300, 340, 100, 2)}, 1},
		{"a group cut off", []ocrWord{vw("10,", 290, 318, 100, 1), vw("392.27", 322, 380, 100, 1)}, 1},
		{"garbled marks", []ocrWord{vw("195:92;", 300, 362, 100, 1)}, 1},
	} {
		if got := suspectFigures(tc.words); got != tc.want {
			t.Errorf("%s: %d suspect, want %d", tc.name, got, tc.want)
		}
	}
}

func TestJoinCutThousands(t *testing.T) {
	for _, tc := range []struct {
		name  string
		words []ocrWord
		want  string
	}{
		{
			name:  "cut after the thousands mark, the sign kept",
			words: []ocrWord{vw("CAFE", 0, 60, 100, 1), vw("6,", 300, 318, 100, 2), vw("368.06-", 325, 410, 100, 3)},
			want:  "CAFE 6,368.06-",
		},
		{
			name:  "a decimal comma's page",
			words: []ocrWord{vw("12.", 300, 330, 100, 2), vw("800,78", 336, 400, 100, 3)},
			want:  "12.800,78",
		},
		{
			name:  "the same mark twice is a decimal point, not a cut",
			words: []ocrWord{vw("6.", 300, 318, 100, 2), vw("368.06", 325, 400, 100, 3)},
			want:  "6. 368.06",
		},
		{
			name:  "farther than a word space: two columns",
			words: []ocrWord{vw("6,", 300, 318, 100, 2), vw("368.06", 350, 430, 100, 3)},
			want:  "6, 368.06",
		},
		{
			name:  "on another line",
			words: []ocrWord{vw("6,", 300, 318, 100, 2), vw("368.06", 325, 400, 130, 3)},
			want:  "6, 368.06",
		},
		{
			name:  "not three digits after the mark",
			words: []ocrWord{vw("6,", 300, 318, 100, 2), vw("36.06", 325, 380, 100, 3)},
			want:  "6, 36.06",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := texts(joinCutThousands(tc.words)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
