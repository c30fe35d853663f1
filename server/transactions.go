package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"passbook/store"
)

// transactionHit is one transaction GET /api/v1/transactions finds.
type transactionHit struct {
	FileID       string  `json:"file_id"`
	OriginalName string  `json:"original_name"`
	Row          int     `json:"row"`
	Date         string  `json:"date"`
	Description  string  `json:"description"`
	AmountIn     *string `json:"amountIn"`
	AmountOut    *string `json:"amountOut"`
	Balance      string  `json:"balance"`
	Account      string  `json:"account"`
}

// handleTransactions finds transactions across the office's converted
// documents, or a folder's (folder_id): q (words of the description or
// the account), account, min and max (the amount's size, either way),
// from and to (dates, included). The server searches its index of rows
// (on both stores), never the page over what it loaded. Newest first, at
// most limit (200).
func (s *Server) handleTransactions(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	bad := func(what, hint string) {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_query", "The " + what + " parameter is not valid.", hint})
	}
	q := store.TransactionQuery{AccountID: account(r).ID, Text: strings.TrimSpace(v.Get("q")), Account: strings.TrimSpace(v.Get("account"))}
	if len(q.Text) > 200 || len(q.Account) > 64 {
		bad("q or account", "q is up to 200 characters, account up to 64.")
		return
	}
	for _, p := range []struct {
		name string
		to   **int64
	}{{"min", &q.Min}, {"max", &q.Max}} {
		raw := strings.TrimSpace(v.Get(p.name))
		if raw == "" {
			continue
		}
		d, err := decimal.NewFromString(raw)
		if err != nil || d.IsNegative() || d.GreaterThan(decimal.New(1, 13)) {
			bad(p.name, "Send an amount like 120.50 (its size: money in and out alike).")
			return
		}
		n := d.Shift(2).Round(0).IntPart()
		*p.to = &n
	}
	for _, p := range []struct {
		name string
		to   *string
	}{{"from", &q.From}, {"to", &q.To}} {
		raw := strings.TrimSpace(v.Get(p.name))
		if raw == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, raw); err != nil {
			bad(p.name, "Send a date as YYYY-MM-DD.")
			return
		}
		*p.to = raw
	}
	if fid := v.Get("folder_id"); fid != "" {
		f, err := s.ownFolder(r, fid)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		q.FolderID = f.ID
	}
	// Every converted document's rows are in the index first.
	if _, err := s.documentLabels(r.Context(), q.AccountID, maxLabelBatches); err != nil {
		s.fail(w, r, err)
		return
	}
	hits, err := s.store.SearchTransactions(r.Context(), q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]transactionHit, 0, len(hits))
	for _, h := range hits {
		t := transactionHit{FileID: h.DocumentID, OriginalName: h.OriginalName, Row: h.Row, Date: h.Date, Description: h.Description,
			Balance: h.Balance, Account: h.Account}
		a := decimal.New(h.Amount, -2).Abs().StringFixed(2)
		if h.Amount >= 0 {
			t.AmountIn = &a
		} else {
			t.AmountOut = &a
		}
		out = append(out, t)
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "transactions": out})
}
