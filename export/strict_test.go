package export

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
)

// mtjsStatement is one statement as mt940js reads it (testdata/mt940js/read.js).
type mtjsStatement struct {
	Account      string `json:"account"`
	Number       string `json:"number"`
	Currency     string `json:"currency"`
	Opening      string `json:"opening"`
	OpeningDate  string `json:"opening_date"`
	Closing      string `json:"closing"`
	ClosingDate  string `json:"closing_date"`
	Info         string `json:"info"`
	Transactions []struct {
		Date          string `json:"date"`
		Amount        string `json:"amount"`
		BankReference string `json:"bank_reference"`
		Details       string `json:"details"`
	} `json:"transactions"`
}

// mt940js reads MT940 files with mt940js, an independent reader from the
// npm registry that refuses a statement whose opening balance and lines do
// not give its closing balance. It fails the test when mt940js refuses
// one.
func mt940js(t *testing.T, paths ...string) map[string][]mtjsStatement {
	t.Helper()
	node := tool(t, "node", "nodejs")
	if _, err := os.Stat("testdata/mt940js/node_modules/mt940js"); err != nil {
		t.Fatalf("mt940js is not installed: run make test-deps (npm ci in export/testdata/mt940js): %v", err)
	}
	out := run(t, time.Minute, node, append([]string{"testdata/mt940js/read.js"}, paths...)...)
	var got map[string]struct {
		Statements []mtjsStatement `json:"statements"`
		Error      string          `json:"error"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("mt940js: %v\n%s", err, out)
	}
	res := map[string][]mtjsStatement{}
	for _, p := range paths {
		g, ok := got[p]
		if !ok || g.Error != "" {
			raw, _ := os.ReadFile(p)
			t.Fatalf("mt940js refused %s: %s\n%s", filepath.Base(p), g.Error, raw)
		}
		res[p] = g.Statements
	}
	return res
}

// TestStrictReaders writes a statement that does not reconcile (its rows
// do not add up to the closing balance it prints) in MT940, CAMT.053 and
// OFX, and reads each back with a reader that did not write it: mt940js,
// which checks opening + lines = closing; xmllint against the ISO 20022
// schema; ofxparse. Each accepts it, with the closing balance the rows
// give, and the printed one is beside it where the format has a place.
func TestStrictReaders(t *testing.T) {
	dir := t.TempDir()
	bad := sample() // mismatch: opening 100.00, rows give -0.01, prints 0.01
	bare := empty()
	ok := roundTrip()
	var mtPaths []string
	for name, res := range map[string]*ledger.Result{"mismatch": bad, "empty": bare, "ok": ok} {
		p := filepath.Join(dir, name+".sta")
		if err := os.WriteFile(p, write(t, MT940, res), 0o644); err != nil {
			t.Fatal(err)
		}
		mtPaths = append(mtPaths, p)
	}
	got := mt940js(t, mtPaths...)

	mis := got[filepath.Join(dir, "mismatch.sta")]
	if len(mis) != 1 {
		t.Fatalf("mismatch: %d statements", len(mis))
	}
	s := mis[0]
	if s.Opening != "100.00" || s.Closing != "-0.01" || s.OpeningDate != "2024-01-01" || s.ClosingDate != "2024-01-31" || s.Currency != "EUR" {
		t.Errorf("mismatch read as %s %s on %s .. %s on %s", s.Currency, s.Opening, s.OpeningDate, s.Closing, s.ClosingDate)
	}
	if len(s.Transactions) != len(bad.Transactions) {
		t.Errorf("mismatch: %d lines, want %d", len(s.Transactions), len(bad.Transactions))
	}
	if want := "The statement shows a closing balance of 0.01, its rows give -0.01 (difference 0.02)."; strings.ReplaceAll(s.Info, "\n", "") != want {
		t.Errorf("information to the account owner = %q, want %q", s.Info, want)
	}
	for _, a := range got[filepath.Join(dir, "ok.sta")] {
		if a.Info != "" {
			t.Errorf("a statement that reconciles carries a note: %q", a.Info)
		}
	}
	if e := got[filepath.Join(dir, "empty.sta")]; len(e) != 1 || e[0].Opening != "0.00" || e[0].Closing != "0.00" {
		t.Errorf("empty statement read as %+v", e)
	}

	// CAMT.053: valid, CLBD is the rows' balance, AddtlStmtInf the printed one.
	camtPath := writeFile(t, dir, CAMT053, testOptions(), bad)
	run(t, time.Minute, tool(t, "xmllint", "libxml2-utils"), "--noout", "--schema", "testdata/camt.053.001.02.xsd", camtPath)
	raw, err := os.ReadFile(camtPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stmts []struct {
			Bals []struct {
				Code string  `xml:"Tp>CdOrPrtry>Cd"`
				Amt  camtAmt `xml:"Amt"`
				Ind  string  `xml:"CdtDbtInd"`
			} `xml:"Bal"`
			Entries []struct {
				Amt camtAmt `xml:"Amt"`
				Ind string  `xml:"CdtDbtInd"`
			} `xml:"Ntry"`
			Info string `xml:"AddtlStmtInf"`
		} `xml:"BkToCstmrStmt>Stmt"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil || len(doc.Stmts) != 1 {
		t.Fatalf("camt: %v, %d Stmt", err, len(doc.Stmts))
	}
	bals := map[string]decimal.Decimal{}
	for _, b := range doc.Stmts[0].Bals {
		bals[b.Code] = camtSigned(t, b.Amt, b.Ind)
	}
	sum := bals["OPBD"]
	for _, e := range doc.Stmts[0].Entries {
		sum = sum.Add(camtSigned(t, e.Amt, e.Ind))
	}
	if !sum.Equal(bals["CLBD"]) || bals["CLBD"].StringFixed(2) != "-0.01" {
		t.Errorf("camt: OPBD + entries = %s, CLBD %s, want both -0.01", sum, bals["CLBD"])
	}
	if !strings.Contains(doc.Stmts[0].Info, "closing balance of 0.01") {
		t.Errorf("camt AddtlStmtInf = %q", doc.Stmts[0].Info)
	}

	// OFX: ofxparse reads LEDGERBAL as the rows' balance.
	ofxPath := writeFile(t, dir, OFX, testOptions(), bad)
	out := run(t, time.Minute, python(t), "testdata/ofxread.py", ofxPath)
	var ofx map[string]struct {
		Accounts []struct {
			Balance      string
			Opening      *string
			Transactions []struct{ Amount string }
		}
	}
	if err := json.Unmarshal(out, &ofx); err != nil || len(ofx[ofxPath].Accounts) != 1 {
		t.Fatalf("ofxparse: %v\n%s", err, out)
	}
	a := ofx[ofxPath].Accounts[0]
	sum = decimal.RequireFromString(*a.Opening)
	for _, tx := range a.Transactions {
		sum = sum.Add(decimal.RequireFromString(tx.Amount))
	}
	if !sum.Equal(decimal.RequireFromString(a.Balance)) || a.Balance != "-0.01" {
		t.Errorf("ofx: opening + rows = %s, ledger balance %s, want both -0.01", sum, a.Balance)
	}
	if !strings.Contains(readFile(t, ofxPath), "<NAME>Closing balance as printed</NAME>") {
		t.Errorf("ofx lacks the printed closing balance")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
