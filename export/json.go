package export

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract"
)

// jsonDocument is the body of GET /api/v1/download?format=json: the spec's
// fields first, with their exact names, then Passbook's statement summary.
type jsonDocument struct {
	Success          bool              `json:"success"`
	FileID           string            `json:"file_id"`
	TransactionCount int               `json:"transaction_count"`
	Transactions     []jsonTransaction `json:"transactions"`
	Statement        jsonStatement     `json:"statement"`
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
	// Page (from 1) and Box (x0, y0, x1, y1 in points from the page's
	// top-left) place the row on the document, when known.
	Page int         `json:"page,omitempty"`
	Box  *[4]float64 `json:"box,omitempty"`
	// Account is the row's account number when the document holds several.
	Account string `json:"account,omitempty"`
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
	// Edited is true when a person corrected the transactions after the
	// conversion; the reconciliation is then recomputed from their rows.
	Edited bool `json:"edited,omitempty"`
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
func writeJSON(w io.Writer, fileID string, res *extract.Result, edited bool) error {
	doc := jsonDocument{
		Success:          true,
		FileID:           fileID,
		TransactionCount: len(res.Transactions),
		Transactions:     make([]jsonTransaction, 0, len(res.Transactions)),
		Statement:        newJSONStatement(&res.Statement),
	}
	doc.Statement.Edited = edited
	for _, t := range res.Transactions {
		var box *[4]float64
		if t.Box != [4]float64{} {
			b := t.Box
			box = &b
		}
		doc.Transactions = append(doc.Transactions, jsonTransaction{
			Page:        t.Page,
			Box:         box,
			Account:     t.Account,
			Date:        t.Date.Format(dateLayout),
			Type:        t.Type(),
			Description: t.Description,
			AmountIn:    money(t.AmountIn),
			AmountOut:   money(t.AmountOut),
			Balance:     t.Balance.StringFixed(2),
			Warnings:    t.Warnings,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

func newJSONStatement(s *extract.Statement) jsonStatement {
	r := s.Reconciliation
	return jsonStatement{
		AccountNumber:  text(s.AccountNumber),
		PeriodStart:    date(s.PeriodStart),
		PeriodEnd:      date(s.PeriodEnd),
		Currency:       text(s.Currency),
		OpeningBalance: money(s.OpeningBalance),
		ClosingBalance: money(s.ClosingBalance),
		Reconciliation: jsonReconciliation{
			Status:     r.Status,
			Difference: money(r.Difference),
			Rows:       r.Rows,
			Message:    r.Message,
		},
		Warnings: s.Warnings,
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
