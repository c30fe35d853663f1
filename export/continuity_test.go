package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// tx is a row of a test statement: a day of the month and a signed amount.
type tx struct {
	date   string
	amount string
	desc   string
}

// monthly makes a statement of one account from from to to, opening with
// opening, whose rows follow from it (so it reconciles: ok).
func monthly(number, ccy, from, to, opening string, rows ...tx) *ledger.Result {
	res := &ledger.Result{PageCount: 1}
	bal := decimal.RequireFromString(opening)
	for _, r := range rows {
		a := decimal.RequireFromString(r.amount)
		bal = bal.Add(a)
		t := ledger.Transaction{Date: day(r.date), Description: r.desc, Balance: bal}
		if a.Sign() > 0 {
			t.AmountIn = &a
		} else {
			n := a.Neg()
			t.AmountOut = &n
		}
		res.Transactions = append(res.Transactions, t)
	}
	closing := bal
	res.Statement = ledger.Statement{AccountNumber: number, Currency: ccy, PeriodStart: dayPtr(from), PeriodEnd: dayPtr(to),
		OpeningBalance: dec(opening), ClosingBalance: &closing,
		Reconciliation: ledger.Reconciliation{Status: ledger.ReconcileOK}}
	return res
}

// src makes a completed source named name.
func src(name string, res *ledger.Result) Source {
	return Source{ID: "id-" + name, Name: name, Status: SourceCompleted, Result: res}
}

// findingLines are the findings as the tests compare it.
func findingLines(s *Set) []string {
	var out []string
	for _, a := range s.Accounts {
		for _, f := range a.Findings {
			l := fmt.Sprintf("%s %s %s %s..%s", a.Label(), f.Kind, strings.Join(f.SourceIDs, ","), f.From.Format(dateLayout), f.To.Format(dateLayout))
			if f.Difference != nil {
				l += " " + f.Difference.StringFixed(2)
			}
			if f.Kind == FindingOverlap {
				l += fmt.Sprintf(" common=%d", f.Common)
			}
			if f.Blame != "" {
				l += " blame=" + f.Blame
			}
			out = append(out, l)
		}
	}
	return out
}

// quarter is three months of an IBAN account in euros and, in the same
// documents, of a masked account in pounds: two accounts a document.
func quarter() []Source {
	two := func(name string, a, b *ledger.Result) Source {
		res := &ledger.Result{PageCount: 1}
		for _, t := range a.Transactions {
			t.Account = a.Statement.AccountNumber
			res.Transactions = append(res.Transactions, t)
		}
		for _, t := range b.Transactions {
			t.Account = b.Statement.AccountNumber
			res.Transactions = append(res.Transactions, t)
		}
		acct := func(r *ledger.Result) ledger.Account {
			s := r.Statement
			return ledger.Account{Number: s.AccountNumber, Currency: s.Currency, PeriodStart: s.PeriodStart, PeriodEnd: s.PeriodEnd,
				OpeningBalance: s.OpeningBalance, ClosingBalance: s.ClosingBalance, Reconciliation: s.Reconciliation}
		}
		res.Statement = a.Statement
		res.Statement.Accounts = []ledger.Account{acct(a), acct(b)}
		return src(name, res)
	}
	return []Source{
		two("jan.pdf",
			monthly(ibanAccount, "EUR", "2024-01-01", "2024-01-31", "1000.00", tx{"2024-01-03", "-10.00", "COFFEE"}, tx{"2024-01-20", "500.00", "SALARY"}),
			monthly(maskedAccount, "GBP", "2024-01-01", "2024-01-31", "-50.00", tx{"2024-01-05", "-5.00", "FEE"})),
		two("feb.pdf",
			monthly(ibanAccount, "EUR", "2024-02-01", "2024-02-29", "1490.00", tx{"2024-02-10", "-90.00", "RENT"}, tx{"2024-02-20", "500.00", "SALARY"}),
			monthly(maskedAccount, "GBP", "2024-02-01", "2024-02-29", "-55.00", tx{"2024-02-05", "-5.00", "FEE"})),
		two("mar.pdf",
			monthly(ibanAccount, "EUR", "2024-03-01", "2024-03-31", "1900.00", tx{"2024-03-15", "-100.00", "SHOP"}, tx{"2024-03-20", "500.00", "SALARY"}),
			monthly(maskedAccount, "GBP", "2024-03-01", "2024-03-31", "-60.00", tx{"2024-03-05", "-5.00", "FEE"})),
	}
}

// TestContinuity builds sets from statements and checks each finding is
// reported exactly, and nothing else.
func TestContinuity(t *testing.T) {
	q := quarter()
	eur, gbp := ibanAccount+" EUR", maskedAccount+" GBP"
	apr := src("apr.pdf", monthly("DE 89-3704 0044 0532 0130 00", "EUR", "2024-04-01", "2024-04-30", "2300.00", tx{"2024-04-02", "-1.00", "X"}))
	for _, tt := range []struct {
		name    string
		sources []Source
		want    []string
		status  string
	}{
		{"continuous", q, nil, SetContinuous},
		{"a month missing", []Source{q[0], q[2]}, []string{
			gbp + " gap id-jan.pdf,id-mar.pdf 2024-02-01..2024-02-29 -5.00",
			eur + " gap id-jan.pdf,id-mar.pdf 2024-02-01..2024-02-29 410.00",
		}, SetBroken},
		{"a statement twice", []Source{q[0], q[1], src("feb (1).pdf", q[1].Result), q[2]}, []string{
			gbp + " duplicate id-feb.pdf,id-feb (1).pdf 2024-02-01..2024-02-29",
			eur + " duplicate id-feb.pdf,id-feb (1).pdf 2024-02-01..2024-02-29",
		}, SetBroken},
		{"an opening balance shifted", []Source{q[0], q[1], func() Source {
			s := src("mar.pdf", monthly(ibanAccount, "EUR", "2024-03-01", "2024-03-31", "1900.00", tx{"2024-03-15", "-100.00", "SHOP"}))
			s.Result.Statement.OpeningBalance = dec("1912.34")
			s.Result.Statement.Reconciliation.Status = ledger.ReconcileMismatch
			return s
		}()}, []string{
			eur + " balance_break id-feb.pdf,id-mar.pdf 2024-02-29..2024-03-01 12.34",
		}, SetBroken},
		// A copy of February whose balances are all 100.00 higher: it
		// opens off from January and March opens off from it, the other
		// way. One finding blames February; March is not offered away.
		{"one statement off by as much at both ends", []Source{q[0],
			src("feb.pdf", monthly(ibanAccount, "EUR", "2024-02-01", "2024-02-29", "1590.00", tx{"2024-02-10", "-90.00", "RENT"}, tx{"2024-02-20", "500.00", "SALARY"})),
			src("mar.pdf", monthly(ibanAccount, "EUR", "2024-03-01", "2024-03-31", "1900.00", tx{"2024-03-15", "-100.00", "SHOP"}))}, []string{
			eur + " balance_break id-jan.pdf,id-feb.pdf,id-mar.pdf 2024-01-31..2024-03-01 100.00 blame=id-feb.pdf",
		}, SetBroken},
		{"two breaks that do not cancel blame no one", []Source{q[0],
			src("feb.pdf", monthly(ibanAccount, "EUR", "2024-02-01", "2024-02-29", "1590.00", tx{"2024-02-10", "-90.00", "RENT"}, tx{"2024-02-20", "500.00", "SALARY"})), src("mar.pdf", monthly(ibanAccount, "EUR", "2024-03-01", "2024-03-31", "1950.00", tx{"2024-03-15", "-100.00", "SHOP"}))}, []string{
			eur + " balance_break id-jan.pdf,id-feb.pdf 2024-01-31..2024-02-01 100.00",
			eur + " balance_break id-feb.pdf,id-mar.pdf 2024-02-29..2024-03-01 -50.00",
		}, SetBroken},
		{"two periods overlap", []Source{q[0], src("feb-mar.pdf",
			monthly(ibanAccount, "EUR", "2024-01-15", "2024-02-29", "990.00", tx{"2024-01-20", "500.00", "SALARY"}, tx{"2024-02-10", "-90.00", "RENT"}, tx{"2024-02-20", "500.00", "SALARY"}))},
			[]string{eur + " overlap id-jan.pdf,id-feb-mar.pdf 2024-01-15..2024-01-31 common=1"}, SetBroken},
		// The number printed another way, without a currency, joins the
		// IBAN account in euros.
		{"number spelled otherwise", []Source{q[2], func() Source { apr.Result.Statement.Currency = ""; return apr }()}, nil, SetContinuous},
		{"a statement not ok", []Source{q[0], func() Source {
			s := src("feb.pdf", q[1].Result)
			r := *s.Result
			r.Statement.Accounts = append([]ledger.Account(nil), r.Statement.Accounts...)
			r.Statement.Accounts[1].Reconciliation.Status = ledger.ReconcileUnverified
			s.Result = &r
			return s
		}()}, nil, SetUnproven},
		{"a document failed", []Source{q[0], {ID: "id-x", Name: "x.pdf", Status: SourceFailed, Error: "damaged"}}, nil, SetUnproven},
		{"a document converting", []Source{q[0], {ID: "id-x", Name: "x.pdf", Status: SourceProcessing}}, nil, SetProcessing},
		{"empty", nil, nil, SetEmpty},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set := NewSet(tt.sources)
			got := findingLines(set)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if s := set.Status(); s != tt.status {
				t.Errorf("status %s, want %s", s, tt.status)
			}
		})
	}
}

// TestContinuityFromRows: statements that print no period are placed by
// their rows' dates; days between the last and first rows are no gap when
// the balance moved by nothing across them, and are one when it moved.
func TestContinuityFromRows(t *testing.T) {
	undated := func(name, opening string, rows ...tx) Source {
		s := src(name, monthly("12345678", "USD", "2024-01-01", "2024-01-01", opening, rows...))
		s.Result.Statement.PeriodStart, s.Result.Statement.PeriodEnd = nil, nil
		return s
	}
	a := undated("a.pdf", "100.00", tx{"2024-01-03", "-10.00", "A"}, tx{"2024-01-29", "-10.00", "B"})
	b := undated("b.pdf", "80.00", tx{"2024-02-02", "-10.00", "C"})
	if got := findingLines(NewSet([]Source{a, b})); len(got) != 0 {
		t.Errorf("chained by balance: %q", got)
	}
	c := undated("c.pdf", "75.00", tx{"2024-02-02", "-10.00", "C"})
	if got := findingLines(NewSet([]Source{a, c})); strings.Join(got, "|") != "12345678 USD gap id-a.pdf,id-c.pdf 2024-01-30..2024-02-01 -5.00" {
		t.Errorf("balance moved between them: %q", got)
	}
}

// overlapSet is quarter's January and a re-issue from 15 January to the
// end of February, in pounds and euros, and a duplicate of January.
func overlapSet() *Set {
	q := quarter()
	return NewSet([]Source{q[0], src("jan (copy).pdf", q[0].Result), src("reissue.pdf",
		monthly(ibanAccount, "EUR", "2024-01-15", "2024-02-29", "990.00", tx{"2024-01-20", "500.00", "SALARY"}, tx{"2024-02-10", "-90.00", "RENT"}, tx{"2024-02-20", "500.00", "SALARY"})), q[2]})
}

// TestSetFormats writes a set with an overlap, a duplicate and a gap in
// every format and checks that each carries every transaction once, and
// that strict readers accept the statement formats: mt940js (opening +
// lines = closing, per source statement), xmllint with the CAMT.053
// schema, ofxparse.
func TestSetFormats(t *testing.T) {
	set := overlapSet()
	opts := Options{FileID: "fld_test", OriginalName: "Client 2024", Created: time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	out := map[Format][]byte{}
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := WriteSet(&buf, f, opts, set); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = buf.Bytes()
		if err := os.WriteFile(filepath.Join(dir, "set"+f.Ext()), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// EUR: Jan (2 rows) + the re-issue's February (2 rows; its January
	// salary is January's) + March (2). GBP: Jan, Mar (1 each).
	const eurRows, gbpRows = 6, 2

	recs, err := csv.NewReader(bytes.NewReader(out[CSV])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "account,currency,date,type,description,amountIn,amountOut,balance,file" || len(recs) != 1+eurRows+gbpRows {
		t.Errorf("csv: %d records, header %q", len(recs), recs[0])
	}
	for _, r := range recs[1:] {
		if r[8] == "jan (copy).pdf" {
			t.Errorf("csv carries the duplicate: %q", r)
		}
	}
	var doc struct {
		FolderID string `json:"folder_id"`
		Status   string `json:"status"`
		Accounts []struct {
			Currency     string `json:"currency"`
			Transactions []struct {
				Date   string `json:"date"`
				FileID string `json:"file_id"`
			} `json:"transactions"`
		} `json:"accounts"`
	}
	if err := json.Unmarshal(out[JSON], &doc); err != nil {
		t.Fatal(err)
	}
	if doc.FolderID != "fld_test" || doc.Status != SetBroken || len(doc.Accounts) != 2 || len(doc.Accounts[0].Transactions) != gbpRows || len(doc.Accounts[1].Transactions) != eurRows {
		t.Errorf("json: %+v", doc)
	}
	for _, p := range []Profile{Xero, QuickBooks, ExcelEU} {
		var buf bytes.Buffer
		o := opts
		o.Profile = p
		if err := WriteSet(&buf, CSV, o, set); err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(buf.Bytes(), []byte("\uFEFF"))))
		if p == ExcelEU {
			r.Comma = ';'
		}
		recs, err := r.ReadAll()
		if err != nil || len(recs) != 1+eurRows+gbpRows || recs[0][len(recs[0])-1] != "Account" {
			t.Errorf("profile %s: %v, %d records, header %q", p, err, len(recs), recs[0])
		}
	}

	// MT940: a statement per source statement and account, each adding up.
	mt := mt940js(t, filepath.Join(dir, "set.sta"))[filepath.Join(dir, "set.sta")]
	var got []string
	for _, s := range mt {
		got = append(got, fmt.Sprintf("%s %s %s..%s %s %d", s.Currency, s.Opening, s.OpeningDate, s.ClosingDate, s.Closing, len(s.Transactions)))
	}
	want := []string{
		"GBP -50.00 2024-01-01..2024-01-31 -55.00 1",
		"GBP -60.00 2024-03-01..2024-03-31 -65.00 1",
		"EUR 1000.00 2024-01-01..2024-01-31 1490.00 2",
		// The re-issue from 1 February, opening where January left off.
		"EUR 1490.00 2024-02-01..2024-02-29 1900.00 2",
		"EUR 1900.00 2024-03-01..2024-03-31 2300.00 2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mt940js read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	run(t, time.Minute, tool(t, "xmllint", "libxml2-utils"), "--noout", "--schema", "testdata/camt.053.001.02.xsd", filepath.Join(dir, "set.xml"))
	if n := bytes.Count(out[CAMT053], []byte("<Stmt>")); n != 5 {
		t.Errorf("camt: %d Stmt, want 5", n)
	}

	// OFX: one statement per account, opening + rows = ledger balance.
	ofxPath := filepath.Join(dir, "set.ofx")
	raw := run(t, time.Minute, python(t), "testdata/ofxread.py", ofxPath)
	var ofx map[string]struct {
		Accounts []struct {
			ID, Curdef, Start, End, Balance string
			Opening                         *string
			Transactions                    []struct{ Amount string }
		}
	}
	if err := json.Unmarshal(raw, &ofx); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, a := range ofx[ofxPath].Accounts {
		got = append(got, fmt.Sprintf("%s %s %s..%s %s %s %d", a.ID, a.Curdef, a.Start, a.End, *a.Opening, a.Balance, len(a.Transactions)))
	}
	want = []string{
		// The gap in February: the rows give -60.00, March closes with -65.00.
		"****5678 GBP 2024-01-01..2024-03-31 -50.00 -60.00 2",
		"DE89370400440532013000 EUR 2024-01-01..2024-03-31 1000.00 2300.00 6",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ofxparse read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !bytes.Contains(out[OFX], []byte("Closing balance as printed")) {
		t.Errorf("ofx: the GBP account's gap leaves its rows short of the last closing balance, and the OFX does not say so")
	}

	// XLSX: a sheet per account and the continuity sheet.
	f, err := excelize.OpenReader(bytes.NewReader(out[XLSX]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.GetSheetList(), "|"); got != "----5678 GBP|"+ibanAccount+" EUR|Continuity|Year summary" {
		t.Errorf("sheets %q", got)
	}
	// The year: per account its figures, and per month the files.
	year, _ := f.GetRows("Year summary")
	heads, months := 0, 0
	for _, r := range year {
		if len(r) >= 6 && r[0] == "Month" && r[5] == "Statements" {
			heads++
		}
		if len(r) >= 6 && len(r[0]) == 7 && r[0][4] == '-' && r[5] != "" {
			months++
		}
	}
	if heads != 2 || months == 0 {
		t.Errorf("year summary: %d account tables, %d months naming their files:\n%q", heads, months, year)
	}
	rows, _ := f.GetRows(ibanAccount + " EUR")
	if len(rows) != 1+eurRows || rows[0][7] != "File" {
		t.Errorf("EUR sheet: %q", rows)
	}
	cont, _ := f.GetRows("Continuity")
	var kinds []string
	for _, r := range cont {
		if len(r) > 2 && (r[2] == FindingGap || r[2] == FindingOverlap || r[2] == FindingDuplicate || r[2] == FindingBalanceBreak) {
			kinds = append(kinds, r[1]+" "+r[2])
		}
	}
	if got := strings.Join(kinds, ","); got != "GBP duplicate,GBP gap,EUR duplicate,EUR overlap" {
		t.Errorf("continuity sheet findings %q:\n%q", got, cont)
	}
}

// TestSetReport checks the words the CLI prints.
func TestSetReport(t *testing.T) {
	var buf bytes.Buffer
	if err := overlapSet().WriteReport(&buf); err != nil {
		t.Fatal(err)
	}
	want := `2 accounts, 7 statements: broken (4 findings)
****5678 GBP: 3 statements, 2024-01-01 to 2024-03-31
  duplicate 2024-01-01 to 2024-01-31: jan (copy).pdf is the same statement as jan.pdf; it is counted once.
  gap 2024-02-01 to 2024-02-29: No statement covers 2024-02-01 to 2024-02-29, between jan.pdf and mar.pdf; the balance moved by -5.00 across it.
DE89 3704 0044 0532 0130 00 EUR: 4 statements, 2024-01-01 to 2024-03-31
  duplicate 2024-01-01 to 2024-01-31: jan (copy).pdf is the same statement as jan.pdf; it is counted once.
  overlap 2024-01-15 to 2024-01-31: jan.pdf and reissue.pdf both cover 2024-01-15 to 2024-01-31; the 1 transaction both hold is counted once.
`
	if buf.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestSetChosenOnce (issue 42 point 2): which copy of a statement uploaded
// twice counts is the rule's (the name first in order), not the order the
// sources came in; the year summary's balances are the rows' own, also
// where a statement breaks; and the workbook lists the statements set
// aside, with who set them aside, beside those counted.
func TestSetChosenOnce(t *testing.T) {
	jan := func() *ledger.Result {
		return monthly(ibanAccount, "EUR", "2024-01-01", "2024-01-31", "1000.00", tx{"2024-01-03", "-10.00", "COFFEE"}, tx{"2024-01-20", "500.00", "SALARY"})
	}
	// February's copy prints every balance 100.00 higher; March follows
	// January and the good February.
	feb := monthly(ibanAccount, "EUR", "2024-02-01", "2024-02-29", "1590.00", tx{"2024-02-10", "-90.00", "RENT"}, tx{"2024-02-20", "500.00", "SALARY"})
	mar := monthly(ibanAccount, "EUR", "2024-03-01", "2024-03-31", "1900.00", tx{"2024-03-15", "-100.00", "SHOP"})
	aside := Source{ID: "id-feb-good", Name: "feb-good.pdf", Status: SourceCompleted, Result: monthly(ibanAccount, "EUR", "2024-02-01", "2024-02-29", "1490.00"),
		SetAside: true, SetAsideBy: "clerk@example.com", SetAsideAt: time.Date(2024, 4, 2, 9, 0, 0, 0, time.UTC)}
	orders := [][]Source{
		{src("jan (1).pdf", jan()), src("jan.pdf", jan()), src("feb.pdf", feb), src("mar.pdf", mar), aside},
		{aside, src("mar.pdf", mar), src("feb.pdf", feb), src("jan.pdf", jan()), src("jan (1).pdf", jan())},
	}
	var csvs []string
	for k, sources := range orders {
		set := NewSet(sources)
		a := set.Accounts[0]
		var dups []string
		for _, st := range a.Statements {
			if st.DuplicateOf != "" {
				dups = append(dups, st.Name+" of "+st.DuplicateOf)
			}
		}
		if got := strings.Join(dups, ";"); got != "jan (1).pdf of id-jan.pdf" {
			t.Errorf("order %d: the duplicate is %q; want jan (1).pdf, a copy of jan.pdf, whatever the order", k, got)
		}
		var out bytes.Buffer
		if err := WriteSet(&out, CSV, Options{}, set); err != nil {
			t.Fatal(err)
		}
		csvs = append(csvs, out.String())

		// The year's balances are the rows' own: each month closes with
		// its last row's balance and opens with the balance before its
		// first row.
		recs, _ := csv.NewReader(strings.NewReader(out.String())).ReadAll()
		last, first := map[string]string{}, map[string]string{}
		for _, r := range recs[1:] {
			m := r[2][:7]
			bal, amt := decimal.RequireFromString(r[7]), decimal.Zero
			if r[5] != "" {
				amt = decimal.RequireFromString(r[5])
			} else {
				amt = decimal.RequireFromString(r[6]).Neg()
			}
			if _, ok := first[m]; !ok {
				first[m] = bal.Sub(amt).StringFixed(2)
			}
			last[m] = r[7]
		}
		for _, m := range a.yearJSON().Months {
			if *m.Closing != last[m.Month] || *m.Opening != first[m.Month] {
				t.Errorf("order %d, %s: the year says %s to %s; the rows %s to %s", k, m.Month, *m.Opening, *m.Closing, first[m.Month], last[m.Month])
			}
		}

		var wb bytes.Buffer
		if err := WriteSet(&wb, XLSX, Options{OriginalName: "Client"}, set); err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(bytes.NewReader(wb.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		cont, _ := f.GetRows(continuitySheet)
		var text []string
		for _, r := range cont {
			text = append(text, strings.Join(r, "|"))
		}
		all := strings.Join(text, "\n")
		for _, want := range []string{"Chosen|" + ChoiceRule, "Set aside|By|On", "feb-good.pdf|clerk@example.com|2024-04-02", "no: the same as jan.pdf"} {
			if !strings.Contains(all, want) {
				t.Errorf("order %d: the Continuity sheet lacks %q:\n%s", k, want, all)
			}
		}
	}
	if csvs[0] != csvs[1] {
		t.Errorf("the folder's rows depend on the order its statements came in:\n%s\n%s", csvs[0], csvs[1])
	}
}
