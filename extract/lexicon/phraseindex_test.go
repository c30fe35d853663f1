package lexicon

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"passbook/extract/source"
)

// vocabLists are the lexicon's phrase lists that lines are searched for.
func vocabLists() map[string][]string {
	v := Vocab()
	lists := map[string][]string{
		"sectionIn": v.SectionIn, "sectionOut": v.SectionOut, "sectionTitles": v.SectionTitles,
		"cardSectionIn": v.CardSectionIn, "cardSectionOut": v.CardSectionOut, "balanceTitles": v.BalanceTitles,
		"opening": v.Opening, "closing": v.Closing, "totals": v.Totals, "stats": v.Stats,
		"totalIn": v.TotalIn, "totalOut": v.TotalOut, "account": v.Account, "period": v.Period,
		"currency": v.Currency, "posting": v.Posting, "card": v.Card,
	}
	for _, h := range v.Headings {
		lists["heading"+h.Phrases[0]] = h.Phrases
	}
	return lists
}

// TestFirstPhraseScansInOrder checks the index against what it replaced:
// the first phrase of the list, in the list's order, that the folded line
// holds as whole words (containsPhrase), at its first place in the line.
// The lines are the lexicon's own phrases and pieces of them, run
// together with other words, so that phrases overlap, repeat, start
// inside one another and stop a word short.
func TestFirstPhraseScansInOrder(t *testing.T) {
	lists := vocabLists()
	var words []string
	for _, l := range lists {
		for _, p := range l {
			words = append(words, strings.Fields(p)...)
		}
	}
	words = append(words, "12.50", "2024", "x", "de", "the", "a")
	rng := rand.New(rand.NewPCG(32, 1))
	lines := []string{"", " ", "balance", "Opening  balance  ", "  opening balance"}
	for range 3000 {
		var b []string
		for range 1 + rng.IntN(8) {
			switch rng.IntN(3) {
			case 0:
				b = append(b, words[rng.IntN(len(words))])
			default:
				for _, l := range lists {
					if len(l) > 0 && rng.IntN(len(lists)) == 0 {
						f := strings.Fields(l[rng.IntN(len(l))])
						b = append(b, f[:1+rng.IntN(len(f))]...)
					}
				}
			}
		}
		lines = append(lines, strings.Join(b, " "))
	}
	found := 0
	for name, list := range lists {
		for _, line := range lines {
			for _, f := range []string{FoldLabel(line), line} {
				want, wantAt := -1, -1
				for k, p := range list {
					if ContainsPhrase(f, p) {
						want, wantAt = k, strings.Index(f, " "+p+" ")+1
						break
					}
				}
				got, at := FirstPhrase(f, list)
				if got != want || at != wantAt {
					t.Fatalf("%s: FirstPhrase(%q) = %d at %d, want %d at %d", name, f, got, at, want, wantAt)
				}
				if got >= 0 {
					found++
				}
			}
		}
	}
	if found < len(lines) {
		t.Errorf("only %d of the lines hold a phrase of some list: the lines test too little", found)
	}
}

// TestPhraseSpan checks the words a phrase spans: the first phrase of the
// list that the words hold, not the first phrase in the words.
func TestPhraseSpan(t *testing.T) {
	list := []string{"closing balance", "balance", "new balance"}
	for _, c := range []struct {
		text       string
		start, end int
	}{
		{"Balance brought forward", 0, 1},
		{"New balance: Closing Balance 12.00", 2, 4},
		{"New balance 12.00", 1, 2}, // "balance" stands before "new balance" in the list
		{"Total CLOSING balance 12.00", 1, 3},
		{"Closing-balance 12.00", 0, 1}, // one word folds to two
		{"Closing - balance", 0, 3},     // a word that folds to none
		{"Balance B/F balance", 0, 1},
		{"Total: CLOSING BALANCE é", 1, 3},
		{"Nothing here", -1, -1},
		{"", -1, -1},
	} {
		var ws []source.Word
		for _, f := range strings.Fields(c.text) {
			ws = append(ws, source.Word{Text: f})
		}
		if start, end := PhraseSpan(ws, list); start != c.start || end != c.end {
			t.Errorf("PhraseSpan(%q) = %d, %d; want %d, %d", c.text, start, end, c.start, c.end)
		}
	}
}

// TestFoldASCII checks FoldLabel's ASCII path against its Unicode path:
// a combining accent at the end sends text down the Unicode path, which
// drops it.
func TestFoldASCII(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 2))
	cases := []string{"", " ", "  ", "-", "Balance B/F", "CLOSING BALANCE 1,234.56", "\tOpening\nbalance\x00", "a", "Z9", "MAERZ", "Sept."}
	for range 5000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = byte(rng.IntN(0x80))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := FoldLabel(s), FoldLabel(s+"\u0301"); got != want {
			t.Fatalf("FoldLabel(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestPhraseList checks the order phrase lists are searched in: each
// phrase once, more words first, then more letters, and phrases equal in
// both in the order they were given.
func TestPhraseList(t *testing.T) {
	in := []string{"b", "saldo", "opening balance", "a", "saldo", "new balance", "saldo anterior", "b", "cd", "balance b f", "ab"}
	got := phraseList(in)
	want := []string{"balance b f", "opening balance", "saldo anterior", "new balance", "saldo", "cd", "ab", "b", "a"}
	if !slices.Equal(got, want) {
		t.Errorf("phraseList(%q) = %q, want %q", in, got, want)
	}
	if got := phraseList(nil); got != nil {
		t.Errorf("phraseList(nil) = %q, want nil", got)
	}
}

// TestNormalPhrase checks normalPhrase against what it stands for.
func TestNormalPhrase(t *testing.T) {
	for _, p := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "saldo anterior", "b f"} {
		if got, want := normalPhrase(p), p != "" && p == strings.Join(strings.Fields(p), " "); got != want {
			t.Errorf("normalPhrase(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestPhraseSpanWords checks phraseSpan on the lexicon's phrases run
// together with other words and punctuation, against the words each
// folded word came from: the first phrase of the list the line holds, at
// its first place, from the word holding its first folded word to the
// word holding its last.
func TestPhraseSpanWords(t *testing.T) {
	list := Vocab().Closing
	rng := rand.New(rand.NewPCG(32, 4))
	pieces := []string{"-", "12.00", "B/F", "Saldo:", "é", "Übertrag", "balance", "new", "closing", "total"}
	for range 3000 {
		var ws []source.Word
		for range 1 + rng.IntN(7) {
			if rng.IntN(2) == 0 {
				ws = append(ws, source.Word{Text: pieces[rng.IntN(len(pieces))]})
				continue
			}
			for _, f := range strings.Fields(list[rng.IntN(len(list))]) {
				if rng.IntN(4) == 0 {
					f = strings.ToUpper(f) + ":"
				}
				ws = append(ws, source.Word{Text: f})
			}
		}
		type tok struct {
			s    string
			word int
		}
		var toks []tok
		for i, w := range ws {
			for _, f := range strings.Fields(FoldLabel(w.Text)) {
				toks = append(toks, tok{f, i})
			}
		}
		wantStart, wantEnd := -1, -1
	phrases:
		for _, p := range list {
			ps := strings.Fields(p)
		at:
			for s := 0; s+len(ps) <= len(toks); s++ {
				for k, f := range ps {
					if toks[s+k].s != f {
						continue at
					}
				}
				wantStart, wantEnd = toks[s].word, toks[s+len(ps)-1].word+1
				break phrases
			}
		}
		if start, end := PhraseSpan(ws, list); start != wantStart || end != wantEnd {
			t.Fatalf("PhraseSpan(%v) = %d, %d; want %d, %d", ws, start, end, wantStart, wantEnd)
		}
	}
}
