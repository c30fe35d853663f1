package server

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"passbook/export"
	"passbook/extract/source"
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
// the quota and queues its conversion, all before it answers. The body is
// streamed to a private temporary file, hashed and sniffed as it arrives;
// only uploads that hold a probe slot (at most Workers) are in memory.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	acc := account(r)
	link, byLink := uploadLink(r)
	if r.ContentLength > s.cfg.MaxUploadBytes {
		s.fail(w, r, tooLarge(s.cfg.MaxUploadBytes))
		return
	}
	key, err := idempotencyKey(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if byLink {
		// A replay would answer another upload's document to a client
		// who may read none.
		key = ""
	}
	if key != "" {
		prev, err := s.store.Idempotent(r.Context(), acc.ID, key)
		if err == nil {
			s.replayUpload(w, r, prev)
			return
		}
		if !errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, err)
			return
		}
	}
	up, release, err := s.receiveUpload(w, r)
	defer release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if byLink {
		up.folderID = link.FolderID
	} else if up.folderID != "" {
		// Before reading the file, so a wrong folder costs nothing; the
		// store checks again as it charges.
		if _, err := s.ownFolder(r, up.folderID); err != nil {
			s.fail(w, r, err)
			return
		}
	}

	// Waiting for a probe slot and the probe itself each get ProbeTimeout:
	// a wait that runs out is 503 busy, a probe that does is the file's.
	wait, cancelWait := context.WithTimeout(r.Context(), s.cfg.ProbeTimeout)
	defer cancelWait()
	if !s.accountProbes.acquire(acc.ID, wait.Done()) {
		s.fail(w, r, busy(w))
		return
	}
	// The account's slot is given back when the upload is answered, or,
	// after a file the converter could not read, after a penalty.
	var hold time.Duration
	defer func() { s.accountProbes.releaseAfter(acc.ID, hold) }()
	select {
	case s.probes <- struct{}{}:
		defer func() { <-s.probes }()
	case <-wait.Done():
		s.fail(w, r, busy(w))
		return
	}
	if up.ifNew {
		// The same bytes converted before are named, and nothing is charged.
		if d, err := s.store.DocumentBySHA256(r.Context(), acc.ID, up.sha256); err == nil {
			writeJSON(w, http.StatusConflict, map[string]any{"success": false, "code": "already_uploaded",
				"error":   fmt.Sprintf("These bytes were uploaded before, as %q.", d.OriginalName),
				"hint":    "Use the document named by file_id, or send the file again without if_new to convert it once more.",
				"file_id": d.ID, "original_name": d.OriginalName, "status": d.Status, "created_at": d.CreatedAt.UTC().Format(time.RFC3339)})
			return
		} else if !errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, err)
			return
		}
	}
	data, err := os.ReadFile(up.path)
	if err != nil {
		s.fail(w, r, fmt.Errorf("read upload back: %w", err))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.ProbeTimeout)
	defer cancel()
	info, err := s.conv.Probe(ctx, data, up.password)
	if unreadable(err) {
		hold = penalty(s.cfg.ProbePenalty, s.unreadable.fail(strconv.FormatInt(acc.ID, 10)))
	}
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		// The probe waits for a pool worker and runs under one deadline:
		// past it, the pool was busy or the file is unusually hard to read.
		// Either way nothing was charged, and a later try may pass.
		w.Header().Set("Retry-After", "30")
		s.fail(w, r, &apiError{http.StatusServiceUnavailable, "busy",
			fmt.Sprintf("The file could not be read within %s: the server is busy, or the file is unusually hard to read.", s.cfg.ProbeTimeout),
			"Retry after the number of seconds in the Retry-After header; if it keeps failing, export or scan the statement again."})
		return
	}
	if errors.Is(err, source.ErrTooManyPages) {
		// The converter stopped counting past the limit.
		s.fail(w, r, s.tooManyPages(fmt.Sprintf("more than %d", s.cfg.MaxPages)))
		return
	}
	if err != nil {
		s.fail(w, r, probeError(err))
		return
	}
	if info.PageCount > s.cfg.MaxPages {
		s.fail(w, r, s.tooManyPages(strconv.Itoa(info.PageCount)))
		return
	}
	id, err := store.NewFileID()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if up.password != "" {
		s.passwords.put(id, up.password)
	}
	nd := store.NewDocument{
		ID: id, AccountID: acc.ID, OriginalName: up.name, Kind: info.Kind, PageCount: info.PageCount, Content: data,
		Encrypted: up.password != "", IdempotencyKey: key, FolderID: up.folderID,
	}
	if byLink {
		nd.LinkID = link.ID
	} else {
		nd.MemberID = caller(r).Member.ID
	}
	doc, err := s.store.CreateDocument(r.Context(), nd)
	if err != nil {
		s.passwords.drop(id)
	}
	var qe *store.QuotaError
	var ie *store.IdempotentError
	switch {
	case errors.As(err, &ie):
		s.replayInto(w, r, ie.Document, up.folderID)
		return
	case errors.As(err, &qe) && byLink:
		// The office's plan and usage are not the client's to read.
		s.fail(w, r, &apiError{http.StatusTooManyRequests, "quota_exceeded", "The office cannot take more pages just now.",
			"Try again later, or tell the office."})
		return
	case errors.As(err, &qe):
		s.fail(w, r, quotaError(qe.Usage, info.PageCount, s.store.Now()))
		return
	case errors.Is(err, store.ErrExpired):
		s.fail(w, r, &apiError{http.StatusGone, "link_expired", "This upload link has expired or was withdrawn.", "Ask the office for a new link."})
		return
	case errors.Is(err, store.ErrLinkFull):
		s.fail(w, r, &apiError{http.StatusRequestEntityTooLarge, "link_page_limit",
			fmt.Sprintf("This upload link takes %d more pages; the document has %d.", max(link.PageLimit-link.PagesUsed, 0), info.PageCount),
			"Ask the office for a link that takes more pages."})
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	if byLink {
		s.audit(r, store.Event{AccountID: acc.ID, Actor: "link " + link.ID, Action: store.ActLinkUpload, DocumentID: doc.ID,
			FolderID: link.FolderID, LinkID: link.ID, Detail: doc.OriginalName + ", " + pageCount(doc.PageCount)})
	} else {
		s.audit(r, store.Event{Action: store.ActUpload, DocumentID: doc.ID, FolderID: up.folderID,
			Detail: doc.OriginalName + ", " + pageCount(doc.PageCount)})
	}
	s.log.Info("document queued", "file_id", doc.ID, "account_id", acc.ID, "pages", doc.PageCount, "kind", doc.Kind,
		"size", up.size, "sha256", up.sha256)
	select {
	case s.wake <- struct{}{}:
	default:
	}
	writeJSON(w, http.StatusOK, uploadResponse{Success: true, FileID: doc.ID, OriginalName: doc.OriginalName,
		PageCount: doc.PageCount, Status: doc.Status})
}

// replay answers an upload that repeats an Idempotency-Key with the first
// upload's document, as it stands now.
func (s *Server) replay(w http.ResponseWriter, r *http.Request, doc store.Document) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
	w.Header().Set("Idempotent-Replayed", "true")
	writeJSON(w, http.StatusOK, uploadResponse{Success: true, FileID: doc.ID, OriginalName: doc.OriginalName,
		PageCount: doc.PageCount, Status: doc.Status})
}

// replayUpload answers an upload that repeats an Idempotency-Key with the
// first upload's document, once its form is read: a folder_id in it puts
// that document in the folder too, as the first upload would have. The
// file part is read and dropped, under the same limits as an upload's.
func (s *Server) replayUpload(w http.ResponseWriter, r *http.Request, prev store.Document) {
	up, release, err := s.receiveUpload(w, r)
	defer release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.replayInto(w, r, prev, up.folderID)
}

// replayInto replays doc, first putting it in the folder folderID names
// (when it names one): a retried upload into a folder lands there.
func (s *Server) replayInto(w http.ResponseWriter, r *http.Request, doc store.Document, folderID string) {
	if folderID != "" {
		if _, err := s.ownFolder(r, folderID); err != nil {
			s.fail(w, r, err)
			return
		}
		if err := s.store.AddToFolder(r.Context(), folderID, doc.ID); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.replay(w, r, doc)
}

// maxKeyLen bounds an Idempotency-Key.
const maxKeyLen = 255

// idempotencyKey reads the Idempotency-Key header: printable ASCII, at
// most 255 bytes; "" when absent.
func idempotencyKey(r *http.Request) (string, error) {
	k := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if len(k) > maxKeyLen {
		return "", &apiError{http.StatusBadRequest, "invalid_idempotency_key", "The Idempotency-Key header is too long.",
			fmt.Sprintf("Send at most %d printable ASCII characters, e.g. a UUID.", maxKeyLen)}
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return "", &apiError{http.StatusBadRequest, "invalid_idempotency_key", "The Idempotency-Key header holds characters it may not.",
				"Send printable ASCII without spaces, e.g. a UUID."}
		}
	}
	return k, nil
}

// tooManyPages refuses a document of more pages than the server takes,
// for good: pages says how many it has ("900", "more than 500").
func (s *Server) tooManyPages(pages string) *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, "too_many_pages",
		fmt.Sprintf("The document has %s pages; the limit is %d.", pages, s.cfg.MaxPages),
		"Split the document and upload the parts."}
}

func busy(w http.ResponseWriter) *apiError {
	w.Header().Set("Retry-After", "5")
	return &apiError{http.StatusServiceUnavailable, "busy", "The server is receiving as many uploads as it can take.",
		"Retry after the number of seconds in the Retry-After header."}
}

func tooLarge(limit int64) *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, "file_too_large",
		fmt.Sprintf("The upload is larger than the limit of %d MB.", limit>>20), "Upload a smaller file, or split the statement."}
}

// readCloser reads through r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }

// upload is a received upload: its file in a private temporary file.
type upload struct {
	name, password string
	// folderID is the folder the upload joins ("" for none).
	folderID string
	// ifNew asks that bytes uploaded before be named, not converted again.
	ifNew  bool
	path   string
	size   int64
	sha256 string
}

func (u *upload) remove() { _ = os.Remove(u.path) }

// receiveUpload reads an upload's form under the upload limits: one of
// the server's upload slots, the size limit and the body's deadlines, and
// while the body arrives, one of its office's and its link's shares of
// the slots (a slow or idle client holds its own share, never the
// server's). release gives back the slot and removes the upload's files;
// call it when the upload is done with, also after an error.
func (s *Server) receiveUpload(w http.ResponseWriter, r *http.Request) (*upload, func(), error) {
	giveShares, ok := s.takeShares(r)
	if !ok {
		return nil, func() {}, busy(w)
	}
	select {
	case s.uploads <- struct{}{}:
	default:
		giveShares()
		return nil, func() {}, busy(w)
	}
	rc := http.NewResponseController(w)
	dr := &deadlineReader{r: http.MaxBytesReader(w, r.Body, s.cfg.MaxUploadBytes), rc: rc, idle: s.cfg.BodyIdle,
		minBytes: s.cfg.BodyIdleBytes, end: time.Now().Add(s.cfg.BodyTimeout), now: time.Now}
	dr.start()
	r.Body = readCloser{dr, r.Body}
	got, err := s.receive(r)
	giveShares()
	release := func() {
		if got != nil {
			got.remove()
		}
		<-s.uploads
	}
	if err != nil {
		return nil, release, err
	}
	_ = rc.SetReadDeadline(time.Time{})
	return got, release, nil
}

// takeShares takes one of the office's and, for a client's link, one of
// the link's shares of the upload slots; give gives them back. false when
// the office or the link holds all it may.
func (s *Server) takeShares(r *http.Request) (give func(), ok bool) {
	office := strconv.FormatInt(account(r).ID, 10)
	if !s.officeUploads.take(office) {
		return nil, false
	}
	link, byLink := uploadLink(r)
	if !byLink {
		return func() { s.officeUploads.give(office) }, true
	}
	if !s.linkUploads.take(link.ID) {
		s.officeUploads.give(office)
		return nil, false
	}
	return func() { s.linkUploads.give(link.ID); s.officeUploads.give(office) }, true
}

// receive streams the multipart body: the "file" part (the statement) to a
// temporary file, refusing it from its first bytes when it is no supported
// type, and an optional "password" part for an encrypted PDF. On error the
// upload, when not nil, still has a file to remove.
func (s *Server) receive(r *http.Request) (*upload, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, &apiError{http.StatusBadRequest, "invalid_request",
			"The request is not a multipart form upload.", "Send multipart/form-data with the statement in a part named 'file', e.g. curl -F file=@statement.pdf."}
	}
	var up *upload
	var password, folderID string
	var ifNew bool
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return up, bodyError(err)
		}
		switch part.FormName() {
		case "file":
			if up != nil {
				part.Close()
				return up, &apiError{http.StatusBadRequest, "too_many_files", "Only one file can be uploaded at a time.", "Send one part named 'file' per request."}
			}
			if up, err = s.spool(part); err != nil {
				return up, err
			}
		case "password":
			b, err := io.ReadAll(io.LimitReader(part, 1024))
			if err != nil {
				return up, bodyError(err)
			}
			password = string(b)
		case "folder_id":
			b, err := io.ReadAll(io.LimitReader(part, 64))
			if err != nil {
				return up, bodyError(err)
			}
			folderID = strings.TrimSpace(string(b))
		case "if_new":
			b, err := io.ReadAll(io.LimitReader(part, 16))
			if err != nil {
				return up, bodyError(err)
			}
			ifNew = strings.TrimSpace(string(b)) == "true"
		default:
			if _, err := io.Copy(io.Discard, part); err != nil {
				return up, bodyError(err)
			}
		}
		part.Close()
	}
	if up == nil {
		return nil, &apiError{http.StatusBadRequest, "missing_file", "No file was uploaded.", "Put the statement in a form part named 'file', e.g. curl -F file=@statement.pdf."}
	}
	if up.size == 0 {
		return up, &apiError{http.StatusBadRequest, "empty_file", "The uploaded file is empty.", "Check the file on disk and upload it again."}
	}
	up.password, up.folderID, up.ifNew = password, folderID, ifNew
	return up, nil
}

// spool copies a file part to a private temporary file (mode 0600), hashing
// it, and checks its type from its first KiB before reading on.
func (s *Server) spool(part *multipart.Part) (*upload, error) {
	f, err := os.CreateTemp(s.cfg.TempDir, "passbook-upload-*")
	if err != nil {
		return nil, fmt.Errorf("create upload file: %w", err)
	}
	defer f.Close()
	up := &upload{name: cleanName(part.FileName()), path: f.Name()}
	h := sha256.New()
	br := bufio.NewReaderSize(part, 1024)
	head, err := br.Peek(1024)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return up, bodyError(err)
	}
	if len(head) > 0 && s.cfg.Sniff != nil && s.cfg.Sniff(head) == "" {
		return up, probeError(source.ErrUnsupported)
	}
	n, err := io.Copy(io.MultiWriter(f, h), br)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return up, fmt.Errorf("write upload file: %w", err)
		}
		return up, bodyError(err)
	}
	if err := f.Close(); err != nil {
		return up, fmt.Errorf("write upload file: %w", err)
	}
	up.size, up.sha256 = n, hex.EncodeToString(h.Sum(nil))
	return up, nil
}

func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(mbe.Limit)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &apiError{http.StatusRequestTimeout, "upload_too_slow", "The upload arrived too slowly and was cut off.",
			"Upload again over a faster connection; the server needs at least some data every few seconds."}
	}
	return &apiError{http.StatusBadRequest, "invalid_request", "The upload could not be read: " + err.Error() + ".", "Send multipart/form-data with the statement in a part named 'file'."}
}

// cleanName keeps the base name of an uploaded file's name, as valid UTF-8
// with no control or format characters (a right-to-left override would make
// "statement\u202Efdp.exe" show as "statementexe.pdf"), at most 200 bytes.
func cleanName(n string) string {
	n = strings.ReplaceAll(n, "\\", "/")
	n = path.Base(n)
	n = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
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

// unreadable says whether a probe failed on the file itself (damaged, too
// large to read, past a limit, or crashing the converter), which earns its
// account a ProbePenalty; a wrong password, a busy server or a client that
// went away does not.
func unreadable(err error) bool {
	for _, e := range []error{source.ErrCorrupt, source.ErrTooLarge, source.ErrLimit, source.ErrCrashed} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// probeError tells the uploader why a document cannot be taken.
func probeError(err error) error {
	switch {
	case errors.Is(err, source.ErrUnsupported):
		return &apiError{http.StatusBadRequest, "unsupported_type", "The file is not a PDF or a supported image.", "Upload a PDF, PNG, JPEG, TIFF or WebP file."}
	case errors.Is(err, source.ErrPassword):
		return &apiError{http.StatusBadRequest, "password_required", "The PDF is password-protected and no correct password was given.", "Send the password in a form field named 'password', e.g. curl -F file=@statement.pdf -F password=..."}
	case errors.Is(err, source.ErrTooLarge):
		return &apiError{http.StatusRequestEntityTooLarge, "too_large", "The document is too large to convert.",
			"Its pages or images expand past what this server reads; a scan or photo saved at a lower resolution, or a long statement split into parts, may fit."}
	case errors.Is(err, source.ErrLimit):
		return &apiError{http.StatusBadRequest, "unreadable_file", "The file took too long to read: it may be damaged or built to be hard to read.",
			"Open it on your computer to check it, export or scan it again, and upload the new file."}
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
	// Retryable is set on a failed document that POST
	// /api/v1/documents/{file_id}/retry converts again.
	Retryable bool `json:"retryable,omitempty"`
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimSpace(r.URL.Query().Get("file_id"))
	if id == "" {
		s.fail(w, r, errMissingFileID)
		return
	}
	doc, err := s.store.Progress(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if doc.AccountID != account(r).ID {
		s.fail(w, r, errForbidden)
		return
	}
	resp := statusResponse{Success: true, FileID: doc.ID, Status: doc.Status, PageCount: doc.PageCount}
	switch doc.Status {
	case store.StatusCompleted:
		resp.TransactionCount = &doc.TransactionCount
	case store.StatusProcessing:
		resp.PagesDone = &doc.PagesDone
	case store.StatusFailed:
		resp.Error, resp.ErrorCode, resp.Retryable = doc.Error, doc.ErrorCode, store.Retryable(doc.ErrorCode)
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
	s.exportDocument(w, r, doc, format, opts, store.ActExport)
}

// handleReview serves a document's JSON download for the page's review:
// GET /api/v1/documents/{file_id}. The trail records that it was opened
// for review, not that it was downloaded.
func (s *Server) handleReview(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocumentID(r, mux.Vars(r)["file_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.exportDocument(w, r, doc, export.JSON, export.Options{}, store.ActReview)
}

// exportDocument answers with doc written in format, as served (with its
// corrections), and records action in the trail.
func (s *Server) exportDocument(w http.ResponseWriter, r *http.Request, doc store.Document, format export.Format, opts export.Options, action string) {
	if err := notServed(w, doc); err != nil {
		s.fail(w, r, err)
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
	s.audit(r, store.Event{Action: action, DocumentID: doc.ID, Detail: string(format)})
	name := cleanName(doc.OriginalName) // names stored before the rules tightened
	serveExport(w, format, exportName(strings.TrimSuffix(name, path.Ext(name)), opts), buf.Bytes())
}

// exportName is the file name (without its extension) of a download of
// base: a CSV profile's download is named for its profile too, so that a
// folder's CSV and its CSV for Xero do not overwrite each other.
func exportName(base string, opts export.Options) string {
	if opts.Profile != "" {
		return base + " (" + string(opts.Profile) + ")"
	}
	return base
}

// notServed is why a document's conversion cannot be served yet, or
// ever: 409 not_ready while it is processing (with Retry-After set on
// w), 409 document_failed once it failed; nil once completed.
func notServed(w http.ResponseWriter, doc store.Document) error {
	switch doc.Status {
	case store.StatusProcessing:
		w.Header().Set("Retry-After", "2")
		return &apiError{http.StatusConflict, "not_ready", "The document is still being processed.", "Poll GET /api/v1/status every 2 seconds until status is completed."}
	case store.StatusFailed:
		return &apiError{http.StatusConflict, "document_failed", "The document could not be converted: " + doc.Error, "Check the file and upload it again; its pages were not charged."}
	}
	return nil
}

// serveExport answers with an export in format f: JSON inline, the other
// formats as an attachment named base with the format's extension.
func serveExport(w http.ResponseWriter, f export.Format, base string, body []byte) {
	w.Header().Set("Content-Type", f.ContentType())
	if f != export.JSON {
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": base + f.Ext()}))
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
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
		return store.Document{}, errMissingFileID
	}
	return s.ownDocumentID(r, id)
}

var (
	errMissingFileID = &apiError{http.StatusBadRequest, "missing_file_id", "The file_id parameter is missing.", "Add ?file_id=doc_... as returned by POST /api/v1/extract."}
	errForbidden     = &apiError{http.StatusForbidden, "forbidden", "This document belongs to another account.", "Use a file_id returned to your own API key."}
)

// ownDocumentID loads the caller's document id: 404 when there is none,
// 403 when it is another account's.
func (s *Server) ownDocumentID(r *http.Request, id string) (store.Document, error) {
	doc, err := s.store.Document(r.Context(), id)
	if err != nil {
		return store.Document{}, err
	}
	if doc.AccountID != account(r).ID {
		return store.Document{}, errForbidden
	}
	return doc, nil
}

// pageCount is n pages in words: "1 page", "3 pages".
func pageCount(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}
