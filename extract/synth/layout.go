package synth

import (
	"math/rand/v2"
	"slices"
)

// col is the kind of one table column.
type col int

const (
	colDate col = iota
	colValueDate
	colTransDate
	colDesc
	colRef
	colCheque
	colType
	colCategory
	colPoints
	colDebit
	colCredit
	colAmount // one signed (or suffixed) amount
	colDrCr   // the Dr/Cr indicator beside colAmount
	colBalance
)

// Layout is every random choice behind one statement. Each choice is named
// by the feature it adds, so a failure can be read by feature and
// reproduced by seed.
type Layout struct {
	Lang      string
	Card      bool
	Accounts  int
	Cols      []col
	DatePos   string // date-far-left, date-near-desc
	Amount    string // debit-credit, signed-amount, drcr-column, drcr-suffix, cr-suffix
	CardSign  string // card-purchases-positive, card-purchases-negative
	Balance   string // balance-row, balance-daily, balance-none
	BalDrCr   bool
	DateForm  string
	NumForm   string
	Decimals  int
	CurPos    string // "", cur-prefix, cur-suffix
	Neg       string // neg-minus, neg-trailing, neg-parens, neg-dr
	Holder    string // placeholder feature name
	Opening   string // opening-row, opening-row-dated, opening-box, opening-absent
	Closing   string // closing-row, closing-box, closing-absent
	Totals    string // totals-row, totals-box, ""
	BoxFormat bool   // the summary box prints numbers unlike the table
	Fees      bool
	WrapMax   int
	AmtLine   string // amount-line-top, amount-line-middle, amount-line-bottom
	Tricky    bool
	Rows      int  // transactions per account
	TwoTables bool // the rows split over two tables on one page
	Unsorted  bool // rows not in date order (cards)
	Forward   bool // carried/brought forward lines at page breaks
	Glyph     bool // each character its own text object
	Watermark bool
	Upper     bool   // descriptions in capitals, mainframe style
	HeadWrap  bool   // column headings over two lines
	Grid      bool   // ruled column lines
	Font      string // helvetica, times, courier
	FontSize  float64
	Overdrawn bool
	PeriodBox bool // the period is printed
	Features  []string
}

// chooser draws choices, honouring forced features and recording the
// features it picks.
type chooser struct {
	r     *rand.Rand
	force map[string]int
	plain bool // take the first option of every choice unless forced
	feats []string
}

type opt struct {
	name string
	w    float64
}

// pick returns one option's name: a forced one if any, else by weight.
// Only non-empty names are features.
func (c *chooser) pick(opts ...opt) string {
	name := ""
	found := false
	for _, o := range opts {
		if o.name != "" && c.force[o.name] > 0 && (!found || c.force[o.name] < c.force[name]) {
			name, found = o.name, true
		}
	}
	if !found && c.plain {
		name, found = opts[0].name, true
	}
	if !found {
		total := 0.0
		for _, o := range opts {
			total += o.w
		}
		x := c.r.Float64() * total
		name = opts[len(opts)-1].name
		for _, o := range opts {
			if x < o.w {
				name = o.name
				break
			}
			x -= o.w
		}
	}
	if name != "" {
		c.feats = append(c.feats, name)
	}
	return name
}

// flag is a yes/no feature with probability p.
func (c *chooser) flag(name string, p float64) bool {
	return c.pick(opt{"", 1 - p}, opt{name, p}) != ""
}

// has reports whether the caller forced a feature.
func (c *chooser) has(name string) bool { return c.force[name] > 0 }

// AllFeatures lists every feature the generator can pick; each is
// reachable by chance and by force.
var AllFeatures = []string{
	"lang-en", "lang-de", "lang-fr", "lang-es", "lang-it", "lang-nl", "lang-pt",
	"card", "card-purchases-positive", "card-purchases-negative", "two-accounts",
	"date-far-left", "date-near-desc", "value-date", "trans-post-date",
	"ref-column", "cheque-column", "type-code", "category", "points",
	"debit-credit", "signed-amount", "drcr-column", "drcr-suffix", "cr-suffix",
	"balance-row", "balance-daily", "balance-none", "balance-drcr",
	"date-dmy-slash", "date-mdy-slash", "date-dmy-dot", "date-iso", "date-dd-mon-yyyy",
	"date-d-mon-yyyy", "date-mon-d", "date-dmy-yy", "date-month-name",
	"num-comma-dot", "num-dot-comma", "num-space-comma", "num-apos-dot", "num-indian", "num-plain",
	"num-no-decimals", "num-one-decimal", "yen",
	"cur-prefix", "cur-suffix",
	"neg-minus", "neg-trailing", "neg-parens", "neg-dr",
	"placeholder-blank", "placeholder-zero", "placeholder-zero-dec", "placeholder-dash",
	"placeholder-cur-zero", "placeholder-neg-cur-zero",
	"opening-row", "opening-row-dated", "opening-box", "opening-absent",
	"closing-row", "closing-box", "closing-absent", "totals-row", "totals-box", "box-format-differs",
	"fees-table", "wrap", "wrap-long", "amount-line-top", "amount-line-middle", "amount-line-bottom",
	"tricky-words", "short-table", "long-table", "two-tables", "unsorted", "multi-page", "carried-forward",
	"glyph-by-glyph", "watermark", "upper-case", "header-two-lines", "grid-lines", "font-times", "font-courier", "overdrawn", "period-line",
}

// implies lists what a forced feature needs to be drawn at all.
var implies = map[string][]string{
	"trans-post-date":          {"card"},
	"card-purchases-positive":  {"card", "signed-amount"},
	"card-purchases-negative":  {"card", "signed-amount"},
	"unsorted":                 {"card", "balance-none"},
	"placeholder-blank":        {"debit-credit"},
	"placeholder-zero":         {"debit-credit"},
	"placeholder-zero-dec":     {"debit-credit"},
	"placeholder-dash":         {"debit-credit"},
	"placeholder-cur-zero":     {"debit-credit"},
	"placeholder-neg-cur-zero": {"debit-credit"},
	"totals-row":               {"debit-credit"},
	"balance-drcr":             {"balance-row"},
	"opening-row":              {"balance-row"},
	"opening-row-dated":        {"balance-row"},
	"closing-row":              {"balance-row"},
	"carried-forward":          {"balance-row", "long-table"},
	"multi-page":               {"long-table"},
	"neg-minus":                {"balance-row"},
	"neg-trailing":             {"balance-row"},
	"neg-parens":               {"balance-row"},
	"neg-dr":                   {"balance-row"},
	"num-one-decimal":          {"num-plain"},
	"yen":                      {"num-no-decimals"},
	"box-format-differs":       {"opening-box"},
	"amount-line-middle":       {"wrap"},
	"amount-line-bottom":       {"wrap"},
	"two-tables":               {"short-table"},
	"amount-line-top":          {"wrap"},
}

// notCard lists features a card statement never has.
var notCard = []string{"two-accounts", "value-date", "balance-daily", "drcr-column", "drcr-suffix", "balance-drcr",
	"opening-absent", "closing-absent", "two-tables", "overdrawn", "opening-row", "opening-row-dated", "closing-row"}

// chooseLayout draws a layout. Later choices respect earlier ones, so every
// combination it makes is one a bank could print and a reader could solve.
func chooseLayout(r *rand.Rand, forced map[string]bool, opts Options) Layout {
	// 1: forced by the caller; 2: needed by a forced feature.
	force := map[string]int{}
	for f := range forced {
		for _, g := range implies[f] {
			if force[g] == 0 {
				force[g] = 2
			}
		}
	}
	for f := range forced {
		force[f] = 1
	}
	c := &chooser{r: r, force: force, plain: opts.Plain}
	var l Layout
	l.Lang = c.pick(opt{"lang-en", 3}, opt{"lang-de", 1}, opt{"lang-fr", 1}, opt{"lang-es", 1}, opt{"lang-it", 1}, opt{"lang-nl", 1}, opt{"lang-pt", 1})[5:]
	l.Card = !slices.ContainsFunc(notCard, c.has) && c.flag("card", 0.2)
	l.Accounts = 1
	if !l.Card && !opts.OnePage && !c.has("two-tables") && c.flag("two-accounts", 0.1) {
		l.Accounts = 2
	}

	// Size of the tables.
	switch c.pick(opt{"", 0.5}, opt{"short-table", 0.2}, opt{"long-table", 0.3}) {
	case "short-table":
		l.Rows = 2 + r.IntN(4)
	case "long-table":
		l.Rows = 40 + r.IntN(120)
	default:
		l.Rows = 6 + r.IntN(25)
	}
	if opts.OnePage {
		l.Rows = min(l.Rows, 12)
	}
	if l.Accounts == 2 {
		l.Rows = min(l.Rows, 40)
	}

	// Amount columns and sign convention.
	if l.Card {
		l.Amount = c.pick(opt{"signed-amount", 3}, opt{"cr-suffix", 2}, opt{"debit-credit", 1})
		if l.Amount != "debit-credit" {
			l.CardSign = c.pick(opt{"card-purchases-positive", 3}, opt{"card-purchases-negative", 1})
			if l.Amount == "cr-suffix" {
				l.CardSign = "card-purchases-positive"
			}
		}
		l.Balance = c.pick(opt{"balance-none", 4}, opt{"balance-row", 1})
		l.Unsorted = l.Balance == "balance-none" && c.flag("unsorted", 0.35)
	} else {
		l.Amount = c.pick(opt{"debit-credit", 4}, opt{"signed-amount", 3}, opt{"drcr-column", 1}, opt{"drcr-suffix", 1}, opt{"cr-suffix", 0.5})
		l.Balance = c.pick(opt{"balance-row", 5}, opt{"balance-daily", 1.5}, opt{"balance-none", 2})
		l.BalDrCr = l.Balance != "balance-none" && !c.has("neg-dr") && c.flag("balance-drcr", 0.12)
	}
	if l.Amount == "debit-credit" {
		l.Holder = c.pick(opt{"placeholder-blank", 5}, opt{"placeholder-zero", 1}, opt{"placeholder-zero-dec", 1}, opt{"placeholder-dash", 1}, opt{"placeholder-cur-zero", 0.5}, opt{"placeholder-neg-cur-zero", 0.5})
	}

	// Date form.
	l.DateForm = c.pick(opt{"date-dmy-slash", 3}, opt{"date-mdy-slash", 2}, opt{"date-dmy-dot", 2}, opt{"date-iso", 1.5}, opt{"date-dd-mon-yyyy", 1}, opt{"date-d-mon-yyyy", 1}, opt{"date-mon-d", 1}, opt{"date-dmy-yy", 1}, opt{"date-month-name", 1})
	l.PeriodBox = c.flag("period-line", 0.8) || l.DateForm == "date-mon-d" || l.DateForm == "date-mdy-slash" || l.DateForm == "date-dmy-slash" || l.DateForm == "date-dmy-yy"
	if l.PeriodBox && !slices.Contains(c.feats, "period-line") {
		c.feats = append(c.feats, "period-line")
	}

	// Number form.
	l.NumForm = c.pick(opt{"num-comma-dot", 4}, opt{"num-dot-comma", 2}, opt{"num-space-comma", 1}, opt{"num-apos-dot", 0.7}, opt{"num-indian", 0.7}, opt{"num-plain", 2})
	l.Decimals = 2
	switch c.pick(opt{"", 8}, opt{"num-no-decimals", 1.2}, opt{"num-one-decimal", 0.6}) {
	case "num-no-decimals":
		l.Decimals = 0
	case "num-one-decimal":
		l.Decimals = 1
		if l.NumForm != "num-plain" {
			// "2000.0" is a plain writer's habit.
			c.feats = slices.DeleteFunc(c.feats, func(f string) bool { return f == l.NumForm })
			l.NumForm = "num-plain"
			c.feats = append(c.feats, "num-plain")
		}
	}
	if l.Decimals == 0 && !c.has("cur-suffix") && c.flag("yen", 0.4) {
		l.CurPos = "cur-prefix"
		c.feats = append(c.feats, "cur-prefix")
	} else {
		l.CurPos = c.pick(opt{"", 6}, opt{"cur-prefix", 1}, opt{"cur-suffix", 1})
	}
	if l.Amount == "signed-amount" || l.Balance != "balance-none" {
		l.Neg = c.pick(opt{"neg-minus", 5}, opt{"neg-trailing", 1}, opt{"neg-parens", 1}, opt{"neg-dr", 0.6})
	} else {
		l.Neg = "neg-minus"
	}
	if l.BalDrCr && l.Neg == "neg-dr" {
		l.Neg = "neg-minus"
	}
	l.Overdrawn = !l.Card && c.flag("overdrawn", 0.15)

	// Columns.
	l.DatePos = c.pick(opt{"date-far-left", 3}, opt{"date-near-desc", 1})
	trans := l.Card && c.flag("trans-post-date", 0.6)
	value := !l.Card && c.flag("value-date", 0.25)
	ref := c.pick(opt{"", 6}, opt{"ref-column", 1.2}, opt{"cheque-column", 0.6})
	typ := c.flag("type-code", 0.15)
	cat := c.flag("category", l.cond(0.1, 0.3))
	pts := c.flag("points", l.cond(0.04, 0.2))
	var cols []col
	if l.DatePos == "date-near-desc" {
		// Something else stands at the far left.
		if typ {
			cols = append(cols, colType)
		} else if value {
			cols = append(cols, colValueDate)
			value = false
		} else {
			cols = append(cols, colRef)
			if ref == "" {
				ref = "ref-column"
				c.feats = append(c.feats, ref)
			}
			ref = "left"
		}
	}
	if trans {
		cols = append(cols, colTransDate)
	}
	cols = append(cols, colDate)
	if value && r.IntN(2) == 0 {
		cols = append(cols, colValueDate)
		value = false
	}
	if typ && l.DatePos != "date-near-desc" && r.IntN(2) == 0 {
		cols = append(cols, colType)
		typ = false
	}
	cols = append(cols, colDesc)
	if typ && l.DatePos != "date-near-desc" {
		cols = append(cols, colType)
	}
	if cat {
		cols = append(cols, colCategory)
	}
	switch ref {
	case "ref-column":
		cols = append(cols, colRef)
	case "cheque-column":
		cols = append(cols, colCheque)
	}
	if value {
		cols = append(cols, colValueDate)
	}
	switch l.Amount {
	case "debit-credit":
		if r.IntN(4) == 0 {
			cols = append(cols, colCredit, colDebit)
		} else {
			cols = append(cols, colDebit, colCredit)
		}
	case "drcr-column":
		cols = append(cols, colAmount, colDrCr)
	default:
		cols = append(cols, colAmount)
	}
	if pts {
		cols = append(cols, colPoints)
	}
	if l.Balance != "balance-none" {
		cols = append(cols, colBalance)
	}
	l.Cols = cols

	// Opening, closing and totals.
	hasBal := l.Balance != "balance-none"
	if hasBal {
		l.Opening = c.pick(opt{"opening-row", 3}, opt{"opening-row-dated", 1.5}, opt{"opening-box", 2}, opt{"opening-absent", 1})
		l.Closing = c.pick(opt{"closing-row", 2}, opt{"closing-box", 2}, opt{"closing-absent", 1.5})
	} else {
		l.Opening = c.pick(opt{"opening-box", 3}, opt{"opening-absent", 1})
		l.Closing = c.pick(opt{"closing-box", 3}, opt{"closing-absent", 1})
	}
	if l.Card {
		// A card always prints what is owed.
		c.feats = slices.DeleteFunc(c.feats, func(f string) bool { return f == "opening-absent" || f == "closing-absent" })
		if l.Opening == "opening-absent" {
			l.Opening = "opening-box"
			c.feats = append(c.feats, l.Opening)
		}
		if l.Closing == "closing-absent" {
			l.Closing = "closing-box"
			c.feats = append(c.feats, l.Closing)
		}
	}
	if l.Amount == "debit-credit" {
		l.Totals = c.pick(opt{"", 3}, opt{"totals-row", 1}, opt{"totals-box", 1})
	} else {
		l.Totals = c.pick(opt{"", 3}, opt{"totals-box", 1})
	}
	if l.Opening == "opening-box" || l.Closing == "closing-box" || l.Totals == "totals-box" {
		l.BoxFormat = c.flag("box-format-differs", 0.4)
	}
	l.Fees = c.flag("fees-table", 0.15)

	// Descriptions.
	switch c.pick(opt{"", 5}, opt{"wrap", 3}, opt{"wrap-long", 1.5}) {
	case "wrap":
		l.WrapMax = 2 + r.IntN(2)
	case "wrap-long":
		l.WrapMax = 4 + r.IntN(3)
	default:
		l.WrapMax = 1
	}
	if l.WrapMax > 1 {
		l.AmtLine = c.pick(opt{"amount-line-top", 4}, opt{"amount-line-middle", 1}, opt{"amount-line-bottom", 1})
	} else {
		l.AmtLine = "amount-line-top"
	}
	if opts.OnePage {
		l.WrapMax = min(l.WrapMax, 3)
	}
	l.Tricky = c.flag("tricky-words", 0.3)

	// Pages and drawing.
	l.TwoTables = l.Accounts == 1 && !l.Unsorted && l.Rows <= 30 && c.flag("two-tables", 0.08)
	l.Forward = !opts.OnePage && hasBal && c.flag("carried-forward", 0.5)
	l.Glyph = c.flag("glyph-by-glyph", 0.12)
	l.Watermark = c.flag("watermark", 0.12)
	l.Upper = c.flag("upper-case", 0.1)
	l.HeadWrap = c.flag("header-two-lines", 0.15)
	l.Grid = c.flag("grid-lines", 0.15)
	switch c.pick(opt{"", 6}, opt{"font-times", 1}, opt{"font-courier", 1}) {
	case "font-times":
		l.Font = "Times"
	case "font-courier":
		l.Font = "Courier"
	default:
		l.Font = "Helvetica"
	}
	l.FontSize = 7.5 + float64(r.IntN(4))*0.5
	l.Features = c.feats
	return l
}

// cond picks a probability by statement kind: bank, card.
func (l *Layout) cond(bank, card float64) float64 {
	if l.Card {
		return card
	}
	return bank
}
