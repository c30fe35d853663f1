package tables

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/shopspring/decimal"

	"passbook/extract/cells"
	"passbook/extract/layout"
	"passbook/extract/lexicon"
	"passbook/extract/source"
)

// accountPart is the part of a document that belongs to one account: its
// tables and the lines around them, from the line that names the account to
// the line that names the next.
type AccountPart struct {
	Number string
	Segs   []int // indexes into the document's segments
	Lines  []*layout.Line
}

// splitAccounts finds the accounts of a document that holds several, each
// named above its own tables and printing its own opening or closing
// balance (when needBalances: else the arithmetic decides, see analyze).
// It returns nil for a document of one account: one that names its
// account more than once, or in two forms (a number and an IBAN), is that.
func SplitAccounts(all []*layout.Line, segs []Segment, needBalances bool) []AccountPart {
	pos := make(map[*layout.Line]int, len(all))
	for i, l := range all {
		pos[l] = i
	}
	segStarts := map[int]bool{}
	for _, sg := range segs {
		if len(sg.Lines) > 0 {
			segStarts[pos[sg.Lines[0]]] = true
		}
	}
	var parts []AccountPart
	var starts []int // where each account is first named
	for i, l := range all {
		num := NamedAccount(l)
		if num == "" {
			continue
		}
		if n := len(parts); n > 0 {
			table := false
			for j := starts[n-1]; j < i && !table; j++ {
				table = segStarts[j]
			}
			again := slices.ContainsFunc(parts, func(p AccountPart) bool { return sameAccount(p.Number, num) })
			if again || !table {
				// Named again (a page's running header), or named twice
				// before its table (a number, then an IBAN).
				continue
			}
		}
		parts = append(parts, AccountPart{Number: num})
		starts = append(starts, i)
	}
	if len(parts) < 2 {
		return nil
	}
	// Each line and table goes to the last account named before it.
	owner := func(l *layout.Line) int {
		p := pos[l]
		o := 0
		for j, s := range starts {
			if p >= s {
				o = j
			}
		}
		return o
	}
	for i := range segs {
		if len(segs[i].Lines) == 0 {
			continue
		}
		o := owner(segs[i].Lines[0])
		parts[o].Segs = append(parts[o].Segs, i)
	}
	for _, l := range all {
		o := owner(l)
		parts[o].Lines = append(parts[o].Lines, l)
	}
	// Each account holds a table and prints a balance of its own; else
	// the names are one account's, printed again.
	for _, p := range parts {
		if len(p.Segs) == 0 || needBalances && !printsBalance(p.Lines) {
			return nil
		}
	}
	return parts
}

// namedAccount is the account number a line names: after a word for
// account, or, in words no lexicon holds, a line of one to three words
// and then a number of eight digits or more, and nothing else
// ("Sparkonto PL32 7960 8545 5847 3838", "Girokonto 0796830198"). "" when
// the line names none.
func NamedAccount(l *layout.Line) string {
	if end := lexicon.PhraseEnd(l.Words, lexicon.Vocab().Account); end >= 0 {
		if num := AccountValue(l.Words[end:]); accountLike(num) {
			return num
		}
		// A word between the label and its number ("Compte épargne
		// 0523006038"): the line's shape may still name it.
	}
	if slices.ContainsFunc(l.Toks, func(t layout.Token) bool { return t.Kind != layout.TokText }) {
		return "" // a date or a sum ("Neuer Saldo 1,34,442.20"), not a number
	}
	k := 0
	for k < len(l.Words) && k < 3 && strings.IndexFunc(l.Words[k].Text, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
		k++
	}
	if k == 0 || k == len(l.Words) {
		return ""
	}
	num := AccountValue(l.Words[k:])
	if len(digitsOf(num)) < 8 || !accountLike(num) || len(strings.Fields(num)) != len(strings.Fields(layout.JoinWords(l.Words[k:]))) {
		return ""
	}
	if _, _, ok := cells.LexDate(num); ok {
		return "" // "from 01/04/2023.": a date, not a number
	}
	return num
}

// LabelledNumber reports a line where a word for account is followed
// directly by its number ("Account number: 0123456789"), as a header's
// facts print it, not an account's name over its rows ("Compte épargne
// 0576890791").
func LabelledNumber(l *layout.Line) bool {
	end := lexicon.PhraseEnd(l.Words, lexicon.Vocab().Account)
	return end >= 0 && accountLike(AccountValue(l.Words[end:]))
}

// accountLike reports a printed account number: at least four digits,
// and not an amount ("Frais de tenue de compte 10.98": a fee after the
// word for account).
func accountLike(s string) bool {
	return len(digitsOf(s)) >= 4 && !moneyShaped().MatchString(strings.TrimSpace(s))
}

// moneyShaped is an amount with cents: digits grouped by threes or not,
// and two decimals.
var moneyShaped = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+(]?[0-9]{1,3}([.,' ]?[0-9]{3})*[.,][0-9]{2}\)?$`)
})

// sameAccount reports two printings of one account number: the same
// digits, or one masked to the other's last digits.
func sameAccount(a, b string) bool {
	da, db := digitsOf(a), digitsOf(b)
	if da == db {
		return true
	}
	masked := strings.ContainsAny(a, "*•xX") || strings.ContainsAny(b, "*•xX")
	return masked && len(da) >= 4 && len(db) >= 4 && (strings.HasSuffix(da, db) || strings.HasSuffix(db, da))
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// printsBalance reports lines that name an opening or closing balance with
// an amount.
func printsBalance(lines []*layout.Line) bool {
	for _, l := range lines {
		if _, ok := amountAfter(l, lexicon.Vocab().Opening); ok {
			return true
		}
		if _, ok := amountAfter(l, lexicon.Vocab().Closing); ok {
			return true
		}
	}
	return false
}

// accountValue takes an account number as printed from the text after its
// label: the words that hold digits or masking characters.
func AccountValue(words []source.Word) string {
	var parts []string
	for i, w := range words {
		if i > 0 && w.X0-words[i-1].X1 > 1.2*(w.Y1-w.Y0) {
			break // the next thing on the line ("12 High Street")
		}
		for _, f := range strings.Fields(w.Text) {
			f = strings.TrimRight(f, ",;")
			if len(parts) > 0 && ibanStart().MatchString(parts[0]) && ibanGroup().MatchString(f) {
				parts = append(parts, f) // "GB29 NWBK 6016"
				continue
			}
			if !strings.ContainsAny(f, "0123456789*•xX") || len(parts) > 0 && !strings.ContainsAny(f, "0123456789*•") {
				return strings.Join(parts, " ")
			}
			if strings.ContainsAny(f, "0123456789*•") || strings.Trim(f, "xX-") == "" {
				parts = append(parts, f)
				continue
			}
			return strings.Join(parts, " ")
		}
	}
	return strings.Join(parts, " ")
}

// labelAmount is the amount a label on lines[i] gives: after it on its
// line, else in a box of labels over values, the first amount on the line
// below that stands from the label's left edge to where the next label
// starts ("Alter Kontostand" over "EUR + 2.853,82").
func LabelAmount(lines []*layout.Line, i int, phrases []string) (decimal.Decimal, bool) {
	l := lines[i]
	if v, ok := amountAfter(l, phrases); ok {
		return v, true
	}
	start, end := lexicon.PhraseSpan(l.Words, phrases)
	if start < 0 || i+1 >= len(lines) {
		return decimal.Decimal{}, false
	}
	below := lines[i+1]
	if below.Page != l.Page || below.Y0-l.Y1 > 1.5*l.Height() {
		return decimal.Decimal{}, false
	}
	lo, hi := l.Words[start].X0-0.5*l.Em, math.Inf(1)
	if end < len(l.Words) {
		hi = l.Words[end].X0
	}
	for _, t := range below.Toks {
		if t.Kind == layout.TokAmount && t.X0 >= lo && t.X1 <= hi+0.5*l.Em {
			return t.Amount, true
		}
	}
	return decimal.Decimal{}, false
}

// amountAfter returns the first amount on l to the right of a label among
// phrases.
func amountAfter(l *layout.Line, phrases []string) (decimal.Decimal, bool) {
	end := lexicon.PhraseEnd(l.Words, phrases)
	if end <= 0 {
		return decimal.Decimal{}, false
	}
	endX := l.Words[end-1].X1
	// A whole number is the amount only when nothing better follows: in
	// "Ending Balance 16 $189,296.31" it counts the items.
	var bare *layout.Token
	for i, t := range l.Toks {
		switch {
		case t.X0 < endX:
		case t.Kind == layout.TokAmount:
			return t.Amount, true
		case t.Bare && bare == nil:
			bare = &l.Toks[i]
		}
	}
	if bare != nil {
		return bare.Amount, true
	}
	return decimal.Decimal{}, false
}

// ibanStart and ibanGroup read an IBAN printed in groups of four, letters
// among them (GB29 NWBK 6016 1331 9268 19).
var (
	ibanStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{2}[0-9]{2}`) })
	ibanGroup = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z0-9]{1,4}$`) })
)
