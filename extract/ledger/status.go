package ledger

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// WarningKind names what a row's warning says, for a program: code reads
// the kind and the warning's fields, never its message.
type WarningKind string

// The kinds of a row's warnings.
const (
	// WarnBalanceComputed: the row prints no balance; it is the running
	// balance computed from the row before.
	WarnBalanceComputed WarningKind = "balance_computed"
	// WarnBalanceFromZero: the row prints no balance and nothing gives an
	// opening balance: the balance is counted from zero.
	WarnBalanceFromZero WarningKind = "balance_from_zero"
	// WarnBalanceBreak: the printed balance (Printed) does not follow from
	// the balance before it (Expected is what would).
	WarnBalanceBreak WarningKind = "balance_break"
	// WarnDirectionFromBalance: the amount carries no sign; the running
	// balance told which way it went.
	WarnDirectionFromBalance WarningKind = "direction_from_balance"
	// WarnDirectionUnknown: nothing told which way the amount went; it was
	// taken as money out.
	WarnDirectionUnknown WarningKind = "direction_unknown"
	// WarnDirectionLearned: nothing printed on the row told which way the
	// amount went; it was taken from the document's rows of the same
	// kind whose direction the document proves (Provenance.DirectionLearned).
	WarnDirectionLearned WarningKind = "direction_learned"
	// WarnDirectionFromSums: nothing printed on the row told which way the
	// amount went; only one way do the rows add up to the statement's
	// printed sums (Provenance.DirectionFromSums).
	WarnDirectionFromSums WarningKind = "direction_from_sums"
	// WarnAmountFromBalance: recognition could not read the amount (Read);
	// it was taken from the change in the balance.
	WarnAmountFromBalance WarningKind = "amount_from_balance"
	// WarnLowConfidence: recognition read the row's words with low
	// confidence (Confidence, 0–100).
	WarnLowConfidence WarningKind = "low_confidence"
	// WarnDateUnread: the date printed on the row could not be read (or
	// lies outside the statement's period); a neighbour's stands in.
	WarnDateUnread WarningKind = "date_unread"
	// WarnDateUnresolved: the row's date (Read) names no day; the row has
	// none.
	WarnDateUnresolved WarningKind = "date_unresolved"
	// WarnAgainstMark: the amount's printed Dr/Cr word says the other way
	// than the reading the balances chose counts it.
	WarnAgainstMark WarningKind = "against_mark"
	// WarnDateFromAbove: the row prints no date; the one above is used.
	WarnDateFromAbove WarningKind = "date_from_above"
	// WarnOCRCorrection: the running balance proved a misread and it was
	// corrected.
	WarnOCRCorrection WarningKind = "ocr_correction"
	// WarnBalanceEntered: a person typed the balance where the statement
	// prints none: it is checked, and proves nothing.
	WarnBalanceEntered WarningKind = "balance_entered"
	// WarnAdded: a person added the row.
	WarnAdded WarningKind = "added"
	// WarnDescriptionShared: a wrapped line of text stands as near this
	// row as its neighbour, and nothing printed tells whose it is: the
	// description may hold a line of the other's, or lack one.
	WarnDescriptionShared WarningKind = "description_shared"
	// WarnNote: a note with no structure (carried from a result stored
	// before warnings had kinds).
	WarnNote WarningKind = "note"
)

// Warning is a note on one row: its kind and the facts it names, beside a
// message for a person.
type Warning struct {
	Kind    WarningKind `json:"kind"`
	Message string      `json:"message"`
	// Printed is, for a balance_break, the balance the row prints.
	Printed *decimal.Decimal `json:"printed,omitempty"`
	// Expected is, for a balance_break, the balance the row before and
	// the row's amount give.
	Expected *decimal.Decimal `json:"expected,omitempty"`
	// Confidence is, for low_confidence, the lowest of the words' (0–100).
	Confidence float64 `json:"confidence,omitempty"`
	// Read is what recognition printed, for amount_from_balance and
	// date_unresolved.
	Read string `json:"read,omitempty"`
}

// Provenance says where a row's values came from: which of them the
// document prints and which the conversion inferred. The zero value is a
// row whose values are all read as printed.
type Provenance struct {
	// BalanceComputed: the row prints no balance; it was computed from
	// the balance before.
	BalanceComputed bool `json:"balance_computed,omitempty"`
	// BalanceFromZero: the row prints no balance and no opening balance
	// was known: it was counted from zero.
	BalanceFromZero bool `json:"balance_from_zero,omitempty"`
	// BalanceEntered: a person typed the balance over one the conversion
	// computed; it is checked, and proves nothing.
	BalanceEntered bool `json:"balance_entered,omitempty"`
	// DirectionFromBalance: the amount carries no sign; the running
	// balance told its direction.
	DirectionFromBalance bool `json:"direction_from_balance,omitempty"`
	// DirectionGuessed: nothing told the direction: taken as money out.
	DirectionGuessed bool `json:"direction_guessed,omitempty"`
	// DirectionLearned: nothing printed on the row told the direction; it
	// was taken from the rows of the same document that share its
	// description's leading words and whose direction is proven.
	DirectionLearned bool `json:"direction_learned,omitempty"`
	// DirectionFromSums: nothing printed on the row told the direction;
	// only one choice of directions for such rows makes the amounts add
	// up to the statement's printed totals, or its opening and closing
	// balances. Which kind of account it is (a card's balance owed rises
	// with money out) decides that choice, and nothing proves the kind.
	DirectionFromSums bool `json:"direction_from_sums,omitempty"`
	// AmountFromBalance: the amount was not readable and was taken from
	// the change in the balance.
	AmountFromBalance bool `json:"amount_from_balance,omitempty"`
	// DateFromAbove: the row prints no date; the one above is used.
	DateFromAbove bool `json:"date_from_above,omitempty"`
	// DateUnread: the row's printed date could not be read, or lies
	// outside the statement's period.
	DateUnread bool `json:"date_unread,omitempty"`
	// LowConfidence is the lowest recognition confidence of the row's
	// words when it is low (0–100); 0 when none is.
	LowConfidence float64 `json:"low_confidence,omitempty"`
	// Added: a person added the row; the document does not print it where
	// the conversion read.
	Added bool `json:"added,omitempty"`
	// AgainstMark: the amount prints a Dr/Cr word ("855.02 C") and the
	// reading the balances chose counts it the other way.
	AgainstMark bool `json:"against_mark,omitempty"`
}

// BalancePrinted reports a balance read from the document (or corrected
// by a person where the document prints one), not computed.
func (p Provenance) BalancePrinted() bool {
	return !p.BalanceComputed && !p.BalanceFromZero && !p.BalanceEntered
}

// Proof is what a statement's arithmetic established, and the doubts its
// reading left, as fields: Judge decides the status from it and the rows'
// provenance. Recheck keeps the doubts and counts the arithmetic again.
type Proof struct {
	// Checks counts the printed balances, closing balance and totals that
	// checked rows.
	Checks int `json:"checks"`
	// Proven is how many leading rows a printed balance, closing balance
	// or total proves; rows after them stand on nothing.
	Proven int `json:"proven"`
	// Totals counts the totals lines printed among the rows that add up.
	Totals int `json:"totals,omitempty"`
	// Breaks are the 0-based rows where the chain breaks; Difference is
	// the first break's printed minus computed balance.
	Breaks     []int            `json:"breaks,omitempty"`
	Difference *decimal.Decimal `json:"difference,omitempty"`
	// OpeningDerived: no opening balance is printed; it was worked back
	// from the first printed balance (which then checks nothing).
	OpeningDerived bool `json:"opening_derived,omitempty"`
	// Restarted: an opening balance printed among the rows starts the
	// chain again: the rows after it may be another account's.
	Restarted bool `json:"restarted,omitempty"`
	// RestatedOpening: the first row's amount is its whole balance and its
	// words name a balance: it may restate the opening balance.
	RestatedOpening bool `json:"restated_opening,omitempty"`
	// Dropped counts dated lines with amounts after the closing balance
	// that were not read as transactions.
	Dropped int `json:"dropped,omitempty"`
	// Unread counts the lines of a table that print a movement in its
	// money columns under a date no pattern reads: rows the reading lost.
	Unread int `json:"unread,omitempty"`
	// OCR: the rows were recognised from images.
	OCR bool `json:"ocr,omitempty"`
	// Corrections counts the misreads the running balance corrected.
	Corrections int `json:"corrections,omitempty"`
	// YearAssumed: the statement prints no year: the dates' year is
	// taken from when the file was made, else when it was converted.
	YearAssumed bool `json:"year_assumed,omitempty"`
	// DatesOutside counts the rows dated outside the statement's printed
	// period (by more than a card's day of booking), or in a year no
	// statement prints: a date column or a calendar misread.
	DatesOutside int `json:"dates_outside,omitempty"`
	// Card: the balance is a card's, the amount owed, which money out
	// raises.
	Card bool `json:"card,omitempty"`
	// CardByLayout: laid out as a card's statement with nothing printed
	// that says which way the money went.
	CardByLayout bool `json:"card_by_layout,omitempty"`
	// CardNamedOnce: the statement names a card once, its rows print no
	// balance and are not laid out as a card's: read as a card's when the
	// name is its title (Card), else as a bank's, with nothing printed
	// that proves which way the money went.
	CardNamedOnce bool `json:"card_named_once,omitempty"`
	// KindOpen: nothing the engine reads (no heading, no word for a card)
	// says whether the rows are a bank account's or a card's, none prints
	// a balance, and the amounts add up read either way: read as a bank
	// account's.
	KindOpen bool `json:"kind_open,omitempty"`
	// DateGuessed: two date columns differ on some rows and neither their
	// order nor the printed period says which is the booking date.
	DateGuessed bool `json:"date_guessed,omitempty"`
}

// Judge is the statement's reconciliation, decided from its proof and its
// rows' provenance: the one place a status is decided. closing says
// whether a closing balance was read.
//
// It is mismatch when the arithmetic breaks; ok only when printed
// balances or totals prove every row and nothing the reading inferred is
// left unproven; unverified otherwise, with the first reason.
func Judge(txs []Transaction, p Proof, closing bool) Reconciliation {
	var fromZero, guessed, learned, summed, lost, unread, low, computed, against int
	for _, tx := range txs {
		pv := tx.Provenance
		if pv.BalanceFromZero {
			fromZero++
		}
		if pv.BalanceComputed || pv.BalanceFromZero {
			computed++
		}
		if pv.DirectionGuessed {
			guessed++
		}
		if pv.DirectionLearned {
			learned++
		}
		if pv.DirectionFromSums {
			summed++
		}
		if pv.AmountFromBalance {
			lost++
		}
		if pv.DateUnread {
			unread++
		}
		if pv.LowConfidence > 0 {
			low++
		}
		if pv.AgainstMark {
			against++
		}
	}
	unverified := func(format string, a ...any) Reconciliation {
		return Reconciliation{Status: ReconcileUnverified, Message: fmt.Sprintf(format, a...)}
	}
	switch {
	case len(txs) == 0:
		return Reconciliation{Status: ReconcileNoTransactions, Message: "the document holds no transactions"}
	case len(p.Breaks) > 0:
		diff := decimal.Zero
		if p.Difference != nil {
			diff = *p.Difference
		}
		msg := fmt.Sprintf("the running balance breaks at %d row(s); the first difference is %s", len(p.Breaks), diff.StringFixed(2))
		if p.Corrections > 0 {
			msg = fmt.Sprintf("the running balance breaks at %d row(s) (after %d OCR correction(s)); the first difference is %s", len(p.Breaks), p.Corrections, diff.StringFixed(2))
		}
		return Reconciliation{Status: ReconcileMismatch, Difference: &diff, Rows: p.Breaks, Message: msg}
	case p.Checks == 0 && p.OpeningDerived:
		return unverified("the statement prints no opening balance, and no balance beyond the one it was worked back from: nothing checks the transactions")
	case p.Checks == 0:
		return unverified("the statement prints no balances to check the transactions against")
	case fromZero > 0 && p.Proven >= len(txs):
		// The amounts may be proven (by printed totals), but not the
		// balances: they stand on an opening balance of zero nobody printed.
		return unverified("the amounts add up to the printed totals, but the statement prints no opening balance: the balances are counted from zero and nothing proves them")
	case fromZero > 0:
		return unverified("the statement prints no opening balance: the balances are counted from zero and nothing proves them")
	case p.Restarted:
		return unverified("an opening balance printed among the rows starts the balances again: the rows after it may be another account's, read with this one")
	case p.RestatedOpening:
		return unverified("the first row's amount is its whole balance and its words name a balance: it may restate the opening balance rather than move money")
	case p.Dropped > 0:
		// Rows after the closing balance were set aside: another
		// account's, or a second statement's, that the balances do not
		// account for.
		return unverified("the balances agree, but %d dated line(s) with amounts after the closing balance were not read as transactions; check whether they are", p.Dropped)
	case p.Unread > 0:
		return unverified("the balances of the rows read agree, but %d line(s) print amounts under a date that could not be read and were not read as transactions; check them", p.Unread)
	case guessed > 0:
		// A row whose direction nothing told was read as money out: the
		// balances after it may agree, but nothing proves that row.
		return unverified("the direction of %d row(s) could not be told and was taken as money out", guessed)
	case summed > 0:
		// The sums prove the directions only for the kind of account
		// read: a card's rows, read as a bank's, add up the other way.
		return unverified("the direction of %d row(s) is not printed: only so do the amounts add up to the printed sums, for the kind of account read (a card's balance owed rises with money out, a bank's falls), which nothing printed on the rows proves", summed)
	case learned > 0:
		// Rows of the same kind went that way; nothing printed says
		// this one did.
		return unverified("the direction of %d row(s) is not printed and no balance proves it: it was taken from the rows whose description begins alike, whose direction the statement proves", learned)
	case lost > 0:
		// The balances agree, but they gave those rows' amounts: nothing
		// checks them.
		return unverified("the amount of %d row(s) could not be read and was taken from the change in the balance; check them against the page", lost)
	case p.Proven < len(txs):
		return unverified("the printed balances check the first %d transaction(s); nothing printed checks the %d after them", p.Proven, len(txs)-p.Proven)
	case unread > 0:
		return unverified("the balances agree, but the date of %d row(s) could not be read; check them against the page", unread)
	case against > 0:
		return unverified("the balances agree only with %d amount(s) counted against the Dr/Cr word printed beside them; check which way they went", against)
	case low > 0:
		// The balances prove the amounts; a date or a description read
		// with low confidence nothing proves.
		return unverified("the balances agree, but %d row(s) were recognised with low confidence: check their dates and descriptions against the page", low)
	case p.OCR && computed == len(txs) && !closing:
		// Printed totals prove the amounts, and a misread opening balance
		// would shift every balance unseen.
		return unverified("the printed totals prove the amounts, but the balances are counted from an opening balance that nothing printed after it checks")
	case p.DatesOutside > 0:
		return unverified("the amounts add up, but %d row(s) are dated outside the statement's period; check their dates against the page", p.DatesOutside)
	case p.YearAssumed:
		return unverified("the amounts add up, but the statement prints no year: the dates' year is taken from when the file was made (or converted), which nothing proves")
	case p.CardNamedOnce && p.Card:
		return unverified("read as the credit card the statement's title names; its rows print no balance and the amounts add up as a bank account's too, so which way the money went rests on that title")
	case p.CardNamedOnce:
		return unverified("the amounts add up, but the statement names a credit card once and its rows print no balance: nothing printed says whether they are a card's or a bank account's, which way the money went")
	case p.KindOpen:
		return unverified("the amounts add up, but nothing printed in words the engine reads says whether these are a bank account's rows or a credit card's, and no row prints a balance: read as a bank account's, which way the money went is not proven")
	case p.DateGuessed:
		return unverified("the amounts add up, but the rows print two dates that differ, and nothing printed says which is the booking date")
	case p.CardByLayout:
		return unverified("laid out as a credit card's statement (no running balance, most amounts positive as a card prints purchases): the amounts add up, but nothing printed says which way the money went")
	case p.Corrections > 0:
		return Reconciliation{Status: ReconcileOK, Message: fmt.Sprintf("opening balance plus money in minus money out meets every printed balance after %d OCR correction(s)", p.Corrections)}
	case p.Totals > 0:
		return Reconciliation{Status: ReconcileOK, Message: fmt.Sprintf("opening balance plus money in minus money out meets all %d printed balance(s) and total(s)", p.Checks)}
	}
	return Reconciliation{Status: ReconcileOK, Message: fmt.Sprintf("opening balance plus money in minus money out meets all %d printed balance(s)", p.Checks)}
}

// judgeAccounts sums up the accounts' reconciliations for the document:
// mismatch when any breaks (its rows counted in the document's list), ok
// when every account is proven, unverified otherwise. rows[i] are the
// document's indexes of account i's rows.
func JudgeAccounts(accts []Account, rows [][]int) Reconciliation {
	rec := Reconciliation{Status: ReconcileOK}
	var ok, none int
	for i := range accts {
		r := &accts[i].Reconciliation
		// An account's rows are numbered in the document, as the
		// document's are (rows[i] are account i's).
		for k, row := range r.Rows {
			r.Rows[k] = rows[i][row]
		}
		switch r.Status {
		case ReconcileMismatch:
			rec.Status = ReconcileMismatch
			if rec.Difference == nil {
				rec.Difference = r.Difference
			}
			rec.Rows = append(rec.Rows, r.Rows...)
		case ReconcileOK:
			ok++
		case ReconcileNoTransactions:
			none++
		}
	}
	switch {
	case rec.Status == ReconcileMismatch:
		rec.Message = fmt.Sprintf("the running balance breaks at %d row(s) over %d accounts; the first difference is %s", len(rec.Rows), len(accts), rec.Difference.StringFixed(2))
	case none == len(accts):
		rec.Status, rec.Message = ReconcileNoTransactions, "the document holds no transactions"
	case ok+none == len(accts):
		rec.Message = fmt.Sprintf("each of the %d accounts' balances meets its rows", len(accts))
	default:
		rec.Status = ReconcileUnverified
		rec.Message = fmt.Sprintf("%d of the %d accounts print nothing that proves all their rows", len(accts)-ok-none, len(accts))
	}
	return rec
}

// breakAt notes a row where the balance chain breaks by diff (printed
// minus computed).
func (p *Proof) BreakAt(i int, diff decimal.Decimal) {
	if p.Difference == nil {
		p.Difference = &diff
	}
	if i < 0 {
		i = 0
	}
	if n := len(p.Breaks); n == 0 || p.Breaks[n-1] != i {
		p.Breaks = append(p.Breaks, i)
	}
}

// checkTotals checks the statement's printed sums of money in and out
// against the rows: each check counts, and both agreeing prove every row.
func (p *Proof) CheckTotals(txs []Transaction, totalIn, totalOut *decimal.Decimal) {
	if len(txs) == 0 || totalIn == nil && totalOut == nil {
		return
	}
	in, out := sums(txs)
	ok := (totalIn == nil || totalIn.Equal(in)) && (totalOut == nil || totalOut.Equal(out))
	p.Checks++
	if ok && totalIn != nil && totalOut != nil {
		p.Proven = len(txs)
	}
	if !ok {
		diff := decimal.Zero
		if totalIn != nil {
			diff = diff.Add(totalIn.Sub(in))
		}
		if totalOut != nil {
			diff = diff.Sub(totalOut.Sub(out))
		}
		p.BreakAt(len(txs)-1, diff)
	}
}

// breakWarning is the warning on a row whose printed balance b does not
// follow from the balance before it, prev: want would.
func BreakWarning(b, prev, want decimal.Decimal) Warning {
	return Warning{Kind: WarnBalanceBreak, Printed: &b, Expected: &want,
		Message: fmt.Sprintf("printed balance %s does not follow from the previous balance %s", b.StringFixed(2), prev.StringFixed(2))}
}

// computedWarning is the warning on a row whose balance was computed.
func ComputedWarning() Warning {
	return Warning{Kind: WarnBalanceComputed, Message: "balance not printed: computed from the running balance"}
}

// fromZeroWarning is the warning on a row whose balance was counted from
// zero.
func FromZeroWarning() Warning {
	return Warning{Kind: WarnBalanceFromZero, Message: "no opening balance: balance counted from zero"}
}

// sums adds up the money in and out of txs.
func sums(txs []Transaction) (in, out decimal.Decimal) {
	for _, tx := range txs {
		if tx.AmountIn != nil {
			in = in.Add(*tx.AmountIn)
		}
		if tx.AmountOut != nil {
			out = out.Add(*tx.AmountOut)
		}
	}
	return in, out
}

// DatesOutside counts the rows dated outside the period [ps, pe] by more
// than slack, or, with no period, before 1900 or after 2200: years no
// statement prints (a Buddhist-era 2568 read as the common era's).
func DatesOutside(txs []Transaction, ps, pe *time.Time, slack time.Duration) int {
	n := 0
	for _, t := range txs {
		d := t.Date
		switch {
		case d.IsZero():
		case ps != nil && pe != nil && (d.Before(ps.Add(-slack)) || d.After(pe.Add(slack))):
			n++
		case d.Year() < 1900 || d.Year() > 2200:
			n++
		}
	}
	return n
}
