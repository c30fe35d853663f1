package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"passbook/export"
	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/store"
)

// Bounds of a correction.
const (
	maxEditBytes        = 16 << 20
	maxEditTransactions = 50_000
	maxDescription      = 2000
)

// editVersion is the version of storedEdit written now.
const editVersion = 1

// storedEdit is a person's corrected transactions as kept beside the
// original result: the download's Transaction shape, validated.
type storedEdit struct {
	Version      int               `json:"version"`
	Transactions []editTransaction `json:"transactions"`
	// Statement holds corrections of the statement's header, when a
	// person made any: they replace what the converter read, in every
	// download and in folders.
	Statement *editStatement `json:"statement,omitempty"`
}

// editStatement is a correction of a statement's header: each field given
// replaces what the converter read (or did not find); a field left out
// keeps it. The names are the JSON download's statement fields. A
// document that holds several accounts has its accounts' details
// corrected in Accounts, each naming its account by its place in the
// statement's accounts; the bank and holder are the document's.
type editStatement struct {
	editHeader
	Bank     *string       `json:"bank,omitempty"`
	Holder   *string       `json:"holder,omitempty"`
	Accounts []editAccount `json:"accounts,omitempty"`
}

// editHeader is the correction of one account's details.
type editHeader struct {
	AccountNumber  *string `json:"account_number,omitempty"`
	Currency       *string `json:"currency,omitempty"`
	PeriodStart    *string `json:"period_start,omitempty"`
	PeriodEnd      *string `json:"period_end,omitempty"`
	OpeningBalance *string `json:"opening_balance,omitempty"`
	ClosingBalance *string `json:"closing_balance,omitempty"`
}

// editAccount corrects account Index (from 0) of statement.accounts.
type editAccount struct {
	Index int `json:"index"`
	editHeader
}

var currencyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{3}$`) })

// badStatement is a header correction the API cannot take.
func badStatement(format string, a ...any) error {
	return &apiError{http.StatusBadRequest, "invalid_statement", fmt.Sprintf(format, a...),
		`Send "statement": {"account_number": "...", "currency": "EUR", "period_start": "2024-01-01", "period_end": "2024-01-31", "opening_balance": "100.00", "closing_balance": "-3.20", "bank": "...", "holder": "..."}, any of them; for a document of several accounts, "accounts": [{"index": 0, "opening_balance": "100.00"}].`}
}

// check validates the correction, writing it in the stored form (currency
// in capitals, amounts with two decimals, names trimmed).
func (e *editStatement) check() error {
	if err := e.editHeader.check(); err != nil {
		return err
	}
	for _, n := range []struct {
		name string
		v    **string
	}{{"bank", &e.Bank}, {"holder", &e.Holder}} {
		if *n.v == nil {
			continue
		}
		v := strings.Join(strings.Fields(**n.v), " ")
		if utf8.RuneCountInString(v) > 200 || strings.IndexFunc(**n.v, func(r rune) bool { return unicode.IsControl(r) && r != ' ' }) >= 0 {
			return badStatement("The %s must be up to 200 characters on one line (empty when the statement names none).", n.name)
		}
		*n.v = &v
	}
	seen := map[int]bool{}
	for i := range e.Accounts {
		a := &e.Accounts[i]
		if a.Index < 0 || seen[a.Index] {
			return badStatement("accounts[%d]: index %d is not a place in the statement's accounts, or is named twice.", i, a.Index)
		}
		seen[a.Index] = true
		if err := a.editHeader.check(); err != nil {
			return err
		}
	}
	return nil
}

// check validates one account's correction, writing it in the stored form.
func (e *editHeader) check() error {
	if e.AccountNumber != nil {
		a := strings.TrimSpace(*e.AccountNumber)
		if a == "" || utf8.RuneCountInString(a) > 64 || strings.IndexFunc(a, unicode.IsControl) >= 0 {
			return badStatement("The account number must be 1 to 64 characters on one line.")
		}
		e.AccountNumber = &a
	}
	if e.Currency != nil {
		c := strings.ToUpper(strings.TrimSpace(*e.Currency))
		if !currencyRe().MatchString(c) {
			return badStatement("The currency %q is not a three-letter code such as EUR.", *e.Currency)
		}
		e.Currency = &c
	}
	var start, end time.Time
	for _, d := range []struct {
		name string
		v    *string
		t    *time.Time
	}{{"period_start", e.PeriodStart, &start}, {"period_end", e.PeriodEnd, &end}} {
		if d.v == nil {
			continue
		}
		t, err := time.Parse("2006-01-02", *d.v)
		if err != nil {
			return badStatement("%s %q is not a date written YYYY-MM-DD.", d.name, *d.v)
		}
		*d.t = t
	}
	if e.PeriodStart != nil && e.PeriodEnd != nil && end.Before(start) {
		return badStatement("The period ends (%s) before it starts (%s).", *e.PeriodEnd, *e.PeriodStart)
	}
	for _, m := range []struct {
		name string
		v    **string
	}{{"opening_balance", &e.OpeningBalance}, {"closing_balance", &e.ClosingBalance}} {
		if *m.v == nil {
			continue
		}
		if !moneyRe().MatchString(**m.v) {
			return badStatement("%s %q is not a decimal amount such as -3.20.", m.name, **m.v)
		}
		f := decimal.RequireFromString(**m.v).StringFixed(2)
		*m.v = &f
	}
	return nil
}

// apply puts the correction into st. It returns the accounts renamed (the
// number read to the corrected one), whose rows carry the old number.
// Accounts named beyond st.Accounts are left out (the check refused them).
func (e *editStatement) apply(st *ledger.Statement) map[string]string {
	e.editHeader.apply(&st.AccountNumber, &st.Currency, &st.PeriodStart, &st.PeriodEnd, &st.OpeningBalance, &st.ClosingBalance)
	if e.Bank != nil {
		st.Bank = *e.Bank
	}
	if e.Holder != nil {
		st.Holder = *e.Holder
	}
	var renamed map[string]string
	for _, c := range e.Accounts {
		if c.Index >= len(st.Accounts) {
			continue
		}
		a := &st.Accounts[c.Index]
		was := a.Number
		c.editHeader.apply(&a.Number, &a.Currency, &a.PeriodStart, &a.PeriodEnd, &a.OpeningBalance, &a.ClosingBalance)
		if a.Number != was {
			if renamed == nil {
				renamed = map[string]string{}
			}
			renamed[was] = a.Number
		}
	}
	return renamed
}

// apply puts one account's correction into its fields.
func (e *editHeader) apply(number, currency *string, start, end **time.Time, opening, closing **decimal.Decimal) {
	if e.AccountNumber != nil {
		*number = *e.AccountNumber
	}
	if e.Currency != nil {
		*currency = *e.Currency
	}
	day := func(s *string) *time.Time {
		t, _ := time.Parse("2006-01-02", *s)
		return &t
	}
	if e.PeriodStart != nil {
		*start = day(e.PeriodStart)
	}
	if e.PeriodEnd != nil {
		*end = day(e.PeriodEnd)
	}
	if e.OpeningBalance != nil {
		v := decimal.RequireFromString(*e.OpeningBalance)
		*opening = &v
	}
	if e.ClosingBalance != nil {
		v := decimal.RequireFromString(*e.ClosingBalance)
		*closing = &v
	}
}

// empty says the correction changes nothing.
func (e *editStatement) empty() bool {
	return e == nil || e.editHeader == editHeader{} && e.Bank == nil && e.Holder == nil && len(e.Accounts) == 0
}

// editTransaction is one row of PUT /api/v1/documents/{file_id}/transactions:
// the JSON download's Transaction.
type editTransaction struct {
	Date        string  `json:"date"`
	Type        string  `json:"type,omitempty"`
	Description string  `json:"description"`
	AmountIn    *string `json:"amountIn"`
	AmountOut   *string `json:"amountOut"`
	Balance     string  `json:"balance"`
	// Warnings are read and dropped: a row's warnings and provenance are
	// the server's, carried from the stored conversion (extract.Recheck).
	// Edits stored before version 1's rows lost them still hold some.
	Warnings []string    `json:"warnings,omitempty"`
	Account  string      `json:"account,omitempty"`
	Page     int         `json:"page,omitempty"`
	Box      *[4]float64 `json:"box,omitempty"`
}

// moneyRe is the decimal text the API writes: a dot, no thousands separator.
var moneyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?[0-9]{1,15}(\.[0-9]{1,4})?$`) })

// toTransaction validates row i and turns it into a Transaction.
func (e editTransaction) toTransaction(i int) (ledger.Transaction, error) {
	bad := func(format string, a ...any) error {
		return &apiError{http.StatusBadRequest, "invalid_transactions",
			fmt.Sprintf("Row %d: ", i+1) + fmt.Sprintf(format, a...),
			"Each row needs a date (YYYY-MM-DD), exactly one of amountIn and amountOut as a positive decimal such as \"12.50\", and a balance such as \"-3.20\"."}
	}
	var t ledger.Transaction
	d, err := time.Parse("2006-01-02", e.Date)
	if err != nil {
		return t, bad("the date %q is not a date written YYYY-MM-DD.", e.Date)
	}
	t.Date = d
	if (e.AmountIn == nil) == (e.AmountOut == nil) {
		return t, bad("give exactly one of amountIn and amountOut.")
	}
	amount := func(name string, s *string) (*decimal.Decimal, error) {
		if s == nil {
			return nil, nil
		}
		if !moneyRe().MatchString(*s) {
			return nil, bad("%s %q is not a decimal amount such as 12.50.", name, *s)
		}
		v := decimal.RequireFromString(*s)
		if v.IsNegative() {
			return nil, bad("%s %q is negative: put money out in amountOut.", name, *s)
		}
		return &v, nil
	}
	if t.AmountIn, err = amount("amountIn", e.AmountIn); err != nil {
		return t, err
	}
	if t.AmountOut, err = amount("amountOut", e.AmountOut); err != nil {
		return t, err
	}
	if e.Type != "" && e.Type != t.Type() {
		return t, bad("type %q disagrees with the amount given (money in is CREDIT, money out is DEBIT).", e.Type)
	}
	if !moneyRe().MatchString(e.Balance) {
		return t, bad("the balance %q is not a decimal amount such as -3.20.", e.Balance)
	}
	t.Balance = decimal.RequireFromString(e.Balance)
	if len(e.Description) > maxDescription {
		return t, bad("the description is longer than %d characters.", maxDescription)
	}
	t.Description = e.Description
	t.Account, t.Page = e.Account, max(e.Page, 0)
	if e.Box != nil {
		t.Box = *e.Box
	}
	return t, nil
}

// fromTransaction is the stored form of a validated row.
func fromTransaction(t ledger.Transaction) editTransaction {
	e := editTransaction{Date: t.Date.Format("2006-01-02"), Type: t.Type(), Description: t.Description,
		Balance: t.Balance.StringFixed(2), Account: t.Account, Page: t.Page}
	if t.AmountIn != nil {
		s := t.AmountIn.StringFixed(2)
		e.AmountIn = &s
	}
	if t.AmountOut != nil {
		s := t.AmountOut.StringFixed(2)
		e.AmountOut = &s
	}
	if t.Box != [4]float64{} {
		b := t.Box
		e.Box = &b
	}
	return e
}

// servedResult is what downloads of a completed document serve: the
// original result, or, once a person saved corrections, the result with
// their transactions and a recomputed reconciliation (edited is then true).
func (s *Server) servedResult(ctx context.Context, id string) (res *ledger.Result, edited bool, err error) {
	rawEdit, err := s.store.Edit(ctx, id)
	if err != nil {
		return nil, false, err
	}
	res, err = s.servedResultWith(ctx, id, rawEdit)
	return res, rawEdit != nil, err
}

// servedResultWith is the original result with rawEdit, a storedEdit,
// applied; the original alone when rawEdit is nil.
func (s *Server) servedResultWith(ctx context.Context, id string, rawEdit []byte) (*ledger.Result, error) {
	raw, err := s.store.Result(ctx, id)
	if err != nil {
		return nil, err
	}
	return decodeServed(id, raw, rawEdit)
}

// decodeServed decodes a stored result and applies rawEdit, a storedEdit,
// when it is not nil, recomputing the reconciliation of the corrected rows.
func decodeServed(id string, raw, rawEdit []byte) (*ledger.Result, error) {
	res := new(ledger.Result)
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, fmt.Errorf("decode result of %s: %w", id, err)
	}
	if rawEdit == nil {
		return res, nil
	}
	var se storedEdit
	var err error
	if err = json.Unmarshal(rawEdit, &se); err != nil {
		return nil, fmt.Errorf("decode edit of %s: %w", id, err)
	}
	if se.Version != editVersion {
		return nil, fmt.Errorf("edit of %s has version %d, want %d", id, se.Version, editVersion)
	}
	var renamed map[string]string
	if se.Statement != nil {
		renamed = se.Statement.apply(&res.Statement)
	}
	// Rows follow a renamed account, the stored ones too: a corrected row
	// is matched to its stored row by its account among other things.
	for i := range res.Transactions {
		if to, ok := renamed[res.Transactions[i].Account]; ok {
			res.Transactions[i].Account = to
		}
	}
	txs := make([]ledger.Transaction, len(se.Transactions))
	for i, e := range se.Transactions {
		if txs[i], err = e.toTransaction(i); err != nil {
			return nil, fmt.Errorf("edit of %s: %w", id, err)
		}
		if to, ok := renamed[txs[i].Account]; ok {
			txs[i].Account = to
		}
	}
	// The rows' provenance and warnings come from the stored conversion,
	// never from the edit; each account is checked on its own rows.
	extract.Recheck(res.Transactions, txs, &res.Statement)
	res.Transactions = txs
	return res, nil
}

// editResponse answers a saved or reverted correction with the served
// document's new standing.
type editResponse struct {
	Success          bool                   `json:"success"`
	FileID           string                 `json:"file_id"`
	Edited           bool                   `json:"edited"`
	TransactionCount int                    `json:"transaction_count"`
	Reconciliation   reconciliationResponse `json:"reconciliation"`
}

type reconciliationResponse struct {
	Status     string  `json:"status"`
	Difference *string `json:"difference,omitempty"`
	Rows       []int   `json:"rows,omitempty"`
	Message    string  `json:"message"`
}

func newEditResponse(id string, res *ledger.Result, edited bool) editResponse {
	rec := res.Statement.Reconciliation
	out := editResponse{Success: true, FileID: id, Edited: edited, TransactionCount: len(res.Transactions),
		Reconciliation: reconciliationResponse{Status: rec.Status, Rows: rec.Rows, Message: rec.Message}}
	if rec.Difference != nil {
		d := rec.Difference.StringFixed(2)
		out.Reconciliation.Difference = &d
	}
	return out
}

// completedDocument loads the caller's document named in the path and
// insists it is converted.
func (s *Server) completedDocument(r *http.Request) (store.Document, error) {
	doc, err := s.ownDocumentID(r, mux.Vars(r)["file_id"])
	if err != nil {
		return doc, err
	}
	if doc.Status != store.StatusCompleted {
		return doc, &apiError{http.StatusConflict, "not_ready", "Only a converted document can be corrected.", "Wait until its status is completed."}
	}
	return doc, nil
}

// handleSaveEdit stores corrected transactions beside the original.
func (s *Server) handleSaveEdit(w http.ResponseWriter, r *http.Request) {
	doc, se, err := s.readEdit(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.storeEdit(w, r, doc, se, store.ActCorrect)
}

// checkResponse answers a correction checked but not stored: the
// reconciliation the server would store, and each row's balance as
// downloads would serve it (a balance the conversion computed is computed
// again from the corrected amounts).
type checkResponse struct {
	editResponse
	Balances []string `json:"balances"`
}

// handleCheckEdit judges corrected transactions as saving them would,
// through the same status function, and stores nothing: the review shows
// the server's verdict on a correction while it is being typed.
func (s *Server) handleCheckEdit(w http.ResponseWriter, r *http.Request) {
	doc, se, err := s.readEdit(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	raw, err := json.Marshal(se)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.servedResultWith(r.Context(), doc.ID, raw)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := checkResponse{editResponse: newEditResponse(doc.ID, res, false), Balances: make([]string, len(res.Transactions))}
	for i, t := range res.Transactions {
		out.Balances[i] = t.Balance.StringFixed(2)
	}
	writeJSON(w, http.StatusOK, out)
}

// readEdit reads a correction of the caller's converted document from the
// request: its rows and, when given, its header corrections (else those
// saved before), validated as the store keeps them.
func (s *Server) readEdit(w http.ResponseWriter, r *http.Request) (store.Document, storedEdit, error) {
	var se storedEdit
	doc, err := s.completedDocument(r)
	if err != nil {
		return doc, se, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxEditBytes))
	if err != nil {
		return doc, se, bodyError(err)
	}
	var req struct {
		Transactions *[]editTransaction `json:"transactions"`
		Statement    *editStatement     `json:"statement"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil || req.Transactions == nil {
		return doc, se, &apiError{http.StatusBadRequest, "invalid_transactions", "The body is not a JSON object with a transactions list.",
			"Send {\"transactions\": [...]} with rows shaped like the JSON download's."}
	}
	if len(*req.Transactions) > maxEditTransactions {
		return doc, se, &apiError{http.StatusBadRequest, "invalid_transactions",
			fmt.Sprintf("At most %d transactions can be saved.", maxEditTransactions), "Split the statement."}
	}
	if req.Statement != nil {
		if err := s.statementCorrection(r, doc.ID, req.Statement); err != nil {
			return doc, se, err
		}
	}
	se = storedEdit{Version: editVersion, Transactions: make([]editTransaction, 0, len(*req.Transactions))}
	switch {
	case req.Statement == nil:
		// Rows saved alone keep the header corrections saved before:
		// saving rows never loses another correction. "statement": {}
		// drops them.
		prev, err := s.store.Edit(r.Context(), doc.ID)
		if err != nil {
			return doc, se, err
		}
		var old storedEdit
		if prev != nil {
			if err := json.Unmarshal(prev, &old); err != nil {
				return doc, se, fmt.Errorf("decode edit of %s: %w", doc.ID, err)
			}
		}
		se.Statement = old.Statement
	case !req.Statement.empty():
		se.Statement = req.Statement
	}
	for i, e := range *req.Transactions {
		t, err := e.toTransaction(i)
		if err != nil {
			return doc, se, err
		}
		se.Transactions = append(se.Transactions, fromTransaction(t))
	}
	if err := s.readAccounts(r.Context(), doc.ID, se.Transactions, se.Statement); err != nil {
		return doc, se, err
	}
	return doc, se, nil
}

// readAccounts gives rows that carry an account's corrected number, as
// downloads serve them (the stored correction's) or as the page shows
// them with the correction sent (incoming's), the number the conversion
// read: stored rows keep the numbers read, and the stored header
// correction renames them when served, so that a later correction of the
// number renames them too.
func (s *Server) readAccounts(ctx context.Context, id string, rows []editTransaction, incoming *editStatement) error {
	rawEdit, err := s.store.Edit(ctx, id)
	if err != nil {
		return err
	}
	var stored storedEdit
	if rawEdit != nil {
		if err := json.Unmarshal(rawEdit, &stored); err != nil {
			return fmt.Errorf("decode edit of %s: %w", id, err)
		}
	}
	var res *ledger.Result
	for _, c := range []*editStatement{stored.Statement, incoming} {
		if c == nil || len(c.Accounts) == 0 {
			continue
		}
		if res == nil {
			if res, err = s.servedResultWith(ctx, id, nil); err != nil {
				return err
			}
		}
		st := res.Statement
		st.Accounts = slices.Clone(st.Accounts)
		back := map[string]string{}
		for read, now := range c.apply(&st) {
			back[now] = read
		}
		for i := range rows {
			if read, ok := back[rows[i].Account]; ok {
				rows[i].Account = read
			}
		}
	}
	return nil
}

// statementCorrection checks a header correction against the document:
// one of a single account corrects the top-level fields, one of several
// accounts corrects them in accounts, by their place, and no two of its
// accounts may end with one number (their rows would run together).
func (s *Server) statementCorrection(r *http.Request, id string, e *editStatement) error {
	if err := e.check(); err != nil {
		return err
	}
	res, err := s.servedResultWith(r.Context(), id, nil)
	if err != nil {
		return err
	}
	n := len(res.Statement.Accounts)
	switch {
	case n == 0 && len(e.Accounts) > 0:
		return badStatement("This document holds one account: correct its details in the statement's own fields, not in accounts.")
	case n > 0 && e.editHeader != editHeader{}:
		return badStatement("This document holds %d accounts: correct each one's details in accounts, naming it by its index (0 to %d).", n, n-1)
	}
	for _, a := range e.Accounts {
		if a.Index >= n {
			return badStatement("accounts: index %d is not one of this document's %d accounts (0 to %d).", a.Index, n, n-1)
		}
	}
	st := res.Statement
	st.Accounts = slices.Clone(st.Accounts)
	e.apply(&st)
	seen := map[string]bool{}
	for _, a := range st.Accounts {
		key := export.AccountKey(a.Number)
		if a.Number != "" && seen[key] {
			return badStatement("Two of this document's accounts would have the number %q.", a.Number)
		}
		seen[key] = true
	}
	return nil
}

// handleSaveStatement corrects the statement's header alone:
// PUT /api/v1/documents/{file_id}/statement with the fields to correct. The
// rows stay as they are served (with any corrections saved before).
func (s *Server) handleSaveStatement(w http.ResponseWriter, r *http.Request) {
	doc, err := s.completedDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var e editStatement
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_statement", "The body is not a JSON object of statement fields.",
			`Send {"account_number": "...", "currency": "EUR", "period_start": "2024-01-01", "period_end": "2024-01-31", "opening_balance": "100.00", "closing_balance": "-3.20"}, any of them.`})
		return
	}
	if err := s.statementCorrection(r, doc.ID, &e); err != nil {
		s.fail(w, r, err)
		return
	}
	se := storedEdit{Version: editVersion}
	rawEdit, err := s.store.Edit(r.Context(), doc.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if rawEdit != nil {
		if err := json.Unmarshal(rawEdit, &se); err != nil {
			s.fail(w, r, fmt.Errorf("decode edit of %s: %w", doc.ID, err))
			return
		}
	} else {
		res, err := s.servedResultWith(r.Context(), doc.ID, nil)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, t := range res.Transactions {
			se.Transactions = append(se.Transactions, fromTransaction(t))
		}
		if se.Transactions == nil {
			se.Transactions = []editTransaction{}
		}
	}
	se.Statement = nil
	if !e.empty() {
		se.Statement = &e
	}
	s.storeEdit(w, r, doc, se, store.ActCorrectHeader)
}

// storeEdit checks that se reads back, learns its reconciliation, stores it,
// records action in the trail and answers with the document's new standing.
func (s *Server) storeEdit(w http.ResponseWriter, r *http.Request, doc store.Document, se storedEdit, action string) {
	raw, err := json.Marshal(se)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// Check the edit reads back, and learn its reconciliation, before
	// storing it: the same path every download takes.
	res, err := s.servedResultWith(r.Context(), doc.ID, raw)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.SaveEdit(r.Context(), doc.ID, raw, len(res.Transactions), res.Statement.Reconciliation.Status); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.SetLabels(r.Context(), doc.ID, nil); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("transactions corrected", "file_id", doc.ID, "transactions", len(res.Transactions),
		"reconciliation", res.Statement.Reconciliation.Status)
	s.audit(r, store.Event{Action: action, DocumentID: doc.ID,
		Detail: fmt.Sprintf("%d transactions, %s", len(res.Transactions), res.Statement.Reconciliation.Status)})
	writeJSON(w, http.StatusOK, newEditResponse(doc.ID, res, true))
}

// handleRevertEdit drops the corrections: downloads serve the original again.
func (s *Server) handleRevertEdit(w http.ResponseWriter, r *http.Request) {
	doc, err := s.completedDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.RevertEdit(r.Context(), doc.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.SetLabels(r.Context(), doc.ID, nil); err != nil {
		s.fail(w, r, err)
		return
	}
	res, _, err := s.servedResult(r.Context(), doc.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("corrections reverted", "file_id", doc.ID)
	s.audit(r, store.Event{Action: store.ActRevert, DocumentID: doc.ID})
	writeJSON(w, http.StatusOK, newEditResponse(doc.ID, res, false))
}
