// Package synth generates bank statements in random layouts, each with its
// exact truth, to steer and test the extraction engine on layouts nobody
// here has seen. Generate(seed) is deterministic; the features a statement
// used are listed with it, so a failure can be read by feature and
// reproduced by seed. It is pure Go: the PDF is drawn with fpdf's core
// fonts (Windows-1252 text), and images are degraded in Go.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract/internal/score"
)

// Options tune generation.
type Options struct {
	// OnePage keeps the statement to one page (for page images and photos).
	OnePage bool
	// Plain takes the most common option of every choice that is not
	// forced (English, debit and credit columns, a balance per row,
	// DD/MM/YYYY, 1,234.56, no wrapping, no extras), so GenerateWith can
	// test one feature at a time.
	Plain bool
}

// Sample is one generated statement.
type Sample struct {
	Seed int64
	// Producer printed the PDF: fpdf as generated, or another of Producers
	// (see Print).
	Producer string
	PDF      []byte
	Truth    Truth
	Features []string
	// Dropped are the layout's features the producer could not print,
	// left out of Features.
	Dropped []string
	Pages   int

	source    string // the document a producer printed (HTML, flat ODF)
	sourceExt string
	layout    Layout
	trace     *trace // what fpdf drew, for the other producers
	onePage   bool
}

// Has reports whether the sample used a feature.
func (s Sample) Has(feature string) bool { return slices.Contains(s.Features, feature) }

// Truth is the expected JSON download for a sample.
type Truth struct {
	Transactions []TruthTxn     `json:"transactions"`
	Statement    TruthStatement `json:"statement"`
}

// TruthTxn is one expected transaction, in the JSON download's shape.
// Balance is nil when the document prints nothing from which it could be
// known.
type TruthTxn = score.Txn

// TruthStatement is the expected statement object.
type TruthStatement struct {
	AccountNumber  string         `json:"account_number"`
	PeriodStart    string         `json:"period_start"`
	PeriodEnd      string         `json:"period_end"`
	Currency       string         `json:"currency"`
	OpeningBalance *string        `json:"opening_balance"`
	ClosingBalance *string        `json:"closing_balance"`
	Reconciliation string         `json:"reconciliation"`
	Card           bool           `json:"card,omitempty"`
	Accounts       []TruthAccount `json:"accounts,omitempty"`
	// Bank and Holder are the names the letterhead and the address block
	// print.
	Bank   string `json:"bank,omitempty"`
	Holder string `json:"holder,omitempty"`
}

// TruthAccount is one account of a document that holds two.
type TruthAccount struct {
	Number         string  `json:"number"`
	OpeningBalance *string `json:"opening_balance"`
	ClosingBalance *string `json:"closing_balance"`
	Reconciliation string  `json:"reconciliation"`
}

// account is one account's data as the generator knows it.
type account struct {
	number     string
	start, end time.Time
	opening    decimal.Decimal
	closing    decimal.Decimal
	txns       []txn
}

// txn is one transaction with everything a layout may print about it.
type txn struct {
	date, value, trans time.Time
	desc               string
	in                 bool            // money in: CREDIT
	amount             decimal.Decimal // absolute
	balance            decimal.Decimal // after the row, as the document prints it (card: owed)
	ref, typ, cat, pts string
	lastOfDay          bool
	lines              int // wanted description lines
}

// Generate makes one statement from a seed.
func Generate(seed int64, opts Options) (Sample, error) {
	return GenerateWith(seed, nil, opts)
}

// GenerateWith makes one statement from a seed with some features forced
// on (names from AllFeatures). A forced feature that contradicts another
// forced one may be dropped; Sample.Features says what was used.
func GenerateWith(seed int64, force []string, opts Options) (Sample, error) {
	fm := map[string]bool{}
	for _, f := range force {
		fm[f] = true
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	l := chooseLayout(r, fm, opts)
	for attempt := 0; ; attempt++ {
		doc := newDocument(r, l)
		pdf, pages, err := doc.draw()
		if err != nil {
			return Sample{}, fmt.Errorf("seed %d: %w", seed, err)
		}
		if opts.OnePage && pages > 1 && attempt < 5 && l.Rows > 2 {
			l.Rows = max(2, l.Rows*2/3)
			l.WrapMax = max(1, l.WrapMax-1)
			continue
		}
		feats := slices.Clone(l.Features)
		if pages > 1 {
			feats = append(feats, "multi-page")
		}
		return Sample{Seed: seed, Producer: "fpdf", PDF: pdf, Truth: doc.truth(), Features: feats, Pages: pages,
			layout: l, trace: doc.trace, onePage: opts.OnePage}, nil
	}
}

// newDocument draws the data of every account.
func newDocument(r *rand.Rand, l Layout) *document {
	d := &document{r: r, l: l, lx: lexicons[l.Lang]}
	d.chooseWords()
	year := 2021 + r.IntN(5)
	month := time.Month(1 + r.IntN(12))
	startDay := 1
	if l.Card {
		startDay = 1 + r.IntN(25)
	}
	start := time.Date(year, month, startDay, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, -1)
	for a := 0; a < l.Accounts; a++ {
		d.accounts = append(d.accounts, d.newAccount(start, end))
	}
	return d
}

func (d *document) scaleAmount(lo, hi float64) decimal.Decimal {
	r := d.r
	x := lo * math.Pow(hi/lo, r.Float64())
	if d.l.Decimals == 0 && d.currency == "JPY" {
		x *= 100
	}
	if d.l.NumForm == "num-indian" && r.IntN(3) == 0 {
		x *= 60
	}
	v := decimal.NewFromFloat(x).Round(int32(d.l.Decimals))
	if v.IsZero() {
		v = decimal.New(1, -int32(d.l.Decimals))
	}
	return v
}

func (d *document) newAccount(start, end time.Time) *account {
	r, l := d.r, d.l
	a := &account{start: start, end: end}
	a.number = d.accountNumber()
	switch {
	case l.Card:
		a.opening = d.scaleAmount(50, 3000)
	case l.Overdrawn:
		a.opening = d.scaleAmount(20, 600).Neg()
	default:
		a.opening = d.scaleAmount(100, 12000)
	}
	if r.IntN(25) == 0 && !l.Card {
		a.opening = decimal.Zero
	}
	days := int(end.Sub(start).Hours()/24) + 1
	dates := make([]time.Time, l.Rows)
	distinct := days
	if l.Balance == "balance-daily" {
		distinct = max(1, l.Rows/2)
	}
	pool := r.Perm(days)[:min(days, distinct)]
	for i := range dates {
		dates[i] = start.AddDate(0, 0, pool[r.IntN(len(pool))])
	}
	slices.SortFunc(dates, func(x, y time.Time) int { return x.Compare(y) })
	bal := a.opening
	for i, dt := range dates {
		t := txn{date: dt}
		if l.Card {
			t.trans = dt.AddDate(0, 0, -r.IntN(4))
			if t.trans.Before(start) {
				t.trans = start
			}
			switch x := r.IntN(20); {
			case x < 2 || i == 0 && r.IntN(2) == 0:
				t.in = true
				t.amount = d.scaleAmount(50, 2000)
				t.desc = pickOne(r, []string{"Payment received - thank you", "Payment thank you", "Zahlung erhalten", "Paiement reçu merci", "Pago recibido", "Pagamento ricevuto", "Betaling ontvangen", "Pagamento recebido"})
			case x < 3:
				t.in = true
				t.amount = d.scaleAmount(5, 200)
				t.desc = "Refund " + pickOne(r, merchants)
			case x < 4:
				t.amount = d.scaleAmount(2, 60)
				t.desc = pickOne(r, []string{"Interest charge on purchases", "Annual fee", "Late payment fee", "Foreign transaction fee"})
			default:
				t.amount = d.scaleAmount(3, 400)
				t.desc = pickOne(r, merchants) + " " + pickOne(r, detailWords[16:])
			}
		} else {
			t.value = dt.AddDate(0, 0, r.IntN(3)-1)
			t.in = r.IntN(10) < 3
			if t.in {
				t.amount = d.scaleAmount(20, 4000)
				t.desc = pickOne(r, creditKinds) + " " + pickOne(r, merchants)
			} else {
				t.amount = d.scaleAmount(2, 900)
				t.desc = pickOne(r, debitKinds) + " " + pickOne(r, merchants)
			}
		}
		if l.Tricky && r.IntN(3) == 0 {
			t.desc = insertWord(r, t.desc, pickOne(r, trickyWords))
		}
		t.lines = 1
		if l.WrapMax > 1 {
			t.lines = 1 + r.IntN(l.WrapMax)
		}
		t.typ = pickOne(r, debitCodes)
		if t.in {
			t.typ = pickOne(r, creditCodes)
		}
		t.cat = pickOne(r, d.lx.categories)
		if slices.Contains(l.Cols, colCheque) {
			if !t.in && r.IntN(3) == 0 {
				t.ref = fmt.Sprintf("%06d", 100+r.IntN(900))
			}
		} else {
			t.ref = fmt.Sprintf("%s%06d", pickOne(r, []string{"FT", "TR", "REF", "X"}), r.IntN(1000000))
		}
		if !t.in {
			t.pts = fmt.Sprint(t.amount.IntPart())
		}
		if l.Card == t.in {
			bal = bal.Sub(t.amount)
		} else {
			bal = bal.Add(t.amount)
		}
		t.balance = bal
		a.txns = append(a.txns, t)
	}
	for i := range a.txns {
		a.txns[i].lastOfDay = i == len(a.txns)-1 || !a.txns[i+1].date.Equal(a.txns[i].date)
	}
	a.closing = bal
	if l.Unsorted {
		// Cards list payments first, or by the date of use: the printed
		// order is not the booking order. The balance follows the printed order.
		r.Shuffle(len(a.txns), func(i, j int) { a.txns[i], a.txns[j] = a.txns[j], a.txns[i] })
		bal = a.opening
		for i := range a.txns {
			if a.txns[i].in {
				bal = bal.Sub(a.txns[i].amount)
			} else {
				bal = bal.Add(a.txns[i].amount)
			}
			a.txns[i].balance = bal
		}
	}
	return a
}

func pickOne[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func insertWord(r *rand.Rand, s, w string) string {
	f := strings.Fields(s)
	i := r.IntN(len(f) + 1)
	return strings.Join(slices.Insert(f, i, w), " ")
}

func (d *document) accountNumber() string {
	r := d.r
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("%08d", r.IntN(100000000))
	case 1:
		return fmt.Sprintf("%02d-%04d-%06d", r.IntN(100), r.IntN(10000), r.IntN(1000000))
	case 2:
		cc := map[string]string{"en": "GB", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "nl": "NL", "pt": "PT"}[d.l.Lang]
		return fmt.Sprintf("%s%02d %04d %04d %04d %04d", cc, 10+r.IntN(90), r.IntN(10000), r.IntN(10000), r.IntN(10000), r.IntN(10000))
	}
	return fmt.Sprintf("****%04d", r.IntN(10000))
}

// provable reports what the document prints that can prove its rows.
func (d *document) provable() (opening, closing, rows bool) {
	l := d.l
	opening = l.Opening != "opening-absent"
	closing = l.Closing != "closing-absent"
	rows = l.Balance != "balance-none"
	return
}

// truthTxn is one expected transaction: the balance only when known,
// the account only for a document of several.
func truthTxn(date time.Time, desc string, in bool, amount, balance decimal.Decimal, known bool, account string) TruthTxn {
	tt := TruthTxn{Date: date.Format(time.DateOnly), Description: desc, Account: account}
	amt := amount.StringFixed(2)
	if in {
		tt.Type, tt.AmountIn = "CREDIT", &amt
	} else {
		tt.Type, tt.AmountOut = "DEBIT", &amt
	}
	if known {
		b := balance.StringFixed(2)
		tt.Balance = &b
	}
	return tt
}

// truth is the expected download.
func (d *document) truth() Truth {
	l := d.l
	opening, closing, rows := d.provable()
	known := opening || closing || rows
	status := "unverified"
	if rows || opening && closing || l.Totals != "" {
		status = "ok"
	}
	var t Truth
	t.Transactions = []TruthTxn{}
	for _, a := range d.accounts {
		for _, x := range a.txns {
			account := ""
			if len(d.accounts) > 1 {
				account = a.number
			}
			t.Transactions = append(t.Transactions, truthTxn(x.date, x.desc, x.in, x.amount, x.balance, known, account))
		}
	}
	first := d.accounts[0]
	st := &t.Statement
	st.AccountNumber = first.number
	st.PeriodStart = first.start.Format(time.DateOnly)
	st.PeriodEnd = first.end.Format(time.DateOnly)
	st.Currency = d.currency
	st.Reconciliation = status
	st.Card = l.Card
	st.Bank, st.Holder = d.bank, d.holder
	if known {
		o, c := first.opening.StringFixed(2), first.closing.StringFixed(2)
		st.OpeningBalance, st.ClosingBalance = &o, &c
	}
	if len(d.accounts) > 1 {
		for _, a := range d.accounts {
			ta := TruthAccount{Number: a.number, Reconciliation: status}
			if known {
				o, c := a.opening.StringFixed(2), a.closing.StringFixed(2)
				ta.OpeningBalance, ta.ClosingBalance = &o, &c
			}
			st.Accounts = append(st.Accounts, ta)
		}
	}
	return t
}
