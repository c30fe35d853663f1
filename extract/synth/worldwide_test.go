package synth

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"passbook/extract/synth/vocab"
)

// TestWorldWideReadBack forces each of worldwide.go's variations, date
// forms and traits alone, in a family each fits, and reads the truth back
// from the PDF fpdf printed: each is drawn, and the truths stay what the
// pages say.
func TestWorldWideReadBack(t *testing.T) {
	families := map[string]string{"kv-three-across": "kv-blocks", "kanji-date": "table", "fullwidth-digits": "table"}
	var names []string
	names = append(names, WorldVariations...)
	names = append(names, wideTraits...)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			family := families[name]
			if family == "" {
				family = []string{"table", "ref-column", "multiline"}[i%3]
			}
			var got []string
			for k := range 40 {
				opts := WorldOptions{Family: family, Vocab: vocab.Classes[k%3], Variations: []string{name}, Traits: []string{name}}
				s, err := GenerateWorld(int64(3900+100*i+k), opts)
				if err != nil {
					t.Fatal(err)
				}
				got = append(s.Variations, s.Traits...)
				if !slices.Contains(got, name) {
					continue // the draw did not fit (a card, a locale, a signed column): another seed
				}
				readBack(t, s)
				if name == "kanji-date" || name == "fullwidth-digits" {
					if !strings.ContainsAny(s.Printed.Dates[0], "年０１２３４５６７８９") {
						t.Errorf("date %q", s.Printed.Dates[0])
					}
				}
				if name == "buddhist-era" {
					be := fmt.Sprint(s.Truth.Transactions[0].Date[:4])
					if strings.Contains(s.Printed.Dates[0], be) || !strings.Contains(s.Printed.Dates[0], "25") {
						t.Errorf("Buddhist-era date %q for %s", s.Printed.Dates[0], s.Truth.Transactions[0].Date)
					}
				}
				return
			}
			t.Errorf("no seed printed %s in %s (last drew %v)", name, family, got)
		})
	}
}

// TestWorldProducersReadBack prints world statements through each of the
// world's own producers and reads every truth back from the PDF's text;
// each producer prints most of them whole (those it cannot, for a script
// its fonts lack, it leaves out, and says so).
func TestWorldProducersReadBack(t *testing.T) {
	var samples []WorldSample
	for i := range 6 {
		s, err := GenerateWorld(int64(4700+i), WorldOptions{Vocab: vocab.Classes[i%3]})
		if err != nil {
			t.Fatal(err)
		}
		if s.Family != "screenshot" {
			samples = append(samples, s)
		}
	}
	for _, p := range WorldProducers[len(Producers):] {
		t.Run(p, func(t *testing.T) {
			printed, err := PrintWorld(p, samples)
			if err != nil && !errors.Is(err, ErrUnprintable) {
				t.Fatal(err)
			}
			if len(printed) < len(samples)/3 {
				t.Errorf("%d of %d statements printed whole: %v", len(printed), len(samples), err)
			}
			for _, s := range printed {
				if s.Producer != p {
					t.Errorf("%s printed by %s", s, s.Producer)
				}
				readBack(t, s)
			}
		})
	}
}

// TestWorldBuddhistEraYearlessDates prints a year-end statement's dates,
// which print no year, in the Buddhist era: no day that prints the
// year's two digits ("22/5" of 2022) turns into the era's year.
func TestWorldBuddhistEraYearlessDates(t *testing.T) {
	for k := range 60 {
		s, err := GenerateWorld(int64(9100+k), WorldOptions{Family: "year-end", Vocab: vocab.Classes[k%3], Variations: []string{"buddhist-era"}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(s.Variations, "buddhist-era") {
			continue
		}
		for _, d := range s.Printed.Dates {
			// A day and a month print four digits at most.
			if digits := strings.Count(strings.Map(func(r rune) rune { return map[bool]rune{true: 'd', false: -1}[r >= '0' && r <= '9'] }, d), "d"); digits > 4 {
				t.Fatalf("seed %d: yearless date %q prints the era's year", 9100+k, d)
			}
		}
		return
	}
	t.Fatal("no seed drew a year-end statement in the Buddhist era")
}
