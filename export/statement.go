package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
)

// block is one account's statement: what OFX calls a STMTRS, CAMT.053 a
// Stmt and MT940 a message. A document with one account is one block.
type block struct {
	number   string // account number as printed; may be ""
	iban     string // the account's IBAN where the statement prints one (ledger.Statement.IBAN); may be ""
	currency string // ISO 4217 code, or ""
	start    *time.Time
	end      *time.Time
	opening  *decimal.Decimal
	closing  *decimal.Decimal
	rows     []row
	// status is the reconciliation status of this account's rows.
	status string
	// merged says the block joins several statements of one account (a
	// folder's), for the words of closingNote.
	merged bool
}

// row is a transaction with the id the statement formats give it.
type row struct {
	ledger.Transaction
	fitid string
	index int // position in Result.Transactions
	// source and sourceName name the document the row comes from, in a Set.
	source, sourceName string
}

// placed is a row with the block it belongs to.
type placed struct {
	row
	b *block
}

// documentOrder lists the rows of bs in the document's order.
func documentOrder(bs []block) []placed {
	var out []placed
	for i := range bs {
		for _, r := range bs[i].rows {
			out = append(out, placed{r, &bs[i]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

// blocks splits res into one block per account. Without Statement.Accounts
// the statement's own fields make the one block. With them, each account
// gets the rows that name it, in document order; a row naming an account
// the list lacks gets a block of its own (with no balances) rather than
// being dropped.
func blocks(res *ledger.Result) []block {
	s := &res.Statement
	if len(s.Accounts) == 0 {
		b := block{number: s.AccountNumber, iban: s.IBAN, currency: s.Currency, start: s.PeriodStart, end: s.PeriodEnd,
			opening: s.OpeningBalance, closing: s.ClosingBalance, status: s.Reconciliation.Status}
		for i, t := range res.Transactions {
			b.rows = append(b.rows, row{Transaction: t, index: i})
		}
		b.setFITIDs()
		return []block{b}
	}
	var out []block
	index := map[string]int{}
	for _, a := range s.Accounts {
		if _, dup := index[a.Number]; dup {
			continue
		}
		index[a.Number] = len(out)
		out = append(out, block{number: a.Number, iban: a.IBAN, currency: a.Currency, start: a.PeriodStart, end: a.PeriodEnd,
			opening: a.OpeningBalance, closing: a.ClosingBalance, status: a.Reconciliation.Status})
	}
	for n, t := range res.Transactions {
		i, ok := index[t.Account]
		if !ok {
			i = len(out)
			index[t.Account] = i
			out = append(out, block{number: t.Account, currency: s.Currency, status: s.Reconciliation.Status})
		}
		out[i].rows = append(out[i].rows, row{Transaction: t, index: n})
	}
	for i := range out {
		out[i].setFITIDs()
	}
	return out
}

// setFITIDs gives every row its FITID: the first 16 hex digits of the
// SHA-256 of the account, the date, the signed amount and the description,
// and the row's position among rows equal in all four. It depends on
// nothing else (no time, no randomness, no file id), so a re-download, or
// a second upload of the same statement, gives the same ids, and software
// that deduplicates by FITID imports each row once. Two identical rows (two
// coffees on one day) stay two: the second is number 1 of its kind.
func (b *block) setFITIDs() {
	seen := map[string]int{}
	for i := range b.rows {
		t := &b.rows[i]
		key := strings.Join([]string{b.number, t.Date.Format(dateLayout), signed(t.Transaction).StringFixed(2), t.Description}, "\x00")
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		t.fitid = strings.ToUpper(hex.EncodeToString(sum[:8]))
	}
}

// signed is the transaction's amount, negative for money out.
func signed(t ledger.Transaction) decimal.Decimal {
	if t.AmountIn != nil {
		return *t.AmountIn
	}
	if t.AmountOut != nil {
		return t.AmountOut.Neg()
	}
	return decimal.Zero
}

// openingBalance is the printed opening balance, or, when the statement
// prints none, the one its first row implies (that row's balance less its
// amount), or the closing balance of a statement without rows, or zero.
// OFX, CAMT.053 and MT940 all require one.
func (b *block) openingBalance() decimal.Decimal {
	switch {
	case b.opening != nil:
		return *b.opening
	case len(b.rows) > 0:
		return b.rows[0].Balance.Sub(signed(b.rows[0].Transaction))
	case b.closing != nil:
		return *b.closing
	}
	return decimal.Zero
}

// closingBalance is the closing balance the statement formats write: the
// opening balance plus the rows, each amount rounded to the cents it is
// written with. A reader that checks opening + entries = closing (mt940js
// refuses a statement that does not add up: "Sum of lines != turnover")
// then accepts every export, also of a statement that does not reconcile;
// what that statement itself shows is in shownClosing, and the formats
// that have a place for it carry it beside (closingNote).
func (b *block) closingBalance() decimal.Decimal {
	c := b.openingBalance().Round(2)
	for _, r := range b.rows {
		c = c.Add(signed(r.Transaction).Round(2))
	}
	return c
}

// shownClosing is the closing balance the statement itself shows: the
// printed one, or its last row's balance; false when it shows neither.
func (b *block) shownClosing() (decimal.Decimal, bool) {
	switch {
	case b.closing != nil:
		return *b.closing, true
	case len(b.rows) > 0:
		return b.rows[len(b.rows)-1].Balance, true
	}
	return decimal.Decimal{}, false
}

// closingNote says, for a statement whose shown closing balance is not the
// one its rows give, what it shows and by how much they differ; "" when
// they agree.
func (b *block) closingNote() string {
	shown, ok := b.shownClosing()
	rows := b.closingBalance()
	if !ok || shown.Round(2).Equal(rows) {
		return ""
	}
	subject := "The statement shows"
	if b.merged {
		subject = "The last statement shows"
	}
	return fmt.Sprintf("%s a closing balance of %s; its rows give %s (difference %s).",
		subject, shown.StringFixed(2), rows.StringFixed(2), shown.Round(2).Sub(rows).StringFixed(2))
}

// startDate is the period's first day: printed, or the earliest row's
// date, or the end date, or (for a statement that says nothing) the day
// the file is made.
func (b *block) startDate(created time.Time) time.Time {
	if b.start != nil {
		return *b.start
	}
	if len(b.rows) > 0 {
		d := b.rows[0].Date
		for _, r := range b.rows {
			if r.Date.Before(d) {
				d = r.Date
			}
		}
		return d
	}
	if b.end != nil {
		return *b.end
	}
	return midnight(created)
}

// endDate is the period's last day: printed, or the latest row's date, or
// the start date.
func (b *block) endDate(created time.Time) time.Time {
	if b.end != nil {
		return *b.end
	}
	if len(b.rows) > 0 {
		d := b.rows[0].Date
		for _, r := range b.rows {
			if r.Date.After(d) {
				d = r.Date
			}
		}
		return d
	}
	return b.startDate(created)
}

// currencyCode is the block's currency as ISO 4217 letters, or XXX, ISO
// 4217's code for "no currency", when the statement names none that fits.
func (b *block) currencyCode() string {
	c := strings.ToUpper(strings.TrimSpace(b.currency))
	if len(c) != 3 || strings.Trim(c, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return "XXX"
	}
	return c
}

// midnight is t's calendar date at midnight UTC.
func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// oneLine is text for a format that has no line breaks in a field: valid
// UTF-8, every run of white space (line breaks and tabs included) one
// space, control characters dropped, trimmed.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u00a0' || r == '\u2028' || r == '\u2029':
			space = true
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\uFFFE' || r == '\uFFFF':
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// truncate cuts s to at most n characters (runes).
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
