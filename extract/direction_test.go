package extract

import (
	"strings"
	"testing"

	"passbook/extract/ledger"
	"passbook/extract/source"
)

// A first row with no opening balance before it: nothing printed proves
// which way its unsigned amount went. The later rows that begin alike
// ("Salary Acme") are proven money in by the balances: it takes their
// direction, and the statement says unverified, for that reason.
func TestDirectionLearnedFirstRow(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(400, "Amount"), rat(500, "Balance")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Salary Acme March"), rat(400, "60.00"), rat(500, "160.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Card purchase Lidl"), rat(400, "10.00"), rat(500, "150.00")},
		[]cellAt{at(10, "15/03/2024"), at(80, "Salary Acme bonus"), rat(400, "60.00"), rat(500, "210.00")},
		[]cellAt{at(10, "20/03/2024"), at(80, "Card purchase Rewe"), rat(400, "5.00"), rat(500, "205.00")},
		[]cellAt{at(10, "29/03/2024"), at(80, "Salary Acme April"), rat(400, "60.00"), rat(500, "265.00")},
	)})
	checkTxs(t, res, []string{
		"2024-03-01|Salary Acme March|60.00||160.00",
		"2024-03-02|Card purchase Lidl||10.00|150.00",
		"2024-03-15|Salary Acme bonus|60.00||210.00",
		"2024-03-20|Card purchase Rewe||5.00|205.00",
		"2024-03-29|Salary Acme April|60.00||265.00",
	})
	first := res.Transactions[0]
	if !first.Provenance.DirectionLearned || first.Provenance.DirectionGuessed || !hasKind(first, ledger.WarnDirectionLearned) {
		t.Errorf("first row: provenance %+v, warnings %+v; want its direction learned, not guessed", first.Provenance, first.Warnings)
	}
	rec := res.Statement.Reconciliation
	if rec.Status != ledger.ReconcileUnverified || !strings.Contains(rec.Message, "begins alike") {
		t.Errorf("reconciliation %s (%s), want unverified for the learned direction", rec.Status, rec.Message)
	}
}

// A statement without balances whose amounts print Dr/Cr words, one of
// which is missing: the rows that begin alike and print their word say
// which way it went. Nothing checks it: unverified.
func TestDirectionLearnedWithoutBalances(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/11/2023 to 30/11/2023")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Narrative"), rat(400, "Amount")},
		[]cellAt{at(10, "01/11/2023"), at(80, "Salary Acme Ltd"), rat(400, "1,000.00 Cr")},
		[]cellAt{at(10, "03/11/2023"), at(80, "Rent Flat 2"), rat(400, "500.00 Dr")},
		[]cellAt{at(10, "10/11/2023"), at(80, "Coffee Shop"), rat(400, "3.00 Dr")},
		[]cellAt{at(10, "15/11/2023"), at(80, "Salary Acme Ltd"), rat(400, "1,000.00 Cr")},
		[]cellAt{at(10, "30/11/2023"), at(80, "Salary Acme bonus"), rat(400, "250.00")},
	)})
	if n := len(res.Transactions); n != 5 {
		t.Fatalf("%d transactions, want 5", n)
	}
	last := res.Transactions[4]
	if last.AmountIn == nil || last.AmountIn.String() != "250" {
		t.Errorf("last row %s, want money in like the rows that begin alike", txLine(last))
	}
	if !last.Provenance.DirectionLearned || !hasKind(last, ledger.WarnDirectionLearned) {
		t.Errorf("last row: provenance %+v, want its direction learned", last.Provenance)
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified", s)
	}
}

// A card's statement with one unsigned amount column and no balance on
// its rows: purchases, and a payment among them. Its previous and new
// balances add up only with the payment read as money in (the balance
// owed falls by it); read all as money out, they break. The directions
// rest on reading it as a card's, which its words say and nothing
// printed on the rows proves: unverified, with that reason.
func TestDirectionFromSumsCard(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Credit card statement")},
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		[]cellAt{at(10, "Credit limit"), rat(300, "5,000.00")},
		[]cellAt{at(10, "Previous balance"), rat(300, "100.00")},
		[]cellAt{at(10, "New balance"), rat(300, "180.00")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(450, "Amount")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Grocery Lidl"), rat(450, "50.00")},
		[]cellAt{at(10, "05/03/2024"), at(80, "Thank you"), rat(450, "30.00")},
		[]cellAt{at(10, "09/03/2024"), at(80, "Fuel Shell"), rat(450, "60.00")},
	)})
	checkTxs(t, res, []string{
		"2024-03-02|Grocery Lidl||50.00|150.00",
		"2024-03-05|Thank you|30.00||120.00",
		"2024-03-09|Fuel Shell||60.00|180.00",
	})
	for i, tx := range res.Transactions {
		if !tx.Provenance.DirectionFromSums || tx.Provenance.DirectionGuessed || !hasKind(tx, ledger.WarnDirectionFromSums) {
			t.Errorf("row %d: provenance %+v; want its direction from the sums", i, tx.Provenance)
		}
	}
	rec := res.Statement.Reconciliation
	if rec.Status != ledger.ReconcileUnverified || !strings.Contains(rec.Message, "printed sums, for the kind of account read") {
		t.Errorf("reconciliation %s (%s), want unverified for directions that rest on the card's reading", rec.Status, rec.Message)
	}
}

// A card's statement in words no lexicon holds: one unsigned amount column
// with no balance on its rows, and two lone amounts above them. Read as a
// bank's, with every amount money out, the second printed is the first
// less the rows' sum: a closing printed before its opening. Read as a
// card's, the balance owed rises by the purchases from the first to the
// second: that reading's balances close, and it is taken. Nothing on the
// rows proves which way they went: unverified.
func TestDirectionCardByItsBalances(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Drifätrontgux: 05/12/2022 - 04/01/2023")},
		[]cellAt{at(10, "Trärouskebrir"), rat(300, "283.30")},
		[]cellAt{at(10, "Fuskilsou zizvyx"), rat(300, "812.95")},
		nil,
		[]cellAt{at(10, "10/12/2022"), at(80, "Korot"), rat(450, "28.68")},
		[]cellAt{at(10, "13/12/2022"), at(80, "Zoe Janssen Paris"), rat(450, "188.93")},
		[]cellAt{at(10, "24/12/2022"), at(80, "Vattenfall Lisboa"), rat(450, "191.27")},
		[]cellAt{at(10, "03/01/2023"), at(80, "Renfe Viajeros"), rat(450, "120.77")},
	)})
	checkTxs(t, res, []string{
		"2022-12-10|Korot||28.68|311.98",
		"2022-12-13|Zoe Janssen Paris||188.93|500.91",
		"2022-12-24|Vattenfall Lisboa||191.27|692.18",
		"2023-01-03|Renfe Viajeros||120.77|812.95",
	})
	st := res.Statement
	if st.OpeningBalance == nil || st.OpeningBalance.String() != "283.3" || st.ClosingBalance == nil || st.ClosingBalance.String() != "812.95" {
		t.Errorf("opening %v, closing %v; want 283.30 and 812.95", st.OpeningBalance, st.ClosingBalance)
	}
	if !st.Proof.Card {
		t.Errorf("not read as a card's statement")
	}
	if !res.Transactions[0].Provenance.DirectionFromSums {
		t.Errorf("row 0: provenance %+v; want its direction from the sums", res.Transactions[0].Provenance)
	}
	if st.Reconciliation.Status != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s (%s), want unverified", st.Reconciliation.Status, st.Reconciliation.Message)
	}
}

// A card's statement in words no lexicon holds, whose payments print a
// Cr word, whose purchases print none, and whose last line is its closing
// balance with a Dr word. The Dr/Cr words show no sign convention: the
// Cr amounts are money in, the plain ones are left to the sums, and the
// last line closes the balance from the one printed above the rows only
// with the purchases read as money out.
func TestDirectionCardCrMarkedPayments(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Luottokorttilasku")},
		[]cellAt{at(10, "Tilin tila kauden alussa"), rat(300, "148.09")},
		nil,
		[]cellAt{at(10, "12/12/2022"), at(80, "Tilisiirto Ana"), rat(450, "169.14 CR")},
		[]cellAt{at(10, "14/12/2022"), at(80, "SNCF Voyages"), rat(450, "312.61")},
		[]cellAt{at(10, "16/12/2022"), at(80, "Cafe de Flore"), rat(450, "3.62")},
		[]cellAt{at(10, "21/12/2022"), at(80, "Palkka Pingo"), rat(450, "673.88 CR")},
		[]cellAt{at(10, "09/01/2023"), at(80, "Maksut ja palkkiot"), rat(450, "11.78")},
		[]cellAt{at(80, "Lopputila"), rat(450, "366.92 DR")},
	)})
	checkTxs(t, res, []string{
		"2022-12-12|Tilisiirto Ana|169.14||-21.05",
		"2022-12-14|SNCF Voyages||312.61|291.56",
		"2022-12-16|Cafe de Flore||3.62|295.18",
		"2022-12-21|Palkka Pingo|673.88||-378.70",
		"2023-01-09|Maksut ja palkkiot||11.78|-366.92",
	})
	if c := res.Statement.ClosingBalance; c == nil || c.String() != "-366.92" {
		t.Errorf("closing balance %v, want -366.92", c)
	}
	if s := res.Statement.Reconciliation.Status; s != ledger.ReconcileUnverified {
		t.Errorf("reconciliation %s, want unverified", s)
	}
}

// A statement that prints its balance once a day, over one unsigned
// amount column: the day's rows move the balance from the day before's
// to the day's, and only one choice of their directions does. The
// balances prove each row's: ok. Read money out for want of a sign, the
// salary broke the balance.
func TestDirectionDailyBalancesProve(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(400, "Amount"), rat(500, "Balance")},
		[]cellAt{at(80, "Opening balance"), rat(500, "1,000.00")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Salary Acme"), rat(400, "500.00")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Card Lidl"), rat(400, "50.00"), rat(500, "1,450.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Rent"), rat(400, "300.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Refund Rewe"), rat(400, "20.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Coffee"), rat(400, "5.00"), rat(500, "1,165.00")},
	)})
	checkTxs(t, res, []string{
		"2024-03-01|Salary Acme|500.00||1500.00",
		"2024-03-01|Card Lidl||50.00|1450.00",
		"2024-03-02|Rent||300.00|1150.00",
		"2024-03-02|Refund Rewe|20.00||1170.00",
		"2024-03-02|Coffee||5.00|1165.00",
	})
	for i, tx := range res.Transactions {
		if !tx.Provenance.DirectionFromBalance {
			t.Errorf("row %d: provenance %+v; want its direction from the balances", i, tx.Provenance)
		}
	}
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation %s (%s), want ok", rec.Status, rec.Message)
	}
}

// The same statement with its opening balance printed above the table in
// words no lexicon holds: of the lone amounts printed there, only from
// it do the first day's rows reach the first printed balance, one way
// only. It is the opening balance, and the balances prove every row.
func TestDirectionOpeningAmongLoneAmounts(t *testing.T) {
	res := Analyze([]source.Page{synthPage(1,
		[]cellAt{at(10, "Statement period: 01/03/2024 - 31/03/2024")},
		[]cellAt{at(10, "Sold precedent"), rat(300, "1,000.00")},
		[]cellAt{at(10, "Limita descoperit"), rat(300, "2,500.00")},
		nil,
		[]cellAt{at(10, "Date"), at(80, "Description"), rat(400, "Amount"), rat(500, "Balance")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Salary Acme"), rat(400, "500.00")},
		[]cellAt{at(10, "01/03/2024"), at(80, "Card Lidl"), rat(400, "50.00"), rat(500, "1,450.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Rent"), rat(400, "300.00")},
		[]cellAt{at(10, "02/03/2024"), at(80, "Coffee"), rat(400, "5.00"), rat(500, "1,145.00")},
	)})
	checkTxs(t, res, []string{
		"2024-03-01|Salary Acme|500.00||1500.00",
		"2024-03-01|Card Lidl||50.00|1450.00",
		"2024-03-02|Rent||300.00|1150.00",
		"2024-03-02|Coffee||5.00|1145.00",
	})
	if o := res.Statement.OpeningBalance; o == nil || o.String() != "1000" {
		t.Errorf("opening balance %v, want 1000.00", o)
	}
	if rec := res.Statement.Reconciliation; rec.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation %s (%s), want ok", rec.Status, rec.Message)
	}
}
