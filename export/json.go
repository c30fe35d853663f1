package export

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
)

// jsonDocument is the body of GET /api/v1/download?format=json: the spec's
// fields first, with their exact names, then Passbook's statement summary.
type jsonDocument struct {
	Success          bool              `json:"success"`
	FileID           string            `json:"file_id"`
	TransactionCount int               `json:"transaction_count"`
	Transactions     []jsonTransaction `json:"transactions"`
	Statement        jsonStatement     `json:"statement"`
	// Integrity is the report on signs, in the file itself, that the
	// statement was altered (extract/integrity); left out for a result
	// converted before there were reports.
	Integrity *jsonIntegrity `json:"integrity,omitempty"`
}

// jsonIntegrity is the integrity report: each signal with its code,
// severity, page, box and evidence, and a one-line summary. How the file
// was built (ledger.Profile) stays in the stored result, for folders.
type jsonIntegrity struct {
	Signals []ledger.Signal `json:"signals"`
	Summary string          `json:"summary"`
}

// jsonTransaction is one element of transactions. A struct, not a map, so
// that the fields come out in the spec's order.
type jsonTransaction struct {
	Date        string   `json:"date"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	AmountIn    *string  `json:"amountIn"`
	AmountOut   *string  `json:"amountOut"`
	Balance     string   `json:"balance"`
	Warnings    []string `json:"warnings,omitempty"`
	// WarningDetails are the warnings as facts, in the same order: each
	// with its kind (extract.WarningKind) and the values it names, for a
	// program; it reads these, never the messages.
	WarningDetails []ledger.Warning `json:"warning_details,omitempty"`
	// Provenance says which of the row's values the document prints and
	// which the conversion inferred; left out when all are printed.
	Provenance *ledger.Provenance `json:"provenance,omitempty"`
	// Page is where the row was read (from 1); left out when unknown.
	Page int `json:"page,omitempty"`
	// Box is the row's extent on its page, [x0, y0, x1, y1] in PDF points
	// from the top-left corner; left out when unknown.
	Box *[4]float64 `json:"box,omitempty"`
	// Account is the row's account in a document holding several.
	Account string `json:"account,omitempty"`
	// FileID is, in a folder's download, the document the row comes from.
	FileID string `json:"file_id,omitempty"`
}

// jsonStatement is what the document says about itself. Unknown values are
// null rather than "" so that a client need not guess what empty means.
type jsonStatement struct {
	AccountNumber  *string            `json:"account_number"`
	PeriodStart    *string            `json:"period_start"`
	PeriodEnd      *string            `json:"period_end"`
	Currency       *string            `json:"currency"`
	OpeningBalance *string            `json:"opening_balance"`
	ClosingBalance *string            `json:"closing_balance"`
	Reconciliation jsonReconciliation `json:"reconciliation"`
	// Warnings are notes on the whole document, such as a page that
	// could not be read.
	Warnings []string `json:"warnings,omitempty"`
	// Accounts lists each account of a document that holds several.
	Accounts []jsonAccount `json:"accounts,omitempty"`
	// Bank and Holder name the issuing institution and the account's
	// holder, only when the document (or a correction) names them.
	Bank   string `json:"bank,omitempty"`
	Holder string `json:"holder,omitempty"`
	// IBAN is the account's IBAN, without spaces, where the statement
	// prints one beside (or as) its account number; left out otherwise.
	IBAN string `json:"iban,omitempty"`
	// MoneyColumns are the statement's money columns in the order it
	// prints them: "out", "in", "amount" (one signed column) and
	// "balance"; left out when unknown.
	MoneyColumns []string `json:"money_columns,omitempty"`
	// Edited is true when a person corrected the transactions after the
	// conversion; the reconciliation is then recomputed from their rows.
	Edited bool `json:"edited,omitempty"`
}

// jsonAccount is one account of a document that holds several, with the
// statement's field names.
type jsonAccount struct {
	AccountNumber  *string            `json:"account_number"`
	IBAN           string             `json:"iban,omitempty"`
	Currency       *string            `json:"currency"`
	PeriodStart    *string            `json:"period_start"`
	PeriodEnd      *string            `json:"period_end"`
	OpeningBalance *string            `json:"opening_balance"`
	ClosingBalance *string            `json:"closing_balance"`
	Reconciliation jsonReconciliation `json:"reconciliation"`
}

// jsonReconciliation reports whether the running balance holds.
type jsonReconciliation struct {
	Status     string  `json:"status"`
	Difference *string `json:"difference,omitempty"`
	Rows       []int   `json:"rows,omitempty"`
	Message    string  `json:"message"`
}

// writeJSON writes res as the JSON download body. HTML escaping is off:
// this is a download, not a page, and "&" reads better than "\u0026".
func writeJSON(w io.Writer, fileID string, res *ledger.Result, edited bool) error {
	doc := jsonDocument{
		Success:          true,
		FileID:           fileID,
		TransactionCount: len(res.Transactions),
		Transactions:     make([]jsonTransaction, 0, len(res.Transactions)),
		Statement:        newJSONStatement(&res.Statement),
	}
	doc.Statement.Edited = edited
	if in := res.Integrity; in != nil {
		doc.Integrity = &jsonIntegrity{Signals: in.Signals, Summary: in.Summary}
		if doc.Integrity.Signals == nil {
			doc.Integrity.Signals = []ledger.Signal{}
		}
	}
	for _, t := range res.Transactions {
		doc.Transactions = append(doc.Transactions, newJSONTransaction(t))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

func newJSONTransaction(t ledger.Transaction) jsonTransaction {
	jt := jsonTransaction{
		Date:        t.Date.Format(dateLayout),
		Type:        t.Type(),
		Description: t.Description,
		AmountIn:    money(t.AmountIn),
		AmountOut:   money(t.AmountOut),
		Balance:     t.Balance.StringFixed(2),
		Warnings:    t.WarningTexts(),
		Page:        t.Page,
		Account:     t.Account,
	}
	if len(t.Warnings) > 0 {
		jt.WarningDetails = t.Warnings
	}
	if t.Provenance != (ledger.Provenance{}) {
		p := t.Provenance
		jt.Provenance = &p
	}
	if t.Box != [4]float64{} {
		box := t.Box
		jt.Box = &box
	}
	return jt
}

func newJSONStatement(s *ledger.Statement) jsonStatement {
	js := jsonStatement{
		AccountNumber:  text(s.AccountNumber),
		PeriodStart:    date(s.PeriodStart),
		PeriodEnd:      date(s.PeriodEnd),
		Currency:       text(s.Currency),
		OpeningBalance: money(s.OpeningBalance),
		ClosingBalance: money(s.ClosingBalance),
		Reconciliation: newJSONReconciliation(s.Reconciliation),
		Warnings:       s.Warnings,
		Bank:           s.Bank,
		Holder:         s.Holder,
		IBAN:           s.IBAN,
		MoneyColumns:   s.MoneyColumns,
	}
	for _, a := range s.Accounts {
		js.Accounts = append(js.Accounts, jsonAccount{
			AccountNumber:  text(a.Number),
			IBAN:           a.IBAN,
			Currency:       text(a.Currency),
			PeriodStart:    date(a.PeriodStart),
			PeriodEnd:      date(a.PeriodEnd),
			OpeningBalance: money(a.OpeningBalance),
			ClosingBalance: money(a.ClosingBalance),
			Reconciliation: newJSONReconciliation(a.Reconciliation),
		})
	}
	return js
}

func newJSONReconciliation(r ledger.Reconciliation) jsonReconciliation {
	return jsonReconciliation{
		Status:     r.Status,
		Difference: money(r.Difference),
		Rows:       r.Rows,
		Message:    r.Message,
	}
}

// money is d as decimal text with exactly two decimals, or nil for nil.
func money(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := d.StringFixed(2)
	return &s
}

// date is t as YYYY-MM-DD, or nil for nil.
func date(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(dateLayout)
	return &s
}

// text is s, or nil when s is empty.
func text(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
