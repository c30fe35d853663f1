package extract

import (
	"math/rand/v2"
	"strings"
	"testing"

	"passbook/extract/lexicon"
	words "passbook/extract/synth/vocab"
)

// enginePhrases is every phrase the engine's lexicon matches, folded: the
// lists the rules read (with the balance names composed from titles and
// modifiers), not the month names, which come from the dates.
func enginePhrases() map[string]bool {
	out := map[string]bool{}
	add := func(ps []string) {
		for _, p := range ps {
			out[strings.TrimSpace(lexicon.FoldLabel(p))] = true
		}
	}
	v := lexicon.Vocab()
	for _, rp := range v.Headings {
		add(rp.Phrases)
	}
	for _, ps := range [][]string{v.SectionIn, v.SectionOut, v.SectionTitles, v.CardSectionIn, v.CardSectionOut,
		v.BalanceTitles, v.Opening, v.Closing, v.Totals, v.Stats, v.TotalIn, v.TotalOut,
		v.Account, v.Period, v.Currency, v.Posting, v.Card, v.IndicatorOut, v.IndicatorIn} {
		add(ps)
	}
	return out
}

// heldOutCollisions lists the engine phrases a phrase holds: the whole
// phrase, any of its words of three letters or more, or any engine phrase
// of several words inside it. Words of one or two letters ("de", "a") are
// joining words in every language; a whole phrase of them still counts.
func heldOutCollisions(engine map[string]bool, phrase string) []string {
	f := strings.TrimSpace(lexicon.FoldLabel(phrase))
	var hits []string
	if engine[f] {
		hits = append(hits, f)
	}
	for _, w := range strings.Fields(f) {
		if len([]rune(w)) >= 3 && engine[w] && w != f {
			hits = append(hits, w)
		}
	}
	for p := range engine {
		if strings.Contains(p, " ") && p != f && lexicon.ContainsPhrase(" "+f+" ", p) {
			hits = append(hits, p)
		}
	}
	return hits
}

// TestHeldOutWordsStayHeldOut fails when the engine's lexicon learns a
// word of a held-out language or an invented word: make eval-world's
// held-out and invented scores then measure something the engine was
// taught. A language moves into the lexicon only if another is held out in
// its place (extract/synth/vocab).
func TestHeldOutWordsStayHeldOut(t *testing.T) {
	engine := enginePhrases()
	langs := map[string]bool{}
	for _, lx := range words.HeldOutLexicons {
		langs[lx.Lang] = true
		for _, p := range lx.Phrases() {
			if hits := heldOutCollisions(engine, p); len(hits) > 0 {
				t.Errorf("held-out %s phrase %q is in the engine's lexicon as %q", lx.Lang, p, hits)
			}
		}
	}
	if len(langs) < 8 {
		t.Errorf("%d held-out languages, want at least 8", len(langs))
	}
	r := rand.New(rand.NewPCG(27, 1))
	for range 300 {
		lx := words.InventedLexicon(r)
		for _, p := range lx.Phrases() {
			if hits := heldOutCollisions(engine, p); len(hits) > 0 {
				t.Errorf("invented phrase %q is in the engine's lexicon as %q", p, hits)
			}
		}
	}
}

// TestKnownWordsAreKnown holds the other end: the known vocabulary's
// headings and balance lines are phrases the engine's lexicon holds, so
// make eval-world's "known" figure is the engine on its own words.
func TestKnownWordsAreKnown(t *testing.T) {
	engine := enginePhrases()
	for _, lx := range words.KnownLexicons {
		for _, ps := range [][]string{lx.Date, lx.Desc, lx.Debit, lx.Credit, lx.Amount, lx.Balance, lx.Opening, lx.Closing} {
			for _, p := range ps {
				if !engine[strings.TrimSpace(lexicon.FoldLabel(p))] {
					t.Errorf("known %s phrase %q is not in the engine's lexicon", lx.Lang, p)
				}
			}
		}
	}
}
