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
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"passbook/export"
	"passbook/extract"
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
	// Folders are the folders the document is in.
	Folders []documentFolder `json:"folders"`
	// Account is the account the converted statement names, as served
	// (number and currency; several accounts by commas); null until known.
	Account *string `json:"account"`
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
	in, err := s.store.DocumentFolders(r.Context(), account(r).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	labels, err := s.accountLabels(r.Context(), account(r).ID)
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
			it.Account = &l
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

// labelBatch is how many documents' accounts one list request reads.
const labelBatch = 100

// accountLabels are the accounts of the caller's converted documents, by
// document. Those not known yet are read from their results (as served,
// corrections included), a batch per request, and kept.
func (s *Server) accountLabels(ctx context.Context, accountID int64) (map[string]string, error) {
	ids, err := s.store.Unlabelled(ctx, accountID, labelBatch)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		res, _, err := s.servedResult(ctx, id)
		if err != nil {
			s.log.Warn("account label", "file_id", id, "err", err)
			continue
		}
		l := accountLabel(res.Statement)
		if err := s.store.SetAccountLabel(ctx, id, &l); err != nil {
			return nil, err
		}
	}
	return s.store.AccountLabels(ctx, accountID)
}

// accountLabel names the account a statement is of: its number and
// currency, each account of a statement that holds several.
func accountLabel(st extract.Statement) string {
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
