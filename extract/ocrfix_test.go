package extract

import (
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"
	"passbook/extract/reading"
	"passbook/extract/source"

	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func decp(s string) *decimal.Decimal {
	v := dec(s)
	return &v
}

// steps builds a chain from "move balance" pairs; balance "" is not printed.
func steps(pairs ...string) []reading.ChainStep {
	var out []reading.ChainStep
	for i := 0; i < len(pairs); i += 2 {
		s := reading.ChainStep{Move: dec(pairs[i]), Known: true}
		if pairs[i+1] != "" {
			s.Balance, s.Printed = dec(pairs[i+1]), true
		}
		out = append(out, s)
	}
	return out
}

// unprinted makes chain steps of movements on rows that print no balance.
func unprinted(moves ...string) []reading.ChainStep {
	var out []reading.ChainStep
	for _, m := range moves {
		out = append(out, reading.ChainStep{Move: dec(m), Known: true})
	}
	return out
}

func TestRepairOCRChain(t *testing.T) {
	type fix struct {
		row     int
		move    string // corrected movement, or
		balance string // corrected balance
		why     string // in the warning
	}
	tests := []struct {
		name    string
		opening *decimal.Decimal
		closing *decimal.Decimal
		steps   []reading.ChainStep
		want    []fix
	}{
		{
			name:    "clean chain",
			opening: decp("100.00"),
			steps:   steps("-20.00", "80.00", "5.00", "85.00"),
		},
		{
			name:    "overdrawn balances all lost their minus",
			opening: decp("670.55"),
			steps:   steps("-1502.70", "832.15", "-162.06", "994.21", "1500.00", "505.79"),
			want: []fix{
				{row: 0, balance: "-832.15", why: "lost minus"},
				{row: 1, balance: "-994.21", why: "lost minus"},
			},
		},
		{
			name:    "plus sign read as a 4",
			opening: decp("1000.00"),
			steps:   steps("-10.00", "990.00", "4238.56", "1228.56", "-28.56", "1200.00"),
			want:    []fix{{row: 1, move: "238.56", why: "stray digit"}},
		},
		{
			name:    "digit misread in a balance",
			opening: decp("2043.11"),
			steps:   steps("-92.26", "1950.85", "-247.15", "1708.70", "100.00", "1803.70"),
			want:    []fix{{row: 1, balance: "1703.70", why: "one digit"}},
		},
		{
			name:    "minus of a debit lost",
			opening: decp("500.00"),
			steps:   steps("92.26", "407.74", "-7.74", "400.00"),
			want:    []fix{{row: 0, move: "-92.26", why: "lost minus"}},
		},
		{
			name:    "two debits in a row lost their minus: each is the one explanation of its break",
			opening: decp("24585.30"),
			steps:   steps("344.84", "24240.46", "2.37", "24238.09", "-274.48", "23963.61"),
			want: []fix{
				{row: 0, move: "-344.84", why: "lost minus"},
				{row: 1, move: "-2.37", why: "lost minus"},
			},
		},
		{
			name:    "digit misread in an amount on a row without a balance",
			opening: decp("2321.17"),
			steps:   steps("-270.75", "", "-27.36", "2016.06", "10.00", "2026.06"),
			want:    []fix{{row: 0, move: "-277.75", why: "one digit"}},
		},
		{
			name:    "last balance lost its minus, nothing after it",
			opening: decp("100.00"),
			steps:   steps("-112.34", "12.34"),
			want:    []fix{{row: 0, balance: "-12.34", why: "lost minus"}},
		},
		{
			name:    "the balance or the opening misread, nothing after it: no telling which",
			opening: decp("10.00"),
			steps:   steps("-20.00", "10.00"),
		},
		{
			name:    "the opening balance or the first amount misread: no telling which",
			opening: decp("1164.31"),
			steps:   steps("39.47", "1223.78", "280.54", "1504.32"),
		},
		{
			name:    "opening balance misread: the balances after it agree with each other",
			opening: decp("1164.31"),
			steps:   steps("89.47", "1273.78", "280.54", "1554.32"),
			want:    []fix{{row: reading.OpeningRow, balance: "1184.31", why: "one digit"}},
		},
		{
			name:    "opening balance misread, no balance on the rows: the closing balance says so",
			opening: decp("1184.31"),
			steps:   unprinted("89.47", "280.54", "-12.34"),
			closing: decp("-826.64"),
			want:    []fix{{row: reading.OpeningRow, balance: "-1184.31", why: "lost minus"}},
		},
		{
			name:    "one amount misread, no balance on the rows: the closing balance says so",
			opening: decp("1000.00"),
			steps:   unprinted("39.47", "280.54", "-12.34"),
			closing: decp("1228.73"),
			want:    []fix{{row: 0, move: "-39.47", why: "lost minus"}},
		},
		{
			name:    "the closing balance misread: left for reconciliation",
			opening: decp("1000.00"),
			steps:   unprinted("39.47", "280.54", "-12.34"),
			closing: decp("1367.67"),
		},
		{
			name:    "closing balance settles the last row",
			opening: decp("100.00"),
			closing: decp("75.00"),
			steps:   steps("-20.00", "80.00", "-5.00", "95.00"),
			want:    []fix{{row: 1, balance: "75.00", why: "one digit"}},
		},
		{
			name:    "a missing row is not an OCR misread",
			opening: decp("100.00"),
			steps:   steps("-20.00", "80.00", "-33.33", "12.34", "1.00", "13.34"),
		},
		{
			name:  "no opening: the first balance is the start",
			steps: steps("-20.00", "80.00", "-5.00", "75.00"),
		},
		{
			name:    "two rows could hold the misread: no telling which",
			opening: decp("100.00"),
			steps:   steps("-10.00", "", "-10.00", "", "-10.00", "69.00"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := reading.RepairOCRChain(tc.opening, tc.steps, tc.closing)
			if len(got) != len(tc.want) {
				t.Errorf("got %d fixes, want %d: %+v", len(got), len(tc.want), got)
			}
			for _, w := range tc.want {
				g, ok := got[w.row]
				if !ok {
					t.Errorf("row %d not fixed", w.row)
					continue
				}
				switch {
				case w.move != "" && (g.Move == nil || !g.Move.Equal(dec(w.move))):
					t.Errorf("row %d: move fix %v, want %s", w.row, g.Move, w.move)
				case w.balance != "" && (g.Balance == nil || !g.Balance.Equal(dec(w.balance))):
					t.Errorf("row %d: balance fix %v, want %s", w.row, g.Balance, w.balance)
				}
				if !strings.Contains(g.Warning, w.why) || !strings.HasPrefix(g.Warning, "OCR correction") {
					t.Errorf("row %d: warning %q, want it to name %q", w.row, g.Warning, w.why)
				}
			}
		})
	}
}

func TestRepairOCRChainUnknownDirection(t *testing.T) {
	s := steps("-20.00", "80.00", "5.00", "95.00", "-5.00", "90.00")
	s[1].Known = false // the balance after it must not be checked against it
	if got := reading.RepairOCRChain(decp("100.00"), s, nil); len(got) != 0 {
		t.Errorf("fixed across a row of unknown direction: %+v", got)
	}
}

func TestOCRConfusable(t *testing.T) {
	tests := []struct {
		got, want string
		kind      string
	}{
		{"832.15", "-832.15", "a lost minus sign"},
		{"-5.00", "5.00", "a stray minus sign"},
		{"2108.76", "2106.76", "one digit misread"},
		{"4238.56", "238.56", "a stray digit"},
		{"44079.81", "4079.81", "a stray digit"},
		{"238.56", "4238.56", "a lost digit"},
		{"2108.76", "2160.76", ""},
		{"-2108.76", "2106.76", ""},
		{"12.34", "12.34", ""},
		{"26", "0.26", "a lost decimal point"},
		{"1234", "12.34", "a lost decimal point"},
		{"2.60", "0.26", ""},
	}
	for _, tc := range tests {
		if got := reading.OCRConfusable(dec(tc.got), dec(tc.want)); got != tc.kind {
			t.Errorf("ocrConfusable(%s, %s) = %q, want %q", tc.got, tc.want, got, tc.kind)
		}
	}
}

// ocrLike makes a page read as recognition reads it: each word's box hugs
// its glyphs, so a word of small letters ("nov") is shorter than digits and
// capitals ("23"), and neither spans the font's size.
func ocrLike(pg source.Page) source.Page {
	pg.OCR = true
	for i := range pg.Words {
		w := &pg.Words[i]
		h := 5.0 // x-height
		if strings.IndexFunc(w.Text, func(r rune) bool {
			return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || strings.ContainsRune("bdfhklt()", r)
		}) >= 0 {
			h = 7
		}
		w.Y1 = w.Y0 + 8 // the baseline
		w.Y0 = w.Y1 - h
	}
	return pg
}

// A card statement read by OCR: purchases in parentheses raise the balance
// owed. The running-balance repair follows the card's chain, and dates of a
// short word and a number a word space apart are read as one date.
func TestAnalyzeOCRCardStatement(t *testing.T) {
	pg := ocrLike(synthPage(1,
		[]cellAt{at(10, "Maple Trust Credit Card Statement")},
		[]cellAt{at(10, "Statement period: 23 Nov 2021 to 22 Dec 2021")},
		[]cellAt{at(10, "Credit limit"), rat(300, "2,000.00")},
		[]cellAt{at(10, "Minimum payment due"), rat(300, "17.60")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(400, "Amount"), rat(500, "Balance")},
		[]cellAt{at(80, "Previous balance"), rat(500, "373.47")},
		[]cellAt{at(10, "nov 23"), at(80, "Cafe Roma"), rat(400, "(14.91)"), rat(500, "388.38")},
		[]cellAt{at(10, "nov 26"), at(80, "Shop Lisboa"), rat(400, "(142.65)"), rat(500, "531.03")},
		[]cellAt{at(10, "dec 17"), at(80, "Refund card"), rat(400, "41.54"), rat(500, "489.49")},
		[]cellAt{at(80, "New balance"), rat(500, "489.49")},
	))
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2021-11-23|Cafe Roma||14.91|388.38",
		"2021-11-26|Shop Lisboa||142.65|531.03",
		"2021-12-17|Refund card|41.54||489.49",
	})
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation %s (%s), want ok", rec.Status, rec.Message)
	}
}

// An amount column that marks both ways with Dr/Cr words, where one word
// came out garbled: that amount's direction is the balance's to say, and
// the marked amounts keep theirs whatever reading the others suggest.
func TestAnalyzeLostDrCrMark(t *testing.T) {
	pg := ocrLike(synthPage(1,
		[]cellAt{at(10, "Statement period: 01/11/2023 to 30/11/2023")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Narrative"), rat(400, "Amount"), rat(500, "Balance")},
		[]cellAt{at(80, "Opening balance"), rat(500, "873.24")},
		[]cellAt{at(10, "01/11/2023"), at(80, "Salary"), rat(400, "257.34 Cr"), rat(500, "1,130.58")},
		[]cellAt{at(10, "04/11/2023"), at(80, "Cafe de Flore"), rat(400, "45.23 Or"), rat(500, "1,085.35")},
		[]cellAt{at(10, "08/11/2023"), at(80, "Card payment"), rat(400, "397.91"), rat(500, "687.44")},
		[]cellAt{at(10, "14/11/2023"), at(80, "Rent"), rat(400, "7.38 Dr"), rat(500, "680.06")},
	))
	res := Analyze([]source.Page{pg})
	checkTxs(t, res, []string{
		"2023-11-01|Salary|257.34||1130.58",
		"2023-11-04|Cafe de Flore||45.23|1085.35",
		"2023-11-08|Card payment||397.91|687.44",
		"2023-11-14|Rent||7.38|680.06",
	})
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation %s (%s), want ok", rec.Status, rec.Message)
	}
}

func TestRepairOCRDates(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	ps, pe := day("2024-05-01"), day("2024-05-31")
	tests := []struct {
		name   string
		dates  []string
		want   []string // "" where the date stays as read
		unread int
	}{
		{"a month misread: one digit puts it in the period, in order", []string{"2024-08-01", "2024-05-02", "2024-05-04"}, []string{"2024-05-01", "", ""}, 0},
		{"a year misread", []string{"2024-05-02", "2021-05-03", "2024-05-04"}, []string{"", "2024-05-03", ""}, 0},
		{"near the period: as printed", []string{"2024-04-29", "2024-05-02"}, []string{"", ""}, 0},
		{"no one digit fits between its neighbours: unread", []string{"2024-05-20", "2024-09-27", "2024-05-22"}, []string{"", "", ""}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var txs []ledger.Transaction
			for _, d := range tc.dates {
				txs = append(txs, ledger.Transaction{Date: day(d)})
			}
			reading.RepairOCRDates(txs, &ledger.Statement{PeriodStart: &ps, PeriodEnd: &pe})
			unread := 0
			for i, tx := range txs {
				want := tc.want[i]
				if want == "" {
					want = tc.dates[i]
				}
				if got := tx.Date.Format(time.DateOnly); got != want {
					t.Errorf("row %d: %s, want %s", i, got, want)
				}
				if tx.Provenance.DateUnread && hasKind(tx, ledger.WarnDateUnread) {
					unread++
				}
			}
			if unread != tc.unread {
				t.Errorf("%d rows unread, want %d", unread, tc.unread)
			}
		})
	}
}

// A scan that prints no balance on its rows and no closing balance: the
// totals prove the amounts, but the balances rest on an opening balance
// that OCR may have misread and nothing checks, so the statement is not ok.
// The same page from a text layer is.
func TestAnalyzeOCROpeningUnchecked(t *testing.T) {
	page := synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		[]cellAt{at(10, "Opening balance"), rat(300, "110.60")},
		[]cellAt{at(10, "Total paid in"), rat(300, "50.00")},
		[]cellAt{at(10, "Total paid out"), rat(300, "20.00")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(400, "Paid out"), rat(500, "Paid in")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Salary"), rat(500, "50.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Coffee"), rat(400, "20.00")},
	)
	if rec := Analyze([]source.Page{page}).Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Fatalf("from a text layer: %s (%s), want ok", rec.Status, rec.Message)
	}
	if rec := Analyze([]source.Page{ocrLike(page)}).Statement.Reconciliation; rec.Status != ledger.ReconcileUnverified {
		t.Errorf("by OCR: %s (%s), want unverified", rec.Status, rec.Message)
	}
}
