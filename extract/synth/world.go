package synth

// World statements: the conventions of CLDR's locales (locale.go), words
// the engine has never learned (extract/synth/vocab) and layout families
// the random layouts do not draw, each with its exact truth. Where the
// random layouts steer the engine on its own words, these measure it on
// the world's: make eval-world.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract/synth/vocab"
)

// WorldFamilies are the layout families world statements are drawn in.
var WorldFamilies = []string{
	"table",          // a plain table with a running balance
	"day-groups",     // rows under a date printed once per day, with the day's balance
	"kv-blocks",      // one transaction per block of label-value lines
	"ruled-grid",     // every cell boxed
	"ref-column",     // a reference number of 6-16 digits beside the amounts, on some rows
	"value-date",     // posting and value dates; the value date differs and runs out of order
	"multiline",      // descriptions over two or three lines, or the amount on the second
	"daily-balance",  // a balance on each day's last row only
	"newest-first",   // the newest row first
	"year-end",       // a period across a year end, dates printed without the year
	"card-sections",  // a card's payments, purchases, fees and interest in sections
	"dated-balances", // opening and closing balances as dated lines inside the table
	"screenshot",     // a web bank's page as a PNG: no rules, currency symbols
	"two-accounts",   // two accounts, each under its own header
}

// WorldTraits are what real statements print beside their rows, drawn
// across the families, each on about a quarter of the statements it fits,
// from a random stream of its own (a statement without traits is the one
// the same seed made before traits existed).
var WorldTraits = []string{
	"in-first",         // the money-in column before the money-out column
	"indicator-column", // one unsigned amount column and its Dr/Cr mark in a column of its own
	"yearless",         // rows print day and month; the period gives the year
	"totals-line",      // the sums of the money columns under the table
	"summary-totals",   // the sums of money in and out in the summary beside the balances
	"address",          // the holder's street and town under the name
	"footer",           // the bank's registration and telephone numbers after the table
	// The traits of worldwide.go.
	"newest-balance-only", "day-balance-lines", "card-positive", "value-date-column", "kv-three-across", "dated-balance-lines",
}

// WorldSample is one world statement.
type WorldSample struct {
	Seed     int64
	Family   string
	Vocab    vocab.Class
	Lang     string
	Locale   *Locale
	Producer string
	Traits   []string // of WorldTraits
	// Variations are how the family is drawn (of WorldVariations).
	Variations []string
	PDF        []byte
	Pages      int
	Truth      Truth
	// Printed are the strings the document prints for each truth row's
	// date and amount, in order, and for the opening and closing
	// balances (empty when not printed): what the truth-readback test
	// looks for in the PDF's text.
	Printed PrintedFacts

	doc  *worldDoc
	html string
}

// PrintedFacts are what a statement prints of its truth.
type PrintedFacts struct {
	Dates, Amounts   []string
	Opening, Closing string
}

// WorldOptions tune a world statement.
type WorldOptions struct {
	// Family forces a family ("" draws one).
	Family string
	// Vocab forces a vocabulary ("" draws one).
	Vocab vocab.Class
	// Short keeps the statement to a page, for images.
	Short bool
	// Traits forces the traits that fit the statement (nil draws them).
	Traits []string
	// Variations forces the variations that fit the statement, and the
	// first of their date forms that does (nil draws them).
	Variations []string
	// Plain draws none of worldwide.go's variations, date forms and
	// traits: the family as it was first drawn, for the tests of the
	// engine's mechanisms.
	Plain bool
}

// wtxn is one transaction of a world statement.
type wtxn struct {
	date, value time.Time
	desc        string
	in          bool
	amount      decimal.Decimal
	balance     decimal.Decimal // after the row, in booking order
	ref         string
	section     string // card: payments, purchases, fees, interest
}

// waccount is one account of a world statement.
type waccount struct {
	number, kind     string
	opening, closing decimal.Decimal
	txns             []wtxn
}

// world is a statement being made: its data, its words and how it prints
// numbers and dates.
type world struct {
	r          *rand.Rand
	family     string
	lx         *vocab.Lexicon
	loc        *Locale
	digits     int
	card       bool
	start, end time.Time
	accounts   []*waccount
	words      map[string]string

	signed               bool   // one signed amount column (else debit and credit)
	neg                  string // minus, trailing, parens, dr
	drMark, crMark       string
	balMarks             bool   // balances print Cr or Dr after them
	curSymbol, curCode   string // how amounts name the currency, when they do
	dateStyle            string // short, medium, compact
	openPrinted, closing bool
	rowBalances          bool // every row prints its balance
	printed              PrintedFacts
	traits               map[string]bool
	tr                   *rand.Rand // the traits' own stream
	wide                 *wideDraw  // worldwide.go's draws; nil for a plain statement
}

// GenerateWorld makes one world statement from a seed, drawn by fpdf.
// Print it through another producer with PrintWorld.
func GenerateWorld(seed int64, opts WorldOptions) (WorldSample, error) {
	r := rand.New(rand.NewPCG(uint64(seed), 0x27ea2d1))
	w := &world{r: r}
	w.family = opts.Family
	if w.family == "" {
		w.family = WorldFamilies[r.IntN(len(WorldFamilies))]
	}
	if !slices.Contains(WorldFamilies, w.family) {
		return WorldSample{}, fmt.Errorf("unknown family %q", w.family)
	}
	class := opts.Vocab
	if class == "" {
		class = vocab.Classes[int(uint64(seed)%3)]
	}
	switch class {
	case vocab.Known:
		w.lx = vocab.KnownLexicons[r.IntN(len(vocab.KnownLexicons))]
	case vocab.HeldOut:
		w.lx = vocab.HeldOutLexicons[r.IntN(len(vocab.HeldOutLexicons))]
	case vocab.Invented:
		w.lx = vocab.InventedLexicon(r)
	default:
		return WorldSample{}, fmt.Errorf("unknown vocabulary %q", class)
	}
	w.loc = pickLocale(r)
	w.wideLocale(seed, opts)
	w.chooseStyle()
	w.wideBefore(opts.Traits)
	w.makeData(opts.Short)
	w.drawTraits(rand.New(rand.NewPCG(uint64(seed), 0x7ea175)), opts.Traits)
	w.wideAfter(opts.Variations)
	doc := w.layout()
	pdf, pages, err := doc.drawPDF(r)
	if err != nil {
		return WorldSample{}, fmt.Errorf("seed %d: %w", seed, err)
	}
	return WorldSample{Seed: seed, Family: w.family, Vocab: class, Lang: w.lx.Lang, Locale: w.loc, Producer: "fpdf", Traits: w.traitList(), Variations: w.variationList(),
		PDF: pdf, Pages: pages, Truth: w.truth(), Printed: w.printed, doc: doc}, nil
}

// drawTraits draws, from its own stream, which traits the statement
// prints: each that fits its family and style, one time in four, or
// those of forced that fit.
func (w *world) drawTraits(r *rand.Rand, forced []string) {
	w.tr = r
	w.traits = map[string]bool{}
	table := !slices.Contains([]string{"kv-blocks", "day-groups", "card-sections"}, w.family)
	fits := map[string]bool{
		"in-first":         table && !w.card && !w.signed,
		"indicator-column": table && !w.card && w.signed && w.neg == "minus",
		"yearless":         w.dateStyle == "short" || w.dateStyle == "medium",
		"totals-line":      table && !w.card && !w.signed,
		"summary-totals":   !w.card && w.openPrinted && w.closing,
		"address":          true,
		"footer":           true,
	}
	for _, t := range WorldTraits {
		drawn := r.IntN(4) == 0
		if forced != nil {
			drawn = slices.Contains(forced, t)
		}
		if drawn && fits[t] {
			w.traits[t] = true
		}
	}
	if w.traits["yearless"] {
		w.dateStyle = map[string]string{"short": "noyear", "medium": "noyear-named"}[w.dateStyle]
	}
}

// traitList is the statement's traits, in WorldTraits' order.
func (w *world) traitList() []string {
	var out []string
	for _, t := range WorldTraits {
		if w.traits[t] {
			out = append(out, t)
		}
	}
	return out
}

// word draws one of a lexicon's synonyms, once per statement and role.
func (w *world) word(role string, options []string) string {
	if s, ok := w.words[role]; ok {
		return s
	}
	s := options[w.r.IntN(len(options))]
	w.words[role] = s
	return s
}

// chooseStyle draws how the statement prints numbers, signs and dates.
func (w *world) chooseStyle() {
	r, l := w.r, w.loc
	w.words = map[string]string{}
	w.card = w.family == "card-sections" || w.family == "year-end" && r.IntN(2) == 0
	w.digits = l.Digits
	if l.CashDigits < l.Digits && r.IntN(2) == 0 {
		w.digits = l.CashDigits
	}
	w.signed = r.IntN(2) == 0
	switch w.family {
	case "kv-blocks", "day-groups", "screenshot", "card-sections":
		w.signed = true
	case "ruled-grid", "ref-column":
		// either
	}
	w.neg = pickOne(r, []string{"minus", "minus", "minus", "trailing", "parens", "dr"})
	marks := pickOne(r, [][2]string{{"Dr", "Cr"}, {"DR", "CR"}, {"D", "C"}})
	w.drMark, w.crMark = marks[0], marks[1]
	w.balMarks = !w.card && r.IntN(8) == 0
	w.curCode = l.Currency
	w.curSymbol = ""
	if w.family == "screenshot" || r.IntN(6) == 0 {
		w.curSymbol = l.Currency
	}
	w.dateStyle = pickOne(r, []string{"short", "short", "medium"})
	if w.family == "year-end" {
		w.dateStyle = pickOne(r, []string{"noyear", "noyear-named"})
	}
}

// dateText prints a row's date in the statement's style, calendar and
// digits; a date that prints no year has none to reckon in the calendar
// (its day may print the year's two digits: "22/5" of 2022).
func (w *world) dateText(t time.Time) string {
	if strings.HasPrefix(w.dateStyle, "noyear") {
		return w.inDigits(w.cldrDate(t))
	}
	return w.reckon(w.cldrDate(t), t)
}

// cldrDate prints a row's date in the statement's CLDR pattern.
func (w *world) cldrDate(t time.Time) string {
	switch w.dateStyle {
	case "long", "full", "datetime":
		return w.wideDate(t)
	case "medium":
		return w.loc.MediumDate(t)
	case "noyear":
		return w.loc.NoYearDate(t, false)
	case "noyear-named":
		return w.loc.NoYearDate(t, true)
	}
	return w.loc.ShortDate(t)
}

// fullDate prints a date with its year (the period, headings).
func (w *world) fullDate(t time.Time) string {
	switch w.dateStyle {
	case "medium", "noyear-named":
		return w.reckon(w.loc.MediumDate(t), t)
	case "long", "full":
		return w.reckon(w.wideDate(t), t)
	}
	return w.reckon(w.loc.ShortDate(t), t)
}

// num prints |v|, with the currency where the statement prints it.
func (w *world) num(v decimal.Decimal) string {
	s := w.loc.Number(v, w.digits)
	if w.curSymbol != "" {
		return s + " " + w.curSymbol
	}
	return s
}

// signedText prints v with the statement's negative form; positive
// amounts in a Dr/Cr style print the credit mark.
func (w *world) signedText(v decimal.Decimal) string {
	p := w.num(v)
	if w.card && w.neg == "dr" {
		// A card marks its credits (payments, refunds) CR; what is
		// owed goes unmarked.
		if v.IsNegative() {
			return p + " " + w.crMark
		}
		return p
	}
	if !v.IsNegative() {
		if w.neg == "dr" {
			return p + " " + w.crMark
		}
		return p
	}
	switch w.neg {
	case "trailing":
		return p + "-"
	case "parens":
		return "(" + p + ")"
	case "dr":
		return p + " " + w.drMark
	}
	return w.loc.Minus + p
}

// balanceText prints a balance: signed, or with Cr and Dr after it.
func (w *world) balanceText(v decimal.Decimal) string {
	if w.balMarks {
		if v.IsNegative() {
			return w.num(v) + " " + w.drMark
		}
		return w.num(v) + " " + w.crMark
	}
	if v.IsNegative() && w.neg == "dr" {
		return w.num(v) + " " + w.drMark
	}
	if v.IsNegative() {
		return w.loc.Minus + w.num(v)
	}
	return w.num(v)
}

// amount draws a positive amount between lo and hi in the statement's
// digits.
func (w *world) amount(lo, hi float64) decimal.Decimal {
	x := lo * math.Pow(hi/lo, w.r.Float64())
	if w.digits == 0 {
		x *= 100 // currencies printed in whole units move larger numbers
	}
	v := decimal.NewFromFloat(x).Round(int32(w.digits))
	if v.Sign() <= 0 {
		v = decimal.New(1, 0)
	}
	return v
}

// makeData draws the accounts and their transactions.
func (w *world) makeData(short bool) {
	r := w.r
	year := 2022 + r.IntN(4)
	if w.family == "year-end" {
		w.start = time.Date(year, 12, 5+r.IntN(20), 0, 0, 0, 0, time.UTC)
	} else if w.card {
		w.start = time.Date(year, time.Month(1+r.IntN(12)), 1+r.IntN(25), 0, 0, 0, 0, time.UTC)
	} else {
		w.start = time.Date(year, time.Month(1+r.IntN(12)), 1, 0, 0, 0, 0, time.UTC)
	}
	w.end = w.start.AddDate(0, 1, -1)
	n := 1
	if w.family == "two-accounts" {
		n = 2
	}
	rows := 6 + r.IntN(20)
	if r.IntN(4) == 0 && !short {
		rows = 30 + r.IntN(40)
	}
	if short || n == 2 {
		rows = min(rows, 6+r.IntN(6))
	}
	for range n {
		w.accounts = append(w.accounts, w.newAccount(rows))
	}
	w.openPrinted = true
	w.closing = true
	w.rowBalances = !w.card
	switch w.family {
	case "daily-balance", "day-groups":
		w.rowBalances = false
	case "kv-blocks", "screenshot":
		w.rowBalances = r.IntN(3) > 0
		if !w.rowBalances && r.IntN(3) == 0 {
			// Nothing proves the rows: they say unverified.
			w.openPrinted, w.closing = false, false
		}
	}
	if !w.card && w.rowBalances && r.IntN(4) == 0 && w.family != "dated-balances" {
		w.openPrinted = false // the chain proves itself
		w.closing = r.IntN(2) == 0
	}
}

func (w *world) newAccount(rows int) *waccount {
	r := w.r
	a := &waccount{number: w.accountNumber()}
	if w.family == "two-accounts" {
		a.kind = w.lx.AccountKinds[len(w.accounts)%len(w.lx.AccountKinds)]
	}
	if w.card {
		a.opening = w.amount(50, 3000)
	} else {
		a.opening = w.amount(100, 9000)
		if r.IntN(10) == 0 {
			a.opening = a.opening.Neg()
		}
	}
	days := int(w.end.Sub(w.start).Hours()/24) + 1
	perDay := 1
	if w.family == "day-groups" || w.family == "daily-balance" {
		perDay = 2 + r.IntN(2)
	}
	var dates []time.Time
	for len(dates) < rows {
		d := w.start.AddDate(0, 0, r.IntN(days))
		for k := 0; k < perDay && len(dates) < rows; k++ {
			dates = append(dates, d)
		}
	}
	slices.SortFunc(dates, func(x, y time.Time) int { return x.Compare(y) })
	bal := a.opening
	for i, d := range dates {
		t := wtxn{date: d, value: d}
		if w.card {
			switch x := r.IntN(10); {
			case x == 0 || i == 0 && r.IntN(2) == 0:
				t.in, t.section = true, "payments"
				t.amount = w.amount(50, 1500)
				t.desc = pickOne(r, w.lx.In) + " " + pickOne(r, merchants)
			case x == 1:
				t.section = "fees"
				t.amount = w.amount(2, 40)
				t.desc = pickOne(r, w.lx.Fees)
			case x == 2:
				t.section = "interest"
				t.amount = w.amount(2, 60)
				t.desc = pickOne(r, w.lx.Interest)
			default:
				t.section = "purchases"
				t.amount = w.amount(3, 400)
				t.desc = pickOne(r, merchants) + " " + pickOne(r, detailWords[16:])
			}
			if t.in {
				bal = bal.Sub(t.amount)
			} else {
				bal = bal.Add(t.amount)
			}
		} else {
			t.in = r.IntN(10) < 3
			if t.in {
				t.amount = w.amount(20, 4000)
				t.desc = pickOne(r, w.lx.In) + " " + pickOne(r, merchants)
				bal = bal.Add(t.amount)
			} else {
				t.amount = w.amount(2, 900)
				t.desc = pickOne(r, w.lx.Out) + " " + pickOne(r, merchants)
				bal = bal.Sub(t.amount)
			}
		}
		if w.family == "value-date" && r.IntN(3) == 0 {
			t.value = d.AddDate(0, 0, r.IntN(7)-4)
		}
		if w.family == "ref-column" && r.IntN(3) > 0 {
			digits := 6 + r.IntN(11)
			var b strings.Builder
			b.WriteByte(byte('1' + r.IntN(9)))
			for b.Len() < digits {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
			t.ref = b.String()
		}
		t.balance = bal
		a.txns = append(a.txns, t)
	}
	a.closing = bal
	return a
}

func (w *world) accountNumber() string {
	r := w.r
	cc := w.loc.ID[strings.LastIndex(w.loc.ID, "_")+1:]
	switch r.IntN(3) {
	case 0:
		return fmt.Sprintf("%s%02d %04d %04d %04d %04d", cc, 10+r.IntN(90), r.IntN(10000), r.IntN(10000), r.IntN(10000), r.IntN(10000))
	case 1:
		return fmt.Sprintf("%03d-%07d-%02d", r.IntN(1000), r.IntN(10000000), r.IntN(100))
	}
	return fmt.Sprintf("%010d", r.IntN(1000000000))
}

// sums are the money in and the money out of an account's rows.
func (a *waccount) sums() (in, out decimal.Decimal) {
	for _, t := range a.txns {
		if t.in {
			in = in.Add(t.amount)
		} else {
			out = out.Add(t.amount)
		}
	}
	return in, out
}

// truth is the expected download. Balances are known wherever the
// statement prints one from which they follow; a card's are not.
func (w *world) truth() Truth {
	status := "unverified"
	daily := w.family == "daily-balance" || w.family == "day-groups" || w.traits["day-balance-lines"]
	if w.rowBalances || w.openPrinted && w.closing || daily && w.openPrinted {
		status = "ok"
	}
	known := !w.card && (w.rowBalances || w.openPrinted)
	var t Truth
	t.Transactions = []TruthTxn{}
	for _, a := range w.accounts {
		for _, x := range a.txns {
			account := ""
			if len(w.accounts) > 1 {
				account = a.number
			}
			t.Transactions = append(t.Transactions, truthTxn(x.date, x.desc, x.in, x.amount, x.balance, known, account))
		}
	}
	first := w.accounts[0]
	st := &t.Statement
	st.AccountNumber = first.number
	st.PeriodStart = w.start.Format(time.DateOnly)
	st.PeriodEnd = w.end.Format(time.DateOnly)
	st.Currency = w.loc.Currency
	st.Reconciliation = status
	st.Card = w.card
	if w.openPrinted {
		o := first.opening.StringFixed(2)
		st.OpeningBalance = &o
	}
	if w.closing {
		c := first.closing.StringFixed(2)
		st.ClosingBalance = &c
	}
	if len(w.accounts) > 1 {
		for _, a := range w.accounts {
			ta := TruthAccount{Number: a.number, Reconciliation: status}
			if w.openPrinted {
				o := a.opening.StringFixed(2)
				ta.OpeningBalance = &o
			}
			if w.closing {
				c := a.closing.StringFixed(2)
				ta.ClosingBalance = &c
			}
			st.Accounts = append(st.Accounts, ta)
		}
	}
	return t
}
