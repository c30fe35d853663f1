package extract

import (
	"strings"
	"testing"
)

// cellAt is text placed on a synthetic page: left-aligned at x, or
// right-aligned ending at x when right is set.
type cellAt struct {
	x     float64
	s     string
	right bool
}

func at(x float64, s string) cellAt  { return cellAt{x: x, s: s} }
func rat(x float64, s string) cellAt { return cellAt{x: x, s: s, right: true} }

// synthPage lays out lines 12 points apart in a 10-point font whose
// characters are 5 points wide; a nil line leaves a blank line.
func synthPage(number int, lines ...[]cellAt) Page {
	pg := Page{Number: number, Width: 612, Height: 792}
	for i, cells := range lines {
		y := 40 + 12*float64(i)
		for _, c := range cells {
			x := c.x
			if c.right {
				x -= 5 * float64(len(c.s))
			}
			for _, w := range strings.Split(c.s, " ") {
				if w != "" {
					pg.Words = append(pg.Words, Word{Text: w, X0: x, Y0: y, X1: x + 5*float64(len(w)), Y1: y + 10})
				}
				x += 5 * float64(len(w)+1)
			}
		}
	}
	return pg
}

func TestGroupLines(t *testing.T) {
	pg := Page{Words: []Word{
		{Text: "b", X0: 50, Y0: 100.8, X1: 55, Y1: 110.8},
		{Text: "a", X0: 10, Y0: 100, X1: 15, Y1: 110},
		{Text: "c", X0: 10, Y0: 112, X1: 15, Y1: 122},
		{Text: " ", X0: 20, Y0: 112, X1: 25, Y1: 122},
	}}
	lines := groupLines(pg, 0)
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2", len(lines))
	}
	if got := lines[0].text(); got != "a b" {
		t.Errorf("line 0 = %q, want %q", got, "a b")
	}
	if got := lines[1].text(); got != "c" {
		t.Errorf("line 1 = %q, want %q", got, "c")
	}
}

func TestTokenize(t *testing.T) {
	pg := synthPage(1, []cellAt{at(10, "14 Dec 2023"), at(100, "CARD 4921"), at(300, "1,234.56 DR"), at(400, "$ 12.00")})
	l := groupLines(pg, 0)[0]
	tokenize(l, false)
	var kinds []string
	for _, tk := range l.toks {
		kinds = append(kinds, map[tokKind]string{tokText: "T", tokDate: "D", tokAmount: "A"}[tk.kind]+":"+tk.text)
	}
	got := strings.Join(kinds, "|")
	want := "D:14 Dec 2023|T:CARD|T:4921|A:1,234.56 DR|A:$ 12.00"
	if got != want {
		t.Errorf("tokens = %s, want %s", got, want)
	}
	if v := l.toks[3].amount.String(); v != "-1234.56" {
		t.Errorf("DR amount = %s, want -1234.56", v)
	}
}

func TestClassifyLabel(t *testing.T) {
	cases := []struct {
		in   string
		want colRole
	}{
		{"Date", roleDate},
		{"Post Date", roleDate},
		{"Buchungstag", roleDate},
		{"Value Dt", roleValueDate},
		{"Valuta", roleValueDate},
		{"Trans Date", roleTransDate},
		{"Withdrawal Amt.", roleDebit},
		{"Paid out", roleDebit},
		{"Paid in", roleCredit},
		{"Débit", roleDebit},
		{"Crédit", roleCredit},
		{"Betrag EUR", roleAmount},
		{"Importe", roleAmount},
		{"Saldo EUR", roleBalance},
		{"Closing Balance", roleBalance},
		{"Solde", roleBalance},
		{"Transaction details", roleDesc},
		{"Narration", roleDesc},
		{"Omschrijving", roleDesc},
		{"Descrição", roleDesc},
		{"Chq./Ref.No.", roleRef},
		{"Type", roleType},
		{"Dr/Cr", roleDrCr},
		{"Customer", roleNone},
	}
	for _, c := range cases {
		if got := classifyLabel(c.in); got != c.want {
			t.Errorf("classifyLabel(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestFindHeadersStacked(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(300, "Withdrawal"), at(380, "Deposit"), at(460, "Closing")},
		[]cellAt{at(10, "Date"), at(70, "Narration"), at(200, "Value Dt")},
		[]cellAt{at(300, "Amt."), at(380, "Amt."), at(460, "Balance")},
		[]cellAt{at(10, "03/07/2024"), at(70, "SHOP"), at(200, "03/07/2024"), rat(360, "3,700.62"), rat(520, "1,76,999.62")},
	)
	lines := groupLines(pg, 0)
	for _, l := range lines {
		tokenize(l, false)
	}
	hs := findHeaders(lines)
	if len(hs) != 1 {
		t.Fatalf("got %d headers, want 1", len(hs))
	}
	var got []string
	for _, lb := range hs[0].labels {
		got = append(got, lb.text)
	}
	want := "Date|Narration|Value Dt|Withdrawal Amt.|Deposit Amt.|Closing Balance"
	if strings.Join(got, "|") != want {
		t.Errorf("labels = %s, want %s", strings.Join(got, "|"), want)
	}
	if hs[0].first != 0 || hs[0].last != 2 {
		t.Errorf("band = %d..%d, want 0..2", hs[0].first, hs[0].last)
	}
}

func TestHeaderNeedsDateAndMoney(t *testing.T) {
	pg := synthPage(1, []cellAt{at(10, "Deposits are protected up to the statutory limit")})
	lines := groupLines(pg, 0)
	tokenize(lines[0], false)
	if hs := findHeaders(lines); len(hs) != 0 {
		t.Errorf("a footer sentence was read as a table heading: %+v", hs)
	}
}
