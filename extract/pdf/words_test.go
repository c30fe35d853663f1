package pdf

import (
	"reflect"
	"testing"

	"passbook/extract/source"
)

// TestGroupWords checks the grouping of MuPDF's characters into words:
// breaks on white space, on a new line and on a gap wider than a narrow
// space; an overlap far back is a new word; a zero-width U+FFFD is dropped;
// text of any script keeps its bytes, each word its own box.
func TestGroupWords(t *testing.T) {
	// chars lays out s on line 0 from x, 5 points a character, 10 tall;
	// '|' starts line 1 at x again, '_' is a 3-point gap.
	chars := func(s string) []rawChar {
		var out []rawChar
		x, line := 0.0, 0
		for _, r := range s {
			switch r {
			case '|':
				x, line = 0, line+1
				continue
			case '_':
				x += 3
				continue
			}
			out = append(out, rawChar{r, line, x, 0, x + 5, 10})
			x += 5
		}
		return out
	}
	// leftward lays out s's characters from right to left, 5 points each,
	// ending at x 0: the order MuPDF gives a right-to-left run in.
	leftward := func(s string) []rawChar {
		rs := []rune(s)
		var out []rawChar
		for i, r := range rs {
			x := float64(5 * (len(rs) - 1 - i))
			out = append(out, rawChar{r, 0, x, 0, x + 5, 10})
		}
		return out
	}
	word := func(text string, x0, x1 float64) source.Word {
		return source.Word{Text: text, X0: x0, Y0: 0, X1: x1, Y1: 10}
	}
	for _, tc := range []struct {
		name  string
		chars []rawChar
		want  []source.Word
	}{
		{"empty", nil, nil},
		{"spaces only", chars("   "), nil},
		{"two words", chars("12.50 Café"), []source.Word{word("12.50", 0, 25), word("Café", 30, 50)}},
		{"new line breaks", chars("ab|cd"), []source.Word{word("ab", 0, 10), word("cd", 0, 10)}},
		{"gap breaks", chars("ab_cd"), []source.Word{word("ab", 0, 10), word("cd", 13, 23)}},
		{"multi-byte", chars("€ 1 234,00 Überweisung"), []source.Word{word("€", 0, 5), word("1", 10, 15), word("234,00", 20, 50), word("Überweisung", 55, 110)}},
		{"zero-width replacement dropped", []rawChar{{'a', 0, 0, 0, 5, 10}, {0xFFFD, 0, 5, 0, 5, 10}, {'b', 0, 5, 0, 10, 10}},
			[]source.Word{word("a", 0, 5), word("b", 5, 10)}},
		{"overlap far back breaks", []rawChar{{'a', 0, 20, 0, 25, 10}, {'b', 0, 5, 0, 10, 10}},
			[]source.Word{word("a", 20, 25), word("b", 5, 10)}},
		// MuPDF gives a right-to-left run right to left (issue 39): the
		// year ٢٠٢٥ as ٥, ٢, ٠, ٢ from x 15 down to 0, and an Arabic word
		// in its reading order from the right.
		{"arabic-indic digits right to left", leftward("٥٢٠٢"), []source.Word{word("٢٠٢٥", 0, 20)}},
		{"date right to left", leftward("٣٢/٦٠/٢٠"), []source.Word{word("٠٢/٠٦/٢٣", 0, 40)}},
		// LibreOffice's PDFs come back with the groups of a date's
		// digits reversed, each group left to right.
		{"digit groups reversed", func() []rawChar {
			var out []rawChar
			for _, c := range []struct {
				r rune
				x float64
			}{{'.', 10}, {'.', 25}, {'٢', 30}, {'٠', 35}, {'٢', 40}, {'٢', 45}, {'٠', 15}, {'١', 20}, {'١', 0}, {'١', 5}} {
				out = append(out, rawChar{c.r, 0, c.x, 0, c.x + 5, 10})
			}
			return out
		}(), []source.Word{word("١١.٠١.٢٠٢٢", 0, 50)}},
		{"arabic word right to left", leftward("سلام"), []source.Word{word("سلام", 0, 20)}},
		{"latin drawn backwards stays apart", leftward("ab"), []source.Word{word("a", 5, 10), word("b", 0, 5)}},
		{"invalid rune", []rawChar{{'a', 0, 0, 0, 5, 10}, {-1, 0, 5, 0, 10, 10}}, []source.Word{word("a\uFFFD", 0, 10)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := groupWords(len(tc.chars), func(i int) rawChar { return tc.chars[i] })
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if len(got) != cap(got) {
				t.Errorf("%d words in a slice of %d: made to size", len(got), cap(got))
			}
		})
	}
}
