package extract

import (
	"slices"
	"testing"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
)

func pdec(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

// rtx is a row moving in or out, with its balance, dated day d of
// January 2024 and described desc.
func rtx(in, out, bal string) ledger.Transaction {
	t := ledger.Transaction{Balance: *pdec(bal)}
	if in != "" {
		t.AmountIn = pdec(in)
	}
	if out != "" {
		t.AmountOut = pdec(out)
	}
	return t
}

// computedRow is rtx with a balance the conversion computed.
func computedRow(in, out, bal string) ledger.Transaction {
	t := rtx(in, out, bal)
	t.Provenance.BalanceComputed = true
	t.Warnings = []ledger.Warning{ledger.ComputedWarning()}
	return t
}

// named gives rows distinct dates and descriptions, as converted rows
// have, so that corrected rows can be matched to them.
func named(txs ...ledger.Transaction) []ledger.Transaction {
	for i := range txs {
		txs[i].Date = time.Date(2024, 1, 1+i, 0, 0, 0, 0, time.UTC)
		txs[i].Description = "ROW " + string(rune('A'+i))
	}
	return txs
}

// asSent is what a client sends back of rows: their values, with the
// provenance and warnings it chooses (here: none at all).
func asSent(txs []ledger.Transaction) []ledger.Transaction {
	out := slices.Clone(txs)
	for i := range out {
		out[i].Provenance, out[i].Warnings = ledger.Provenance{}, nil
	}
	return out
}

func TestRecheck(t *testing.T) {
	tests := []struct {
		name     string
		orig     []ledger.Transaction // the stored conversion's rows
		edit     func([]ledger.Transaction) []ledger.Transaction
		st       ledger.Statement
		status   string
		rows     []int
		diff     string
		balances []string // after recheck, when set
	}{
		{name: "empty", status: ledger.ReconcileNoTransactions},
		{name: "chain holds from opening to closing",
			orig:   named(rtx("", "10.00", "90.00"), rtx("5.50", "", "95.50")),
			st:     ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("95.50")},
			status: ledger.ReconcileOK},
		{name: "wrong amount breaks the chain at its row",
			orig:   named(rtx("", "10.00", "90.00"), rtx("5.00", "", "95.50"), rtx("", "1.00", "94.50")),
			st:     ledger.Statement{OpeningBalance: pdec("100")},
			status: ledger.ReconcileMismatch, rows: []int{1}, diff: "0.50"},
		{name: "closing balance disagrees",
			orig:   named(rtx("", "10.00", "90.00")),
			st:     ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("91")},
			status: ledger.ReconcileMismatch, rows: []int{0}, diff: "1.00"},
		{name: "no opening: first balance starts the chain",
			orig:   named(rtx("", "10.00", "90.00"), rtx("", "10.00", "80.00")),
			status: ledger.ReconcileOK},
		{name: "computed balances are recomputed, not checked",
			orig:   named(computedRow("", "10.00", "90.00"), computedRow("", "7.00", "80.00")),
			st:     ledger.Statement{OpeningBalance: pdec("100")},
			status: ledger.ReconcileUnverified, balances: []string{"90", "83"}},
		{name: "computed balances carry into the closing balance",
			orig:   named(computedRow("", "10.00", "90.00"), computedRow("", "7.00", "80.00")),
			st:     ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("83")},
			status: ledger.ReconcileOK},
		{name: "a corrected misread printed balance proves the chain",
			orig: named(rtx("", "10.00", "90.00"), rtx("", "5.00", "35.00"), rtx("", "1.00", "84.00")),
			edit: func(txs []ledger.Transaction) []ledger.Transaction {
				txs[1].Balance = *pdec("85.00")
				return txs
			},
			st:     ledger.Statement{OpeningBalance: pdec("100")},
			status: ledger.ReconcileOK},
		{name: "a row added between printed balances is proven by the next",
			orig: named(rtx("", "10.00", "90.00"), rtx("", "1.00", "84.00")),
			edit: func(txs []ledger.Transaction) []ledger.Transaction {
				added := rtx("", "5.00", "0.00") // its balance is computed
				added.Date, added.Description = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "MISSED"
				return slices.Insert(txs, 1, added)
			},
			st:     ledger.Statement{OpeningBalance: pdec("100")},
			status: ledger.ReconcileOK, balances: []string{"90", "85", "84"}},
		{name: "a balance typed over a computed one is checked",
			orig: named(rtx("", "10.00", "90.00"), computedRow("", "5.00", "85.00"), rtx("", "1.00", "84.00")),
			edit: func(txs []ledger.Transaction) []ledger.Transaction {
				txs[1].Balance = *pdec("80.00")
				return txs
			},
			st:     ledger.Statement{OpeningBalance: pdec("100")},
			status: ledger.ReconcileMismatch, rows: []int{1, 2}},
		{name: "a card's balance owed rises with money out",
			orig:   named(rtx("", "10.00", "110.00"), rtx("20.00", "", "90.00")),
			st:     ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("90"), Proof: ledger.Proof{Card: true}},
			status: ledger.ReconcileOK},
		{name: "the reading's doubts stay",
			orig:   named(rtx("", "10.00", "90.00")),
			st:     ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("90"), Proof: ledger.Proof{YearAssumed: true}},
			status: ledger.ReconcileUnverified},
		{name: "printed totals are checked",
			orig:   named(rtx("", "10.00", "90.00"), rtx("3.00", "", "93.00")),
			st:     ledger.Statement{OpeningBalance: pdec("100"), TotalIn: pdec("3"), TotalOut: pdec("11")},
			status: ledger.ReconcileMismatch, rows: []int{1}},
		{name: "accounts are checked apart",
			orig: []ledger.Transaction{
				{Account: "A", AmountOut: pdec("1"), Balance: *pdec("9")},
				{Account: "B", AmountIn: pdec("1"), Balance: *pdec("51")},
				{Account: "A", AmountOut: pdec("1"), Balance: *pdec("7")},
			},
			st: ledger.Statement{Accounts: []ledger.Account{
				{Number: "A", OpeningBalance: pdec("10")},
				{Number: "B", OpeningBalance: pdec("50"), ClosingBalance: pdec("51")},
			}},
			status: ledger.ReconcileMismatch, rows: []int{2}, diff: "-1.00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			txs := asSent(tc.orig)
			if tc.edit != nil {
				txs = tc.edit(txs)
			}
			st := tc.st
			got := Recheck(tc.orig, txs, &st)
			if got.Status != tc.status {
				t.Fatalf("status: got %s (%s), want %s", got.Status, got.Message, tc.status)
			}
			if st.Reconciliation.Status != got.Status {
				t.Errorf("statement's status %s, returned %s", st.Reconciliation.Status, got.Status)
			}
			if tc.rows != nil && !slices.Equal(got.Rows, tc.rows) {
				t.Errorf("rows: got %v, want %v", got.Rows, tc.rows)
			}
			if tc.diff != "" && (got.Difference == nil || got.Difference.StringFixed(2) != tc.diff) {
				t.Errorf("difference: got %v, want %s", got.Difference, tc.diff)
			}
			if got.Message == "" {
				t.Error("no message")
			}
			for i, b := range tc.balances {
				if !txs[i].Balance.Equal(*pdec(b)) {
					t.Errorf("row %d balance: got %s, want %s", i, txs[i].Balance, b)
				}
			}
		})
	}
}

// TestRecheckIgnoresWhatTheClientSays plays a client that wants ok for a
// statement whose conversion proved less: it sends the rows back with
// warnings and provenance of its choosing. The status comes from the
// stored rows' provenance every time.
func TestRecheckIgnoresWhatTheClientSays(t *testing.T) {
	low := rtx("", "10.00", "90.00")
	low.Provenance.LowConfidence = 41
	low.Warnings = []ledger.Warning{{Kind: ledger.WarnLowConfidence, Confidence: 41, Message: "recognised with low confidence (41%): check this row first"}}
	guessed := rtx("", "5.00", "85.00")
	guessed.Provenance.DirectionGuessed = true
	guessed.Warnings = []ledger.Warning{{Kind: ledger.WarnDirectionUnknown, Message: "direction unknown: read as money out"}}
	unread := rtx("", "1.00", "89.00")
	unread.Provenance.DateUnread = true
	fromZero := rtx("", "1.00", "-1.00")
	fromZero.Provenance.BalanceFromZero = true
	cases := []struct {
		name string
		orig []ledger.Transaction
		st   ledger.Statement
	}{
		{"computed balances", named(computedRow("", "10.00", "90.00"), computedRow("", "7.00", "83.00")),
			ledger.Statement{OpeningBalance: pdec("100")}},
		{"balances counted from zero", named(fromZero, computedRow("", "2.00", "-3.00")), ledger.Statement{}},
		{"a row recognised with low confidence", named(low, rtx("", "5.00", "85.00")),
			ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("85")}},
		{"a direction guessed", named(rtx("", "10.00", "90.00"), guessed),
			ledger.Statement{OpeningBalance: pdec("100")}},
		{"a date unread", named(rtx("", "10.00", "90.00"), unread),
			ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("89"), Proof: ledger.Proof{OCR: true}}},
	}
	lies := map[string]func(*ledger.Transaction){
		"no warnings, no provenance": func(t *ledger.Transaction) { t.Warnings, t.Provenance = nil, ledger.Provenance{} },
		"warnings of other kinds": func(t *ledger.Transaction) {
			t.Warnings = []ledger.Warning{{Kind: ledger.WarnNote, Message: "all checked"}}
			t.Provenance = ledger.Provenance{}
		},
		"provenance that says printed": func(t *ledger.Transaction) {
			t.Provenance = ledger.Provenance{}
			t.Warnings = []ledger.Warning{{Kind: ledger.WarnOCRCorrection, Message: "printed balance checked"}}
		},
	}
	for _, c := range cases {
		for lie, tell := range lies {
			t.Run(c.name+"/"+lie, func(t *testing.T) {
				st := c.st
				sent := slices.Clone(c.orig)
				for i := range sent {
					tell(&sent[i])
				}
				// Believed, the lie would work: the chain of the rows as
				// sent holds.
				believed := slices.Clone(sent)
				idx := make([]int, len(believed))
				for i := range idx {
					idx[i] = i
				}
				p := recheckChain(believed, idx, st.OpeningBalance, st.ClosingBalance, st.Proof)
				if r := ledger.Judge(believed, p, st.ClosingBalance != nil); r.Status != ledger.ReconcileOK {
					t.Fatalf("believed, the rows as sent judge %s (%s): the case tests nothing", r.Status, r.Message)
				}
				if got := Recheck(c.orig, sent, &st); got.Status == ledger.ReconcileOK {
					t.Errorf("the client made it ok: %s", got.Message)
				}
			})
		}
	}
}

func TestRecheckAnsweredDoubts(t *testing.T) {
	guessed := rtx("", "5.00", "95.00")
	guessed.Provenance.DirectionGuessed = true
	guessed.Warnings = []ledger.Warning{{Kind: ledger.WarnDirectionUnknown, Message: "direction unknown: read as money out"}}
	orig := named(guessed, rtx("", "1.00", "104.00"))
	sent := asSent(orig)
	st := ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("104")}
	if got := Recheck(orig, slices.Clone(sent), &st); got.Status != ledger.ReconcileMismatch {
		t.Fatalf("as converted: %s (%s), want mismatch", got.Status, got.Message)
	}
	// The person says the money came in: the direction is theirs now, and
	// the balances prove it.
	sent[0].AmountIn, sent[0].AmountOut = pdec("5.00"), nil
	sent[0].Balance = *pdec("105.00")
	st = ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("104")}
	got := Recheck(orig, sent, &st)
	if got.Status != ledger.ReconcileOK {
		t.Fatalf("corrected: %s (%s), want ok", got.Status, got.Message)
	}
	if sent[0].Provenance.DirectionGuessed || hasKind(sent[0], ledger.WarnDirectionUnknown) {
		t.Errorf("row 0 still says its direction was guessed: %+v", sent[0])
	}
}

// A row whose direction was learned from the rows that begin alike stays
// unverified however the balances after it agree; once a person corrects
// its amount, the direction is theirs and the balances judge it.
func TestRecheckLearnedDirection(t *testing.T) {
	learned := func(in, out, bal string) ledger.Transaction {
		tx := rtx(in, out, bal)
		tx.Provenance.DirectionLearned = true
		tx.Warnings = []ledger.Warning{{Kind: ledger.WarnDirectionLearned, Message: "direction not printed: taken from 2 row(s)"}}
		return tx
	}
	st := func() ledger.Statement {
		return ledger.Statement{OpeningBalance: pdec("100"), ClosingBalance: pdec("104")}
	}
	right := named(learned("5.00", "", "105.00"), rtx("", "1.00", "104.00"))
	s := st()
	if got := Recheck(right, asSent(right), &s); got.Status != ledger.ReconcileUnverified {
		t.Errorf("learned and agreeing: %s (%s), want unverified", got.Status, got.Message)
	}
	wrong := named(learned("", "5.00", "95.00"), rtx("", "1.00", "104.00"))
	sent := asSent(wrong)
	sent[0].AmountIn, sent[0].AmountOut = pdec("5.00"), nil
	sent[0].Balance = *pdec("105.00")
	s = st()
	if got := Recheck(wrong, sent, &s); got.Status != ledger.ReconcileOK {
		t.Errorf("corrected: %s (%s), want ok", got.Status, got.Message)
	}
	if sent[0].Provenance.DirectionLearned || hasKind(sent[0], ledger.WarnDirectionLearned) {
		t.Errorf("row 0 still says its direction was learned: %+v", sent[0])
	}
}

func TestMatchRows(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2024, 1, d, 0, 0, 0, 0, time.UTC) }
	row := func(d int, desc string) ledger.Transaction {
		return ledger.Transaction{Date: day(d), Description: desc}
	}
	orig := []ledger.Transaction{row(1, "A"), row(2, "B"), row(3, "C"), row(4, "D"), row(5, "E")}
	tests := []struct {
		name string
		txs  []ledger.Transaction
		want []int
	}{
		{"unchanged", slices.Clone(orig), []int{0, 1, 2, 3, 4}},
		{"one deleted", []ledger.Transaction{row(1, "A"), row(2, "B"), row(4, "D"), row(5, "E")}, []int{0, 1, 3, 4}},
		{"one added", []ledger.Transaction{row(1, "A"), row(2, "B"), row(2, "NEW"), row(3, "C"), row(4, "D"), row(5, "E")}, []int{0, 1, -1, 2, 3, 4}},
		{"descriptions corrected", []ledger.Transaction{row(1, "A"), row(2, "B!"), row(3, "C!"), row(4, "D"), row(5, "E")}, []int{0, 1, 2, 3, 4}},
		{"added and corrected", []ledger.Transaction{row(1, "A"), row(2, "X"), row(2, "Y"), row(3, "C"), row(4, "D!"), row(5, "E")}, []int{0, -1, -1, 2, 3, 4}},
		{"all new", []ledger.Transaction{row(9, "X")}, []int{-1}},
		{"a row given twice matches once", []ledger.Transaction{row(1, "A"), row(1, "A"), row(2, "B"), row(3, "C"), row(4, "D"), row(5, "E")}, []int{0, -1, 1, 2, 3, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := matchRows(orig, tc.txs); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
