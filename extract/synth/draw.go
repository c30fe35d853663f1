package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"
)

// epoch is every PDF's creation date, so a seed gives the same bytes.
var epoch = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// document is one statement being drawn.
type document struct {
	r        *rand.Rand
	l        Layout
	lx       *lexicon
	accounts []*account

	currency, symbol string
	m, box           money
	words            map[string]string // chosen label for each heading and row label
	drMark, crMark   string
	bank             string
	address          []string
	holder           string
	legal            string
	watermark        string

	pdf                  *fpdf.Fpdf
	tr                   func(string) string
	y, left, right, foot float64
	lh                   float64
	cols                 []colSpec
	bold                 bool   // the current font is bold
	trace                *trace // what was drawn, for the other producers
}

// colSpec is a drawn column.
type colSpec struct {
	kind  col
	label string
	x, w  float64
	right bool // right-aligned (money)
}

// chooseWords picks the document's vocabulary, currency and number forms.
func (d *document) chooseWords() {
	r, l, lx := d.r, d.l, d.lx
	w := map[string]string{}
	pick := func(k string, xs []string) { w[k] = pickOne(r, xs) }
	pick("date", lx.date)
	if l.Card {
		pick("date", lx.postDate)
	}
	pick("value", lx.valueDate)
	pick("trans", lx.transDate)
	pick("desc", lx.desc)
	pick("ref", lx.ref)
	pick("cheque", lx.cheque)
	pick("type", lx.typeCode)
	pick("category", lx.category)
	pick("points", lx.points)
	pick("debit", lx.debit)
	pick("credit", lx.credit)
	pick("amount", lx.amount)
	pick("balance", lx.balance)
	pick("drcr", lx.drcr)
	pick("opening", lx.opening)
	pick("closing", lx.closing)
	pick("carried", lx.carried)
	pick("brought", lx.brought)
	pick("totals", lx.totals)
	pick("totalIn", lx.totalIn)
	pick("totalOut", lx.totalOut)
	pick("title", lx.title)
	pick("account", lx.account)
	pick("period", lx.period)
	pick("to", lx.to)
	pick("currency", lx.currency)
	pick("page", lx.page)
	pick("of", lx.of)
	pick("fees", lx.feesTitle)
	if w["date"] == w["value"] || w["date"] == w["trans"] {
		w["date"] = lx.date[0]
		if l.Card {
			w["date"] = lx.postDate[0]
		}
	}
	if l.Card {
		w["title"] = lx.card[0]
	}
	d.words = w
	marks := pickOne(r, lx.drcrMarks)
	if l.Lang == "en" || r.IntN(3) == 0 {
		marks = pickOne(r, [][2]string{{"Dr", "Cr"}, {"DR", "CR"}})
	}
	d.drMark, d.crMark = marks[0], marks[1]

	switch {
	case l.NumForm == "num-indian":
		d.currency, d.symbol = "INR", "Rs."
	case l.Decimals == 0 && slices.Contains(l.Features, "yen"):
		d.currency, d.symbol = "JPY", "¥"
	case l.NumForm == "num-apos-dot":
		d.currency, d.symbol = "CHF", "CHF "
	case l.Lang == "en":
		d.currency = pickOne(r, []string{"USD", "GBP", "AUD", "EUR"})
		d.symbol = map[string]string{"USD": "$", "GBP": "£", "AUD": "$", "EUR": "€"}[d.currency]
	default:
		d.currency, d.symbol = "EUR", "€"
	}
	nf := numForm{name: l.NumForm, decimals: l.Decimals}
	d.m = money{nf: nf, curPos: l.CurPos, symbol: d.symbol, code: d.currency, neg: l.Neg, drMark: d.drMark}
	d.box = d.m
	if l.BoxFormat {
		d.box = money{nf: numForm{name: "num-comma-dot", decimals: 2}, curPos: "cur-prefix", symbol: d.symbol, code: d.currency, neg: "neg-minus"}
		if strings.Contains(d.m.nf.fmtAbs(decimal.RequireFromString("1.5")), ",") {
			d.box.nf.name = "num-dot-comma"
			d.box.curPos = "cur-suffix"
		}
		if d.box.nf == d.m.nf && d.box.curPos == d.m.curPos {
			d.box.curPos = ""
			d.box.nf.name = "num-plain"
		}
	}
	d.bank = pickOne(r, banks)
	i := r.IntN(len(streets))
	d.address = []string{streets[i], cities[i]}
	d.holder = pickOne(r, holders)
	d.legal = pickOne(r, lx.legal)
	d.watermark = pickOne(r, watermarks)
}

// text draws s at x, y (baseline), glyph by glyph when the layout says so.
func (d *document) text(x, y float64, s string) {
	if s == "" {
		return
	}
	d.record(x, y, s, false)
	d.show(x, y, s)
}

// show draws s at x, y without recording it.
func (d *document) show(x, y float64, s string) {
	if !d.l.Glyph {
		d.pdf.Text(x, y, d.tr(s))
		return
	}
	for _, ch := range s {
		g := d.tr(string(ch))
		if ch != ' ' {
			d.pdf.Text(x, y, g)
		}
		x += d.pdf.GetStringWidth(g)
	}
}

func (d *document) width(s string) float64 { return d.pdf.GetStringWidth(d.tr(s)) }

// textRight draws s ending at x.
func (d *document) textRight(x, y float64, s string) {
	if s == "" {
		return
	}
	d.record(x, y, s, true)
	d.show(x-d.width(s), y, s)
}

// setFont sets the layout's font in a style and size.
func (d *document) setFont(style string, size float64) {
	d.pdf.SetFont(d.l.Font, style, size)
	d.bold = style == "B"
}

// wrap splits s into lines no wider than w.
func (d *document) wrap(s string, w float64) []string {
	var lines []string
	cur := ""
	for _, f := range strings.Fields(s) {
		try := f
		if cur != "" {
			try = cur + " " + f
		}
		if cur != "" && d.width(try) > w {
			lines = append(lines, cur)
			cur = f
			continue
		}
		cur = try
	}
	return append(lines, cur)
}

// label of a column heading.
func (d *document) colLabel(c col) string {
	w := d.words
	switch c {
	case colDate:
		return w["date"]
	case colValueDate:
		return w["value"]
	case colTransDate:
		return w["trans"]
	case colDesc:
		return w["desc"]
	case colRef:
		return w["ref"]
	case colCheque:
		return w["cheque"]
	case colType:
		return w["type"]
	case colCategory:
		return w["category"]
	case colPoints:
		return w["points"]
	case colDebit:
		return w["debit"]
	case colCredit:
		return w["credit"]
	case colAmount:
		return w["amount"]
	case colDrCr:
		return w["drcr"]
	case colBalance:
		return w["balance"]
	}
	return ""
}

// placeholder is what an unused debit or credit cell shows.
func (d *document) placeholder() string {
	zero := d.m.nf.fmtAbs(decimal.Zero)
	switch d.l.Holder {
	case "placeholder-zero":
		return "0"
	case "placeholder-zero-dec":
		return zero
	case "placeholder-dash":
		return "-"
	case "placeholder-cur-zero":
		return d.symbol + zero
	case "placeholder-neg-cur-zero":
		return "-" + d.symbol + zero
	}
	return ""
}

// balanceText prints a balance in the table.
func (d *document) balanceText(v decimal.Decimal) string {
	if d.l.BalDrCr {
		mark := d.crMark
		if v.IsNegative() {
			mark = d.drMark
		}
		return d.m.plain(v.Abs()) + " " + mark
	}
	return d.m.signed(v)
}

// cell is the text of one column for one transaction.
func (d *document) cell(c col, t txn) string {
	l := d.l
	switch c {
	case colDate:
		return fmtDate(l.DateForm, d.lx, t.date)
	case colValueDate:
		return fmtDate(l.DateForm, d.lx, t.value)
	case colTransDate:
		return fmtDate(l.DateForm, d.lx, t.trans)
	case colRef, colCheque:
		return t.ref
	case colType:
		return t.typ
	case colCategory:
		return t.cat
	case colPoints:
		return t.pts
	case colDebit:
		if !t.in {
			return d.m.plain(t.amount)
		}
		return d.placeholder()
	case colCredit:
		if t.in {
			return d.m.plain(t.amount)
		}
		return d.placeholder()
	case colAmount:
		switch l.Amount {
		case "drcr-suffix":
			if t.in {
				return d.m.plain(t.amount) + " " + d.crMark
			}
			return d.m.plain(t.amount) + " " + d.drMark
		case "cr-suffix":
			if t.in {
				return d.m.plain(t.amount) + " " + d.crMark
			}
			return d.m.plain(t.amount)
		case "drcr-column":
			return d.m.plain(t.amount)
		}
		// signed
		negative := !t.in
		if l.Card {
			negative = t.in == (l.CardSign == "card-purchases-positive")
		}
		if negative {
			return d.m.signed(t.amount.Neg())
		}
		return d.m.plain(t.amount)
	case colDrCr:
		if t.in {
			return d.crMark
		}
		return d.drMark
	case colBalance:
		if l.Balance == "balance-daily" && !t.lastOfDay {
			return ""
		}
		return d.balanceText(t.balance)
	}
	return ""
}

// draw renders the document and returns the PDF and its page count.
func (d *document) draw() ([]byte, int, error) {
	l := d.l
	orient := "P"
	pdf := fpdf.New(orient, "mm", "A4", "")
	d.pdf = pdf
	d.tr = pdf.UnicodeTranslatorFromDescriptor("")
	d.setFont("", l.FontSize)
	d.lh = l.FontSize * 0.48
	pageW := 210.0
	d.left = 12 + float64(d.r.IntN(6))
	if !d.layoutColumns(pageW) {
		orient, pageW = "L", 297
		pdf = fpdf.New(orient, "mm", "A4", "")
		d.pdf = pdf
		d.tr = pdf.UnicodeTranslatorFromDescriptor("")
		d.setFont("", l.FontSize)
		d.layoutColumns(pageW)
	}
	pdf.SetCreationDate(epoch)
	pdf.SetModificationDate(epoch)
	pdf.SetCatalogSort(true)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AliasNbPages("{nb}")
	pdf.SetCreator("passbook synth", true)
	_, pageH := pdf.GetPageSize()
	d.foot = pageH - 22
	pdf.SetFooterFunc(d.footer)
	d.describe()
	pageW, pageH = pdf.GetPageSize()
	d.trace = &trace{pageW: pageW, pageH: pageH, left: d.left, right: d.right, lh: d.lh, cols: d.cols,
		font: l.Font, fontSize: l.FontSize, legal: d.legal, pageWord: d.words["page"], ofWord: d.words["of"],
		bank: d.bank, headLine: d.words["title"] + " - " + d.words["account"] + ": " + d.accounts[0].number}
	if l.Watermark {
		d.trace.watermark = d.watermark
	}

	pdf.AddPage()
	d.watermarkPage()
	d.letterhead()
	for i, a := range d.accounts {
		if i > 0 {
			if d.y > d.foot-60 {
				d.newPage()
			} else {
				d.y += d.lh * 3
			}
		}
		d.accountBlock(a)
		if l.TwoTables && len(a.txns) >= 2 {
			k := len(a.txns) / 2
			d.table(a, a.txns[:k], true, false, d.words["title"]+" (1/2)")
			d.y += d.lh * 2.5
			d.table(a, a.txns[k:], false, true, d.words["title"]+" (2/2)")
		} else {
			d.table(a, a.txns, true, true, "")
		}
	}
	if l.Fees {
		d.feesTable()
	}
	if err := pdf.Error(); err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, 0, err
	}
	d.trace.page(pdf.PageNo())
	d.trace.finish()
	return buf.Bytes(), pdf.PageNo(), nil
}

// layoutColumns sets each column's x and width; false when they do not fit.
func (d *document) layoutColumns(pageW float64) bool {
	l := d.l
	usable := pageW - 2*d.left
	d.cols = nil
	fixed := 0.0
	for _, c := range l.Cols {
		cs := colSpec{kind: c, label: d.colLabel(c)}
		switch c {
		case colDebit, colCredit, colAmount, colBalance, colPoints:
			cs.right = true
		}
		if c != colDesc {
			d.setFont("B", l.FontSize)
			w := d.width(cs.label)
			d.setFont("", l.FontSize)
			for _, a := range d.accounts {
				for _, t := range a.txns {
					w = max(w, d.width(d.cell(c, t)))
				}
				if c == colBalance {
					w = max(w, d.width(d.balanceText(a.opening)), d.width(d.balanceText(a.closing)))
				}
				if c == colDebit || c == colCredit {
					w = max(w, d.width(d.m.plain(sumIn(a.txns).Add(sumOut(a.txns)))))
				}
			}
			cs.w = w + 4
			if c == colDate && l.DatePos == "date-far-left" {
				cs.w += 4 + float64(d.r.IntN(12))
			}
			fixed += cs.w
		}
		d.cols = append(d.cols, cs)
	}
	descW := usable - fixed
	if descW < 40 {
		return false
	}
	spare := 0.0
	if descW > 95 {
		spare = descW - 95
		descW = 95
	}
	x := d.left
	nMoney := 0
	for _, cs := range d.cols {
		if cs.right {
			nMoney++
		}
	}
	for i := range d.cols {
		if d.cols[i].kind == colDesc {
			d.cols[i].w = descW
		}
		if d.cols[i].right && nMoney > 0 {
			d.cols[i].w += spare / float64(nMoney)
		}
		d.cols[i].x = x
		x += d.cols[i].w
	}
	d.right = x
	return true
}

func sumIn(ts []txn) decimal.Decimal {
	s := decimal.Zero
	for _, t := range ts {
		if t.in {
			s = s.Add(t.amount)
		}
	}
	return s
}

func sumOut(ts []txn) decimal.Decimal {
	s := decimal.Zero
	for _, t := range ts {
		if !t.in {
			s = s.Add(t.amount)
		}
	}
	return s
}

// describe lengthens each description until it wraps over its wanted
// number of lines in the description column.
func (d *document) describe() {
	var w float64
	for _, c := range d.cols {
		if c.kind == colDesc {
			w = c.w - 4 // keep a visible gap before the next column
		}
	}
	for _, a := range d.accounts {
		for i := range a.txns {
			t := &a.txns[i]
			for n := 0; len(d.wrap(t.desc, w)) < t.lines && n < 60; n++ {
				extra := pickOne(d.r, detailWords)
				if d.r.IntN(3) == 0 {
					extra += fmt.Sprintf(" %d", 1000+d.r.IntN(90000))
				}
				t.desc += " " + extra
			}
			// A line too long for any column would not wrap at a space.
			if d.l.Upper {
				t.desc = strings.ToUpper(t.desc)
			}
			lines := d.wrap(t.desc, w)
			if len(lines) > t.lines && t.lines > 1 {
				t.desc = strings.Join(lines[:t.lines], " ")
			}
		}
	}
}

// footer draws legal text and the page number.
func (d *document) footer() {
	pdf, l := d.pdf, d.l
	pageW, pageH := pdf.GetPageSize()
	d.setFont("", 6.5)
	pdf.SetTextColor(90, 90, 90)
	y := pageH - 15
	for _, line := range d.wrap(d.legal, pageW-2*d.left-30) {
		d.text(d.left, y, line)
		y += 2.8
	}
	page := fmt.Sprintf("%s %d %s {nb}", d.words["page"], pdf.PageNo(), d.words["of"])
	if l.Glyph {
		page = fmt.Sprintf("%s %d", d.words["page"], pdf.PageNo())
		d.textRight(pageW-d.left, pageH-15, page)
	} else {
		d.record(pageW-d.left, pageH-15, page, true)
		pdf.Text(pageW-d.left-d.width(page), pageH-15, d.tr(page))
	}
	pdf.SetTextColor(0, 0, 0)
	d.setFont("", l.FontSize)
}

// watermarkPage prints a light, rotated word across the page.
func (d *document) watermarkPage() {
	if !d.l.Watermark {
		return
	}
	pdf := d.pdf
	pageW, pageH := pdf.GetPageSize()
	pdf.SetFont("Helvetica", "B", 70)
	pdf.SetTextColor(215, 215, 215)
	pdf.TransformBegin()
	pdf.TransformRotate(35, pageW/2, pageH/2)
	w := pdf.GetStringWidth(d.tr(d.watermark))
	pdf.Text(pageW/2-w/2, pageH/2, d.tr(d.watermark))
	pdf.TransformEnd()
	pdf.SetTextColor(0, 0, 0)
	d.setFont("", d.l.FontSize)
}

func (d *document) newPage() {
	d.pdf.AddPage()
	d.watermarkPage()
	l := d.l
	line := d.trace.headLine
	d.setFont("B", 11)
	d.text(d.left, 16, d.bank)
	d.setFont("", 7.5)
	d.text(d.left, 21, line)
	d.recordBlock(pageHeadBlock{d.bank, line})
	d.setFont("", l.FontSize)
	d.y = 30
}

// letterhead draws the first page's furniture.
func (d *document) letterhead() {
	pdf, l, w := d.pdf, d.l, d.words
	pageW, _ := pdf.GetPageSize()
	bankX, blockX := d.left, pageW/2+5
	if d.r.IntN(3) == 0 {
		bankX, blockX = pageW/2+5, d.left
	}
	d.setFont("B", 14)
	d.text(bankX, 18, d.bank)
	d.setFont("", 7.5)
	y := 23.0
	for _, a := range d.address {
		d.text(bankX, y, a)
		y += 3.4
	}
	d.setFont("B", 10)
	d.text(blockX, 18, w["title"])
	d.setFont("", 8)
	a0 := d.accounts[0]
	block := []string{}
	if len(d.accounts) == 1 {
		block = append(block, w["account"]+": "+a0.number)
	}
	if l.PeriodBox {
		block = append(block, fmt.Sprintf("%s: %s %s %s", w["period"], fmtPeriodDate(l.DateForm, d.lx, a0.start), w["to"], fmtPeriodDate(l.DateForm, d.lx, a0.end)))
	}
	if d.r.IntN(3) > 0 {
		block = append(block, w["currency"]+": "+d.currency)
	}
	y2 := 23.0
	for _, b := range block {
		d.text(blockX, y2, b)
		y2 += 3.8
	}
	y = max(y, y2) + 4
	d.setFont("", 8.5)
	d.text(d.left, y, d.holder)
	d.text(d.left, y+4, d.address[(0+1)%len(d.address)])
	d.recordBlock(letterheadBlock{bank: d.bank, address: d.address, bankRight: bankX != d.left, title: w["title"], info: block,
		holder: []string{d.holder, d.address[(0+1)%len(d.address)]}})
	d.y = y + 12
	d.setFont("", l.FontSize)
}

// accountBlock prints an account's heading (when the document holds
// several) and its summary box.
func (d *document) accountBlock(a *account) {
	pdf, l, w := d.pdf, d.l, d.words
	if len(d.accounts) > 1 {
		d.setFont("B", 9.5)
		d.text(d.left, d.y, w["account"]+": "+a.number)
		d.recordBlock(accountHeadBlock{w["account"] + ": " + a.number})
		d.y += 6
		d.setFont("", l.FontSize)
	}
	var rows [][2]string
	if l.Opening == "opening-box" {
		rows = append(rows, [2]string{w["opening"], d.box.signed(a.opening)})
	}
	if l.Totals == "totals-box" {
		in, out := w["totalIn"], w["totalOut"]
		rows = append(rows, [2]string{in, d.box.plain(sumIn(a.txns))}, [2]string{out, d.box.plain(sumOut(a.txns))})
	}
	if l.Closing == "closing-box" {
		rows = append(rows, [2]string{w["closing"], d.box.signed(a.closing)})
	}
	if l.Card {
		limit := decimal.NewFromInt(int64(1000 * (2 + d.r.IntN(15))))
		minPay := decimal.Max(a.closing.Mul(decimal.NewFromFloat(0.03)).Round(int32(l.Decimals)), decimal.Zero)
		due := a.end.AddDate(0, 0, 21)
		rows = append(rows,
			[2]string{d.lx.card[1], d.box.plain(limit)},
			[2]string{d.lx.card[2], d.box.signed(limit.Sub(a.closing))},
			[2]string{d.lx.card[3], d.box.plain(minPay)},
			[2]string{d.lx.card[4], fmtPeriodDate(l.DateForm, d.lx, due)})
	}
	if len(rows) == 0 {
		return
	}
	d.recordBlock(boxBlock{rows})
	pdf.SetDrawColor(150, 150, 150)
	pdf.Rect(d.left, d.y-4, 90, float64(len(rows))*4.4+2.5, "D")
	d.recordRule(rule{x1: d.left, y1: d.y - 4, x2: 90, y2: float64(len(rows))*4.4 + 2.5, rect: true, gray: 150})
	d.setFont("", 8.5)
	for _, kv := range rows {
		d.text(d.left+2, d.y, kv[0])
		d.textRight(d.left+88, d.y, kv[1])
		d.y += 4.4
	}
	d.y += 7
	pdf.SetDrawColor(0, 0, 0)
	d.setFont("", l.FontSize)
}

// header draws a table's column headings; repeat: again after a page
// break.
func (d *document) header(repeat bool) {
	pdf, l := d.pdf, d.l
	d.setFont("B", l.FontSize)
	hb := headerBlock{repeat: repeat}
	if d.r.IntN(2) == 0 {
		pdf.SetFillColor(225, 225, 225)
		pdf.Rect(d.left, d.y-d.lh*1.1, d.right-d.left, d.lh*1.6, "F")
		d.recordRule(rule{x1: d.left, y1: d.y - d.lh*1.1, x2: d.right - d.left, y2: d.lh * 1.6, rect: true, fill: true, gray: 225})
		hb.shaded = true
	}
	lines := 1
	for _, c := range d.cols {
		parts := []string{c.label}
		if l.HeadWrap {
			if i := strings.LastIndex(c.label, " "); i > 0 {
				parts = []string{c.label[:i], c.label[i+1:]}
				lines = 2
			}
		}
		hb.labels = append(hb.labels, parts)
		for i, p := range parts {
			y := d.y + float64(i)*d.lh
			if c.right {
				d.textRight(c.x+c.w-1.5, y, p)
			} else {
				d.text(c.x+1, y, p)
			}
		}
	}
	d.recordBlock(hb)
	d.y += float64(lines-1) * d.lh
	pdf.SetLineWidth(0.2)
	pdf.Line(d.left, d.y+d.lh*0.6, d.right, d.y+d.lh*0.6)
	d.recordRule(rule{x1: d.left, y1: d.y + d.lh*0.6, x2: d.right, y2: d.y + d.lh*0.6})
	d.y += d.lh * 1.8
	d.setFont("", l.FontSize)
}

// labelRow prints a non-transaction row: a label, maybe a date, a balance
// and the sums of the amount columns; forward: carried or brought forward
// at a page break.
func (d *document) labelRow(label string, forward bool, date *time.Time, bal *decimal.Decimal, in, out *decimal.Decimal) {
	rb := rowBlock{label: true, forward: forward, bold: d.bold}
	for _, c := range d.cols {
		s := ""
		switch {
		case c.kind == colDesc:
			s = label
		case c.kind == colDate && date != nil:
			s = fmtDate(d.l.DateForm, d.lx, *date)
		case c.kind == colBalance && bal != nil:
			s = d.balanceText(*bal)
		case c.kind == colCredit && in != nil:
			s = d.m.plain(*in)
		case c.kind == colDebit && out != nil:
			s = d.m.plain(*out)
		}
		rb.cells = append(rb.cells, []string{s})
		if c.right {
			d.textRight(c.x+c.w-1.5, d.y, s)
		} else {
			d.text(c.x+1, d.y, s)
		}
	}
	d.recordBlock(rb)
	d.y += d.lh * 1.5
}

// table prints rows under a header, breaking pages as needed.
func (d *document) table(a *account, rows []txn, first, last bool, title string) {
	pdf, l, w := d.pdf, d.l, d.words
	if d.y > d.foot-d.lh*8 {
		d.newPage()
	}
	if title != "" {
		d.setFont("B", l.FontSize+1.5)
		d.text(d.left, d.y, title)
		d.recordBlock(titleBlock{title})
		d.setFont("", l.FontSize)
		d.y += d.lh * 2.2
	}
	d.header(false)
	if first && (l.Opening == "opening-row" || l.Opening == "opening-row-dated") {
		var date *time.Time
		if l.Opening == "opening-row-dated" {
			date = &a.start
		}
		d.labelRow(w["opening"], false, date, &a.opening, nil, nil)
	}
	descX, descW := 0.0, 0.0
	for _, c := range d.cols {
		if c.kind == colDesc {
			descX, descW = c.x, c.w
		}
	}
	prev := a.opening
	if !first {
		prev = a.txns[len(a.txns)-len(rows)-1].balance
	}
	gap := d.lh * 0.45
	rules := l.AmtLine != "amount-line-top"
	if rules {
		gap = d.lh * 0.9
	}
	for _, t := range rows {
		lines := d.wrap(t.desc, descW-4)
		n := float64(len(lines))
		if d.y+n*d.lh+d.lh*3 > d.foot {
			if l.Forward {
				d.labelRow(w["carried"], true, nil, &prev, nil, nil)
			}
			d.newPage()
			d.header(true)
			if l.Forward {
				d.labelRow(w["brought"], true, nil, &prev, nil, nil)
			}
		}
		at := 0
		switch l.AmtLine {
		case "amount-line-middle":
			at = (len(lines) - 1) / 2
		case "amount-line-bottom":
			at = len(lines) - 1
		}
		rb := rowBlock{at: at, rules: rules}
		for _, c := range d.cols {
			if c.kind == colDesc {
				rb.cells = append(rb.cells, lines)
				for i, line := range lines {
					d.text(descX+1, d.y+float64(i)*d.lh, line)
				}
				continue
			}
			s := d.cell(c.kind, t)
			rb.cells = append(rb.cells, []string{s})
			if c.right {
				d.textRight(c.x+c.w-1.5, d.y+float64(at)*d.lh, s)
			} else {
				d.text(c.x+1, d.y+float64(at)*d.lh, s)
			}
		}
		d.recordBlock(rb)
		if l.Grid {
			pdf.SetDrawColor(120, 120, 120)
			for _, c := range d.cols[1:] {
				pdf.Line(c.x, d.y-d.lh, c.x, d.y+n*d.lh-d.lh+gap)
				d.recordRule(rule{x1: c.x, y1: d.y - d.lh, x2: c.x, y2: d.y + n*d.lh - d.lh + gap, gray: 120})
			}
			pdf.SetDrawColor(0, 0, 0)
		}
		d.y += n*d.lh - d.lh + d.lh + gap
		if rules {
			pdf.SetDrawColor(190, 190, 190)
			pdf.Line(d.left, d.y-d.lh*0.75, d.right, d.y-d.lh*0.75)
			d.recordRule(rule{x1: d.left, y1: d.y - d.lh*0.75, x2: d.right, y2: d.y - d.lh*0.75, gray: 190})
			pdf.SetDrawColor(0, 0, 0)
		}
		prev = t.balance
	}
	if !last {
		return
	}
	if l.Totals == "totals-row" {
		in, out := sumIn(a.txns), sumOut(a.txns)
		d.setFont("B", l.FontSize)
		d.labelRow(w["totals"], false, nil, nil, &in, &out)
		d.setFont("", l.FontSize)
	}
	if l.Closing == "closing-row" {
		d.labelRow(w["closing"], false, nil, &a.closing, nil, nil)
	}
}

// feesTable prints fees and interest rates after the transactions: not
// transactions.
func (d *document) feesTable() {
	l := d.l
	if d.y > d.foot-d.lh*12 {
		d.newPage()
	}
	d.y += d.lh * 2
	d.setFont("B", l.FontSize+1)
	d.text(d.left, d.y, d.words["fees"])
	d.setFont("", l.FontSize)
	d.y += d.lh * 2
	fb := feesBlock{title: d.words["fees"]}
	for _, item := range d.lx.feeItems {
		v := d.m.plain(decimal.NewFromFloat(float64(1+d.r.IntN(1500)) / 100).Round(int32(l.Decimals)))
		d.text(d.left+1, d.y, item)
		d.textRight(d.left+110, d.y, v)
		fb.items = append(fb.items, [2]string{item, v})
		d.y += d.lh * 1.4
	}
	for _, item := range d.lx.rateItems {
		v := fmt.Sprintf("%d.%02d %%", 1+d.r.IntN(20), d.r.IntN(100))
		d.text(d.left+1, d.y, item)
		d.textRight(d.left+110, d.y, v)
		fb.items = append(fb.items, [2]string{item, v})
		d.y += d.lh * 1.4
	}
	d.recordBlock(fb)
}
