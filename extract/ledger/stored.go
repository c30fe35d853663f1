package ledger

import (
	"passbook/extract/source"
	"sync"

	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// ResultVersion is the version of the stored form of a Result that
// MarshalJSON writes. A result is stored (and crosses the worker's pipe)
// in this form, not as whatever the engine's types are today; version 0
// is the form stored before there were versions: the Go field names of
// Result, with warnings as bare text.
const ResultVersion = 1

// storedResult is the stored form of a Result, version 1.
type storedResult struct {
	Version      int                 `json:"version"`
	PageCount    int                 `json:"page_count"`
	Transactions []storedTransaction `json:"transactions"`
	Statement    storedStatement     `json:"statement"`
	Integrity    *Integrity          `json:"integrity,omitempty"`
}

type storedTransaction struct {
	Date        time.Time        `json:"date"`
	Description string           `json:"description"`
	AmountIn    *decimal.Decimal `json:"amount_in,omitempty"`
	AmountOut   *decimal.Decimal `json:"amount_out,omitempty"`
	Balance     decimal.Decimal  `json:"balance"`
	Warnings    []Warning        `json:"warnings,omitempty"`
	Provenance  *Provenance      `json:"provenance,omitempty"`
	Account     string           `json:"account,omitempty"`
	Page        int              `json:"page,omitempty"`
	Box         *[4]float64      `json:"box,omitempty"`
}

type storedReconciliation struct {
	Status     string           `json:"status"`
	Difference *decimal.Decimal `json:"difference,omitempty"`
	Rows       []int            `json:"rows,omitempty"`
	Message    string           `json:"message"`
}

type storedStatement struct {
	AccountNumber  string               `json:"account_number,omitempty"`
	Bank           string               `json:"bank,omitempty"`
	Holder         string               `json:"holder,omitempty"`
	IBAN           string               `json:"iban,omitempty"`
	MoneyColumns   []string             `json:"money_columns,omitempty"`
	PeriodStart    *time.Time           `json:"period_start,omitempty"`
	PeriodEnd      *time.Time           `json:"period_end,omitempty"`
	Currency       string               `json:"currency,omitempty"`
	OpeningBalance *decimal.Decimal     `json:"opening_balance,omitempty"`
	ClosingBalance *decimal.Decimal     `json:"closing_balance,omitempty"`
	TotalIn        *decimal.Decimal     `json:"total_in,omitempty"`
	TotalOut       *decimal.Decimal     `json:"total_out,omitempty"`
	Reconciliation storedReconciliation `json:"reconciliation"`
	Proof          Proof                `json:"proof"`
	Warnings       []string             `json:"warnings,omitempty"`
	Accounts       []storedAccount      `json:"accounts,omitempty"`
}

type storedAccount struct {
	Number         string               `json:"number"`
	IBAN           string               `json:"iban,omitempty"`
	Currency       string               `json:"currency,omitempty"`
	PeriodStart    *time.Time           `json:"period_start,omitempty"`
	PeriodEnd      *time.Time           `json:"period_end,omitempty"`
	OpeningBalance *decimal.Decimal     `json:"opening_balance,omitempty"`
	ClosingBalance *decimal.Decimal     `json:"closing_balance,omitempty"`
	Reconciliation storedReconciliation `json:"reconciliation"`
	Proof          Proof                `json:"proof"`
}

// MarshalJSON writes r in its stored form (version ResultVersion).
func (r Result) MarshalJSON() ([]byte, error) {
	s := storedResult{Version: ResultVersion, PageCount: r.PageCount, Transactions: make([]storedTransaction, len(r.Transactions)), Integrity: r.Integrity}
	for i, t := range r.Transactions {
		st := storedTransaction{Date: t.Date, Description: t.Description, AmountIn: t.AmountIn, AmountOut: t.AmountOut,
			Balance: t.Balance, Warnings: t.Warnings, Account: t.Account, Page: t.Page}
		if t.Provenance != (Provenance{}) {
			p := t.Provenance
			st.Provenance = &p
		}
		if t.Box != [4]float64{} {
			b := t.Box
			st.Box = &b
		}
		s.Transactions[i] = st
	}
	st := r.Statement
	s.Statement = storedStatement{AccountNumber: st.AccountNumber, Bank: st.Bank, Holder: st.Holder, IBAN: st.IBAN, MoneyColumns: st.MoneyColumns, PeriodStart: st.PeriodStart, PeriodEnd: st.PeriodEnd,
		Currency: st.Currency, OpeningBalance: st.OpeningBalance, ClosingBalance: st.ClosingBalance,
		TotalIn: st.TotalIn, TotalOut: st.TotalOut, Reconciliation: storedReconciliation(st.Reconciliation),
		Proof: st.Proof, Warnings: st.Warnings}
	for _, a := range st.Accounts {
		s.Statement.Accounts = append(s.Statement.Accounts, storedAccount{Number: a.Number, IBAN: a.IBAN, Currency: a.Currency,
			PeriodStart: a.PeriodStart, PeriodEnd: a.PeriodEnd, OpeningBalance: a.OpeningBalance, ClosingBalance: a.ClosingBalance,
			Reconciliation: storedReconciliation(a.Reconciliation), Proof: a.Proof})
	}
	return json.Marshal(s)
}

// UnmarshalJSON reads a stored result of any version, migrating an older
// one to today's Result.
func (r *Result) UnmarshalJSON(b []byte) error {
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v.Version {
	case 0:
		return r.fromVersion0(b)
	case ResultVersion:
	default:
		return fmt.Errorf("a stored result of version %d: this build reads up to %d", v.Version, ResultVersion)
	}
	var s storedResult
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*r = Result{PageCount: s.PageCount, Transactions: make([]Transaction, len(s.Transactions)), Integrity: s.Integrity}
	for i, t := range s.Transactions {
		tx := Transaction{Date: t.Date, Description: t.Description, AmountIn: t.AmountIn, AmountOut: t.AmountOut,
			Balance: t.Balance, Warnings: t.Warnings, Account: t.Account, Page: t.Page}
		if t.Provenance != nil {
			tx.Provenance = *t.Provenance
		}
		if t.Box != nil {
			tx.Box = *t.Box
		}
		r.Transactions[i] = tx
	}
	st := s.Statement
	r.Statement = Statement{AccountNumber: st.AccountNumber, Bank: st.Bank, Holder: st.Holder, IBAN: st.IBAN, MoneyColumns: st.MoneyColumns, PeriodStart: st.PeriodStart, PeriodEnd: st.PeriodEnd,
		Currency: st.Currency, OpeningBalance: st.OpeningBalance, ClosingBalance: st.ClosingBalance,
		TotalIn: st.TotalIn, TotalOut: st.TotalOut, Reconciliation: Reconciliation(st.Reconciliation),
		Proof: st.Proof, Warnings: st.Warnings}
	for _, a := range st.Accounts {
		r.Statement.Accounts = append(r.Statement.Accounts, Account{Number: a.Number, IBAN: a.IBAN, Currency: a.Currency,
			PeriodStart: a.PeriodStart, PeriodEnd: a.PeriodEnd, OpeningBalance: a.OpeningBalance, ClosingBalance: a.ClosingBalance,
			Reconciliation: Reconciliation(a.Reconciliation), Proof: a.Proof})
	}
	return nil
}

// version0Result is a result as stored before versions: Result's Go
// fields as encoding/json wrote them, warnings as bare text.
type version0Result struct {
	PageCount    int
	Transactions []struct {
		Date                time.Time
		Description         string
		AmountIn, AmountOut *decimal.Decimal
		Balance             decimal.Decimal
		Warnings            []string
		Account             string
		Page                int
		Box                 [4]float64
	}
	Statement struct {
		AccountNumber                                     string
		PeriodStart, PeriodEnd                            *time.Time
		Currency                                          string
		OpeningBalance, ClosingBalance, TotalIn, TotalOut *decimal.Decimal
		Reconciliation                                    Reconciliation
		Warnings                                          []string
		Accounts                                          []struct {
			Number                         string
			Currency                       string
			PeriodStart, PeriodEnd         *time.Time
			OpeningBalance, ClosingBalance *decimal.Decimal
			Reconciliation                 Reconciliation
		}
	}
}

// fromVersion0 migrates a result stored before versions. Its rows'
// warnings were text; each becomes the warning and the provenance that
// text said. This is the one place warning text is read, and only text
// that stored results hold: the conversion no longer writes any.
// What the reading proved beyond the rows was not stored: the proof is
// left empty, and the stored reconciliation stands until a correction
// is rechecked.
func (r *Result) fromVersion0(b []byte) error {
	var o version0Result
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&o); err != nil {
		return err
	}
	*r = Result{PageCount: o.PageCount, Transactions: make([]Transaction, len(o.Transactions))}
	for i, t := range o.Transactions {
		tx := Transaction{Date: t.Date, Description: t.Description, AmountIn: t.AmountIn, AmountOut: t.AmountOut,
			Balance: t.Balance, Account: t.Account, Page: t.Page, Box: t.Box}
		for _, w := range t.Warnings {
			tx.Warnings = append(tx.Warnings, version0Warning(w, &tx.Provenance))
		}
		r.Transactions[i] = tx
	}
	st := o.Statement
	r.Statement = Statement{AccountNumber: st.AccountNumber, PeriodStart: st.PeriodStart, PeriodEnd: st.PeriodEnd,
		Currency: st.Currency, OpeningBalance: st.OpeningBalance, ClosingBalance: st.ClosingBalance,
		TotalIn: st.TotalIn, TotalOut: st.TotalOut, Reconciliation: st.Reconciliation, Warnings: st.Warnings}
	for _, a := range st.Accounts {
		r.Statement.Accounts = append(r.Statement.Accounts, Account{Number: a.Number, Currency: a.Currency,
			PeriodStart: a.PeriodStart, PeriodEnd: a.PeriodEnd, OpeningBalance: a.OpeningBalance, ClosingBalance: a.ClosingBalance,
			Reconciliation: a.Reconciliation})
	}
	return nil
}

// version0Texts are the openings of the warning texts that version 0
// results hold, with the kind each is and what it says of the row.
var version0Texts = []struct {
	prefix string
	kind   WarningKind
	set    func(*Provenance)
}{
	{"balance not printed", WarnBalanceComputed, func(p *Provenance) { p.BalanceComputed = true }},
	{"no opening balance", WarnBalanceFromZero, func(p *Provenance) { p.BalanceFromZero = true }},
	{"direction unknown", WarnDirectionUnknown, func(p *Provenance) { p.DirectionGuessed = true }},
	{"direction inferred from the running balance", WarnDirectionFromBalance, func(p *Provenance) { p.DirectionFromBalance = true }},
	{"printed balance ", WarnBalanceBreak, func(*Provenance) {}},
	{"the date printed on this row could not be read", WarnDateUnread, func(p *Provenance) { p.DateUnread = true }},
	{"no date printed on this row", WarnDateFromAbove, func(p *Provenance) { p.DateFromAbove = true }},
	{"date could not be read: ", WarnDateUnresolved, func(*Provenance) {}},
	{"amount not readable", WarnAmountFromBalance, func(p *Provenance) { p.AmountFromBalance = true }},
	{"OCR correction", WarnOCRCorrection, func(*Provenance) {}},
	{"recognised with low confidence", WarnLowConfidence, func(p *Provenance) { p.LowConfidence = source.LowConf }},
}

// confidenceText finds the confidence a version 0 low-confidence
// warning printed ("recognised with low confidence (41%)").
var confidenceText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\((\d+)%\)`) })

// version0Warning is the warning a version 0 text w was, and what it
// said of the row, set in p.
func version0Warning(w string, p *Provenance) Warning {
	for _, t := range version0Texts {
		if !strings.HasPrefix(w, t.prefix) {
			continue
		}
		t.set(p)
		out := Warning{Kind: t.kind, Message: w}
		if t.kind == WarnLowConfidence {
			if m := confidenceText().FindStringSubmatch(w); m != nil {
				if c, err := strconv.ParseFloat(m[1], 64); err == nil && c > 0 {
					p.LowConfidence, out.Confidence = c, c
				}
			}
		}
		return out
	}
	return Warning{Kind: WarnNote, Message: w}
}
