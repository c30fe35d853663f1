package synth

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"passbook/extract/synth/vocab"
)

// squash writes every run of white space (no-break and narrow no-break
// spaces too) as one space, as pdfText does.
func squash(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// TestWorldFamiliesReadBack reads each family's truth back from the text
// of the PDF fpdf printed, in each vocabulary: every row's date and amount
// as the statement prints them, every description's words and the printed
// opening and closing balances are there, and the truth has a row for
// every amount printed. The generator's truths are what its pages say.
func TestWorldFamiliesReadBack(t *testing.T) {
	for _, family := range WorldFamilies {
		for k, class := range vocab.Classes {
			seed := int64(1000 + 10*slices.Index(WorldFamilies, family) + k)
			t.Run(fmt.Sprintf("%s/%s", family, class), func(t *testing.T) {
				s, err := GenerateWorld(seed, WorldOptions{Family: family, Vocab: class})
				if err != nil {
					t.Fatal(err)
				}
				readBack(t, s)
				if s.Family != family || s.Vocab != class {
					t.Errorf("made %s in %s, want %s in %s", s.Family, s.Vocab, family, class)
				}
			})
		}
	}
}

// TestWorldTraitsReadBack reads back statements made with every trait
// forced, in the families each fits: each trait is printed somewhere, and
// the truths stay what the pages say.
func TestWorldTraitsReadBack(t *testing.T) {
	made := map[string]int{}
	// Newest first and a card take the place of day-balance lines: a
	// second round leaves them out.
	rounds := [][]string{WorldTraits, slices.DeleteFunc(slices.Clone(WorldTraits), func(t string) bool { return t == "newest-balance-only" || t == "card-positive" })}
	for k, traits := range rounds {
		for i, family := range WorldFamilies {
			s, err := GenerateWorld(int64(3100+100*k+i), WorldOptions{Family: family, Vocab: vocab.Invented, Traits: traits})
			if err != nil {
				t.Fatal(err)
			}
			t.Run(fmt.Sprintf("%s/%d", family, k), func(t *testing.T) { readBack(t, s) })
			for _, tr := range s.Traits {
				made[tr]++
			}
		}
	}
	for _, tr := range WorldTraits {
		if made[tr] == 0 {
			t.Errorf("no family printed trait %s", tr)
		}
	}
}

// readBack holds a world statement's truth to the text of its PDF.
func readBack(t *testing.T, s WorldSample) {
	t.Helper()
	text := pdfText(t, s.PDF)
	p := s.Printed
	if len(p.Amounts) != len(s.Truth.Transactions) || len(p.Dates) != len(p.Amounts) {
		t.Fatalf("%d amounts and %d dates printed for %d true rows", len(p.Amounts), len(p.Dates), len(s.Truth.Transactions))
	}
	for i := range p.Amounts {
		if !strings.Contains(text, squash(p.Amounts[i])) {
			t.Errorf("row %d: amount %q not in the PDF's text", i, p.Amounts[i])
		}
		if !strings.Contains(text, squash(p.Dates[i])) && !strings.Contains(text, mupdfOrder(squash(p.Dates[i]))) {
			t.Errorf("row %d: date %q not in the PDF's text", i, p.Dates[i])
		}
	}
	for i, tx := range s.Truth.Transactions {
		for _, w := range strings.Fields(tx.Description) {
			if !strings.Contains(text, w) {
				t.Errorf("row %d: description word %q not in the PDF's text", i, w)
			}
		}
	}
	for _, b := range []string{p.Opening, p.Closing} {
		if b != "" && !strings.Contains(text, squash(b)) {
			t.Errorf("balance %q not in the PDF's text", b)
		}
	}
	st := s.Truth.Statement
	if (st.OpeningBalance != nil) != (p.Opening != "") || (st.ClosingBalance != nil) != (p.Closing != "") {
		t.Errorf("truth's opening %v closing %v, printed %q and %q", st.OpeningBalance != nil, st.ClosingBalance != nil, p.Opening, p.Closing)
	}
}

// TestWorldLocales holds the locales to what the world evaluation must
// draw: at least 60 of CLDR's, every grouping style, and currencies
// without minor units, all read from CLDR.
func TestWorldLocales(t *testing.T) {
	ls := WorldLocales()
	if len(ls) < 60 {
		t.Errorf("%d locales, want at least 60", len(ls))
	}
	groups := map[string]bool{}
	noMinor := map[string]bool{}
	for _, l := range ls {
		if l.Decimal == l.Group || l.Decimal == "" {
			t.Errorf("%s: decimal %q, group %q", l.ID, l.Decimal, l.Group)
		}
		g := l.Group
		if l.Indian {
			g = "indian"
		}
		groups[g] = true
		if l.Digits == 0 || l.CashDigits == 0 {
			noMinor[l.Currency] = true
		}
	}
	for _, g := range []string{" ", "\u00a0", "\u202f", "’", ".", ",", "indian"} {
		if g == " " {
			continue // CLDR prints no plain space; the no-break ones stand for it
		}
		if !groups[g] {
			t.Errorf("no locale groups digits with %q", g)
		}
	}
	for _, c := range []string{"JPY", "KRW", "HUF", "IDR", "VND", "CLP", "ISK"} {
		if !noMinor[c] {
			t.Errorf("no locale prints %s in whole units", c)
		}
	}
}

// TestWorldMechanisms reads statements of the families each of the
// engine's general mechanisms is for, in words the engine has never
// learned (held out and invented), printed by fpdf, and holds each family
// to a floor: rows dated from the newest (read from the oldest), rows
// under a day's date (day headings), blocks of label and value lines
// (records), two accounts named in unknown words (account names by
// shape), balances in unknown words (loose balances, by arithmetic), and
// CLDR's date and number shapes in every one of them.
func TestWorldMechanisms(t *testing.T) {
	for _, c := range []struct {
		family string
		least  int // of 6
	}{{"table", 5}, {"newest-first", 4}, {"day-groups", 4}, {"kv-blocks", 3}, {"two-accounts", 2}, {"dated-balances", 4}, {"multiline", 6}, {"ref-column", 6}, {"value-date", 6}} {
		t.Run(c.family, func(t *testing.T) {
			exact := 0
			var failed []string
			for i := range 6 {
				class := []vocab.Class{vocab.HeldOut, vocab.Invented}[i%2]
				s, err := GenerateWorld(int64(2700+i), WorldOptions{Family: c.family, Vocab: class, Plain: true})
				if err != nil {
					t.Fatal(err)
				}
				r := convertWorld(s, false)
				if r.exact() {
					exact++
				} else {
					failed = append(failed, s.String())
				}
				if r.falseOK() {
					t.Errorf("%s says ok while wrong", s)
				}
			}
			if exact < c.least {
				t.Errorf("%d of 6 exactly right, want at least %d; wrong: %s", exact, c.least, strings.Join(failed, "; "))
			}
		})
	}
}

// mupdfOrder is a date in Arabic-Indic digits as MuPDF's text gives it:
// it reads the run of digits and separators from right to left (the
// engine reads the same text).
func mupdfOrder(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x660 && r <= 0x669 }) {
		return s
	}
	rs := []rune(s)
	slices.Reverse(rs)
	return string(rs)
}
