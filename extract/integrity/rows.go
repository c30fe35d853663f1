package integrity

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"passbook/extract/ledger"
	"passbook/extract/source"

	"github.com/shopspring/decimal"
)

// Column roles of a row's figures.
const (
	roleIn = iota
	roleOut
	roleBalance
	nRoles
)

var roleNames = [nRoles]string{"money-in", "money-out", "balance"}

// cell is one printed figure of a row, found among the engine's words by
// its digits.
type cell struct {
	row  int
	page int
	text string
	box  [4]float64
	font *font // the font most of its figures are drawn in; nil when unknown
	// inCell counts the figures drawn in font inside the cell.
	inCell int
}

// rows signals what the reading's rows show: a balance break one changed
// figure explains, a row printed twice, a figure in a font or a place its
// column does not use, a page that does not fit its neighbours.
func (r *report) rows(in Input, content []pageContent, cells [nRoles][]cell) {
	res := in.Result
	if res == nil || len(res.Transactions) == 0 {
		return
	}
	recognised := map[int]bool{}
	for _, p := range in.Pages {
		if p.OCR {
			recognised[p.Number] = true
		}
	}
	r.oneFigure(res.Transactions, recognised, cells)
	r.duplicates(res.Transactions, cells)
	figures := map[*font]int{}
	for _, c := range content {
		for _, g := range c.glyphs {
			if isDigitText(g.text) {
				figures[g.font]++
			}
		}
	}
	group := sources(content)
	for role := range nRoles {
		r.fontOutliers(role, cells[role], figures)
		// Statements merged into one file each keep their own columns.
		byGroup := map[int][]cell{}
		for _, c := range cells[role] {
			byGroup[group(c.page)] = append(byGroup[group(c.page)], c)
		}
		for _, cs := range byGroup {
			r.misaligned(role, cs)
		}
	}
	r.pageFonts(res, content)
	r.pageBalance(in)
}

func digits(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	if n == len(s) || n == 0 {
		return s[:n]
	}
	b := make([]byte, 0, n)
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// amountDigits are an amount's digits as a statement prints them: two
// decimals, no sign; whole amounts also as printed without decimals.
func amountDigits(d decimal.Decimal) []string {
	s := d.Abs().StringFixed(2)
	out := []string{digits(s)}
	if strings.HasSuffix(s, ".00") {
		out = append(out, digits(strings.TrimSuffix(s, ".00")))
	}
	return out
}

// findCells finds each row's printed figures among the words of its box:
// the word (or up to three adjacent words, for figures grouped with
// spaces) whose digits are the figure's. The balance is taken from the
// right, amounts from the left of what is left.
func findCells(in Input, content []pageContent) [nRoles][]cell {
	var out [nRoles][]cell
	byPage := map[int]*source.Page{}
	wordIdx := map[int]*yIndex{}
	wordDigits := map[int][]string{} // each word's digits, by page
	for i := range in.Pages {
		pg := &in.Pages[i]
		byPage[pg.Number] = pg
		boxes := make([][4]float64, len(pg.Words))
		ds := make([]string, len(pg.Words))
		for k, w := range pg.Words {
			boxes[k] = [4]float64{w.X0, w.Y0, w.X1, w.Y1}
			ds[k] = digits(w.Text)
		}
		wordIdx[pg.Number] = newYIndex(boxes)
		wordDigits[pg.Number] = ds
	}
	digitIdx := make([]*yIndex, len(content))
	digitsOf := make([][]int, len(content)) // the figures' glyphs, by index
	for p, c := range content {
		boxes := make([][4]float64, 0, len(c.glyphs)/2)
		digitsOf[p] = make([]int, 0, len(c.glyphs)/2)
		for k := range c.glyphs {
			if isDigitText(c.glyphs[k].text) {
				digitsOf[p] = append(digitsOf[p], k)
				boxes = append(boxes, c.glyphs[k].box)
			}
		}
		digitIdx[p] = newYIndex(boxes)
	}
	var ws []source.Word
	var wd []string // the words' digits
	var used []bool
	var near, order []int
	var fonts []*font
	for i, t := range in.Result.Transactions {
		pg := byPage[t.Page]
		if pg == nil || t.Box == [4]float64{} {
			continue
		}
		ws, wd = ws[:0], wd[:0]
		near = wordIdx[t.Page].within(t.Box, 1, near[:0])
		for _, k := range near {
			ws = append(ws, pg.Words[k])
			wd = append(wd, wordDigits[t.Page][k])
		}
		used = append(used[:0], make([]bool, len(ws))...)
		find := func(d decimal.Decimal, fromRight bool) (cell, bool) {
			want := amountDigits(d)
			order = order[:0]
			for k := range ws {
				order = append(order, k)
			}
			if fromRight {
				slices.Reverse(order)
			}
			for _, k := range order {
				for n := 1; n <= 3 && k+n <= len(ws); n++ {
					if slices.Contains(used[k:k+n], true) {
						break
					}
					if wd[k] == "" {
						break
					}
					if !slices.Contains(want, strings.Join(wd[k:k+n], "")) {
						continue
					}
					text := ws[k].Text
					b := [4]float64{ws[k].X0, ws[k].Y0, ws[k].X1, ws[k].Y1}
					for _, w := range ws[k+1 : k+n] {
						text += " " + w.Text
						b = union(b, [4]float64{w.X0, w.Y0, w.X1, w.Y1})
					}
					for m := k; m < k+n; m++ {
						used[m] = true
					}
					c := cell{row: i, page: t.Page, text: text, box: b}
					if p := t.Page - 1; p < len(content) {
						fonts = fonts[:0]
						for _, k := range digitIdx[p].within(b, 0.5, near[:0]) {
							fonts = append(fonts, content[p].glyphs[digitsOf[p][k]].font)
						}
						c.font = mostOf(fonts)
						c.inCell = count(fonts, c.font)
					}
					return c, true
				}
			}
			return cell{}, false
		}
		if t.Provenance.BalancePrinted() {
			if c, ok := find(t.Balance, true); ok {
				out[roleBalance] = append(out[roleBalance], c)
			}
		}
		if t.AmountIn != nil {
			if c, ok := find(*t.AmountIn, false); ok {
				out[roleIn] = append(out[roleIn], c)
			}
		}
		if t.AmountOut != nil {
			if c, ok := find(*t.AmountOut, false); ok {
				out[roleOut] = append(out[roleOut], c)
			}
		}
	}
	return out
}

// mostOf is the font most of a cell's figures are drawn in.
func mostOf(fonts []*font) *font {
	var best *font
	most := 0
	for _, f := range fonts {
		if n := count(fonts, f); n > most {
			best, most = f, n
		}
	}
	return best
}

func count(fonts []*font, f *font) int {
	n := 0
	for _, g := range fonts {
		if g == f {
			n++
		}
	}
	return n
}

// yIndex finds, among boxes, those whose centre lies in a box, by their
// centres' heights: a page's words or glyphs are searched once per row,
// not all for every row.
type yIndex struct {
	boxes [][4]float64
	order []int // indexes of boxes by centre height
}

func newYIndex(boxes [][4]float64) *yIndex {
	x := &yIndex{boxes: boxes, order: make([]int, len(boxes))}
	for i := range x.order {
		x.order[i] = i
	}
	sort.Slice(x.order, func(i, j int) bool { return cy(boxes[x.order[i]]) < cy(boxes[x.order[j]]) })
	return x
}

func cy(b [4]float64) float64 { return (b[1] + b[3]) / 2 }

// within appends to out the indexes, in order, of the boxes whose centre
// lies in box grown by pad.
func (x *yIndex) within(box [4]float64, pad float64, out []int) []int {
	lo := sort.Search(len(x.order), func(i int) bool { return cy(x.boxes[x.order[i]]) >= box[1]-pad })
	for _, k := range x.order[lo:] {
		b := x.boxes[k]
		if cy(b) > box[3]+pad {
			break
		}
		if inside(b, box, pad) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// oneFigure finds balance breaks that one changed figure explains: the
// row's amount differs in one digit from the one its balances give, or
// its balance in one digit from the one its rows give (and the next row
// follows the rows, not the printed balance). Recognised pages are left
// out: one misread digit is what recognition does.
func (r *report) oneFigure(txs []ledger.Transaction, recognised map[int]bool, cells [nRoles][]cell) {
	breakOf := func(t ledger.Transaction) *ledger.Warning {
		for k := range t.Warnings {
			w := &t.Warnings[k]
			if w.Kind == ledger.WarnBalanceBreak && w.Printed != nil && w.Expected != nil {
				return w
			}
		}
		return nil
	}
	cellOf := func(role, row int) *[4]float64 {
		for _, c := range cells[role] {
			if c.row == row {
				b := c.box
				return &b
			}
		}
		return nil
	}
	skip := -1
	for i, t := range txs {
		w := breakOf(t)
		if w == nil || recognised[t.Page] || i == skip {
			continue
		}
		d := w.Printed.Sub(*w.Expected)
		var amt, implied decimal.Decimal
		role := roleIn
		if t.AmountIn != nil {
			amt, implied = *t.AmountIn, t.AmountIn.Add(d)
		} else if t.AmountOut != nil {
			amt, implied, role = *t.AmountOut, t.AmountOut.Sub(d), roleOut
		}
		box := cellOf(role, i)
		if box == nil {
			b := t.Box
			box = &b
		}
		if implied.IsPositive() && oneDigit(amt, implied) {
			r.add(CodeBalanceOneFigure, ledger.SeverityHigh, t.Page, box, "the row's amount %s differs in one figure from the %s its balances give", amt.StringFixed(2), implied.StringFixed(2))
			continue
		}
		if i+1 < len(txs) && oneDigit(*w.Printed, *w.Expected) {
			if n := breakOf(txs[i+1]); n != nil && n.Printed.Sub(*n.Expected).Equal(d.Neg()) {
				if b := cellOf(roleBalance, i); b != nil {
					box = b
				}
				skip = i + 1 // its break is this one's
				r.add(CodeBalanceOneFigure, ledger.SeverityHigh, t.Page, box, "the printed balance %s differs in one figure from the %s its rows give, and the next row follows the rows", w.Printed.StringFixed(2), w.Expected.StringFixed(2))
			}
		}
	}
}

// oneDigit reports two amounts printed with as many digits that differ in
// exactly one of them.
func oneDigit(a, b decimal.Decimal) bool {
	x, y := a.Abs().StringFixed(2), b.Abs().StringFixed(2)
	if len(x) != len(y) || x == y {
		return false
	}
	n := 0
	for i := range x {
		if x[i] != y[i] {
			n++
		}
	}
	return n == 1
}

// duplicates finds a row printed twice: the same date, words, amount and
// printed balance. Two equal purchases on one day are common; with the
// same balance after each, one of them was copied.
func (r *report) duplicates(txs []ledger.Transaction, cells [nRoles][]cell) {
	type key struct {
		date, desc, in, out, bal string
	}
	seen := map[key]int{}
	for i, t := range txs {
		if !t.Provenance.BalancePrinted() {
			continue
		}
		k := key{date: t.Date.Format("2006-01-02"), desc: t.Description, bal: t.Balance.StringFixed(2)}
		if t.AmountIn != nil {
			k.in = t.AmountIn.StringFixed(2)
		}
		if t.AmountOut != nil {
			k.out = t.AmountOut.StringFixed(2)
		}
		if j, ok := seen[k]; ok {
			b := t.Box
			r.add(CodeDuplicateRow, ledger.SeverityMedium, t.Page, &b, "the row %q of %s is printed twice with the same balance %s (rows %d and %d)", t.Description, k.date, k.bal, j+1, i+1)
			continue
		}
		seen[k] = i
	}
}

// fontOutliers finds a figure drawn in a font no other cell of its column
// uses, where the column's other figures agree on one. It is medium when
// the font draws no other figure in the whole file: typed in for that
// cell. A font that draws figures elsewhere (another weight for a total,
// a merged statement's own copy of the face) is low.
func (r *report) fontOutliers(role int, cs []cell, figures map[*font]int) {
	byFont := map[*font]int{}
	n := 0
	for _, c := range cs {
		if c.font != nil {
			byFont[c.font]++
			n++
		}
	}
	var major *font
	for f, k := range byFont {
		if major == nil || k > byFont[major] || (k == byFont[major] && f.id < major.id) {
			major = f
		}
	}
	if major == nil || byFont[major] < n-1 || byFont[major] < 2 {
		return // the column has no one font, or more than one figure differs
	}
	for _, c := range cs {
		if c.font == nil || c.font == major || byFont[c.font] != 1 {
			continue
		}
		what := fmt.Sprintf("font %s", c.font.base)
		if c.font.base == major.base {
			what = fmt.Sprintf("a second copy (subset) of font %s", c.font.base)
		}
		sev, why := ledger.SeverityMedium, "; that font draws no other figure in the file"
		if elsewhere := figures[c.font] - c.inCell; elsewhere > 0 || family(c.font.base) == family(major.base) && c.font.base != major.base {
			sev, why = ledger.SeverityLow, ""
			if byFont[major] < 5 {
				continue
			}
		}
		b := c.box
		r.add(CodeFontOutlier, sev, c.page, &b, "the %s figure %q is drawn in %s; the column's other %d figures in %s%s", roleNames[role], c.text, what, byFont[major], major.base, why)
	}
}

// misaligned finds a figure off its column's edge: figures of a column
// line up on their right edge (or left) to a fraction of a point when one
// program set them; one off by a point or more was moved.
func (r *report) misaligned(role int, cs []cell) {
	if len(cs) < 5 {
		return
	}
	// A column is set flush on its right edge (figures) or its left; the
	// right is tried first, and the left only when the right is ragged.
	for _, edge := range []int{2, 0} {
		xs := make([]float64, len(cs))
		for i, c := range cs {
			xs[i] = c.box[edge]
		}
		sorted := slices.Clone(xs)
		sort.Float64s(sorted)
		med := sorted[len(sorted)/2]
		on, off := 0, []int{}
		for i, x := range xs {
			switch d := abs(x - med); {
			case d <= 0.3:
				on++
			case d >= 0.8 && d <= 12:
				off = append(off, i)
			}
		}
		if on == len(cs) {
			return // flush on this edge
		}
		if on < len(cs)-1 || len(off) != 1 || on < 4 {
			continue
		}
		c := cs[off[0]]
		b := c.box
		side := map[int]string{0: "left", 2: "right"}[edge]
		r.add(CodeMisaligned, ledger.SeverityMedium, c.page, &b, "the %s figure %q sits %.1f pt off the %s edge its column's other %d figures share", roleNames[role], c.text, xs[off[0]]-med, side, on)
		return
	}
}

// pageFonts finds a page of rows drawn in other copies of the faces its
// neighbours share (the same fonts, other font objects): a page taken from
// another file of the same bank. It is medium when the pages on both sides
// share their fonts and the running balance breaks on the page or on the
// page after it; otherwise (the first or last page, as when statements are
// merged, each whole) low.
func (r *report) pageFonts(res *ledger.Result, content []pageContent) {
	if len(content) < 2 {
		return
	}
	hasRows, breaks := map[int]bool{}, map[int]bool{}
	for _, t := range res.Transactions {
		hasRows[t.Page] = true
		for _, w := range t.Warnings {
			if w.Kind == ledger.WarnBalanceBreak {
				breaks[t.Page] = true
			}
		}
	}
	sets := make([]map[*font]bool, len(content))
	for i, c := range content {
		sets[i] = map[*font]bool{}
		for _, g := range c.glyphs {
			if g.font.base != "" {
				sets[i][g.font] = true
			}
		}
	}
	shares := func(a, b map[*font]bool) bool {
		for f := range a {
			if b[f] {
				return true
			}
		}
		return false
	}
	sameFaces := func(a, b map[*font]bool) bool {
		for f := range a {
			for g := range b {
				if f.base == g.base {
					return true
				}
			}
		}
		return false
	}
	for i := range content {
		if !hasRows[i+1] || len(sets[i]) == 0 {
			continue
		}
		own, faces := true, false
		for j := range content {
			if j != i && shares(sets[i], sets[j]) {
				own = false
			}
			if j != i && sameFaces(sets[i], sets[j]) {
				faces = true
			}
		}
		if !own || !faces {
			continue
		}
		// At either end the page may be a whole statement merged in: the
		// reading breaks the running balance there too (the corpus's
		// statements merged with qpdf), so only a page between two that
		// share their fonts is medium.
		sev, why := ledger.SeverityLow, "it may be another statement merged in"
		if i > 0 && i+1 < len(content) && shares(sets[i-1], sets[i+1]) && (breaks[i+1] || breaks[i+2]) {
			sev, why = ledger.SeverityMedium, "the pages on both sides share theirs, and the running balance breaks here: it was taken from another file"
		}
		r.add(CodePageMisfit, sev, i+1, nil, "the page's fonts are other copies of the faces the other pages use; %s", why)
	}
}

// sources groups pages by the font objects they share: pages of one file
// share them, and a file merged from several has a group for each (a
// page with no text is a group of its own). It returns a page's group.
func sources(content []pageContent) func(page int) int {
	parent := make([]int, len(content))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := map[*font]int{}
	for i, c := range content {
		for _, g := range c.glyphs {
			if j, ok := first[g.font]; ok {
				parent[find(i)] = find(j)
			} else {
				first[g.font] = i
			}
		}
	}
	return func(page int) int {
		if page < 1 || page > len(content) {
			return -1
		}
		return find(page - 1)
	}
}

// family is a font's face without its weight or style and the
// foundries' suffixes: "Arial" of "ArialMT" and "Arial-BoldMT".
func family(base string) string {
	if i := strings.IndexAny(base, "-,"); i > 0 {
		base = base[:i]
	}
	for _, suf := range []string{"PSMT", "MT", "PS"} {
		base = strings.TrimSuffix(base, suf)
	}
	return strings.ToLower(base)
}

// pageBalance finds a page whose brought-forward balance does not fit
// the page before it: the running balance breaks at the page's first row,
// and again at the next page's first row when one follows, while every
// other row of the statement follows its balance. A statement merged in
// whole breaks the balance where it begins too, but it begins with a
// first page of its own: a page that repeats little of the first page's
// words outside the rows (a continuation page) was taken from another
// statement, and is medium.
func (r *report) pageBalance(in Input) {
	res := in.Result
	txs := res.Transactions
	if len(res.Statement.Accounts) > 0 || len(txs) < 2 {
		return
	}
	var starts []int // pages the balance breaks into at their first row
	for i, t := range txs {
		broken := false
		for _, w := range t.Warnings {
			if w.Kind == ledger.WarnBalanceBreak {
				broken = true
			}
		}
		if !broken {
			continue
		}
		if i == 0 || txs[i-1].Page == t.Page || txs[i-1].Page != t.Page-1 {
			return // a break inside a page, or across a page with no rows: the reading's own trouble
		}
		starts = append(starts, t.Page)
	}
	last := txs[len(txs)-1].Page
	var p int
	switch {
	case len(starts) == 1 && starts[0] == last:
		p = starts[0] // the last page
	case len(starts) == 2 && starts[1] == starts[0]+1:
		p = starts[0] // a page between two that follow each other
	default:
		return
	}
	if p < 2 || p > len(in.Pages) {
		return
	}
	if sim := headerShare(in, 1, p); sim >= 0.6 {
		return // the page begins a statement of its own: merged in whole
	}
	// The page's fonts may have said so already, or said less.
	for k := 0; k < len(r.signals); k++ {
		if s := r.signals[k]; s.Code == CodePageMisfit && s.Page == p {
			if s.Severity == ledger.SeverityMedium {
				return
			}
			r.signals = slices.Delete(r.signals, k, k+1)
			k--
		}
	}
	next := "it is the last page"
	if p < last {
		next = "the page after it does not follow it either"
	}
	r.add(CodePageMisfit, ledger.SeverityMedium, p, nil, "the balance the page brings forward is not the one page %d carried, and %s, while every other row follows; the page does not begin a statement of its own: it was taken from another statement", p-1, next)
}

// headerShare is the share of page a's words outside the rows (its
// header, summary and footer: words of letters only) that page b prints
// too. A statement's first page and another statement's first page share
// most; a continuation page repeats few.
func headerShare(in Input, a, b int) float64 {
	words := func(p int) map[string]bool {
		out := map[string]bool{}
		for _, w := range in.Pages[p-1].Words {
			inRow := false
			for _, t := range in.Result.Transactions {
				if t.Page == p && inside([4]float64{w.X0, w.Y0, w.X1, w.Y1}, t.Box, 0.5) {
					inRow = true
					break
				}
			}
			if inRow {
				continue
			}
			n, letters := 0, true
			for _, c := range w.Text {
				n++
				letters = letters && unicode.IsLetter(c)
			}
			if letters && n >= 3 {
				out[strings.ToLower(w.Text)] = true
			}
		}
		return out
	}
	wa, wb := words(a), words(b)
	if len(wa) == 0 {
		return 1 // nothing to tell by: taken as a statement's own
	}
	n := 0
	for w := range wa {
		if wb[w] {
			n++
		}
	}
	return float64(n) / float64(len(wa))
}
