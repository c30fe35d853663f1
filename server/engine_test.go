package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/source"
)

// testEngine is a pure-Go stand-in for extract/engine that the server
// tests' worker child serves through the real worker protocol, so these
// tests link no C. It reads a line format, one directive a line:
//
//	PASSBOOK-TEST              first line; anything else is not a document
//	pages N                    the page count a probe reports
//	password P                 the document needs password P
//	opening 1000.00            the opening balance
//	closing 949.34             the closing balance
//	account NUMBER CURRENCY    the account number and currency
//	period FROM TO             the statement period (YYYY-MM-DD)
//	row DATE AMOUNT BALANCE DESCRIPTION   a transaction (negative AMOUNT: money out)
//	bank TEXT, holder TEXT     the bank and the account's holder the statement names
//	subaccount NUMBER CURRENCY OPENING CLOSING   one account of a document that
//	                           holds several: the rows after it are its own
//	sleep 200ms                converting takes this long
//	hang                       converting never ends
//	crash                      the worker dies while converting
//	fail TEXT                  converting fails with TEXT (an unreadable file)
//
// Bytes that start with %PDF- but not with the header are a damaged PDF.
// The real engine end to end is covered by the root package's tests.
type testEngine struct{}

type testDoc struct {
	pages    int
	password string
	opening  *decimal.Decimal
	closing  *decimal.Decimal
	number   string
	currency string
	from, to *time.Time
	rows     []ledger.Transaction
	bank     string
	holder   string
	accounts []ledger.Account
	sleep    time.Duration
	hang     bool
	crash    bool
	fail     string
}

const testHeader = "PASSBOOK-TEST"

// testSniff is Config.Sniff for the test engine: its format too.
func testSniff(head []byte) string {
	if bytes.HasPrefix(head, []byte(testHeader+"\n")) {
		return "test"
	}
	return source.Sniff(head)
}

func parseTestDoc(data []byte, password string) (*testDoc, error) {
	if !bytes.HasPrefix(data, []byte(testHeader+"\n")) {
		if source.Sniff(data) == "pdf" {
			return nil, fmt.Errorf("test engine: no header: %w", source.ErrCorrupt)
		}
		return nil, source.ErrUnsupported
	}
	d := &testDoc{pages: 1}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Scan() // the header
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		var err error
		switch word {
		case "pages":
			d.pages, err = strconv.Atoi(rest)
		case "password":
			d.password = rest
		case "opening":
			var v decimal.Decimal
			v, err = decimal.NewFromString(rest)
			d.opening = &v
		case "closing":
			var v decimal.Decimal
			v, err = decimal.NewFromString(rest)
			d.closing = &v
		case "account":
			d.number, d.currency, _ = strings.Cut(rest, " ")
		case "period":
			from, to, _ := strings.Cut(rest, " ")
			var a, b time.Time
			if a, err = time.Parse(time.DateOnly, from); err == nil {
				b, err = time.Parse(time.DateOnly, to)
			}
			d.from, d.to = &a, &b
		case "row":
			var tx ledger.Transaction
			tx, err = parseTestRow(rest)
			if n := len(d.accounts); n > 0 {
				tx.Account = d.accounts[n-1].Number
			}
			d.rows = append(d.rows, tx)
		case "provenance":
			// The row before's provenance, as JSON: what a conversion
			// found of where its values came from.
			if len(d.rows) == 0 {
				err = errors.New("provenance before any row")
				break
			}
			err = json.Unmarshal([]byte(rest), &d.rows[len(d.rows)-1].Provenance)
		case "bank":
			d.bank = rest
		case "holder":
			d.holder = rest
		case "subaccount":
			f := strings.Fields(rest)
			if len(f) != 4 {
				err = errors.New("want NUMBER CURRENCY OPENING CLOSING")
				break
			}
			a := ledger.Account{Number: f[0], Currency: f[1], PeriodStart: d.from, PeriodEnd: d.to}
			o, c := decimal.RequireFromString(f[2]), decimal.RequireFromString(f[3])
			a.OpeningBalance, a.ClosingBalance = &o, &c
			d.accounts = append(d.accounts, a)
		case "sleep":
			d.sleep, err = time.ParseDuration(rest)
		case "hang":
			d.hang = true
		case "crash":
			d.crash = true
		case "fail":
			d.fail = rest
		default:
			err = fmt.Errorf("unknown directive %q", word)
		}
		if err != nil {
			return nil, fmt.Errorf("test engine: %q: %v: %w", line, err, source.ErrCorrupt)
		}
	}
	if d.password != "" && d.password != password {
		return nil, source.ErrPassword
	}
	return d, nil
}

func parseTestRow(s string) (ledger.Transaction, error) {
	f := strings.SplitN(s, " ", 4)
	if len(f) != 4 {
		return ledger.Transaction{}, errors.New("want DATE AMOUNT BALANCE DESCRIPTION")
	}
	date, err := time.Parse(time.DateOnly, f[0])
	if err != nil {
		return ledger.Transaction{}, err
	}
	amt, err := decimal.NewFromString(f[1])
	if err != nil {
		return ledger.Transaction{}, err
	}
	bal, err := decimal.NewFromString(f[2])
	if err != nil {
		return ledger.Transaction{}, err
	}
	tx := ledger.Transaction{Date: date, Description: f[3], Balance: bal, Page: 1}
	if amt.IsNegative() {
		out := amt.Neg()
		tx.AmountOut = &out
	} else {
		tx.AmountIn = &amt
	}
	return tx, nil
}

func (testEngine) Probe(data []byte, password string) (source.Info, error) {
	d, err := parseTestDoc(data, password)
	if err != nil {
		return source.Info{}, err
	}
	return source.Info{Kind: "pdf", PageCount: d.pages}, nil
}

func (testEngine) Convert(data []byte, opts extract.Options) (*ledger.Result, error) {
	d, err := parseTestDoc(data, opts.Password)
	if err != nil {
		return nil, err
	}
	switch {
	case d.crash:
		os.Exit(3)
	case d.hang:
		select {}
	case d.fail != "":
		return nil, fmt.Errorf("%s: %w", d.fail, source.ErrCorrupt)
	}
	time.Sleep(d.sleep)
	for p := 1; p <= d.pages; p++ {
		if opts.Progress != nil {
			opts.Progress(p, d.pages)
		}
	}
	res := &ledger.Result{PageCount: d.pages, Transactions: d.rows}
	res.Statement.OpeningBalance, res.Statement.ClosingBalance = d.opening, d.closing
	res.Statement.AccountNumber, res.Statement.Currency = d.number, d.currency
	res.Statement.PeriodStart, res.Statement.PeriodEnd = d.from, d.to
	res.Statement.Bank, res.Statement.Holder = d.bank, d.holder
	res.Statement.Accounts = d.accounts
	// The balance check is the one a person's corrections get: pure Go.
	extract.Recheck(slices.Clone(res.Transactions), res.Transactions, &res.Statement)
	return res, nil
}

// testPageWidth and testPageHeight are the size of every test page in
// points: A4, as the real engine reports it.
const testPageWidth, testPageHeight = 595.28, 841.89

// RenderPage draws a blank grey page of the asked width, its height in
// A4's proportions, with the bounds and errors of the real engine.
func (testEngine) RenderPage(data []byte, password string, page, width int) (source.Rendered, error) {
	d, err := parseTestDoc(data, password)
	if err != nil {
		return source.Rendered{}, err
	}
	if width == 0 {
		width = source.DefaultRenderWidth
	}
	if width < source.MinRenderWidth || width > source.MaxRenderWidth {
		return source.Rendered{}, fmt.Errorf("width %d: %w", width, source.ErrNoPage)
	}
	if page < 1 || page > d.pages {
		return source.Rendered{}, fmt.Errorf("page %d of %d: %w", page, d.pages, source.ErrNoPage)
	}
	g := image.NewGray(image.Rect(0, 0, width, int(float64(width)*testPageHeight/testPageWidth)))
	for i := range g.Pix {
		g.Pix[i] = 0xee
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, g); err != nil {
		return source.Rendered{}, err
	}
	return source.Rendered{PNG: buf.Bytes(), Width: testPageWidth, Height: testPageHeight}, nil
}
