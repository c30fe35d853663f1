package lexicon

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// colRole is what a table column holds, read from its header label.
type ColRole int

const (
	RoleNone      ColRole = iota
	RoleDate              // posting or booking date
	RoleTransDate         // the date a card was used
	RoleValueDate         // value date
	RoleDesc              // description
	RoleType              // transaction type code
	RoleRef               // cheque or reference number
	RoleDebit             // money out
	RoleCredit            // money in
	RoleAmount            // one signed (or Dr/Cr marked) amount
	RoleBalance           // running balance
	RoleDrCr              // a Dr/Cr indicator column
	RoleCount             // figures that are not money: points, units, quantities
)

func (r ColRole) IsDate() bool { return r == RoleDate || r == RoleTransDate || r == RoleValueDate }
func (r ColRole) IsMoney() bool {
	return r == RoleDebit || r == RoleCredit || r == RoleAmount || r == RoleBalance
}
func (r ColRole) IsText() bool { return r == RoleDesc || r == RoleType || r == RoleRef }

// foldLabel lower-cases s, strips accents and turns punctuation into spaces.
func FoldLabel(s string) string {
	if f, ok := foldASCII(s); ok {
		return f
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return " " + strings.Join(strings.Fields(b.String()), " ") + " "
}

// classifyLabel gives a header label's role, roleNone when it names nothing
// known. The longest phrase found wins ("Date débit" is a date, not a debit
// column); between phrases of one length, the more specific role.
func ClassifyLabel(s string) ColRole {
	role, _ := ClassifyPhrase(s)
	return role
}

// classifyPhrase is classifyLabel that also says how many words the
// phrase it matched has (0 for none).
func ClassifyPhrase(s string) (ColRole, int) {
	f := FoldLabel(s)
	if strings.TrimSpace(f) == "" {
		return RoleNone, 0
	}
	best, bestWords, bestLen := RoleNone, 0, 0
	for _, rp := range Vocab().Headings {
		for _, p := range rp.Phrases {
			if !ContainsPhrase(f, p) {
				continue
			}
			if w := strings.Count(p, " ") + 1; w > bestWords || w == bestWords && len(p) > bestLen && !moneyQualified(best, rp.role) {
				best, bestWords, bestLen = rp.role, w, len(p)
			}
			break // phrases of a role run longest first
		}
	}
	return best, bestWords
}

// moneyQualified reports a money direction (debit, credit) matched
// before a signed amount's phrase of as many words: "Debit Amount" is a
// debit column, however long "amount" is beside "debit".
func moneyQualified(have, next ColRole) bool {
	return (have == RoleDebit || have == RoleCredit) && next == RoleAmount
}

// String is a column role as --explain prints it.
func (r ColRole) String() string {
	switch r {
	case RoleDate:
		return "date"
	case RoleTransDate:
		return "transaction date"
	case RoleValueDate:
		return "value date"
	case RoleDesc:
		return "description"
	case RoleType:
		return "type"
	case RoleRef:
		return "reference"
	case RoleDebit:
		return "money out"
	case RoleCredit:
		return "money in"
	case RoleAmount:
		return "signed amount"
	case RoleBalance:
		return "balance"
	case RoleDrCr:
		return "Dr/Cr indicator"
	case RoleCount:
		return "count (not money)"
	}
	return "none"
}

// EditDistance is the Levenshtein distance between a and b, or limit+1
// once it is sure to exceed limit.
func EditDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c = min(c, prev[j], cur[j-1]) + 1
			} else {
				c = min(c, prev[j]+1, cur[j-1]+1)
			}
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
