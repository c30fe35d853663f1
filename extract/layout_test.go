package extract

import (
	"strings"
	"testing"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"
	"passbook/extract/tables"
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
func synthPage(number int, lines ...[]cellAt) source.Page {
	pg := source.Page{Number: number, Width: 612, Height: 792}
	for i, cells := range lines {
		y := 40 + 12*float64(i)
		for _, c := range cells {
			x := c.x
			if c.right {
				x -= 5 * float64(len(c.s))
			}
			for _, w := range strings.Split(c.s, " ") {
				if w != "" {
					pg.Words = append(pg.Words, source.Word{Text: w, X0: x, Y0: y, X1: x + 5*float64(len(w)), Y1: y + 10})
				}
				x += 5 * float64(len(w)+1)
			}
		}
	}
	return pg
}

// recognised is pg as recognition gives it: its words' boxes hug their
// glyphs, three quarters of the type's size.
func recognised(pg source.Page) source.Page {
	pg.OCR = true
	for i := range pg.Words {
		pg.Words[i].Y1 = pg.Words[i].Y0 + 7.5
	}
	return pg
}

func TestGroupLines(t *testing.T) {
	pg := source.Page{Words: []source.Word{
		{Text: "b", X0: 50, Y0: 100.8, X1: 55, Y1: 110.8},
		{Text: "a", X0: 10, Y0: 100, X1: 15, Y1: 110},
		{Text: "c", X0: 10, Y0: 112, X1: 15, Y1: 122},
		{Text: " ", X0: 20, Y0: 112, X1: 25, Y1: 122},
	}}
	lines := layout.GroupLines(pg, 0)
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2", len(lines))
	}
	if got := lines[0].Text(); got != "a b" {
		t.Errorf("line 0 = %q, want %q", got, "a b")
	}
	if got := lines[1].Text(); got != "c" {
		t.Errorf("line 1 = %q, want %q", got, "c")
	}
}

func TestTokenize(t *testing.T) {
	pg := synthPage(1, []cellAt{at(10, "14 Dec 2023"), at(100, "CARD 4921"), at(300, "1,234.56 DR"), at(400, "$ 12.00")})
	l := layout.GroupLines(pg, 0)[0]
	layout.Tokenize(l, false)
	var kinds []string
	for _, tk := range l.Toks {
		kinds = append(kinds, map[layout.TokKind]string{layout.TokText: "T", layout.TokDate: "D", layout.TokAmount: "A"}[tk.Kind]+":"+tk.Text)
	}
	got := strings.Join(kinds, "|")
	want := "D:14 Dec 2023|T:CARD|T:4921|A:1,234.56 DR|A:$ 12.00"
	if got != want {
		t.Errorf("tokens = %s, want %s", got, want)
	}
	if v := l.Toks[3].Amount.String(); v != "-1234.56" {
		t.Errorf("DR amount = %s, want -1234.56", v)
	}
	// A named date that ends with a dot after its year (Croatian "1. stu
	// 2025.") is one token, dot and all.
	l = layout.GroupLines(synthPage(1, []cellAt{at(10, "1. stu 2025."), at(100, "Shop")}), 0)[0]
	layout.Tokenize(l, true)
	if l.Toks[0].Kind != layout.TokDate || l.Toks[0].Text != "1. stu 2025." {
		t.Errorf("first token %+v, want the date 1. stu 2025.", l.Toks[0])
	}
	// In a document that groups thousands with dots, "1.8" is a day and a
	// month printed without a year (Icelandic), not an amount; with
	// decimal dots it stays the figure it reads as.
	for _, comma := range []bool{true, false} {
		l = layout.GroupLines(synthPage(1, []cellAt{at(10, "1.8"), at(300, "3.333")}), 0)[0]
		layout.Tokenize(l, comma)
		if isDate := l.Toks[0].Kind == layout.TokDate; isDate != comma {
			t.Errorf("decimal comma %v: first token %+v", comma, l.Toks[0])
		}
	}
}

func TestClassifyLabel(t *testing.T) {
	cases := []struct {
		in   string
		want lexicon.ColRole
	}{
		{"Date", lexicon.RoleDate},
		{"Post Date", lexicon.RoleDate},
		{"Buchungstag", lexicon.RoleDate},
		{"Value Dt", lexicon.RoleValueDate},
		{"Valuta", lexicon.RoleValueDate},
		{"Trans Date", lexicon.RoleTransDate},
		{"Withdrawal Amt.", lexicon.RoleDebit},
		{"Debit Amount", lexicon.RoleDebit},
		{"Credit Amount", lexicon.RoleCredit},
		{"Paid out", lexicon.RoleDebit},
		{"Paid in", lexicon.RoleCredit},
		{"Débit", lexicon.RoleDebit},
		{"Crédit", lexicon.RoleCredit},
		{"Betrag EUR", lexicon.RoleAmount},
		{"Importe", lexicon.RoleAmount},
		{"Saldo EUR", lexicon.RoleBalance},
		{"Closing Balance", lexicon.RoleBalance},
		{"Solde", lexicon.RoleBalance},
		{"Transaction details", lexicon.RoleDesc},
		{"Narration", lexicon.RoleDesc},
		{"Omschrijving", lexicon.RoleDesc},
		{"Descrição", lexicon.RoleDesc},
		{"Chq./Ref.No.", lexicon.RoleRef},
		{"Type", lexicon.RoleType},
		{"Dr/Cr", lexicon.RoleDrCr},
		{"Customer", lexicon.RoleNone},
	}
	for _, c := range cases {
		if got := lexicon.ClassifyLabel(c.in); got != c.want {
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
	lines := layout.GroupLines(pg, 0)
	for _, l := range lines {
		layout.Tokenize(l, false)
	}
	hs := tables.FindHeaders(lines)
	if len(hs) != 1 {
		t.Fatalf("got %d headers, want 1", len(hs))
	}
	var got []string
	for _, lb := range hs[0].Labels {
		got = append(got, lb.Text)
	}
	want := "Date|Narration|Value Dt|Withdrawal Amt.|Deposit Amt.|Closing Balance"
	if strings.Join(got, "|") != want {
		t.Errorf("labels = %s, want %s", strings.Join(got, "|"), want)
	}
	if hs[0].First != 0 || hs[0].Last != 2 {
		t.Errorf("band = %d..%d, want 0..2", hs[0].First, hs[0].Last)
	}
}

func TestHeaderNeedsDateAndMoney(t *testing.T) {
	pg := synthPage(1, []cellAt{at(10, "Deposits are protected up to the statutory limit")})
	lines := layout.GroupLines(pg, 0)
	layout.Tokenize(lines[0], false)
	if hs := tables.FindHeaders(lines); len(hs) != 0 {
		t.Errorf("a footer sentence was read as a table heading: %+v", hs)
	}
}

// Whole numbers with no separators are money only as cells of their own in
// a money column: lexAmountWords marks them bare, and tokenize keeps them
// bare only when they stand apart from the words around them.
func TestBareAmounts(t *testing.T) {
	cases := []struct {
		words    []string
		wantN    int
		wantBare bool
		wantVal  string
	}{
		{[]string{"2000"}, 1, true, "2000"},
		{[]string{"-1000"}, 1, true, "-1000"},
		{[]string{"¥", "800"}, 2, true, "800"},
		{[]string{"2000.0"}, 1, false, "2000"},
		{[]string{"1,000.00"}, 1, false, "1000"},
		{[]string{"129.18", "EUR-"}, 2, false, "-129.18"}, // a minus after the currency
		{[]string{"(13.20", "EUR)"}, 2, false, "-13.2"},   // parentheses around amount and currency
		{[]string{"Coffee"}, 0, false, "0"},
	}
	for _, c := range cases {
		ws := make([]source.Word, len(c.words))
		x := 0.0
		for i, s := range c.words {
			ws[i] = source.Word{Text: s, X0: x, Y0: 0, X1: x + 5*float64(len(s)), Y1: 10}
			x = ws[i].X1 + 2
		}
		n, v, _, bare := layout.LexAmountWords(ws, 10, false)
		if n != c.wantN || bare != c.wantBare || n > 0 && v.String() != c.wantVal {
			t.Errorf("lexAmountWords(%q) = %d, %s, bare %v; want %d, %s, bare %v", c.words, n, v, bare, c.wantN, c.wantVal, c.wantBare)
		}
	}
	// Inside a sentence a number is text, not a bare amount.
	l := &layout.Line{Words: []source.Word{{Text: "within", X0: 0, X1: 30, Y1: 10}, {Text: "30", X0: 33, X1: 43, Y1: 10}, {Text: "days", X0: 46, X1: 66, Y1: 10}}}
	layout.Tokenize(l, false)
	for _, tk := range l.Toks {
		if tk.Bare {
			t.Errorf("%q in a sentence is marked bare", tk.Text)
		}
	}
}

// Headings set a word space apart split into the whole headings they are
// made of, as few as can be; a money heading that only qualifies its
// neighbour stays with it.
func TestHeadingsSetClose(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Val. Date Txn Date Transaction Details Debit Amount Balance", "Val. Date|Txn Date|Transaction Details|Debit Amount|Balance"},
		{"Rif. Data operazione Data contabile Descrizione Importo", "Rif.|Data operazione|Data contabile|Descrizione|Importo"},
		{"Transaction Date Description", "Transaction Date|Description"},
		{"Date Posted Details", "Date Posted|Details"},
		{"Date transaction Date comptable Libellé de l'opération", "Date transaction|Date comptable|Libellé de l'opération"},
	}
	for _, c := range cases {
		pg := synthPage(1, []cellAt{at(10, c.in)})
		lines := layout.GroupLines(pg, 0)
		var got []string
		for _, lb := range tables.BuildLabels(lines) {
			got = append(got, lb.Text)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%q: labels %s, want %s", c.in, strings.Join(got, "|"), c.want)
		}
	}
}

// Of two date headings, the one naming the booking gives the row its date,
// wherever it stands.
func TestDateLabelPrefersPosting(t *testing.T) {
	for _, heads := range [][]string{{"Data operazione", "Data contabile"}, {"Posting Date", "Date"}, {"Date", "Date Posted"}} {
		labels := []tables.Label{{Text: heads[0], Role: lexicon.ClassifyLabel(heads[0])}, {Text: heads[1], Role: lexicon.ClassifyLabel(heads[1])}, {Text: "Amount", Role: lexicon.RoleAmount}}
		want := 1
		if heads[0] == "Posting Date" {
			want = 0
		}
		if got := tables.DateLabel(labels); got != want {
			t.Errorf("%v: date from label %d, want %d", heads, got, want)
		}
	}
}

// A card statement is told by two things only cards print; its title counts
// once, however many card phrases it holds.
func TestCardStatementTitle(t *testing.T) {
	read := func(texts ...string) bool {
		var cells [][]cellAt
		for _, s := range texts {
			cells = append(cells, []cellAt{at(10, s)})
		}
		return isCardStatement(layout.GroupLines(synthPage(1, cells...), 0))
	}
	if read("Credit Card Statement") {
		t.Error("a title alone made a card statement")
	}
	if !read("Estratto conto carta di credito", "Pagamento minimo 0,00 EUR") {
		t.Error("an Italian card statement was not told")
	}
	if read("Account statement", "Minimum payment") {
		t.Error("one card phrase made a card statement")
	}
}

// A description's first line set just under the heading is not a second
// heading line; a heading broken over two lines across its columns is.
func TestHeadingBandStopsAtDescription(t *testing.T) {
	labelsOf := func(lines ...[]cellAt) string {
		ls := layout.GroupLines(synthPage(1, lines...), 0)
		for _, l := range ls {
			layout.Tokenize(l, false)
		}
		hs := tables.FindHeaders(ls)
		if len(hs) != 1 {
			t.Fatalf("got %d headers, want 1", len(hs))
		}
		var got []string
		for _, lb := range hs[0].Labels {
			got = append(got, lb.Text)
		}
		return strings.Join(got, "|")
	}
	if got, want := labelsOf(
		[]cellAt{at(10, "Date"), at(80, "Description"), at(300, "Debit"), at(380, "Credit"), at(460, "Balance")},
		[]cellAt{at(80, "Gutschrift Netflix Invoice 15464 Branch Madrid")},
		[]cellAt{at(10, "04/12/2022"), rat(420, "156.67"), rat(520, "1,156.67")},
	), "Date|Description|Debit|Credit|Balance"; got != want {
		t.Errorf("labels = %s, want %s", got, want)
	}
	if got, want := labelsOf(
		[]cellAt{at(10, "F."), at(100, "F."), at(170, "Movimiento"), at(400, "Cantidad")},
		[]cellAt{at(10, "Transacción"), at(100, "Contable")},
		[]cellAt{at(10, "14/07/2025"), at(100, "14/07/2025"), at(170, "TESCO"), rat(450, "6.75")},
	), "F. Transacción|F. Contable|Movimiento|Cantidad"; got != want {
		t.Errorf("labels = %s, want %s", got, want)
	}
}

// A page photographed at a slant: each row falls 1.2% across the page, so
// its amounts sit half a line lower than its date. Each row is still one
// line, and a word box recognition ran on over the next word does not
// split its line.
func TestGroupLinesSlantedOCR(t *testing.T) {
	pg := source.Page{OCR: true}
	for r := range 6 {
		y := 100 + 14*float64(r)
		for _, w := range []struct {
			x    float64
			text string
		}{{40, "01/05/2024"}, {140, "Payment"}, {190, "Lisboa"}, {470, "12.50"}, {540, "100.00"}} {
			y0 := y + 0.012*w.x
			pg.Words = append(pg.Words, source.Word{Text: w.text, X0: w.x, X1: w.x + 5*float64(len(w.text)), Y0: y0, Y1: y0 + 7})
		}
	}
	pg.Words[3].X1 = 560 // the first row's "12.50" runs on over "100.00"
	lines := layout.GroupLines(pg, 0)
	if len(lines) != 6 {
		for _, l := range lines {
			t.Log(l.Text())
		}
		t.Fatalf("%d lines, want 6", len(lines))
	}
	for i, l := range lines {
		if got := l.Text(); got != "01/05/2024 Payment Lisboa 12.50 100.00" {
			t.Errorf("line %d: %q", i, got)
		}
	}
	if x1 := lines[0].Words[3].X1; x1 >= 540 {
		t.Errorf("the box run over the next word ends at %.0f, not before it", x1)
	}
}

// A minus before a currency code ("-CHF 246.87") and a Soll/Haben mark
// after a figure ("236.08 S") belong to the amount.
func TestTokenizeSignedCurrencyAndSollHaben(t *testing.T) {
	pg := synthPage(1, []cellAt{at(10, "-CHF 246.87"), at(200, "236.08 S"), at(300, "12.00 H")})
	l := layout.GroupLines(pg, 0)[0]
	layout.Tokenize(l, false)
	var got []string
	for _, tk := range l.Toks {
		if tk.Kind == layout.TokAmount {
			got = append(got, tk.Amount.String())
		}
	}
	if strings.Join(got, " ") != "-246.87 -236.08 12" {
		t.Errorf("amounts %q, want -246.87 -236.08 12", got)
	}
}

// A whole number with its Dr/Cr mark under a heading of its own ("3 Dr"
// across Umsatz | S/H) is an amount of the money column where it starts.
func TestMarkedWholeNumberUnderIndicator(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(10, "Zeitraum 03/01/2022 bis 03/31/2022")},
		[]cellAt{at(10, "Datum"), at(90, "Verwendungszweck"), at(300, "Buchungsart"), at(400, "Umsatz"), at(440, "S/H"), at(490, "Saldo EUR")},
		[]cellAt{at(90, "Saldo Vortrag"), rat(540, "1,285")},
		[]cellAt{at(10, "03/01/2022"), at(90, "Rechnung"), at(300, "FPO"), rat(435, "118"), at(440, "Dr"), rat(540, "1,167")},
		[]cellAt{at(10, "03/02/2022"), at(90, "Recibo"), at(300, "POS"), rat(435, "3"), at(440, "Dr"), rat(540, "1,164")},
	)
	checkTxs(t, Analyze([]source.Page{pg}), []string{
		"2022-03-01|Rechnung||118.00|1167.00",
		"2022-03-02|Recibo||3.00|1164.00",
	})
}

// A description's line that holds heading words ("ATM withdrawal Balance
// transfer Ref") over dated rows is no heading without a date; whole
// headings there are.
func TestDatelessHeadingWholePhrases(t *testing.T) {
	for _, tc := range []struct {
		head []cellAt
		want int
	}{
		{[]cellAt{at(90, "ATM withdrawal"), at(200, "Balance transfer Madrid"), at(330, "Ref")}, 0},
		{[]cellAt{at(90, "Libellé"), at(380, "Somme"), at(480, "Solde")}, 1},
	} {
		pg := synthPage(1,
			tc.head,
			[]cellAt{at(10, "02/03/2024"), at(90, "RENT MARCH"), rat(420, "-500.00"), rat(540, "500.00")},
			[]cellAt{at(10, "05/03/2024"), at(90, "GROCER"), rat(420, "-40.00"), rat(540, "460.00")},
		)
		lines := layout.GroupLines(pg, 0)
		for _, l := range lines {
			layout.Tokenize(l, false)
		}
		if got := len(tables.FindHeaders(lines)); got != tc.want {
			t.Errorf("%v: %d headings, want %d", tc.head, got, tc.want)
		}
	}
}

// A whole heading a column's gap before a word that does not go on with
// it is its own label: "Verwerkingsdatum" is the date, "Naam /" over
// "Omschrijving" the description.
func TestHeadingColumnGap(t *testing.T) {
	pg := synthPage(1,
		[]cellAt{at(100, "Aankoopdatum"), at(170, "Verwerkingsdatum"), at(260, "Naam /"), at(420, "Bedrag")},
		[]cellAt{at(260, "Omschrijving")},
	)
	lines := layout.GroupLines(pg, 0)
	got := tables.LabelsText(tables.BuildLabels(lines))
	want := `"Aankoopdatum"@100-160=transaction date | "Verwerkingsdatum"@170-250=date | "Naam / Omschrijving"@260-320=description | "Bedrag"@420-450=signed amount`
	if got != want {
		t.Errorf("labels %s\nwant %s", got, want)
	}
}

// TestTokenizeWeekdayAndTime reads the weekday CLDR's full date patterns
// print beside a date, before or after it, and a time of day after it, as
// part of the date: no description takes them.
func TestTokenizeWeekdayAndTime(t *testing.T) {
	for _, tc := range []struct {
		cells []cellAt
		want  string
	}{
		{[]cellAt{at(10, "01/05/2025 · quinta-feira")}, "D:01/05/2025"},
		{[]cellAt{at(10, "wtorek, 4 marca 2025"), at(200, "Czynsz")}, "D:4 marca 2025|T:Czynsz"},
		{[]cellAt{at(10, "Tuesday, 4 March 2025")}, "D:4 March 2025"},
		{[]cellAt{at(10, "04.03.2025 (Di)"), at(200, "Miete")}, "D:04.03.2025|T:Miete"},
		{[]cellAt{at(10, "17.03.2025 14:32"), at(200, "Miete")}, "D:17.03.2025|T:Miete"},
		{[]cellAt{at(10, "Dydd Llun, 7 Tachwedd 2022"), at(200, "Siop")}, "D:7 Tachwedd 2022|T:Siop"},
		{[]cellAt{at(10, "2023 m. sausio 3 d., antradienis"), at(250, "Parduotuve")}, "D:2023 m. sausio 3|T:Parduotuve"},
		{[]cellAt{at(10, "3 ta’ Awwissu 2025"), at(200, "Hanut")}, "D:3 ta’ Awwissu 2025|T:Hanut"},
		// An abbreviation with no comma or brackets is a word of its own.
		{[]cellAt{at(10, "17.03.2025 Mon Cafe")}, "D:17.03.2025|T:Mon|T:Cafe"},
	} {
		l := layout.GroupLines(synthPage(1, tc.cells), 0)[0]
		layout.Tokenize(l, true)
		var kinds []string
		for _, tk := range l.Toks {
			kinds = append(kinds, map[layout.TokKind]string{layout.TokText: "T", layout.TokDate: "D", layout.TokAmount: "A"}[tk.Kind]+":"+tk.Text)
		}
		if got := strings.Join(kinds, "|"); got != tc.want {
			t.Errorf("%v: tokens %s, want %s", tc.cells, got, tc.want)
		}
	}
}
