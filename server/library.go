package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

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
	Edited    bool   `json:"edited"`
}

type documentsResponse struct {
	Success   bool           `json:"success"`
	Documents []documentItem `json:"documents"`
	Next      *string        `json:"next"`
}

func (s *Server) handleDocuments(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := defaultListLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxListLimit {
			s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_limit", "limit must be a number from 1 to " + strconv.Itoa(maxListLimit) + ".", "Leave limit out for 50 documents a page."})
			return
		}
		limit = n
	}
	docs, next, err := s.store.Documents(r.Context(), account(r).ID, limit, q.Get("before"))
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_before", "before names none of your documents.", "Use the next value of the previous page, or leave before out for the newest documents."})
		return
	}
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
			CreatedAt: d.CreatedAt.UTC().Format(time.RFC3339), PagesDone: d.PagesDone, Edited: d.EditedAt != nil}
		switch d.Status {
		case store.StatusCompleted:
			n, rec := d.TransactionCount, d.Reconciliation
			it.TransactionCount = &n
			if rec != "" {
				it.Reconciliation = &rec
			}
		case store.StatusFailed:
			it.Error, it.ErrorCode = d.Error, d.ErrorCode
		}
		resp.Documents = append(resp.Documents, it)
	}
	writeJSON(w, http.StatusOK, resp)
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
