package tables

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"

	"golang.org/x/text/language"
)

// readParties names the bank that issued a statement and the account's
// holder, from what the document itself says; "" for what it does not.
// No list of banks is consulted, and no document's words are built in:
//
//   - the bank is the metadata's author, title or creator when the first
//     page prints that name too (a name the page does not print is the
//     software that wrote the file); else the letterhead: the largest
//     line of words alone at the top of the first page, larger than the
//     page's usual text and naming nothing the lexicon knows (a title
//     such as "Statement of account"); else the BIC printed after "BIC"
//     or "SWIFT" (ISO 9362: four letters, an ISO 3166 country, two
//     letters or digits and an optional branch);
//   - the holder is the first line of the address block: on the first
//     page, lines flush left under one another in one size, the first a
//     name (words with capitals, no digits) and a later one with digits
//     (a street number or postcode), the block not starting with the
//     bank's name.
//
// outside are the lines outside the transaction tables (where an address
// block is looked for), all every line, pages the pages they index: a
// letterhead may have been taken into a table's first rows.
func ReadParties(meta source.Meta, outside, all []*layout.Line, pages []source.Page) (bank, holder string) {
	firstPage := func(ls []*layout.Line) []lineRun {
		var first []*layout.Line
		for _, l := range ls {
			if l.Page == 0 {
				first = append(first, l)
			}
		}
		return lineRuns(first)
	}
	page := firstPage(all)
	if len(page) == 0 {
		return "", ""
	}
	bank = metaBank(meta, page)
	if bank == "" {
		bank = letterheadBank(page, pages[0].Height)
	}
	if bank == "" {
		bank = printedBIC(all)
	}
	holder = addressHolder(firstPage(outside), bank)
	return bank, holder
}

// lineRun is a run of a line's words with no column's gap inside: the
// left-hand address block and the right-hand details on one baseline are
// two segments.
type lineRun struct {
	words  []source.Word
	x0, x1 float64
	y0, y1 float64
	em     float64
}

func (s lineRun) text() string { return layout.JoinWords(s.words) }

// lineRuns cuts lines at gaps wider than twice their em and orders
// the pieces top to bottom, left to right.
func lineRuns(lines []*layout.Line) []lineRun {
	var out []lineRun
	for _, l := range lines {
		em := l.Em
		if em <= 0 {
			em = l.Height()
		}
		start := 0
		for i := 1; i <= len(l.Words); i++ {
			if i < len(l.Words) && l.Words[i].X0-l.Words[i-1].X1 <= 2*em {
				continue
			}
			ws := l.Words[start:i]
			s := lineRun{words: ws, x0: ws[0].X0, x1: ws[len(ws)-1].X1, y0: math.Inf(1), y1: math.Inf(-1)}
			hs := make([]float64, 0, len(ws))
			for _, w := range ws {
				s.y0, s.y1 = min(s.y0, w.Y0), max(s.y1, w.Y1)
				hs = append(hs, w.Y1-w.Y0)
			}
			// The run's own size: a line's em mixes the letterhead's
			// name with the title beside it.
			slices.Sort(hs)
			s.em = hs[len(hs)/2]
			out = append(out, s)
			start = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].y0 != out[j].y0 {
			return out[i].y0 < out[j].y0
		}
		return out[i].x0 < out[j].x0
	})
	return out
}

// metaBank is the first of the metadata's author, title and creator that
// the first page prints, as a name.
func metaBank(meta source.Meta, segs []lineRun) string {
	for _, v := range []string{meta.Author, meta.Title, meta.Creator} {
		v = strings.Join(strings.Fields(v), " ")
		if !nameLike(v) || knownPhrase(v) {
			continue
		}
		want := lexicon.FoldLabel(v)
		for _, s := range segs {
			if strings.Contains(lexicon.FoldLabel(s.text()), want) {
				return v
			}
		}
	}
	return ""
}

// letterheadBank is the largest lineRun of words alone in the top third of
// the first page, when it is larger than the page's usual text.
func letterheadBank(segs []lineRun, pageHeight float64) string {
	ems := make([]float64, 0, len(segs))
	for _, s := range segs {
		ems = append(ems, s.em)
	}
	slices.Sort(ems)
	usual := ems[len(ems)/2]
	best, bestEm := "", 0.0
	for _, s := range segs {
		if pageHeight > 0 && s.y0 > pageHeight/3 {
			continue
		}
		t := s.text()
		if s.em < 1.2*usual || s.em <= bestEm || len(s.words) > 6 || !nameLike(t) || knownPhrase(t) {
			continue
		}
		best, bestEm = t, s.em
	}
	return best
}

// nameLike reports text that reads as a proper name: 1 to 8 words, no
// digits, no colon or at-sign, its first word capitalised and at least
// half its words starting with a capital.
func nameLike(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || len(ws) > 8 || strings.ContainsAny(s, "0123456789:@/\\|=+*#%$€£") {
		return false
	}
	caps := 0
	for i, w := range ws {
		r := []rune(w)[0]
		switch {
		case unicode.IsUpper(r):
			caps++
		case i == 0:
			return false
		}
	}
	return 2*caps >= len(ws)
}

// knownPhrase reports text the lexicon knows: a label of the account,
// period, currency or balances, a title of a section or a card statement.
// Such a line is a statement's furniture, not a name. Phrases of fewer
// than four letters ("de", "du", "von") join names too and do not
// count; one of five
// letters or more counts also inside a word ("Kontoauszug"). Column
// headings do not count: banks are named "Crédit ..." and "... Savings".
func knownPhrase(s string) bool {
	f := lexicon.FoldLabel(s)
	bare := strings.ReplaceAll(f, " ", "")
	v := lexicon.Vocab()
	for _, list := range [][]string{v.Account, v.Period, v.Currency, v.Opening, v.Closing, v.Card,
		v.SectionTitles, v.BalanceTitles, v.Totals, v.TotalIn, v.TotalOut} {
		for _, p := range list {
			if len(p) >= 4 && lexicon.ContainsPhrase(f, p) || len(p) >= 5 && !strings.Contains(p, " ") && strings.Contains(bare, p) {
				return true
			}
		}
	}
	return false
}

// bicRe is an ISO 9362 business identifier code.
var bicRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}([A-Z0-9]{3})?$`) })

// printedBIC is the first BIC printed after the word BIC or SWIFT, whose
// country is an ISO 3166 region (x/text's CLDR data; not one kept for
// private use, nor ZZ, the unknown region).
func printedBIC(lines []*layout.Line) string {
	for _, l := range lines {
		for i := 0; i+1 < len(l.Words); i++ {
			label := strings.ToUpper(strings.Trim(l.Words[i].Text, ":.,;()"))
			if !strings.HasPrefix(label, "BIC") && !strings.HasPrefix(label, "SWIFT") {
				continue
			}
			code := strings.Trim(l.Words[i+1].Text, ":.,;()")
			if after, ok := strings.CutPrefix(label, "BIC:"); ok && after != "" {
				code = after
			}
			m := bicRe().FindStringSubmatch(code)
			if m == nil {
				continue
			}
			if r, err := language.ParseRegion(m[1]); err != nil || r.IsPrivateUse() || r.String() == "ZZ" {
				continue
			}
			return "BIC " + code
		}
	}
	return ""
}

// addressHolder is the name heading the first address block of the first
// page that is not the bank's.
func addressHolder(segs []lineRun, bank string) string {
	used := make([]bool, len(segs))
	for i := range segs {
		if used[i] {
			continue
		}
		block := []int{i}
		last := segs[i]
		for j := i + 1; j < len(segs); j++ {
			s := segs[j]
			// The next line of a block starts within a line's pitch
			// (1.6 em) below the last one's top.
			if s.y0-last.y0 > 1.6*last.em {
				break
			}
			if math.Abs(s.x0-segs[i].x0) <= 0.5*segs[i].em && math.Abs(s.em-segs[i].em) <= 0.1*segs[i].em && s.y0 > last.y0+0.5*last.em {
				block = append(block, j)
				last = s
			}
		}
		for _, k := range block {
			used[k] = true
		}
		if len(block) < 2 || len(block) > 6 {
			continue
		}
		name := segs[i].text()
		if len(segs[i].words) < 2 || !nameLike(name) || knownPhrase(name) {
			continue
		}
		if bank != "" && strings.Contains(lexicon.FoldLabel(name), strings.TrimSpace(lexicon.FoldLabel(bank))) {
			continue
		}
		digits := false
		for _, k := range block[1:] {
			digits = digits || layout.HasDigit(segs[k].text())
		}
		if digits {
			return name
		}
	}
	return ""
}
