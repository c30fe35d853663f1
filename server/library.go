package server

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"passbook/export"
	"passbook/extract/ledger"
	"passbook/store"
)

// Paging of GET /api/v1/documents.
const (
	defaultListLimit = 50
	maxListLimit     = 200
)

// documentItem is one document of GET /api/v1/documents.
type documentItem struct {
	FileID           string  `json:"file_id"`
	OriginalName     string  `json:"original_name"`
	PageCount        int     `json:"page_count"`
	Status           string  `json:"status"`
	TransactionCount *int    `json:"transaction_count"`
	CreatedAt        string  `json:"created_at"`
	Reconciliation   *string `json:"reconciliation"`
	// Passbook's own: progress, a failure's reason, and whether a person
	// corrected the transactions.
	PagesDone int    `json:"pages_done"`
	Error     string `json:"error,omitempty"`
	ErrorCode string `json:"error_code,omitempty"`
	// Retryable: POST /api/v1/documents/{file_id}/retry converts the
	// failed document again (the page's "Try again").
	Retryable bool `json:"retryable,omitempty"`
	Edited    bool `json:"edited"`
	// Folders are the folders the document is in.
	Folders []documentFolder `json:"folders"`
	// Account is the account the converted statement names, as served
	// (number and currency; several accounts by commas); null until known.
	Account *string `json:"account"`
	// Bank, Holder and the period are what the statement names, as
	// served; null when it names none (or until known).
	Bank        *string `json:"bank"`
	Holder      *string `json:"holder"`
	PeriodStart *string `json:"period_start"`
	PeriodEnd   *string `json:"period_end"`
}

// documentFolder names a folder a document is in.
type documentFolder struct {
	FolderID string `json:"folder_id"`
	Name     string `json:"name"`
}

type documentsResponse struct {
	Success   bool           `json:"success"`
	Documents []documentItem `json:"documents"`
	Next      *string        `json:"next"`
}

// documentQuery reads GET /api/v1/documents' parameters: paging, search,
// filters and order.
func (s *Server) documentQuery(r *http.Request) (store.DocumentQuery, error) {
	v := r.URL.Query()
	q := store.DocumentQuery{Limit: defaultListLimit, Before: v.Get("before"), Text: strings.TrimSpace(v.Get("q")),
		Status: v.Get("status"), Sort: v.Get("sort"), From: v.Get("from"), To: v.Get("to")}
	bad := func(what string) error {
		return &apiError{http.StatusBadRequest, "invalid_query", "The " + what + " parameter is not valid.",
			"q is up to 200 characters; status one of " + strings.Join(store.QueryStatuses, ", ") + "; sort one of " + strings.Join(store.QuerySorts, ", ") +
				"; from and to are dates (2024-03-01); folder_id a folder of yours or none."}
	}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxListLimit {
			return q, &apiError{http.StatusBadRequest, "invalid_limit", "limit must be a number from 1 to " + strconv.Itoa(maxListLimit) + ".", "Leave limit out for 50 documents a page."}
		}
		q.Limit = n
	}
	if len(q.Text) > 200 {
		return q, bad("q")
	}
	if q.Status != "" && !slices.Contains(store.QueryStatuses, q.Status) {
		return q, bad("status")
	}
	if q.Sort != "" && !slices.Contains(store.QuerySorts, q.Sort) {
		return q, bad("sort")
	}
	for _, d := range []struct{ name, v string }{{"from", q.From}, {"to", q.To}} {
		if _, err := time.Parse(time.DateOnly, d.v); d.v != "" && err != nil {
			return q, bad(d.name)
		}
	}
	switch f := v.Get("folder_id"); f {
	case "":
	case "none":
		q.NoFolder = true
	default:
		if _, err := s.ownFolder(r, f); err != nil {
			return q, err
		}
		q.FolderID = f
	}
	return q, nil
}

func (s *Server) handleDocuments(w http.ResponseWriter, r *http.Request) {
	q, err := s.documentQuery(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A search reads what statements name: every converted document is
	// labelled first (a batch of them per request otherwise).
	batches := 1
	if q.Text != "" || q.From != "" || q.To != "" {
		batches = maxLabelBatches
	}
	labels, err := s.documentLabels(r.Context(), account(r).ID, batches)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	docs, next, err := s.store.SearchDocuments(r.Context(), account(r).ID, q)
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_before", "before names none of your documents.", "Use the next value of the previous page, or leave before out for the newest documents."})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	in, err := s.store.DocumentFolders(r.Context(), account(r).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp := documentsResponse{Success: true, Documents: make([]documentItem, 0, len(docs))}
	if next != "" {
		resp.Next = &next
	}
	for _, d := range docs {
		it := documentItem{FileID: d.ID, OriginalName: d.OriginalName, PageCount: d.PageCount, Status: d.Status,
			CreatedAt: d.CreatedAt.UTC().Format(time.RFC3339), PagesDone: d.PagesDone, Edited: d.EditedAt != nil, Folders: []documentFolder{}}
		if l, ok := labels[d.ID]; ok {
			it.Account, it.Bank, it.Holder = &l.Account, optional(l.Bank), optional(l.Holder)
			it.PeriodStart, it.PeriodEnd = optional(l.PeriodStart), optional(l.PeriodEnd)
		}
		for _, f := range in[d.ID] {
			it.Folders = append(it.Folders, documentFolder{FolderID: f.ID, Name: f.Name})
		}
		switch d.Status {
		case store.StatusCompleted:
			n, rec := d.TransactionCount, d.Reconciliation
			it.TransactionCount = &n
			if rec != "" {
				it.Reconciliation = &rec
			}
		case store.StatusFailed:
			it.Error, it.ErrorCode, it.Retryable = d.Error, d.ErrorCode, store.Retryable(d.ErrorCode)
		}
		resp.Documents = append(resp.Documents, it)
	}
	writeJSON(w, http.StatusOK, resp)
}

// optional is s, or nil for "".
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// handleDeleteDocument removes a document, its results and edits at once.
func (s *Server) handleDeleteDocument(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocumentID(r, mux.Vars(r)["file_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.DeleteDocument(r.Context(), doc.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	s.passwords.drop(doc.ID)
	s.log.Info("document deleted", "file_id", doc.ID, "account_id", doc.AccountID)
	s.audit(r, store.Event{Action: store.ActDelete, DocumentID: doc.ID, Detail: doc.OriginalName})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "file_id": doc.ID})
}

// handleRetry converts a failed document again, when its failure may go
// another way this time (store.Retryable: the status says retryable). Its
// pages are charged again as an upload's are, and refunded again if it
// fails again. The page's "Try again" calls it.
func (s *Server) handleRetry(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocumentID(r, mux.Vars(r)["file_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var qe *store.QuotaError
	switch err := s.store.RetryDocument(r.Context(), doc.ID); {
	case errors.Is(err, store.ErrNotRetryable):
		s.fail(w, r, &apiError{http.StatusConflict, "not_retryable", "Only a document whose conversion failed in a way that may go otherwise can be tried again.",
			"Check its status: a failed document with retryable true can be tried again; one that needs its password or is damaged, upload again."})
		return
	case errors.As(err, &qe):
		s.fail(w, r, quotaError(qe.Usage, doc.PageCount, s.store.Now()))
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	s.nudge()
	s.log.Info("conversion tried again", "file_id", doc.ID, "account_id", doc.AccountID, "after", doc.ErrorCode)
	s.audit(r, store.Event{Action: store.ActRetry, DocumentID: doc.ID, Detail: doc.ErrorCode})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "file_id": doc.ID, "status": store.StatusProcessing, "page_count": doc.PageCount})
}

// maxZipDocuments bounds the documents of one zip download.
const maxZipDocuments = 500

// handleZip downloads several documents at once as a zip:
// GET /api/v1/documents/zip?file_id=...&file_id=...&format=csv, each
// converted document in the format (as its own download, corrections
// included), named after it. Documents still converting or failed are
// left out and listed in the zip's not-included.txt.
func (s *Server) handleZip(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	format, opts, apiErr := downloadOptions(q, s.cfg.IntuBID)
	if apiErr != nil {
		s.fail(w, r, apiErr)
		return
	}
	ids := q["file_id"]
	if len(ids) == 0 || len(ids) > maxZipDocuments {
		s.fail(w, r, &apiError{http.StatusBadRequest, "missing_file_id", fmt.Sprintf("Name 1 to %d documents with file_id.", maxZipDocuments),
			"Repeat file_id for each document: ?file_id=doc_a&file_id=doc_b&format=csv."})
		return
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	used := map[string]bool{}
	var skipped, included []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		doc, err := s.ownDocumentID(r, id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if doc.Status != store.StatusCompleted {
			why := "still converting"
			if doc.Status == store.StatusFailed {
				why = "could not be converted: " + doc.Error
			}
			skipped = append(skipped, doc.OriginalName+": "+why)
			continue
		}
		res, edited, err := s.servedResult(r.Context(), doc.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		write := export.Write
		if edited {
			write = export.WriteEdited
		}
		o := opts
		o.FileID, o.OriginalName, o.Created = doc.ID, doc.OriginalName, s.store.Now()
		var out bytes.Buffer
		if err := write(&out, format, o, res); err != nil {
			s.fail(w, r, fmt.Errorf("export %s as %s: %w", doc.ID, format, err))
			return
		}
		name := cleanName(doc.OriginalName)
		base := strings.TrimSuffix(name, path.Ext(name))
		entry := base + format.Ext()
		for k := 2; used[strings.ToLower(entry)]; k++ {
			entry = fmt.Sprintf("%s (%d)%s", base, k, format.Ext())
		}
		used[strings.ToLower(entry)] = true
		f, err := zw.CreateHeader(&zip.FileHeader{Name: entry, Method: zip.Deflate, Modified: doc.CreatedAt})
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if _, err := f.Write(out.Bytes()); err != nil {
			s.fail(w, r, err)
			return
		}
		included = append(included, doc.ID)
	}
	if len(skipped) > 0 {
		f, err := zw.Create("not-included.txt")
		if err == nil {
			_, err = f.Write([]byte("Not in this zip:\r\n" + strings.Join(skipped, "\r\n") + "\r\n"))
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if err := zw.Close(); err != nil {
		s.fail(w, r, err)
		return
	}
	// A line per document the zip holds, as its own download would write:
	// each document's history shows it left the office.
	for _, id := range included {
		s.audit(r, store.Event{Action: store.ActExportZip, DocumentID: id, Detail: string(format)})
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "statements.zip"}))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// labelBatch is how many documents' labels one batch reads; a list
// request reads one batch, a search up to maxLabelBatches.
const (
	labelBatch      = 100
	maxLabelBatches = 50
)

// documentLabels are what the caller's converted documents' statements
// name, by document. Those not known yet are read from their results (as
// served, corrections included), up to batches of labelBatch, and kept.
func (s *Server) documentLabels(ctx context.Context, accountID int64, batches int) (map[string]store.DocumentLabels, error) {
	for range batches {
		ids, err := s.store.Unlabelled(ctx, accountID, labelBatch)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			res, _, err := s.servedResult(ctx, id)
			if err != nil {
				s.log.Warn("document labels", "file_id", id, "err", err)
				continue
			}
			l := statementLabels(res.Statement)
			l.Rows = transactionRows(res)
			if err := s.store.SetLabels(ctx, id, &l); err != nil {
				return nil, err
			}
		}
		if len(ids) < labelBatch {
			break
		}
	}
	return s.store.Labels(ctx, accountID)
}

// statementLabels is what the documents list shows and searches of a
// statement.
func statementLabels(st ledger.Statement) store.DocumentLabels {
	l := store.DocumentLabels{Account: accountLabel(st), Bank: st.Bank, Holder: st.Holder}
	ps, pe := st.PeriodStart, st.PeriodEnd
	for _, a := range st.Accounts {
		if a.PeriodStart != nil && (ps == nil || a.PeriodStart.Before(*ps)) {
			ps = a.PeriodStart
		}
		if a.PeriodEnd != nil && (pe == nil || a.PeriodEnd.After(*pe)) {
			pe = a.PeriodEnd
		}
	}
	if ps != nil && pe != nil {
		l.PeriodStart, l.PeriodEnd = ps.Format(time.DateOnly), pe.Format(time.DateOnly)
	}
	return l
}

// transactionRows are a served result's transactions as the store finds
// them: signed amounts in hundredths, each with its account's number.
func transactionRows(res *ledger.Result) []store.TransactionRow {
	out := make([]store.TransactionRow, len(res.Transactions))
	for i, t := range res.Transactions {
		amount := decimal.Zero
		if t.AmountIn != nil {
			amount = *t.AmountIn
		} else if t.AmountOut != nil {
			amount = t.AmountOut.Neg()
		}
		account := t.Account
		if account == "" {
			account = res.Statement.AccountNumber
		}
		out[i] = store.TransactionRow{Date: t.Date.Format(time.DateOnly), Amount: amount.Shift(2).Round(0).IntPart(),
			Balance: t.Balance.StringFixed(2), Description: t.Description, Account: account}
	}
	return out
}

// accountLabel names the account a statement is of: its number and
// currency, each account of a statement that holds several.
func accountLabel(st ledger.Statement) string {
	one := func(n, c string) string { return strings.TrimSpace(strings.TrimSpace(n) + " " + c) }
	if len(st.Accounts) == 0 {
		return one(st.AccountNumber, st.Currency)
	}
	var out []string
	for _, a := range st.Accounts {
		out = append(out, one(a.Number, a.Currency))
	}
	return strings.Join(out, ", ")
}
