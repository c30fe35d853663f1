package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"passbook/export"
	"passbook/extract"
	"passbook/quota"
	"passbook/store"
)

// uploadResponse is the body of a successful POST /api/v1/extract.
type uploadResponse struct {
	Success      bool   `json:"success"`
	FileID       string `json:"file_id"`
	OriginalName string `json:"original_name"`
	PageCount    int    `json:"page_count"`
	Status       string `json:"status"`
}

// handleUpload validates a statement by its bytes, counts its pages, charges
// the quota and queues its conversion, all before it answers.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	acc := account(r)
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUploadBytes)
	name, data, password, err := s.readUpload(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.ProbeTimeout)
	info, err := s.conv.Probe(ctx, data, password)
	cancel()
	if err != nil {
		s.fail(w, r, probeError(err))
		return
	}
	if info.PageCount > s.cfg.MaxPages {
		s.fail(w, r, &apiError{http.StatusRequestEntityTooLarge, "too_many_pages",
			fmt.Sprintf("The document has %d pages; the limit is %d.", info.PageCount, s.cfg.MaxPages),
			"Split the document and upload the parts."})
		return
	}
	doc, err := s.store.CreateDocument(r.Context(), store.NewDocument{
		AccountID: acc.ID, OriginalName: name, Kind: info.Kind, PageCount: info.PageCount, Content: data, Password: password,
	})
	var qe *store.QuotaError
	if errors.As(err, &qe) {
		s.fail(w, r, quotaError(qe.Usage, info.PageCount, s.store.Now()))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("document queued", "file_id", doc.ID, "account_id", acc.ID, "pages", doc.PageCount, "kind", doc.Kind)
	select {
	case s.wake <- struct{}{}:
	default:
	}
	writeJSON(w, http.StatusOK, uploadResponse{Success: true, FileID: doc.ID, OriginalName: doc.OriginalName,
		PageCount: doc.PageCount, Status: doc.Status})
}

// readUpload streams the multipart body: the "file" part (the statement) and
// an optional "password" part for an encrypted PDF.
func (s *Server) readUpload(r *http.Request) (name string, data []byte, password string, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, "", &apiError{http.StatusBadRequest, "invalid_request",
			"The request is not a multipart form upload.", "Send multipart/form-data with the statement in a part named 'file', e.g. curl -F file=@statement.pdf."}
	}
	found := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, "", bodyError(err)
		}
		switch part.FormName() {
		case "file":
			if found {
				part.Close()
				return "", nil, "", &apiError{http.StatusBadRequest, "too_many_files", "Only one file can be uploaded at a time.", "Send one part named 'file' per request."}
			}
			found = true
			name = cleanName(part.FileName())
			if data, err = io.ReadAll(part); err != nil {
				return "", nil, "", bodyError(err)
			}
		case "password":
			b, err := io.ReadAll(io.LimitReader(part, 1024))
			if err != nil {
				return "", nil, "", bodyError(err)
			}
			password = string(b)
		default:
			if _, err := io.Copy(io.Discard, part); err != nil {
				return "", nil, "", bodyError(err)
			}
		}
		part.Close()
	}
	if !found {
		return "", nil, "", &apiError{http.StatusBadRequest, "missing_file", "No file was uploaded.", "Put the statement in a form part named 'file', e.g. curl -F file=@statement.pdf."}
	}
	if len(data) == 0 {
		return "", nil, "", &apiError{http.StatusBadRequest, "empty_file", "The uploaded file is empty.", "Check the file on disk and upload it again."}
	}
	return name, data, password, nil
}

func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &apiError{http.StatusRequestEntityTooLarge, "file_too_large",
			fmt.Sprintf("The upload is larger than the limit of %d MB.", mbe.Limit>>20), "Upload a smaller file, or split the statement."}
	}
	return &apiError{http.StatusBadRequest, "invalid_request", "The upload could not be read: " + err.Error() + ".", "Send multipart/form-data with the statement in a part named 'file'."}
}

// cleanName keeps the base name of an uploaded file's name, as valid UTF-8
// with no control characters, at most 200 bytes.
func cleanName(n string) string {
	n = strings.ReplaceAll(n, "\\", "/")
	n = path.Base(n)
	n = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, n)
	for len(n) > 200 {
		_, size := utf8.DecodeLastRuneInString(n)
		n = n[:len(n)-size]
	}
	if n == "" || n == "." || n == "/" {
		return "statement"
	}
	return n
}

// probeError tells the uploader why a document cannot be taken.
func probeError(err error) error {
	switch {
	case errors.Is(err, extract.ErrUnsupported):
		return &apiError{http.StatusBadRequest, "unsupported_type", "The file is not a PDF or a supported image.", "Upload a PDF, PNG, JPEG, TIFF or WebP file."}
	case errors.Is(err, extract.ErrPassword):
		return &apiError{http.StatusBadRequest, "password_required", "The PDF is password-protected and no correct password was given.", "Send the password in a form field named 'password', e.g. curl -F file=@statement.pdf -F password=..."}
	case errors.Is(err, extract.ErrTooLarge):
		return &apiError{http.StatusRequestEntityTooLarge, "too_large", "The document is too large to convert.", "Split the document and upload the parts."}
	case errors.Is(err, context.Canceled):
		return err
	default:
		return &apiError{http.StatusBadRequest, "unreadable_file", "The file could not be read: it may be damaged.", "Open it on your computer to check it, export or scan it again, and upload the new file."}
	}
}

func quotaError(u quota.Usage, pages int, now time.Time) *apiError {
	wait := u.ResetsAt.Sub(now).Round(time.Minute)
	return &apiError{http.StatusTooManyRequests, "quota_exceeded",
		fmt.Sprintf("The document has %d pages but only %d pages of this %s's quota and %d credits are left.", pages, u.Remaining(), u.Period, u.Credits),
		fmt.Sprintf("The quota resets at %s (in %s). An administrator can grant credits or change the plan.", u.ResetsAt.UTC().Format(time.RFC3339), wait)}
}

// statusResponse is the body of GET /api/v1/status.
type statusResponse struct {
	Success          bool   `json:"success"`
	FileID           string `json:"file_id"`
	Status           string `json:"status"`
	PageCount        int    `json:"page_count"`
	TransactionCount *int   `json:"transaction_count,omitempty"`
	PagesDone        *int   `json:"pages_done,omitempty"`
	Error            string `json:"error,omitempty"`
	ErrorCode        string `json:"error_code,omitempty"`
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp := statusResponse{Success: true, FileID: doc.ID, Status: doc.Status, PageCount: doc.PageCount}
	switch doc.Status {
	case store.StatusCompleted:
		resp.TransactionCount = &doc.TransactionCount
	case store.StatusProcessing:
		resp.PagesDone = &doc.PagesDone
	case store.StatusFailed:
		resp.Error, resp.ErrorCode = doc.Error, doc.ErrorCode
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	format, opts, apiErr := downloadOptions(r.URL.Query(), s.cfg.IntuBID)
	if apiErr != nil {
		s.fail(w, r, apiErr)
		return
	}
	doc, err := s.ownDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	switch doc.Status {
	case store.StatusProcessing:
		w.Header().Set("Retry-After", "2")
		s.fail(w, r, &apiError{http.StatusConflict, "not_ready", "The document is still being processed.", "Poll GET /api/v1/status every 2 seconds until status is completed."})
		return
	case store.StatusFailed:
		s.fail(w, r, &apiError{http.StatusConflict, "document_failed", "The document could not be converted: " + doc.Error, "Check the file and upload it again; its pages were not charged."})
		return
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
	var buf bytes.Buffer
	opts.FileID, opts.OriginalName, opts.Created = doc.ID, doc.OriginalName, s.store.Now()
	if err := write(&buf, format, opts, res); err != nil {
		s.fail(w, r, fmt.Errorf("export %s as %s: %w", doc.ID, format, err))
		return
	}
	w.Header().Set("Content-Type", format.ContentType())
	if format != export.JSON {
		base := strings.TrimSuffix(doc.OriginalName, path.Ext(doc.OriginalName))
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": base + format.Ext()}))
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// downloadOptions reads the download's format, profile and intu_bid
// parameters; intu_bid, when given, overrides the server's setting. A bad
// value is a 400 that says what would do.
func downloadOptions(q url.Values, intuBID string) (export.Format, export.Options, *apiError) {
	format, err := export.ParseFormat(q.Get("format"))
	if err != nil {
		return "", export.Options{}, &apiError{http.StatusBadRequest, "invalid_format", fmt.Sprintf("Unknown format %q.", q.Get("format")),
			"Use format=csv (the default), json, xlsx, ofx, qfx, qbo, qif, camt053 or mt940."}
	}
	profile, err := export.ParseProfile(q.Get("profile"))
	if err != nil {
		return "", export.Options{}, &apiError{http.StatusBadRequest, "invalid_profile", fmt.Sprintf("Unknown profile %q.", q.Get("profile")),
			"Use profile=xero, quickbooks or excel-eu with format=csv, or leave it out."}
	}
	if b := q.Get("intu_bid"); b != "" {
		intuBID = b
	}
	opts := export.Options{Profile: profile, IntuBID: intuBID}
	switch err := export.Check(format, opts); {
	case errors.Is(err, export.ErrProfile):
		return "", export.Options{}, &apiError{http.StatusBadRequest, "invalid_profile", fmt.Sprintf("A profile applies to format=csv, not format=%s.", format),
			"Leave profile out, or ask for format=csv."}
	case errors.Is(err, export.ErrIntuBID):
		return "", export.Options{}, &apiError{http.StatusBadRequest, "invalid_intu_bid", fmt.Sprintf("intu_bid %q is not a bank id.", intuBID),
			"Give the 1 to 9 digit INTU.BID Intuit lists for your bank, or leave it out."}
	case err != nil:
		return "", export.Options{}, &apiError{http.StatusBadRequest, "invalid_format", err.Error(), ""}
	}
	return format, opts, nil
}

// ownDocument loads the document named by the file_id parameter: 400
// without one, 404 when there is none, 403 when it is another account's.
func (s *Server) ownDocument(r *http.Request) (store.Document, error) {
	id := strings.TrimSpace(r.URL.Query().Get("file_id"))
	if id == "" {
		return store.Document{}, &apiError{http.StatusBadRequest, "missing_file_id", "The file_id parameter is missing.", "Add ?file_id=doc_... as returned by POST /api/v1/extract."}
	}
	return s.ownDocumentID(r, id)
}

// ownDocumentID loads the caller's document id: 404 when there is none,
// 403 when it is another account's.
func (s *Server) ownDocumentID(r *http.Request, id string) (store.Document, error) {
	doc, err := s.store.Document(r.Context(), id)
	if err != nil {
		return store.Document{}, err
	}
	if doc.AccountID != account(r).ID {
		return store.Document{}, &apiError{http.StatusForbidden, "forbidden", "This document belongs to another account.", "Use a file_id returned to your own API key."}
	}
	return doc, nil
}
