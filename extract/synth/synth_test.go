package synth

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gen2brain/go-fitz"
	"github.com/shopspring/decimal"
)

func TestGenerateIsDeterministic(t *testing.T) {
	for _, seed := range []int64{1, 2, 77, 1234567} {
		a, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a.Truth)
		jb, _ := json.Marshal(b.Truth)
		if !bytes.Equal(a.PDF, b.PDF) || !bytes.Equal(ja, jb) || !slices.Equal(a.Features, b.Features) {
			t.Errorf("seed %d: two generations differ", seed)
		}
	}
	a, _ := Generate(1, Options{})
	b, _ := Generate(2, Options{})
	if bytes.Equal(a.PDF, b.PDF) {
		t.Error("seeds 1 and 2 give the same PDF")
	}
}

// TestTruthArithmetic checks the generator's own truth: for each account,
// opening + in - out runs through every balance to the closing balance
// (a card: opening - in + out, the amount owed), exactly one amount is set
// per row, dates lie in the period, and the expected status follows from
// what is printed.
func TestTruthArithmetic(t *testing.T) {
	for seed := int64(1); seed <= 300; seed++ {
		s, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr := s.Truth
		st := tr.Statement
		type acct struct{ open, close *string }
		accts := map[string]acct{"": {st.OpeningBalance, st.ClosingBalance}}
		for _, a := range st.Accounts {
			accts[a.Number] = acct{a.OpeningBalance, a.ClosingBalance}
		}
		running := map[string]decimal.Decimal{}
		for i, tx := range tr.Transactions {
			a, ok := accts[tx.Account]
			if !ok {
				t.Fatalf("seed %d row %d: account %q not in the statement", seed, i, tx.Account)
			}
			if (tx.AmountIn == nil) == (tx.AmountOut == nil) {
				t.Fatalf("seed %d row %d: want exactly one amount", seed, i)
			}
			if tx.Date < st.PeriodStart || tx.Date > st.PeriodEnd {
				t.Fatalf("seed %d row %d: date %s outside %s..%s", seed, i, tx.Date, st.PeriodStart, st.PeriodEnd)
			}
			if (tx.Type == "CREDIT") != (tx.AmountIn != nil) {
				t.Fatalf("seed %d row %d: type %s disagrees with the amounts", seed, i, tx.Type)
			}
			if a.open == nil {
				if tx.Balance != nil {
					t.Fatalf("seed %d row %d: a balance where the document proves none", seed, i)
				}
				continue
			}
			bal, seen := running[tx.Account]
			if !seen {
				bal = decimal.RequireFromString(*a.open)
			}
			var amt decimal.Decimal
			if tx.AmountIn != nil {
				amt = decimal.RequireFromString(*tx.AmountIn)
			} else {
				amt = decimal.RequireFromString(*tx.AmountOut).Neg()
			}
			if st.Card {
				amt = amt.Neg()
			}
			bal = bal.Add(amt)
			running[tx.Account] = bal
			if tx.Balance == nil || *tx.Balance != bal.StringFixed(2) {
				t.Fatalf("seed %d row %d: balance %v, running %s", seed, i, tx.Balance, bal.StringFixed(2))
			}
		}
		for num, a := range accts {
			if num == "" && len(st.Accounts) > 0 || a.open == nil {
				continue
			}
			if b, ok := running[num]; ok && b.StringFixed(2) != *a.close {
				t.Fatalf("seed %d account %q: closing %s, running %s", seed, num, *a.close, b.StringFixed(2))
			}
		}
		printsProof := s.Has("balance-row") || s.Has("balance-daily") || s.Has("totals-row") || s.Has("totals-box") ||
			!s.Has("opening-absent") && !s.Has("closing-absent")
		if want := map[bool]string{true: "ok", false: "unverified"}[printsProof]; st.Reconciliation != want {
			t.Fatalf("seed %d: expected status %s, want %s for %v", seed, st.Reconciliation, want, s.Features)
		}
	}
}

// TestEveryFeatureReachable draws many layouts (choices only, no PDF) and
// checks that each feature comes up by chance, and that forcing a feature
// gets it.
func TestEveryFeatureReachable(t *testing.T) {
	seen := map[string]int{}
	for seed := range uint64(3000) {
		l := chooseLayout(rand.New(rand.NewPCG(seed, 1)), nil, Options{})
		for _, f := range l.Features {
			if !slices.Contains(AllFeatures, f) {
				t.Fatalf("feature %q is not in AllFeatures", f)
			}
			seen[f]++
		}
	}
	for _, f := range AllFeatures {
		if f == "multi-page" {
			continue // decided by drawing; checked below
		}
		if seen[f] == 0 {
			t.Errorf("feature %q never drawn in 3000 layouts", f)
		}
		for seed := range uint64(10) {
			l := chooseLayout(rand.New(rand.NewPCG(seed, 2)), map[string]bool{f: true}, Options{})
			if !slices.Contains(l.Features, f) {
				t.Errorf("forced %q, got %v", f, l.Features)
				break
			}
		}
	}
	s, err := GenerateWith(5, []string{"multi-page"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Has("multi-page") || s.Pages < 2 {
		t.Errorf("forced multi-page: %d pages, features %v", s.Pages, s.Features)
	}
}

// TestPDFHoldsTruth reads each generated PDF's text with MuPDF and checks
// that every word of every truth description is printed.
func TestPDFHoldsTruth(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		s, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := fitz.NewFromMemory(s.PDF)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		words := map[string]bool{}
		for i := range doc.NumPage() {
			text, err := doc.Text(i)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range strings.Fields(text) {
				words[w] = true
			}
		}
		if doc.NumPage() != s.Pages {
			t.Errorf("seed %d: %d pages, sample says %d", seed, doc.NumPage(), s.Pages)
		}
		doc.Close()
		for _, tx := range s.Truth.Transactions {
			for _, w := range strings.Fields(tx.Description) {
				if !words[w] {
					t.Fatalf("seed %d (%v): word %q of %q not in the PDF's text", seed, s.Features, w, tx.Description)
				}
			}
		}
	}
}

func TestOnePage(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		s, err := Generate(seed, Options{OnePage: true})
		if err != nil {
			t.Fatal(err)
		}
		if s.Pages != 1 {
			t.Errorf("seed %d: %d pages with OnePage", seed, s.Pages)
		}
	}
}

func TestNumberForms(t *testing.T) {
	v := decimal.RequireFromString("1234567.891")
	for _, c := range []struct {
		form string
		dec  int
		want string
	}{
		{"num-comma-dot", 2, "1,234,567.89"},
		{"num-dot-comma", 2, "1.234.567,89"},
		{"num-space-comma", 2, "1 234 567,89"},
		{"num-apos-dot", 2, "1'234'567.89"},
		{"num-indian", 2, "12,34,567.89"},
		{"num-plain", 1, "1234567.9"},
		{"num-comma-dot", 0, "1,234,568"},
	} {
		if got := (numForm{c.form, c.dec}).fmtAbs(v); got != c.want {
			t.Errorf("%s/%d: got %q, want %q", c.form, c.dec, got, c.want)
		}
	}
	m := money{nf: numForm{"num-comma-dot", 2}, curPos: "cur-prefix", symbol: "$", neg: "neg-parens"}
	if got := m.signed(decimal.RequireFromString("-5")); got != "($5.00)" {
		t.Errorf("parens: got %q", got)
	}
}
