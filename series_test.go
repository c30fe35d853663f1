package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"
)

// A generated series of monthly statements: a ledger per account, cut
// into statements for any period, each drawn as a text PDF the real engine
// converts. The series tests below take it apart four ways (a month
// missing, a statement twice, an opening balance shifted, two periods
// overlapping) and check, through the command line and through the API,
// that each finding is reported exactly and nothing else.

// ledgerRow is one booked movement of an account.
type ledgerRow struct {
	date   time.Time
	desc   string
	amount decimal.Decimal // signed: negative for money out
}

// ledger is an account's history.
type accountLedger struct {
	number, currency string
	opening          decimal.Decimal
	rows             []ledgerRow
}

// newLedger makes months of an account from January 2024: six rows a
// month on fixed days, their amounts from seed.
func newLedger(number, currency, opening string, months, seed int) *accountLedger {
	l := &accountLedger{number: number, currency: currency, opening: decimal.RequireFromString(opening)}
	n := 0
	for m := 1; m <= months; m++ {
		for _, d := range []int{2, 6, 11, 16, 21, 27} {
			n++
			cents := int64((n*7919+seed*104729)%90000 + 500)
			amt := decimal.New(cents, -2)
			desc := fmt.Sprintf("CARD PAYMENT SHOP %02d%02d", m, d)
			if n%3 == 0 {
				desc = fmt.Sprintf("TRANSFER FROM CLIENT %d", n)
			} else {
				amt = amt.Neg()
			}
			l.rows = append(l.rows, ledgerRow{date: time.Date(2024, time.Month(m), d, 0, 0, 0, 0, time.UTC), desc: desc, amount: amt})
		}
	}
	return l
}

// statementSpec is one statement cut from a ledger.
type statementSpec struct {
	l        *accountLedger
	from, to time.Time
	opening  decimal.Decimal
	rows     []ledgerRow
	// shift is added to the opening balance printed, and to nothing else.
	shift decimal.Decimal
	// bank is the letterhead's name; "" prints Sample Community Bank.
	bank string
	// printed, when set, is printed for row i's amount in place of the
	// amount: a forgery whose balances were left as they were.
	printed map[int]decimal.Decimal
}

// statement cuts the ledger's statement from from to to.
func (l *accountLedger) statement(from, to time.Time) statementSpec {
	s := statementSpec{l: l, from: from, to: to, opening: l.opening}
	for _, r := range l.rows {
		switch {
		case r.date.Before(from):
			s.opening = s.opening.Add(r.amount)
		case !r.date.After(to):
			s.rows = append(s.rows, r)
		}
	}
	return s
}

// month is the ledger's statement of a calendar month of 2024.
func (l *accountLedger) month(m int) statementSpec {
	from := time.Date(2024, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
	return l.statement(from, from.AddDate(0, 1, -1))
}

// pdf draws the statement: bank, account, period and currency, the
// opening balance, a table of date, description, debit, credit and
// balance, and the closing balance.
func (s statementSpec) pdf() []byte {
	p := fpdf.New("P", "mm", "A4", "")
	p.SetCreationDate(time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC))
	p.SetCatalogSort(true)
	p.AddPage()
	p.SetFont("Helvetica", "B", 14)
	bank := s.bank
	if bank == "" {
		bank = "Sample Community Bank"
	}
	p.Text(15, 20, bank)
	p.SetFont("Helvetica", "", 9)
	p.Text(15, 27, fmt.Sprintf("Account number: %s   Statement period: %s to %s   Currency: %s", s.l.number,
		s.from.Format("02/01/2006"), s.to.Format("02/01/2006"), s.l.currency))
	p.Text(15, 33, "Opening balance "+s.opening.Add(s.shift).StringFixed(2))
	y := 45.0
	p.SetFont("Helvetica", "B", 9)
	right := func(x float64, t string) { p.Text(x-p.GetStringWidth(t), y, t) }
	p.Text(15, y, "Date")
	p.Text(40, y, "Description")
	right(130, "Debit")
	right(160, "Credit")
	right(190, "Balance")
	p.SetFont("Helvetica", "", 9)
	bal := s.opening
	for i, r := range s.rows {
		y += 6
		bal = bal.Add(r.amount)
		p.Text(15, y, r.date.Format("02/01/2006"))
		p.Text(40, y, r.desc)
		amt := r.amount
		if v, ok := s.printed[i]; ok {
			amt = v
		}
		if amt.Sign() < 0 {
			right(130, amt.Neg().StringFixed(2))
		} else {
			right(160, amt.StringFixed(2))
		}
		right(190, bal.StringFixed(2))
	}
	y += 10
	p.Text(15, y, "Closing balance "+bal.StringFixed(2))
	p.Text(15, 285, "Page 1 of 1")
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// The series: twelve months of a euro account named by its IBAN, six of a
// pound account.
const (
	seriesIBAN   = "DE89 3704 0044 0532 0130 00"
	seriesNumber = "12-3456-7890"
)

// seriesFiles are the series' PDFs by file name: the base series and the
// three files its variants add.
type seriesFiles struct {
	eur, gbp *accountLedger
	files    map[string][]byte
}

func newSeries() seriesFiles {
	s := seriesFiles{eur: newLedger(seriesIBAN, "EUR", "5000.00", 12, 1), gbp: newLedger(seriesNumber, "GBP", "2500.00", 6, 2), files: map[string][]byte{}}
	for m := 1; m <= 12; m++ {
		s.files[fmt.Sprintf("eur-2024-%02d.pdf", m)] = s.eur.month(m).pdf()
	}
	for m := 1; m <= 6; m++ {
		s.files[fmt.Sprintf("gbp-2024-%02d.pdf", m)] = s.gbp.month(m).pdf()
	}
	// August again, under another name.
	s.files["eur-2024-08 (copy).pdf"] = s.files["eur-2024-08.pdf"]
	// September printing an opening balance 10.00 above August's closing
	// (its rows' balances are right).
	sep := s.eur.month(9)
	sep.shift = decimal.RequireFromString("10.00")
	s.files["eur-2024-09-shifted.pdf"] = sep.pdf()
	// A re-issued April from 15 March on.
	s.files["gbp-2024-03-15-to-04-30.pdf"] = s.gbp.statement(time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC), time.Date(2024, 4, 30, 0, 0, 0, 0, time.UTC)).pdf()
	return s
}

// base are the base series' file names.
func (s seriesFiles) base() []string {
	var names []string
	for n := range s.files {
		if regexp.MustCompile(`^(eur|gbp)-2024-[0-9]{2}\.pdf$`).MatchString(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// seriesVariant is the base series changed one way, with the findings it
// must give, each as "ACCOUNT KIND FROM TO [DIFFERENCE]".
type seriesVariant struct {
	name    string
	files   []string
	want    []string
	notOK   bool // a statement does not reconcile
	rowsOut int  // ledger rows the variant's statements do not hold
}

func (s seriesFiles) variants() []seriesVariant {
	base := s.base()
	without := func(drop string, add ...string) []string {
		var out []string
		for _, n := range base {
			if n != drop {
				out = append(out, n)
			}
		}
		return append(out, add...)
	}
	common := 0 // GBP rows from 15 to 31 March
	for _, r := range s.gbp.rows {
		if r.date.Month() == time.March && r.date.Day() >= 15 {
			common++
		}
	}
	may := decimal.Zero
	for _, r := range s.eur.rows {
		if r.date.Month() == time.May {
			may = may.Add(r.amount)
		}
	}
	return []seriesVariant{
		{"continuous", base, nil, false, 0},
		{"a month missing", without("eur-2024-05.pdf"), []string{"EUR gap 2024-05-01 2024-05-31 " + may.StringFixed(2)}, false, 6},
		{"a statement twice", without("", "eur-2024-08 (copy).pdf"), []string{"EUR duplicate 2024-08-01 2024-08-31"}, false, 0},
		{"an opening balance shifted", without("eur-2024-09.pdf", "eur-2024-09-shifted.pdf"), []string{"EUR balance_break 2024-08-31 2024-09-01 10.00"}, true, 0},
		{"two periods overlap", without("gbp-2024-04.pdf", "gbp-2024-03-15-to-04-30.pdf"),
			[]string{fmt.Sprintf("GBP overlap 2024-03-15 2024-03-31 common=%d", common)}, false, 0},
	}
}

// writeFiles writes the named files of the series into dir.
func (s seriesFiles) writeFiles(t *testing.T, dir string, names []string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), s.files[n], 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// reportFinding reads a finding line of the continuity report.
var (
	reportAccount = regexp.MustCompile(`^(\S.*) (EUR|GBP): \d+ statements?`)
	reportFinding = regexp.MustCompile(`^  (gap|balance_break|overlap|duplicate) (\S+) to (\S+): (.*)$`)
	reportMoved   = regexp.MustCompile(`moved by (-?[0-9]+\.[0-9]{2})|a difference of (-?[0-9]+\.[0-9]{2})`)
	reportCommon  = regexp.MustCompile(`the (\d+) transactions? both hold`)
)

// reportFindings reads the continuity report's findings in the form the
// variants give them.
func reportFindings(report string) []string {
	var out []string
	ccy := ""
	for _, line := range strings.Split(report, "\n") {
		if m := reportAccount.FindStringSubmatch(line); m != nil {
			ccy = m[2]
			continue
		}
		m := reportFinding.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := fmt.Sprintf("%s %s %s %s", ccy, m[1], m[2], m[3])
		if d := reportMoved.FindStringSubmatch(m[4]); d != nil {
			f += " " + d[1] + d[2]
		}
		if c := reportCommon.FindStringSubmatch(m[4]); c != nil && m[1] == "overlap" {
			f += " common=" + c[1]
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// TestSeriesCLI converts the generated series with `passbook extract
// --combine` (and the base with -d) and checks the continuity report on
// standard error, the exit status and the combined CSV of each variant.
func TestSeriesCLI(t *testing.T) {
	s := newSeries()
	root := t.TempDir()
	total := len(s.eur.rows) + len(s.gbp.rows)
	for i, v := range s.variants() {
		t.Run(v.name, func(t *testing.T) {
			dir := filepath.Join(root, fmt.Sprintf("variant%d", i))
			s.writeFiles(t, filepath.Join(dir, "statements"), v.files)
			out := filepath.Join(dir, "year.csv")
			code, _, stderr := exitCode(t, mainCmd(dir, nil, "extract", "--format", "csv", "--combine", "-o", out, "statements"))
			wantCode := 0
			if len(v.want) > 0 {
				wantCode |= exitNotContinuous
			}
			if v.notOK {
				wantCode |= exitNotOK
			}
			got := reportFindings(stderr)
			want := append([]string(nil), v.want...)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") || code != wantCode {
				t.Errorf("exit %d (want %d), findings:\n%s\nwant:\n%s\nstderr:\n%s", code, wantCode, strings.Join(got, "\n"), strings.Join(want, "\n"), stderr)
			}
			if !strings.Contains(stderr, fmt.Sprintf("[%d/%d]", len(v.files), len(v.files))) {
				t.Errorf("no line per file on a pipe:\n%s", stderr)
			}
			csv, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if rows := strings.Count(string(csv), "\r\n") - 1; rows != total-v.rowsOut {
				t.Errorf("the combined CSV has %d rows, want %d (every ledger row of the statements, once)", rows, total-v.rowsOut)
			}
		})
	}
	t.Run("one output each", func(t *testing.T) {
		dir := filepath.Join(root, "each")
		s.writeFiles(t, filepath.Join(dir, "in", "eur"), s.base()[:12])
		s.writeFiles(t, filepath.Join(dir, "in", "gbp"), s.base()[12:])
		code, _, stderr := exitCode(t, mainCmd(dir, nil, "extract", "--format", "mt940", "-d", "out", "in"))
		if code != 0 || !strings.Contains(stderr, "2 accounts, 18 statements: continuous") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
		for _, n := range []string{"eur/eur-2024-01.sta", "gbp/gbp-2024-06.sta"} {
			if b, err := os.ReadFile(filepath.Join(dir, "out", n)); err != nil || !bytes.HasPrefix(b, []byte(":20:PASSBOOK")) {
				t.Errorf("%s: %v %.40q", n, err, b)
			}
		}
	})
}

// TestSeriesAPI uploads the generated series to a real server (`passbook
// serve` on port 0, the real engine in its workers), the base series into
// a folder as it uploads, and puts each variant's documents into a folder
// of its own; each folder reports exactly its variant's findings.
func TestSeriesAPI(t *testing.T) {
	s := newSeries()
	srv := serve(t, filepath.Join(t.TempDir(), "passbook.db"))
	c := client{t: t, base: "http://" + srv.addr, key: keyRE.FindString(srv.stdout.String())}
	newFolder := func(name string) string {
		var m map[string]any
		if code := apiJSON(t, c.base, c.key, "POST", "/api/v1/folders", strings.NewReader(`{"name": "`+name+`"}`), &m); code != 200 {
			t.Fatalf("create folder: %d %v", code, m)
		}
		return m["folder_id"].(string)
	}
	variants := s.variants()
	first := newFolder(variants[0].name)
	ids := map[string]string{}
	names := make([]string, 0, len(s.files))
	for n := range s.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var fields map[string]string
		if strings.HasPrefix(n, "eur-2024-") && len(n) == len("eur-2024-01.pdf") || strings.HasPrefix(n, "gbp-2024-") && len(n) == len("gbp-2024-01.pdf") {
			fields = map[string]string{"folder_id": first}
		}
		code, m := c.postWith(n, s.files[n], fields)
		if code != 200 {
			t.Fatalf("upload %s: %d %v", n, code, m)
		}
		ids[n] = m["file_id"].(string)
	}
	for n, id := range ids {
		waitFor(t, n+" to convert", func() string {
			if st := c.status(id); st.Status != "processing" {
				if st.Status != "completed" {
					t.Fatalf("%s: %+v", n, st)
				}
				return st.Status
			}
			return ""
		})
	}
	total := len(s.eur.rows) + len(s.gbp.rows)
	for i, v := range variants {
		folder := first
		if i > 0 {
			folder = newFolder(v.name)
			for _, n := range v.files {
				if code := apiJSON(t, c.base, c.key, "PUT", "/api/v1/folders/"+folder+"/documents/"+ids[n], nil, &map[string]any{}); code != 200 {
					t.Fatalf("%s: add %s: %d", v.name, n, code)
				}
			}
		}
		var f struct {
			Status           string `json:"status"`
			TransactionCount int    `json:"transaction_count"`
			Accounts         []struct {
				IBAN       *string `json:"iban"`
				Currency   string  `json:"currency"`
				Statements []struct {
					Reconciliation string `json:"reconciliation"`
				} `json:"statements"`
				Findings []struct {
					Kind       string   `json:"kind"`
					FileIDs    []string `json:"file_ids"`
					From, To   string
					Difference *string `json:"difference"`
					Common     int     `json:"common_transactions"`
				} `json:"findings"`
			} `json:"accounts"`
		}
		if code := apiJSON(t, c.base, c.key, "GET", "/api/v1/folders/"+folder, nil, &f); code != 200 {
			t.Fatalf("%s: GET folder %d", v.name, code)
		}
		var got []string
		notOK := false
		for _, a := range f.Accounts {
			for _, st := range a.Statements {
				notOK = notOK || st.Reconciliation != "ok"
			}
			for _, fd := range a.Findings {
				l := fmt.Sprintf("%s %s %s %s", a.Currency, fd.Kind, fd.From, fd.To)
				if fd.Difference != nil {
					l += " " + *fd.Difference
				}
				if fd.Kind == "overlap" {
					l += fmt.Sprintf(" common=%d", fd.Common)
				}
				got = append(got, l)
			}
		}
		sort.Strings(got)
		want := append([]string(nil), v.want...)
		sort.Strings(want)
		wantStatus := "continuous"
		if len(want) > 0 {
			wantStatus = "broken"
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || f.Status != wantStatus || notOK != v.notOK || f.TransactionCount != total-v.rowsOut {
			t.Errorf("%s: status %s (want %s), not ok %v (want %v), %d transactions (want %d), findings:\n%s\nwant:\n%s",
				v.name, f.Status, wantStatus, notOK, v.notOK, f.TransactionCount, total-v.rowsOut, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(f.Accounts) != 2 || f.Accounts[0].Currency != "GBP" || f.Accounts[1].IBAN == nil || *f.Accounts[1].IBAN != "DE89370400440532013000" {
			t.Errorf("%s: accounts %+v", v.name, f.Accounts)
		}
	}
}
