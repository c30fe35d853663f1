package synth

// The wider world (issue 39 point 2): each family drawn as a class, in
// variations of its columns, rules, page furniture and summaries; CLDR's
// long and full date patterns, a Buddhist-era calendar, 年/月/日 and
// full-width and Arabic-Indic digits; and traits taken from statements
// the engine read wrong. Every choice here comes from a random stream of
// its own, so a statement drawn without any of them is the one the same
// seed made before they existed; WorldOptions.Plain turns them off.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/go-playground/locales/th_TH"
	"github.com/shopspring/decimal"

	"passbook/extract/synth/vocab"
)

// WorldVariations are the ways a family is drawn as a class, and the
// date forms a statement prints its dates in.
var WorldVariations = []string{
	"columns-reordered", // the description or the money columns in another place
	"no-heading",        // the table prints no heading line
	"ruled-rows",        // a rule under every row
	"shaded",            // every other row on a grey band
	"wrapped-above",     // a description's first line above the line of the row's date and amounts
	"page-furniture",    // the bank's header and a footer on every page
	"carried-forward",   // the balance carried forward at each page's end, brought forward on the next
	"summary-after",     // the balances' summary after the rows instead of before them
	"section-sums",      // the money columns summed after each section of rows
	"summary-table",     // a second table: the summary, with its own heading
	"date-long",         // CLDR's long date pattern (genitive month names)
	"date-full",         // CLDR's full date pattern (the weekday's name)
	"date-time",         // the short date and a time after it
	"buddhist-era",      // Thai dates in the Buddhist era (2568 for 2025)
	"kanji-date",        // 2025年3月4日
	"fullwidth-digits",  // ２０２５年３月４日
	"arabic-indic-digits",
}

// wideTraits are the traits of WorldTraits this file draws and prints.
var wideTraits = []string{
	"newest-balance-only", // newest first, a balance on every row and no summary but the opening at the foot
	"day-balance-lines",   // a line with the day's balance after each day's rows, which print none
	"card-positive",       // a card in a plain table: purchases positive, payments negative
	"value-date-column",   // a value-date column beside every booking date
	"kv-three-across",     // blocks of label and value, three side by side
	"dated-balance-lines", // the balances only as dated lines in words no lexicon holds
}

// wideDraw is what a statement draws beyond its family and first traits.
type wideDraw struct {
	r          *rand.Rand
	variations map[string]bool
	calendar   string // "", buddhist
	digits     string // "", fullwidth, arabic-indic
	perPage    int    // rows a page, where the layout breaks pages itself
	invented   []string
	traits     map[string]bool // of wideTraits, drawn before the data, printed after it
}

// has reports whether the statement prints a variation or trait.
func (w *world) has(name string) bool {
	return w.wide != nil && w.wide.variations[name] || w.traits[name]
}

// tableFamily reports whether the family prints its rows in w.table.
func (w *world) tableFamily() bool {
	return !slices.Contains([]string{"kv-blocks", "day-groups", "card-sections", "screenshot"}, w.family)
}

// thaiLocale is th_TH: a Thai bank's statement prints its dates in the
// Buddhist era, which the world's other locales do not.
var thaiLocale = sync.OnceValue(func() *Locale {
	l, ok := newLocale(th_TH.New())
	if !ok {
		panic("th_TH: CLDR's data no longer reads as a locale")
	}
	return l
})

// wideLocale draws, before the style, whether the statement is a Thai
// bank's, in the Buddhist era.
func (w *world) wideLocale(seed int64, opts WorldOptions) {
	if opts.Plain {
		return
	}
	w.wide = &wideDraw{r: rand.New(rand.NewPCG(uint64(seed), 0x39e1de)), variations: map[string]bool{}}
	thai := w.wide.r.IntN(14) == 0
	if opts.Variations != nil {
		thai = slices.Contains(opts.Variations, "buddhist-era")
	}
	if opts.Variations != nil && (slices.Contains(opts.Variations, "kanji-date") || slices.Contains(opts.Variations, "fullwidth-digits")) {
		// Forced CJK dates: a Japanese or Chinese locale.
		for _, l := range WorldLocales() {
			if strings.HasPrefix(l.ID, []string{"ja", "zh"}[seed%2]) {
				w.loc = l
			}
		}
	}
	if thai {
		w.loc = thaiLocale()
		w.wide.calendar = "buddhist"
		w.wide.variations["buddhist-era"] = true
	}
}

// wideTraitsFit says which of wideTraits fit the statement as styled.
func (w *world) wideTraitsFit() map[string]bool {
	table := w.tableFamily() && w.family != "dated-balances"
	return map[string]bool{
		"newest-balance-only": table && !w.card && w.family != "daily-balance",
		"day-balance-lines":   table && !w.card && w.family != "daily-balance" && w.family != "newest-first",
		"card-positive":       slices.Contains([]string{"table", "ruled-grid", "ref-column", "multiline"}, w.family) && !w.card,
		"value-date-column":   w.tableFamily() && w.family != "value-date",
		"kv-three-across":     w.family == "kv-blocks",
		"dated-balance-lines": w.family != "dated-balances",
	}
}

// wideBefore draws, after the style and before the data, the traits that
// change the data: a card in a plain table.
func (w *world) wideBefore(forced []string) {
	if w.wide == nil {
		return
	}
	fits := w.wideTraitsFit()
	drawn := map[string]bool{}
	w.wide.traits = drawn
	for _, t := range wideTraits {
		d := w.wide.r.IntN(5) == 0
		if forced != nil {
			d = slices.Contains(forced, t)
		}
		drawn[t] = d && fits[t]
	}
	// One order, one proof: newest first and day lines do not mix.
	if drawn["newest-balance-only"] && drawn["day-balance-lines"] {
		drawn["day-balance-lines"] = false
	}
	if drawn["card-positive"] {
		w.card = true
		w.signed = true
		drawn["newest-balance-only"], drawn["day-balance-lines"] = false, false
	}
}

// wideAfter draws, after the data and the first traits, the variations
// and date forms, and applies the traits drawn before.
func (w *world) wideAfter(forced []string) {
	if w.wide == nil {
		return
	}
	x := w.wide
	r := x.r
	for _, t := range wideTraits {
		if x.traits[t] {
			w.traits[t] = true
		}
	}
	switch {
	case w.traits["newest-balance-only"]:
		w.rowBalances = true
		w.openPrinted = r.IntN(2) == 0 // at the foot, where the oldest row is
		w.closing = false
	case w.traits["day-balance-lines"]:
		w.rowBalances = false
		w.openPrinted = true
	}
	if w.traits["value-date-column"] {
		for _, a := range w.accounts {
			for i := range a.txns {
				a.txns[i].value = a.txns[i].date.AddDate(0, 0, max(0, r.IntN(5)-2))
			}
		}
	}
	if w.traits["dated-balance-lines"] {
		x.invented = []string{vocab.InventedWord(r), strings.ToLower(vocab.InventedWord(r))}
	}
	// Variations of the class.
	table := w.tableFamily()
	pages := table && !w.traits["newest-balance-only"] && w.family != "newest-first" && len(w.accounts) == 1
	fits := map[string]bool{
		"columns-reordered": table,
		"no-heading":        table && w.family != "ruled-grid",
		"ruled-rows":        table && w.family != "ruled-grid",
		"shaded":            table,
		"wrapped-above":     table && w.family != "multiline",
		"page-furniture":    pages,
		"carried-forward":   pages && !w.card,
		"summary-after":     w.family != "dated-balances",
		"section-sums":      table && !w.card && !w.signed && w.family != "daily-balance",
		"summary-table":     table && !w.card && w.openPrinted && w.closing && w.family != "dated-balances" && !w.traits["dated-balance-lines"],
	}
	for _, v := range WorldVariations[:10] {
		drawn := r.IntN(5) == 0
		if forced != nil {
			drawn = slices.Contains(forced, v)
		}
		if drawn && fits[v] {
			x.variations[v] = true
		}
	}
	if x.variations["page-furniture"] || x.variations["carried-forward"] {
		x.perPage = 14 + r.IntN(12)
	}
	// Date forms.
	if x.calendar == "" && (w.dateStyle == "short" || w.dateStyle == "medium") {
		cjk := strings.HasPrefix(w.loc.ID, "ja") || strings.HasPrefix(w.loc.ID, "zh")
		n := r.IntN(12)
		if forced != nil {
			// The first date form forced that fits: 0-1 long, 2-3 full,
			// 4 a time, 5 Arabic-Indic digits; any CJK when the locale is.
			n = 12
			for k, v := range []string{"date-long", "date-long", "date-full", "date-full", "date-time", "arabic-indic-digits"} {
				if slices.Contains(forced, v) || cjk && (slices.Contains(forced, "kanji-date") || slices.Contains(forced, "fullwidth-digits")) {
					n = k
					break
				}
			}
		}
		switch {
		case cjk && n < 6:
			w.dateStyle = "long"
			x.variations["kanji-date"] = true
			if r.IntN(2) == 0 || forced != nil && slices.Contains(forced, "fullwidth-digits") {
				x.digits = "fullwidth"
				x.variations["fullwidth-digits"] = true
			}
		case n < 2:
			w.dateStyle = "long"
		case n < 4:
			w.dateStyle = "full"
		case n < 5:
			w.dateStyle = "datetime"
		case n < 6 && w.loc.DayFirst && w.dateStyle == "short":
			x.digits = "arabic-indic"
			x.variations["arabic-indic-digits"] = true
		}
		if w.dateStyle != "long" && w.dateStyle != "full" && w.dateStyle != "datetime" {
			return
		}
		probe := time.Date(2025, 3, 17, 0, 0, 0, 0, time.UTC)
		if !cjk && !printable(w.wideDate(probe)) || cjk && !x.variations["kanji-date"] {
			w.dateStyle = "short" // a pattern the fonts cannot draw, or CLDR's data garbled
			return
		}
		x.variations["date-"+map[string]string{"long": "long", "full": "full", "datetime": "time"}[w.dateStyle]] = !x.variations["kanji-date"]
	}
}

// printable reports whether a formatted date reads as a date: drawn by the
// fonts, with no pattern letters left in it.
func printable(s string) bool {
	return drawable(s) && !strings.Contains(s, "cccc") && !strings.Contains(s, "EEEE") && !strings.Contains(s, "(e)")
}

// variationList is the statement's variations, in WorldVariations' order.
func (w *world) variationList() []string {
	var out []string
	if w.wide == nil {
		return out
	}
	for _, v := range WorldVariations {
		if w.wide.variations[v] {
			out = append(out, v)
		}
	}
	return out
}

// wideDate prints a date in CLDR's long or full pattern, or the short one
// with a time after it (the same time for a day: rows share it).
func (w *world) wideDate(t time.Time) string {
	switch w.dateStyle {
	case "long":
		return w.loc.t.FmtDateLong(t)
	case "full":
		return w.loc.t.FmtDateFull(t)
	}
	at := t.Add(time.Duration(7*60+(t.YearDay()*37)%(12*60)) * time.Minute)
	return w.loc.ShortDate(t) + " " + strings.TrimSpace(w.loc.t.FmtTimeShort(at))
}

// reckon prints a formatted date in the statement's calendar and digits.
func (w *world) reckon(s string, t time.Time) string {
	if w.wide != nil && w.wide.calendar == "buddhist" {
		be := fmt.Sprint(t.Year() + 543)
		if y := fmt.Sprint(t.Year()); strings.Contains(s, y) {
			s = strings.Replace(s, y, be, 1)
		} else if i := strings.LastIndex(s, fmt.Sprintf("%02d", t.Year()%100)); i >= 0 {
			s = s[:i] + be + s[i+2:]
		}
	}
	return w.inDigits(s)
}

// inDigits prints a formatted date in the statement's digits.
func (w *world) inDigits(s string) string {
	if w.wide == nil {
		return s
	}
	zero := map[string]rune{"fullwidth": '０', "arabic-indic": '٠'}[w.wide.digits]
	if zero == 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return zero + r - '0'
		}
		return r
	}, s)
}

// isCJK reports whether r is drawn only by a CJK face.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r >= 0xff00 && r <= 0xffef || r >= 0x3000 && r <= 0x303f
}

// hasCJK reports whether s holds a letter only a CJK face draws.
func hasCJK(s string) bool { return strings.ContainsFunc(s, isCJK) }

// wideColumns reorders a table's columns for columns-reordered and adds
// the value-date column.
func (w *world) wideColumns(cols []tableCol) []tableCol {
	if w.traits["value-date-column"] {
		i := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "date" })
		cols = slices.Insert(cols, i+1, tableCol{"value", w.word("value", w.lx.ValueDate), 0.14})
	}
	if !w.has("columns-reordered") {
		return cols
	}
	desc := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "desc" })
	d := cols[desc]
	cols = slices.Delete(slices.Clone(cols), desc, desc+1)
	switch w.wide.r.IntN(3) {
	case 0: // the description last, after the balance
		cols = append(cols, d)
	case 1: // the description first, before the date
		cols = append([]tableCol{d}, cols...)
	default: // the description between the amounts and the balance
		if b := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "balance" }); b >= 0 {
			cols = slices.Insert(cols, b, d)
		} else {
			cols = append(cols, d)
		}
	}
	return cols
}

// widenDates gives the date columns of long and full dates and of dates
// with a time the room they print in, on one line.
func (w *world) widenDates(cols []tableCol) []tableCol {
	if w.dateStyle != "long" && w.dateStyle != "full" && w.dateStyle != "datetime" {
		return cols
	}
	cols = slices.Clone(cols)
	total := 0.0
	for i, c := range cols {
		if c.role == "date" || c.role == "value" {
			cols[i].w = map[string]float64{"long": 0.2, "full": 0.3, "datetime": 0.18}[w.dateStyle]
		}
		total += cols[i].w
	}
	for i := range cols {
		cols[i].w /= total
	}
	return cols
}

// kvColumns are the columns of blocks three across: a label and a value
// for each. A label wraps at its spaces; its column holds its longest
// word (an invented one of sixteen letters), which at 0.13 of the width
// ran into the value beside it, and no statement prints one word over
// another.
func kvColumns() []tableCol {
	var cols []tableCol
	for range 3 {
		cols = append(cols, tableCol{"label", "", 0.17}, tableCol{"value", "", 0.163})
	}
	return cols
}

// kvThreeAcross lays out blocks of label and value lines three side by
// side: a transaction's date, description, amount and balance in one
// block, three blocks to a band.
func (w *world) kvThreeAcross(d *worldDoc, a *waccount) {
	lx := w.lx
	for i := 0; i < len(a.txns); i += 3 {
		band := a.txns[i:min(i+3, len(a.txns))]
		d.lines = append(d.lines, wline{gap: 0.5, rule: true})
		rows := [][]wcell{nil, nil, nil, nil}
		for j, t := range band {
			date := w.dateText(t.date)
			w.note(t, date)
			values := []string{date, t.desc, w.signedText(w.signedAmount(t)), ""}
			if w.rowBalances {
				values[3] = w.balanceText(t.balance)
			}
			labels := []string{w.word("date", lx.Date), w.word("desc", lx.Desc), w.word("amount", lx.Amount), w.word("balance", lx.Balance)}
			for k := range rows {
				if values[k] != "" {
					rows[k] = append(rows[k], wcell{2 * j, 1, labels[k], false}, wcell{2*j + 1, 1, values[k], k != 1})
				}
			}
		}
		for k, cells := range rows {
			if len(cells) > 0 {
				d.lines = append(d.lines, wline{cells: cells, bold: k == 2})
			}
		}
	}
}

// summaryLines are an account's balances and sums as the statement
// prints them beside its rows: label and value pairs, a table of its own
// (summary-table) or dated lines in unknown words (dated-balance-lines).
// before are printed above the rows, after below them.
func (w *world) summaryLines(d *worldDoc, a *waccount, index int) (before, after []wline) {
	lx := w.lx
	n := len(d.widths)
	pair := d.pair
	opening, closing := w.word("opening", lx.Opening), w.word("closing", lx.Closing)
	var lines []wline
	switch {
	case w.has("summary-table") && n >= 4:
		in, out := a.sums()
		o, c := w.balanceText(a.opening), w.balanceText(a.closing)
		head := wline{bold: true, head: false, rule: true, gap: 0.6}
		vals := wline{}
		for k, s := range [][2]string{{opening, o}, {w.word("credit", lx.Credit), w.num(in)}, {w.word("debit", lx.Debit), w.num(out)}, {closing, c}} {
			head.cells = append(head.cells, wcell{n - 4 + k, 1, s[0], true})
			vals.cells = append(vals.cells, wcell{n - 4 + k, 1, s[1], true})
		}
		w.notePrinted(index, true, o)
		w.notePrinted(index, false, c)
		lines = []wline{head, vals}
	case w.traits["dated-balance-lines"]:
		words := strings.Join(w.wide.invented, " ")
		if w.openPrinted {
			o := w.balanceText(a.opening)
			lines = append(lines, wline{cells: []wcell{{0, n, words + " " + w.fullDate(w.start.AddDate(0, 0, -1)) + ": " + o, false}}, gap: 0.6})
			w.notePrinted(index, true, o)
		}
		if w.closing {
			c := w.balanceText(a.closing)
			after = append(after, wline{cells: []wcell{{0, n, words + " " + w.fullDate(w.end) + ": " + c, false}}, gap: 0.4})
			w.notePrinted(index, false, c)
		}
		return lines, after
	default:
		// A dated-balances table prints its balances as its own lines.
		box := w.family != "dated-balances"
		if box && w.openPrinted && !w.traits["newest-balance-only"] {
			o := w.balanceText(a.opening)
			lines = append(lines, wline{gap: 0.6}, pair(opening, o, false))
			w.notePrinted(index, true, o)
		}
		if w.traits["summary-totals"] {
			in, out := a.sums()
			lines = append(lines, pair(w.word("debit", lx.Debit), w.num(out), false), pair(w.word("credit", lx.Credit), w.num(in), false))
		}
		if box && w.closing {
			c := w.balanceText(a.closing)
			if w.r.IntN(2) == 0 {
				lines = append(lines, pair(closing, c, false))
			} else {
				after = append(after, wline{gap: 0.4}, pair(closing, c, true))
			}
			w.notePrinted(index, false, c)
		}
		if w.openPrinted && w.traits["newest-balance-only"] {
			// Newest first: the opening balance stands at the foot,
			// under the oldest row.
			o := w.balanceText(a.opening)
			after = append(after, wline{gap: 0.4}, pair(opening, o, false))
			w.notePrinted(index, true, o)
		}
	}
	if w.has("summary-after") {
		return nil, append(after, lines...)
	}
	return lines, after
}

// pageBreaks inserts the page furniture of page-furniture and
// carried-forward into a table's lines: after every perPage rows the
// balance carried forward, the bank's footer, a new page, its header, the
// table's heading again and the balance brought forward. rowEnds are the
// indexes in lines just after each row's last line, with the balance
// after it.
func (w *world) pageBreaks(d *worldDoc, lines []wline, rowEnds []int, balances []decimal.Decimal, cols []tableCol, head *wline) []wline {
	x := w.wide
	if x == nil || x.perPage == 0 {
		return lines
	}
	desc := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "desc" })
	bal := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "balance" })
	n := len(d.widths)
	var out []wline
	from, page := 0, 1
	for k := x.perPage; k < len(rowEnds); k += x.perPage {
		end := rowEnds[k-1]
		out = append(out, lines[from:end]...)
		from = end
		b := w.balanceText(balances[k-1])
		if x.variations["carried-forward"] && bal >= 0 {
			out = append(out, wline{cells: []wcell{{desc, 1, w.word("closing", w.lx.Closing), false}, {bal, 1, b, true}}, bold: true, gap: 0.3})
		}
		if x.variations["page-furniture"] {
			out = append(out, wline{cells: []wcell{{0, n, fmt.Sprintf("%s · %s %d", d.bank, d.pageWord, page), false}}, gap: 1})
		}
		page++
		out = append(out, wline{pageBreak: true})
		if x.variations["page-furniture"] {
			out = append(out, wline{cells: []wcell{{0, n, d.bank + " · " + w.accounts[0].number, false}}, bold: true})
		}
		if head != nil {
			out = append(out, *head)
		}
		if x.variations["carried-forward"] && bal >= 0 {
			out = append(out, wline{cells: []wcell{{desc, 1, w.word("opening", w.lx.Opening), false}, {bal, 1, b, true}}, bold: true})
		}
	}
	return append(out, lines[from:]...)
}

// sectionSums is the line of a section's sums.
func (w *world) sectionSums(cols []tableCol, rows []wtxn) wline {
	var in, out decimal.Decimal
	for _, t := range rows {
		if t.in {
			in = in.Add(t.amount)
		} else {
			out = out.Add(t.amount)
		}
	}
	desc := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "desc" })
	l := wline{bold: true, cells: []wcell{{desc, 1, w.word("totals", w.lx.Totals), false}}}
	for i, c := range cols {
		switch c.role {
		case "debit":
			l.cells = append(l.cells, wcell{i, 1, w.num(out), true})
		case "credit":
			l.cells = append(l.cells, wcell{i, 1, w.num(in), true})
		}
	}
	slices.SortFunc(l.cells, func(x, y wcell) int { return x.col - y.col })
	return l
}

// dayBalanceLine is the line after a day's rows that prints its balance.
func (w *world) dayBalanceLine(cols []tableCol, t wtxn) wline {
	desc := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "desc" })
	bal := slices.IndexFunc(cols, func(c tableCol) bool { return c.role == "balance" })
	return wline{cells: []wcell{{desc, 1, w.word("dayBalance", w.lx.DayBalance) + " " + w.fullDate(t.date), false}, {bal, 1, w.balanceText(t.balance), true}}, shade: true}
}

// scriptFaces are the faces that draw what a world face may lack: 年/月/日
// and full-width digits (IPAGothic, from Debian's fonts-ipafont-gothic)
// and Arabic-Indic digits (DejaVu Sans), for the producers that print
// from worldprint's JSON; fpdf draws them with its pen (worldfonts.go).
var scriptFaces = map[string]string{
	"cjk":    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
	"arabic": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
}

// scriptOf is the script face a cell's text needs, or "".
func scriptOf(s string) string {
	switch {
	case hasCJK(s):
		return "cjk"
	case strings.ContainsFunc(s, func(r rune) bool { return r >= 0x660 && r <= 0x669 }):
		return "arabic"
	}
	return ""
}
