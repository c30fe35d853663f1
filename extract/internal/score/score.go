// Package score holds transactions to a truth the way
// ../shared/corpus/score.py does, so the Go evaluations (the corpus
// evaluation and its ratchet, the random-layout evaluation) count exactly
// what the corpus's own scorer counts: a found transaction matches a true
// one when date, amountIn, amountOut and balance are equal as decimals (a
// truth without a balance does not judge it) and the descriptions agree
// (normalised similarity >= 0.85, or one contains the other); matching
// keeps order (longest common subsequence). A truth that names the row's
// account (the random layouts' two-account statements) judges it too; the
// corpus's truths name none.
package score

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
)

// Txn is one transaction in the shape of the JSON download (and of the
// corpus's truth files). Balance is nil where the document prints nothing
// from which it could be known.
type Txn struct {
	Date        string  `json:"date"`
	Type        string  `json:"type"`
	Description string  `json:"description"`
	AmountIn    *string `json:"amountIn"`
	AmountOut   *string `json:"amountOut"`
	Balance     *string `json:"balance"`
	Account     string  `json:"account,omitempty"`
}

// FromResult gives a conversion's transactions in the truth's shape.
func FromResult(r *ledger.Result) []Txn {
	got := make([]Txn, 0, len(r.Transactions))
	for _, tx := range r.Transactions {
		got = append(got, FromTransaction(tx))
	}
	return got
}

// FromTransaction is one transaction in the truth's shape.
func FromTransaction(tx ledger.Transaction) Txn {
	g := Txn{Date: tx.Date.Format(time.DateOnly), Type: tx.Type(), Description: tx.Description, Account: tx.Account}
	if tx.AmountIn != nil {
		s := tx.AmountIn.StringFixed(2)
		g.AmountIn = &s
	}
	if tx.AmountOut != nil {
		s := tx.AmountOut.StringFixed(2)
		g.AmountOut = &s
	}
	b := tx.Balance.StringFixed(2)
	g.Balance = &b
	return g
}

// Match returns how many truth rows out matches, in order.
func Match(truth, out []Txn) int {
	n, m := len(truth), len(out)
	L := make([][]int, n+1)
	for i := range L {
		L[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if keyEq(truth[i], out[j]) && DescOK(truth[i].Description, out[j].Description) {
				L[i][j] = L[i+1][j+1] + 1
			} else {
				L[i][j] = max(L[i+1][j], L[i][j+1])
			}
		}
	}
	return L[0][0]
}

// Exact reports a conversion that found every true row and nothing else.
func Exact(truth, out []Txn) bool {
	return len(truth) == len(out) && Match(truth, out) == len(truth)
}

var nonAlnum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

func normDesc(s string) string {
	return strings.Join(strings.Fields(nonAlnum().ReplaceAllString(strings.ToLower(s), " ")), " ")
}

// DescOK reports descriptions the scorer counts as the same.
func DescOK(a, b string) bool {
	a, b = normDesc(a), normDesc(b)
	if a == "" || b == "" {
		return a == b
	}
	if strings.Contains(a, b) || strings.Contains(b, a) {
		return true
	}
	return seqRatio(a, b) >= 0.85
}

// seqRatio is difflib.SequenceMatcher(None, a, b).ratio() without the
// auto-junk heuristic (descriptions are short).
func seqRatio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	m := matchingChars(ra, rb)
	return 2 * float64(m) / float64(len(ra)+len(rb))
}

func matchingChars(a, b []rune) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	// Longest common substring, leftmost in a then b, as difflib finds it.
	best, bi, bj := 0, 0, 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				if cur[j] > best {
					best, bi, bj = cur[j], i-cur[j], j-cur[j]
				}
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
		clear(cur)
	}
	if best == 0 {
		return 0
	}
	return best + matchingChars(a[:bi], b[:bj]) + matchingChars(a[bi+best:], b[bj+best:])
}

func decEq(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, err1 := decimal.NewFromString(*a)
	y, err2 := decimal.NewFromString(*b)
	if err1 != nil || err2 != nil {
		return *a == *b
	}
	return x.Equal(y)
}

func keyEq(t, o Txn) bool {
	return t.Date == o.Date && decEq(t.AmountIn, o.AmountIn) && decEq(t.AmountOut, o.AmountOut) &&
		(t.Balance == nil || decEq(t.Balance, o.Balance)) && (t.Account == "" || SameNumber(t.Account, o.Account))
}

// SameNumber compares account numbers by their digits.
func SameNumber(a, b string) bool {
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	return digits(a) == digits(b)
}

// Directions tallies a conversion's rows whose direction nothing printed
// proves, by how the reading settled it, and how many of those go the
// way the truth says. Each is judged against a true row of the same date,
// size and description, whichever way that row goes; a row no true row
// stands for is counted but not judged.
type Directions struct {
	// Guessed are rows read as money out for want of anything else.
	Guessed DirectionTally
	// Learned are rows whose direction was taken from the document's
	// other rows (ledger.Provenance.DirectionLearned).
	Learned DirectionTally
	// Summed are rows whose directions only one way add up to the
	// statement's printed sums (ledger.Provenance.DirectionFromSums).
	Summed DirectionTally
}

// DirectionTally counts rows, those a true row stands for, and those
// whose direction it agrees with.
type DirectionTally struct{ Rows, Judged, Right int }

// Add sums two tallies.
func (d Directions) Add(o Directions) Directions {
	add := func(a, b DirectionTally) DirectionTally {
		return DirectionTally{a.Rows + b.Rows, a.Judged + b.Judged, a.Right + b.Right}
	}
	return Directions{add(d.Guessed, o.Guessed), add(d.Learned, o.Learned), add(d.Summed, o.Summed)}
}

func (t DirectionTally) String() string {
	return fmt.Sprintf("%d row(s), %d of %d judged right", t.Rows, t.Right, t.Judged)
}

// CountDirections tallies txs' rows of unproven direction against truth.
func CountDirections(truth []Txn, txs []ledger.Transaction) Directions {
	var d Directions
	for _, tx := range txs {
		var t *DirectionTally
		switch {
		case tx.Provenance.DirectionGuessed:
			t = &d.Guessed
		case tx.Provenance.DirectionLearned:
			t = &d.Learned
		case tx.Provenance.DirectionFromSums:
			t = &d.Summed
		default:
			continue
		}
		t.Rows++
		g := FromTransaction(tx)
		judged, right := false, false
		for _, tr := range truth {
			if tr.Date != g.Date || !decEq(size(g), size(tr)) || !DescOK(tr.Description, g.Description) {
				continue
			}
			judged = true
			right = right || (tr.AmountIn != nil) == (g.AmountIn != nil)
		}
		if judged {
			t.Judged++
		}
		if right {
			t.Right++
		}
	}
	return d
}

// size is a row's amount, whichever way it goes.
func size(t Txn) *string {
	if t.AmountIn != nil {
		return t.AmountIn
	}
	return t.AmountOut
}
