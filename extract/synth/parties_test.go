package synth

import (
	"testing"

	"passbook/extract"
	"passbook/extract/engine"
)

// TestPartiesOnGeneratedPages converts generated statements in every
// language the generator writes and checks the bank and the holder the
// engine names against the letterhead and the address block the page
// prints. fpdf's files name only "passbook synth" as their creator, so
// the bank must come from the page itself; Chromium's carry the bank as
// their title, which the page prints too.
func TestPartiesOnGeneratedPages(t *testing.T) {
	eng := engine.New()
	langs := map[string]int{}
	var samples []Sample
	for seed := int64(1); len(samples) < 14 && seed < 400; seed++ {
		s, err := Generate(seed, Options{OnePage: true})
		if err != nil {
			t.Fatal(err)
		}
		if langs[s.layout.Lang] >= 2 {
			continue
		}
		langs[s.layout.Lang]++
		samples = append(samples, s)
	}
	if len(langs) < 5 {
		t.Fatalf("the seeds gave %d languages, want 5 or more", len(langs))
	}
	check := func(s Sample) {
		t.Helper()
		res, err := eng.Convert(s.PDF, extract.Options{})
		if err != nil {
			t.Fatalf("seed %d (%s, %s): %v", s.Seed, s.layout.Lang, s.Producer, err)
		}
		st, want := res.Statement, s.Truth.Statement
		if st.Bank != want.Bank {
			t.Errorf("seed %d (%s, %s): bank %q, want %q", s.Seed, s.layout.Lang, s.Producer, st.Bank, want.Bank)
		}
		if st.Holder != want.Holder {
			t.Errorf("seed %d (%s, %s): holder %q, want %q", s.Seed, s.layout.Lang, s.Producer, st.Holder, want.Holder)
		}
	}
	for _, s := range samples {
		check(s)
	}
	printed, err := Print("chromium", samples[:3])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range printed {
		check(s)
	}
}
