package redact

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"passbook/extract/cells"
	"passbook/extract/layout"
	"passbook/extract/ledger"
	"passbook/extract/lexicon"
	"passbook/extract/source"
)

// A plan decides, from the engine's reading of the original, what each
// glyph becomes: kept (dates, headings, the lexicon's words, the bank's
// name), replaced letter for letter (every other word), or redrawn as a
// figure times the copy's factor.

// edit is what one glyph becomes.
type edit struct {
	with   []byte  // the codes drawn instead; nil: the glyph's own
	drop   bool    // the glyph is drawn by another's edit
	r      rune    // what a replaced letter or digit reads as
	before float64 // a TJ adjustment before it, thousandths of text space
	after  float64 // a TJ adjustment after it
	// sub, when set, draws with another font of the stream's resources:
	// the glyph's own font (a subset) lacks a digit the figure needs.
	sub  *subFont
	fres string  // with sub: the glyph's own font, to go back to
	size float64 // and its size
	// subSize is the size the borrowed font draws at, rise how far its
	// baseline is raised (text space), to give the figure its box.
	subSize, rise float64
}

// subFont is a font a figure borrows, by its resource name.
type subFont struct {
	name string
	f    *font
	std  bool // a standard font the copy added (stdfont.go)
}

// editKey names a glyph in its stream, however often the stream is drawn.
type editKey struct {
	s            *stream
	op, item, at int
}

func keyOf(g *glyph) editKey { return editKey{g.s, g.op, g.item, g.c.at} }

// planner holds what a plan is made from.
type planner struct {
	pages   []source.Page
	res     *ledger.Result
	factor  decimal.Decimal
	rnd     *rand.Rand
	glyphs  []*glyph
	edits   map[editKey]edit
	keep    map[string]bool // folded words kept as printed
	heads   map[string]bool // the lexicon's words a compound may end with
	alpha   map[*font]map[string][]alt
	byRune  map[*font]map[rune]uint32
	want    []ledger.Transaction // the rows the copy must read
	figures map[*glyph]bool      // glyphs drawn as a figure
	// personal are the original's words the copy replaces: none may
	// remain in it.
	personal []string
	groupSep rune
	named    map[string]decimal.Decimal // the copy's figures outside the rows
	fc       *fontCache                 // the document's fonts, for a figure's borrowed one
	shift    *dateShift                 // nil: dates stay
	resAdded map[*stream]bool           // streams whose resources gained a standard font
	minor    int                        // the places the statement's money prints
	mark     rune                       // its decimal mark
	images   bool                       // the pages are recognised (images.go)
}

// alt is a code a font can draw in place of another of its class.
type alt struct {
	v uint32
	r rune
	w float64
}

// class is what a replacement keeps of a character: a digit stays a
// digit, a letter a letter of its script and case.
func class(r rune) string {
	switch {
	case unicode.IsDigit(r):
		return "digit"
	case unicode.IsLetter(r):
		cs := "other"
		if unicode.IsUpper(r) {
			cs = "upper"
		} else if unicode.IsLower(r) {
			cs = "lower"
		}
		if r < 0x80 {
			// An unaccented letter stays unaccented: the words' language
			// is guessed from their letters too.
			return "ascii/" + cs
		}
		for name, t := range unicode.Scripts {
			if unicode.Is(t, r) {
				return name + "/" + cs
			}
		}
		return "letter/" + cs
	}
	return ""
}

// keptWords are the words a statement's structure is read from: every
// word of the lexicon's phrases in every language and month names
// (keep), the bank's name's words; and, apart, the lexicon's words that
// may end a compound (heads).
func keptWords(bank string) (keep, heads map[string]bool) {
	keep, heads = map[string]bool{}, map[string]bool{}
	add := func(phrases []string) {
		for _, p := range phrases {
			for _, w := range strings.Fields(lexicon.FoldLabel(p)) {
				keep[w] = true
				if len(w) >= compoundPart {
					heads[w] = true
				}
			}
		}
	}
	v := lexicon.Vocab()
	for _, rp := range v.Headings {
		add(rp.Phrases)
	}
	for _, ps := range [][]string{v.SectionIn, v.SectionOut, v.SectionTitles, v.BalanceTitles, v.Opening, v.Closing, v.Totals, v.Stats,
		v.TotalIn, v.TotalOut, v.Account, v.Period, v.Currency, v.Posting, v.Card, v.IndicatorOut, v.IndicatorIn} {
		add(ps)
	}
	for m := range cells.MonthNames() {
		keep[strings.TrimSpace(lexicon.FoldLabel(m))] = true
	}
	for _, w := range strings.Fields(lexicon.FoldLabel(bank)) {
		keep[w] = true
	}
	return keep, heads
}

// keepWord reports a word printed as it is: one the reading may rely on,
// or a small whole number (a page number, a year).
func (p *planner) keepWord(s string) bool {
	if ok, wide := cells.Weekday(s); ok && wide {
		return true // a date's weekday ("quinta-feira")
	}
	f := strings.Fields(lexicon.FoldLabel(s))
	if len(f) == 0 {
		return true // punctuation only
	}
	for _, w := range f {
		if layout.AllDigits(w) {
			if len(w) <= 2 || len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) {
				continue
			}
			return false
		}
		if !p.keep[w] && !cells.CurrencyCode(strings.ToUpper(w)) && !p.compound(w) {
			return false
		}
	}
	return true
}

// compoundPart is the shortest lexicon word a compound is kept for.
const compoundPart = 5

// compound reports a word that ends with a word of the lexicon's phrases
// of five letters or more: a German compound the reading knows by its
// head ("Umsatztotal", "Schlusssaldo"). Month names do not count
// ("Marchbanks" is a name). A holder's name kept this way is still
// looked for by the check, which then refuses the copy.
func (p *planner) compound(w string) bool {
	for i := 1; i <= len(w)-compoundPart; i++ {
		if p.heads[w[i:]] {
			return true
		}
	}
	return false
}

// wordRef is a word of the engine's reading on its page.
type wordRef struct {
	page int
	w    source.Word
}

// plan decides every glyph's edit.
func (p *planner) plan() error {
	p.edits = map[editKey]edit{}
	p.figures = map[*glyph]bool{}
	p.buildAlphabets()
	// Each word's glyphs, found by where they are drawn.
	gp := &glyphPlan{p: p, byWord: p.matchWords()}
	values, inFigure, err := p.classify(gp)
	if err != nil {
		return err
	}
	// Each personal word is replaced the same way wherever it is printed:
	// an account number in every page's header stays one account.
	p.replaceWords(gp.replaced)
	p.personal = slices.DeleteFunc(p.personal, func(w string) bool { return inFigure[w] })
	// Every other glyph neither kept nor redrawn as a figure is replaced.
	for _, g := range p.glyphs {
		if p.figures[g] || g.kept {
			continue
		}
		p.scramble(g)
	}
	p.want, p.named = values.rows, values.named
	return nil
}

// wordPlan is what a copy does with the reading's words, as classify
// sorts them: the text copy edits their glyphs (glyphPlan), the image
// copy paints over their boxes (imagePlan).
type wordPlan interface {
	// kept: words printed as they are (headings, the lexicon's words,
	// the bank's name, small whole numbers).
	kept(pi int, ws []source.Word)
	// date: a date's words.
	date(pi int, t layout.Token, ws []source.Word) error
	// figure: an amount or balance's words, to be printed as nv.
	figure(pi int, t layout.Token, ws []source.Word, nv decimal.Decimal) error
	// replace: a personal word (a description's, a name, an address, a
	// number), replaced letter for letter, digit for digit.
	replace(pi int, w source.Word)
}

// classify sorts every word of the reading into kept, date, figure or
// personal (listed in p.personal) and hands each to wp; it returns the
// copy's figures and the words that are part of a date or a figure
// somewhere (no client's words elsewhere).
func (p *planner) classify(wp wordPlan) (*values, map[string]bool, error) {
	var texts []string
	for _, pg := range p.pages {
		for _, w := range pg.Words {
			texts = append(texts, w.Text)
		}
	}
	decimalComma := cells.GuessDecimalComma(texts)
	values := p.figureValues()
	p.minor, p.mark = int(values.dec), '.'
	if decimalComma {
		p.mark = ','
	}
	if p.shift != nil {
		p.shift.order = p.dateOrder(decimalComma)
		st := p.res.Statement
		p.shift.period = [2]*time.Time{st.PeriodStart, st.PeriodEnd}
		if st.PeriodStart == nil || st.PeriodEnd == nil {
			// A date without its year ("31 Jan", "10/12") takes it from
			// the rows' dates when the statement prints no period.
			for i := range p.res.Transactions {
				d := p.res.Transactions[i].Date
				if p.shift.period[0] == nil || d.Before(*p.shift.period[0]) {
					p.shift.period[0] = &d
				}
				if p.shift.period[1] == nil || d.After(*p.shift.period[1]) {
					p.shift.period[1] = &d
				}
			}
		}
		for i := range values.rows {
			values.rows[i].Date = values.rows[i].Date.AddDate(0, 0, p.shift.days)
		}
	}
	// words keeps or replaces each of a page's words, as printed.
	var pi int
	words := func(ws []source.Word) {
		for _, w := range ws {
			// A word recognised at low confidence is kept only when it
			// reads as a word of the lexicon (the reading relies on it);
			// a mark or small number read in doubt may be a misread name.
			doubt := p.doubtful(w) && strings.IndexFunc(w.Text, unicode.IsLetter) < 0
			if p.keepWord(w.Text) && !doubt {
				wp.kept(pi, []source.Word{w})
			} else if strings.IndexFunc(w.Text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 || doubt {
				p.personal = append(p.personal, w.Text)
				wp.replace(pi, w)
			}
		}
	}
	inFigure := map[string]bool{}
	for i, pg := range p.pages {
		pi = i
		for _, l := range layout.GroupLines(pg, pi) {
			layout.Tokenize(l, decimalComma)
			for _, t := range l.Toks {
				var ws []source.Word
				for _, w := range l.Words {
					if c := (w.X0 + w.X1) / 2; c >= t.X0-0.01 && c <= t.X1+0.01 {
						ws = append(ws, w)
					}
				}
				if t.Kind == layout.TokAmount && p.notMoney(values, pi, t) {
					t.Kind = layout.TokText
				}
				if t.Kind == layout.TokDate || t.Kind == layout.TokAmount {
					// A date's or a figure's words are printed as they are
					// (a figure's digits aside): a word that is one of them
					// here is no client's word elsewhere ("BGC 4,016.63").
					for _, w := range ws {
						inFigure[w.Text] = true
					}
				}
				switch {
				case t.Kind == layout.TokDate:
					if err := wp.date(pi, t, ws); err != nil {
						return nil, nil, err
					}
				case t.Kind == layout.TokAmount || t.Bare && values.isFigure(pi, t):
					if err := wp.figure(pi, t, ws, values.of(pi, l, t)); err != nil {
						return nil, nil, err
					}
				default:
					words(ws)
				}
			}
			// Words no token holds: those the tokenizer folded into a
			// date ("quinta-feira" before or after it, "d." after it).
			var rest []source.Word
			for _, w := range l.Words {
				c := (w.X0 + w.X1) / 2
				if !slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return c >= t.X0-0.01 && c <= t.X1+0.01 }) {
					rest = append(rest, w)
				}
			}
			words(rest)
		}
	}
	return values, inFigure, nil
}

// doubtfulConf is the recognition confidence below which a recognised
// word is not trusted to be what it reads as: a name or a number misread
// as a heading's word or as punctuation.
const doubtfulConf = source.LowConf

// doubtful reports a recognised word read at low confidence: replaced
// (or, with no letter or digit, painted over) whatever it reads as.
func (p *planner) doubtful(w source.Word) bool {
	return p.images && w.Conf > 0 && w.Conf < doubtfulConf
}

// glyphPlan is a text copy's plan: each word's glyphs, edited.
type glyphPlan struct {
	p        *planner
	byWord   map[wordRef][]*glyph
	replaced [][]*glyph // each personal word's glyphs
}

func (g *glyphPlan) kept(pi int, ws []source.Word) { g.p.markKept(g.p.glyphsOf(g.byWord, pi, ws)) }

func (g *glyphPlan) date(pi int, t layout.Token, ws []source.Word) error {
	gl := g.p.glyphsOf(g.byWord, pi, ws)
	if g.p.shift != nil {
		return g.p.shiftDate(pi, t, gl)
	}
	g.p.markKept(gl)
	return nil
}

func (g *glyphPlan) figure(pi int, t layout.Token, ws []source.Word, nv decimal.Decimal) error {
	return g.p.figure(pi, t, g.p.glyphsOf(g.byWord, pi, ws), nv)
}

func (g *glyphPlan) replace(pi int, w source.Word) {
	g.replaced = append(g.replaced, g.p.glyphsOf(g.byWord, pi, []source.Word{w}))
}

// notMoney reports a whole number that reads as an amount
// ("914 510" of an account number grouped by spaces) in a statement
// whose money prints its minor unit, and that the reading took for no
// figure: it is a number like any other, its digits replaced, not
// scaled (scaling would change its length, and two account numbers
// that share their first digits might no longer share them).
func (p *planner) notMoney(v *values, pi int, t layout.Token) bool {
	return v.dec > 0 && t.Amount.Exponent() >= 0 && !v.isFigure(pi, t)
}

// dateOrder is the order the document's numeric dates read in, from
// all its dates, as the reading decides it.
func (p *planner) dateOrder(decimalComma bool) cells.DateOrder {
	var toks []cells.DateToken
	for pi, pg := range p.pages {
		for _, l := range layout.GroupLines(pg, pi) {
			layout.Tokenize(l, decimalComma)
			for _, t := range l.Toks {
				if t.Date != nil {
					toks = append(toks, *t.Date)
					if t.Date.Named && p.shift != nil {
						p.shift.noteMonthWords(t.Text)
					}
				}
			}
		}
	}
	return cells.GuessDateOrder(toks)
}

func (p *planner) markKept(gl []*glyph) {
	for _, g := range gl {
		g.kept = true
	}
}

// buildAlphabets lists, for each font, the codes of each class it draws.
func (p *planner) buildAlphabets() {
	p.alpha = map[*font]map[string][]alt{}
	p.byRune = map[*font]map[rune]uint32{}
	seen := map[*font]map[uint32]bool{}
	add := func(f *font, v uint32, r rune) {
		if seen[f] == nil {
			seen[f] = map[uint32]bool{}
			p.alpha[f] = map[string][]alt{}
			p.byRune[f] = map[rune]uint32{}
		}
		if seen[f][v] || r == 0 {
			return
		}
		seen[f][v] = true
		if _, ok := p.byRune[f][r]; !ok {
			p.byRune[f][r] = v
		}
		if c := class(r); c != "" {
			p.alpha[f][c] = append(p.alpha[f][c], alt{v: v, r: r, w: f.width(v)})
		}
	}
	for _, g := range p.glyphs {
		add(g.f, g.c.v, g.r)
	}
	// A font that is not embedded draws every code its encoding names.
	for f := range seen {
		if f.embedded || !f.simple {
			continue
		}
		for v, r := range f.uni {
			add(f, v, r)
		}
	}
	for _, m := range p.alpha {
		for _, as := range m {
			slices.SortFunc(as, func(a, b alt) int { return int(a.v) - int(b.v) })
		}
	}
}

// matchWords finds the engine's word each glyph was read into, and
// lists each word's glyphs in the order they are drawn.
func (p *planner) matchWords() map[wordRef][]*glyph {
	type cell struct{ page, y int }
	grid := map[cell][]wordRef{}
	for pi, pg := range p.pages {
		for _, w := range pg.Words {
			for y := int(w.Y0) / 8; y <= int(w.Y1)/8; y++ {
				grid[cell{pi, y}] = append(grid[cell{pi, y}], wordRef{pi, w})
			}
		}
	}
	out := map[wordRef][]*glyph{}
	for _, g := range p.glyphs {
		best, bestD := -1, 0.0
		cands := grid[cell{g.page, int(g.y) / 8}]
		for i, wr := range cands {
			w := wr.w
			if g.y < w.Y0-1 || g.y > w.Y1+1 || g.x < w.X0-1 || g.x > w.X1+1 {
				continue
			}
			d := math.Abs((w.Y0+w.Y1)/2 - g.y)
			if g.r != 0 && !strings.ContainsRune(w.Text, g.r) {
				d += 100
			}
			if best < 0 || d < bestD {
				best, bestD = i, d
			}
		}
		if best >= 0 {
			out[cands[best]] = append(out[cands[best]], g)
		}
	}
	return out
}

// glyphsOf are the glyphs drawn as the words ws of page pi, in the
// order they are drawn.
func (p *planner) glyphsOf(byWord map[wordRef][]*glyph, pi int, ws []source.Word) []*glyph {
	var out []*glyph
	for _, w := range ws {
		out = append(out, byWord[wordRef{pi, w}]...)
	}
	slices.SortFunc(out, func(a, b *glyph) int { return a.idx - b.idx })
	return out
}

// scramble replaces a letter or digit by another of its class that the
// glyph's font draws, of the nearest width, and puts the pen back where
// the original left it.
func (p *planner) scramble(g *glyph) { p.scrambleIn(g, nil) }

// scrambleIn is scramble with a character every font of fonts draws,
// where there is one.
func (p *planner) scrambleIn(g *glyph, fonts map[*font]bool) {
	k := keyOf(g)
	if _, done := p.edits[k]; done {
		return
	}
	c := class(g.r)
	if c == "" {
		return
	}
	common := func(r rune) bool {
		for f := range fonts {
			if _, ok := p.byRune[f][r]; !ok {
				return false
			}
		}
		return true
	}
	restrict := slices.ContainsFunc(p.alpha[g.f][c], func(a alt) bool { return a.r != g.r && common(a.r) })
	var best []alt
	bestD := -1.0
	for _, a := range p.alpha[g.f][c] {
		if a.r == g.r || restrict && !common(a.r) {
			continue
		}
		d := math.Abs(a.w - g.w)
		switch {
		case bestD < 0 || d < bestD-0.01:
			best, bestD = []alt{a}, d
		case d <= bestD+0.01:
			best = append(best, a)
		}
	}
	if len(best) == 0 {
		return // the check finds what could not be replaced
	}
	a := best[p.rnd.IntN(len(best))]
	p.edits[k] = edit{with: g.f.encode(g.c, a.v), after: a.w - g.w, r: a.r}
}

// replacedAs is what a replaced word reads as in the copy.
func (p *planner) replacedAs(gl []*glyph) string {
	var b strings.Builder
	for _, g := range gl {
		if e, ok := p.edits[keyOf(g)]; ok && e.r != 0 {
			b.WriteRune(e.r)
		} else if g.r != 0 {
			b.WriteRune(g.r)
		}
	}
	return b.String()
}

// redrawTries bounds the draws of a word's replacement that happened to
// print one of the original's personal words.
const redrawTries = 20

// replaceWords replaces each personal word, the same word by the same
// replacement wherever the fonts allow, and never by one of the
// original's personal words (a reference replaced by another reference
// the statement prints).
func (p *planner) replaceWords(words [][]*glyph) {
	personal := map[string]bool{}
	for _, w := range p.personal {
		personal[strings.ToLower(w)] = true
	}
	// A word is known by its letters and digits: a space or a mark drawn
	// beside it in one place and not another is no other word.
	keyOf := func(gl []*glyph) string {
		var orig []rune
		for _, g := range gl {
			if class(g.r) != "" {
				orig = append(orig, g.r)
			}
		}
		return string(orig)
	}
	// The fonts each character of a word is drawn with, wherever the word
	// is printed (an account number in a bold heading and in a line of
	// text): its replacement takes characters all of them draw, so that
	// it is the same everywhere.
	fontsAt := map[string][]map[*font]bool{}
	letters := func(gl []*glyph) []*glyph {
		return slices.DeleteFunc(slices.Clone(gl), func(g *glyph) bool { return class(g.r) == "" })
	}
	for _, gl := range words {
		k, ls := keyOf(gl), letters(gl)
		if fontsAt[k] == nil {
			fontsAt[k] = make([]map[*font]bool, len(ls))
		}
		for i, g := range ls {
			if fontsAt[k][i] == nil {
				fontsAt[k][i] = map[*font]bool{}
			}
			fontsAt[k][i][g.f] = true
		}
	}
	memo := map[string]string{}
	for _, gl := range words {
		key := keyOf(gl)
		if m, ok := memo[key]; ok && p.drawAs(gl, []rune(m)) {
			continue
		}
		ls := letters(gl)
		for try := 0; try < redrawTries; try++ {
			for i, g := range ls {
				delete(p.edits, editKey{g.s, g.op, g.item, g.c.at})
				var in map[*font]bool
				if fs := fontsAt[key]; len(fs[i]) > 1 {
					in = fs[i]
				}
				p.scrambleIn(g, in)
			}
			if !personal[strings.ToLower(p.replacedAs(gl))] {
				break
			}
		}
		memo[key] = p.replacedAs(ls)
	}
}

// drawAs draws a word's glyphs as the characters rs, when every glyph's
// font has its replacement.
func (p *planner) drawAs(gl []*glyph, rs []rune) bool {
	gl = slices.DeleteFunc(slices.Clone(gl), func(g *glyph) bool { return class(g.r) == "" })
	if len(rs) != len(gl) {
		return false
	}
	es := make([]edit, len(gl))
	for i, g := range gl {
		if rs[i] == g.r {
			continue
		}
		v, ok := p.byRune[g.f][rs[i]]
		if !ok {
			return false
		}
		w := g.f.width(v)
		es[i] = edit{with: g.f.encode(g.c, v), after: w - g.w, r: rs[i]}
	}
	for i, g := range gl {
		if es[i].r != 0 {
			p.edits[keyOf(g)] = es[i]
		}
	}
	return true
}

// figure redraws an amount token as its new value, in the token's own
// style, its right edge where it was.
func (p *planner) figure(pi int, t layout.Token, gl []*glyph, nv decimal.Decimal) error {
	var span []*glyph
	first, last := -1, -1
	for i, g := range gl {
		if unicode.IsDigit(g.r) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil
	}
	// The figure's glyphs run from its first digit to its last in the
	// order they are drawn, a space that groups its thousands with them
	// (no word holds a space).
	span = p.glyphs[gl[first].idx : gl[last].idx+1]
	pieces := false
	for _, g := range span {
		if g.s != span[0].s || g.op != span[0].op || g.item != span[0].item {
			pieces = true
		}
	}
	var old []rune
	for _, g := range span {
		old = append(old, g.r)
	}
	oldDec := 0
	if e := t.Amount.Exponent(); e < 0 {
		oldDec = int(-e)
	}
	// A figure printed with fewer places than the statement's money
	// ("1935.3", "13" among "100.63"), its zeros left off, keeps its
	// places where the new value fits them, and otherwise prints the
	// statement's.
	dec := oldDec
	if dec < p.minor && !nv.Equal(nv.Round(int32(dec))) {
		dec = p.minor
	}
	f := span[0].f
	sep := p.groupSep
	if _, ok := p.byRune[f][sep]; !ok {
		sep = 0
	}
	text := formatLike(string(old), nv.Abs(), oldDec, dec, sep, p.mark)
	var sub *subFont
	if !p.draws(f, text) {
		if sub = p.substitute(span[0], text); sub == nil {
			r := []rune(text)[slices.IndexFunc([]rune(text), func(r rune) bool { _, ok := p.byRune[f][r]; return !ok })]
			return &fontError{fmt.Sprintf("page %d: the font %s has no %q to draw the figure %q times the factor, and no other font of the page has all it needs", pi+1, f.name, r, t.Text)}
		}
		f = sub.f
	}
	var with []byte
	var newW, oldW float64
	for _, r := range text {
		v := p.byRune[f][r]
		with = append(with, f.encode(code{len: p.codeLen(f)}, v)...)
		newW += f.width(v)
	}
	for _, g := range span {
		oldW += g.w
	}
	if sub != nil {
		return p.figureBorrowed(span, gl, with, newW, sub, t)
	}
	if pieces {
		return p.figureInPieces(span, gl, []rune(text))
	}
	// Char spacing moves the pen after every glyph: a figure of another
	// length moves by it too.
	g0 := span[0]
	dn := len([]rune(text)) - len(span)
	if g0.size != 0 {
		newW += float64(dn) * g0.tc * 1000 / g0.size
	}
	// The whole token moves by the difference, its sign and currency
	// with it, when they are drawn in the same string.
	shiftAt := span[0]
	if h := gl[0]; h.s == g0.s && h.op == g0.op && h.item == g0.item {
		shiftAt = h
	}
	for i, g := range span {
		k := keyOf(g)
		if e, done := p.edits[k]; done && (i > 0 || string(e.with) != string(with)) {
			return fmt.Errorf("page %d: the figure %q is drawn more than once with other values", pi+1, t.Text)
		}
		if i == 0 {
			p.edits[k] = edit{with: with}
		} else {
			p.edits[k] = edit{drop: true}
		}
	}
	e := p.edits[keyOf(shiftAt)]
	e.before = newW - oldW
	p.edits[keyOf(shiftAt)] = e
	p.moveSign(gl, g0, newW-oldW)
	for _, g := range gl {
		p.figures[g] = true
	}
	return nil
}

// moveSign moves a figure's sign or currency, drawn by an operation of
// its own before the digits, by as much as the digits grew (d, in
// thousandths of g0's text space), so that it stays beside them.
func (p *planner) moveSign(gl []*glyph, g0 *glyph, d float64) {
	if d == 0 {
		return
	}
	for _, g := range gl {
		if g.idx >= g0.idx {
			break
		}
		if g.s == g0.s && g.op == g0.op && g.item == g0.item || g.size == 0 {
			continue
		}
		k := keyOf(g)
		if _, done := p.edits[k]; done {
			continue
		}
		m := d * g0.size / g.size
		p.edits[k] = edit{before: m, after: -m}
	}
}

// draws reports a text every character of which font f draws.
func (p *planner) draws(f *font, text string) bool {
	for _, r := range text {
		if _, ok := p.byRune[f][r]; !ok {
			return false
		}
	}
	return true
}

// codeLen is how many bytes a code of f takes.
func (p *planner) codeLen(f *font) int {
	if f.simple {
		return 1
	}
	return 2
}

// substitute finds, among the fonts of the resources g's stream draws
// with, one that draws all of text, of g's family if one does.
func (p *planner) substitute(g *glyph, text string) *subFont {
	if p.fc == nil {
		return nil
	}
	fonts, _ := p.fc.ctx.DereferenceDict(g.s.res["Font"])
	family := func(n string) string {
		if i := strings.IndexByte(n, '+'); i >= 0 {
			n = n[i+1:]
		}
		n, _, _ = strings.Cut(n, "-")
		n, _, _ = strings.Cut(n, ",")
		return n
	}
	var best *subFont
	names := slices.Sorted(maps.Keys(fonts))
	for _, name := range names {
		f, err := p.fc.load(g.s.res, name)
		if err != nil || f == g.f || f.err != nil || !f.simple && len(f.ranges) > 0 {
			continue
		}
		p.alphabetOf(f)
		if !p.draws(f, text) {
			continue
		}
		if best == nil || family(f.name) == family(g.f.name) && family(best.f.name) != family(g.f.name) {
			best = &subFont{name: name, f: f, std: strings.HasPrefix(name, stdFontName)}
		}
	}
	if best == nil {
		best = p.standardFont(g, text)
	}
	return best
}

// alphabetOf adds to the alphabets a font no glyph was seen drawn with.
func (p *planner) alphabetOf(f *font) {
	if _, ok := p.byRune[f]; ok || f.embedded || !f.simple {
		return
	}
	p.byRune[f] = map[rune]uint32{}
	for v, r := range f.uni {
		if old, ok := p.byRune[f][r]; !ok || v < old {
			p.byRune[f][r] = v
		}
	}
}

// figureBorrowed draws a figure with another font: its glyphs are
// dropped, their advances kept, and the new figure is drawn in the
// borrowed font ending where the last of them ended.
func (p *planner) figureBorrowed(span, gl []*glyph, with []byte, newW float64, sub *subFont, t layout.Token) error {
	last := span[len(span)-1]
	for _, g := range span[:len(span)-1] {
		p.edits[keyOf(g)] = edit{drop: true, after: -(g.w + p.tcUnits(g))}
	}
	// A standard font is sized and raised so that its box on the page
	// is the figure's: the reading's row box is the union of its words'.
	scale, rise := 1.0, 0.0
	if sub.std && last.em > 0 && t.Y1 > t.Y0 {
		scale = (t.Y1 - t.Y0) / (stdAscent + stdDescent) / last.em
		baseline := last.y + 0.3*last.em // g.y stands 0.3 em above it
		if d := baseline + stdDescent*scale*last.em - t.Y1; math.Abs(d) > 0.2 {
			rise = d * last.size / last.em
		}
	}
	tcNew := float64(len(with)/p.codeLen(sub.f)) * p.tcUnits(last)
	p.edits[keyOf(last)] = edit{with: with, sub: sub, fres: last.fres, size: last.size, subSize: last.size * scale, rise: rise,
		before: newW*scale + tcNew - last.w - p.tcUnits(last)}
	for _, g := range gl {
		p.figures[g] = true
	}
	return nil
}

// tcUnits is the char spacing g was drawn with, in thousandths of text
// space.
func (p *planner) tcUnits(g *glyph) float64 {
	if g.size == 0 {
		return 0
	}
	return g.tc * 1000 / g.size
}

// figureInPieces redraws a figure whose glyphs are drawn by several
// operations (a glyph at a time, or a group at a time, with kerning
// between them): each of the figure's last glyphs becomes the new
// figure's character in its place, counted from the right; glyphs the
// new figure has no use for are dropped; characters it has more are
// drawn with its first glyph. The new characters are set side by side
// at their own widths, the last ending where the original's ended: a
// digit narrower than the one it replaces, left where that one stood,
// would open a gap inside the figure (proportional digits), and the
// reading would see two words.
func (p *planner) figureInPieces(span, gl []*glyph, text []rune) error {
	f := span[0].f
	n, m := len(span), len(text)
	k := min(n, m)
	// Each drawing glyph's characters: the last k glyphs one each, the
	// first of them with the characters the new figure has more.
	draw := make([][]rune, n)
	for i := range k {
		draw[n-k+i] = []rune{text[m-k+i]}
	}
	draw[n-k] = append(slices.Clone(text[:m-k]), draw[n-k]...)
	packed := p.packable(span)
	right := span[n-1].x1 // where the figure's ink ends, in page points
	// Where each drawing glyph's characters begin, from the right.
	left := make([]float64, n)
	pen := right
	for j := n - 1; j >= n-k; j-- {
		g := span[j]
		ppu := (g.x1 - g.x0) / g.w
		adv := 0.0
		for i, r := range draw[j] {
			adv += f.width(p.byRune[f][r])
			if j < n-1 || i < len(draw[j])-1 {
				adv += p.tcUnits(g)
			}
		}
		pen -= adv * ppu
		left[j] = pen
	}
	moved := 0.0 // how far the figure's first character moved left, in span[n-k]'s units
	for j, g := range span {
		if j < n-k {
			// The dropped glyph's advance is made up, so that what
			// follows in its string stays where it was.
			p.edits[keyOf(g)] = edit{drop: true, after: -(g.w + p.tcUnits(g))}
			continue
		}
		var with []byte
		sumAdv := 0.0
		for _, r := range draw[j] {
			v := p.byRune[f][r]
			with = append(with, f.encode(g.c, v)...)
			sumAdv += f.width(v) + p.tcUnits(g)
		}
		e := edit{with: with}
		if packed {
			ppu := (g.x1 - g.x0) / g.w
			e.before = (g.x0 - left[j]) / ppu
		} else if j == n-k {
			// In place, glyph for glyph; the extra characters to the left.
			e.before = sumAdv - f.width(p.byRune[f][draw[j][len(draw[j])-1]]) - p.tcUnits(g)
		}
		e.after = sumAdv - (g.w + p.tcUnits(g)) - e.before
		p.edits[keyOf(g)] = e
		if j == n-k {
			moved = e.before
		}
	}
	p.moveSign(gl, span[n-k], moved)
	for _, g := range gl {
		p.figures[g] = true
	}
	return nil
}

// packable reports a figure's glyphs drawn left to right along one
// line, each with a width, so that their places on the page can say
// where the new characters go.
func (p *planner) packable(span []*glyph) bool {
	for i, g := range span {
		if g.w <= 0 || g.x1-g.x0 <= 0 || math.Abs(g.y-span[0].y) > 0.5 {
			return false
		}
		if i > 0 && g.x0 < span[i-1].x0 {
			return false
		}
	}
	return true
}

// formatLike prints v with dec decimals in the style of old, which
// prints oldDec: its decimal mark (mark when old has none) and its
// grouping (sep when old had none to copy and v needs it).
func formatLike(old string, v decimal.Decimal, oldDec, dec int, sep, mark rune) string {
	rs := []rune(old)
	intPart := rs
	if oldDec > 0 && len(rs) > oldDec {
		mark = rs[len(rs)-oldDec-1]
		intPart = rs[:len(rs)-oldDec-1]
	}
	if dec == 0 {
		mark = 0
	}
	group := rune(0)
	for _, r := range intPart {
		if !unicode.IsDigit(r) {
			group = r
			break
		}
	}
	digits := v.StringFixed(int32(dec))
	ip, fp, _ := strings.Cut(digits, ".")
	if group == 0 && len(ip) > 3 && len(intPart) <= 3 {
		group = sep
	}
	var b strings.Builder
	for i, r := range ip {
		if group != 0 && i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteRune(group)
		}
		b.WriteRune(r)
	}
	if mark != 0 {
		b.WriteRune(mark)
		b.WriteString(fp)
	}
	return b.String()
}
