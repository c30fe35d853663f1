package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"passbook/export"
	"passbook/store"
)

// maxFolderName bounds a folder's name, in characters.
const maxFolderName = 200

// folderItem is one folder of GET /api/v1/folders, with its health: its
// status and count of findings as GET /api/v1/folders/{id} gives them,
// and when it last changed.
type folderItem struct {
	FolderID      string `json:"folder_id"`
	Name          string `json:"name"`
	CreatedAt     string `json:"created_at"`
	DocumentCount int    `json:"document_count"`
	Status        string `json:"status"`
	FindingCount  int    `json:"finding_count"`
	ChangedAt     string `json:"changed_at"`
}

// folderHealth is a folder's status and count of findings, kept per node
// for the folder's state (stamp) it was computed from: the list of 40
// clients' folders reads each folder's statements again only when it
// changed.
type folderHealth struct {
	stamp    string
	status   string
	findings int
}

// health is the folder's status and findings, from the cache when the
// folder has not changed since.
func (s *Server) health(ctx context.Context, f store.Folder) (folderHealth, error) {
	stamp := f.ChangedAt.UTC().Format(time.RFC3339Nano) + "/" + strconv.Itoa(f.Documents)
	if h, ok := s.healths.Load(f.ID); ok && h.(folderHealth).stamp == stamp {
		return h.(folderHealth), nil
	}
	set, _, err := s.folderSet(ctx, f)
	if err != nil {
		return folderHealth{}, err
	}
	h := folderHealth{stamp: stamp, status: set.Status(), findings: set.Findings()}
	// A folder still converting changes without a stamp of its own (pages
	// done); it is read again next time.
	if h.status != export.SetProcessing {
		s.healths.Store(f.ID, h)
	}
	return h, nil
}

func (s *Server) newFolderItem(ctx context.Context, f store.Folder) (folderItem, error) {
	h, err := s.health(ctx, f)
	if err != nil {
		return folderItem{}, err
	}
	return folderItem{FolderID: f.ID, Name: f.Name, CreatedAt: f.CreatedAt.UTC().Format(time.RFC3339), DocumentCount: f.Documents,
		Status: h.status, FindingCount: h.findings, ChangedAt: f.ChangedAt.UTC().Format(time.RFC3339)}, nil
}

// folderDocument is one document of a folder: every one, whether it
// converted or not, so that a page shows what is still converting.
type folderDocument struct {
	FileID         string  `json:"file_id"`
	OriginalName   string  `json:"original_name"`
	PageCount      int     `json:"page_count"`
	Status         string  `json:"status"`
	Reconciliation *string `json:"reconciliation"`
	Error          string  `json:"error,omitempty"`
	ErrorCode      string  `json:"error_code,omitempty"`
	// SetAside says a person set this statement aside in the folder: it
	// is left out of the folder's accounts, findings and downloads.
	SetAside bool `json:"set_aside"`
}

// folderResponse is the body of GET /api/v1/folders/{id}.
type folderResponse struct {
	Success   bool             `json:"success"`
	FolderID  string           `json:"folder_id"`
	Name      string           `json:"name"`
	CreatedAt string           `json:"created_at"`
	Documents []folderDocument `json:"documents"`
	export.SetJSON
}

// folderName checks a folder's name: one line of 1 to 200 characters,
// without control characters, trimmed.
func folderName(body io.Reader) (string, error) {
	bad := &apiError{http.StatusBadRequest, "invalid_name", "A folder needs a name of 1 to 200 characters on one line.",
		`Send {"name": "Smith & Co 2024"} as JSON.`}
	var req struct {
		Name *string `json:"name"`
	}
	if err := json.NewDecoder(body).Decode(&req); err != nil {
		return "", &apiError{http.StatusBadRequest, "invalid_request", "The body is not a JSON object.", `Send {"name": "Smith & Co 2024"} as JSON.`}
	}
	if req.Name == nil {
		return "", bad
	}
	name := strings.TrimSpace(*req.Name)
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxFolderName ||
		strings.IndexFunc(name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0 {
		return "", bad
	}
	return name, nil
}

func (s *Server) handleCreateFolder(w http.ResponseWriter, r *http.Request) {
	name, err := folderName(http.MaxBytesReader(w, r.Body, 4096))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A name another folder has is made, as it always was, but said:
	// same_name_as names that folder (the page refuses it before asking).
	var same any
	other, taken, err := s.sameName(r, name, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if taken {
		same = other.ID
	}
	f, err := s.store.CreateFolder(r.Context(), account(r).ID, name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActFolderCreate, FolderID: f.ID, Detail: f.Name})
	s.log.Info("folder created", "folder_id", f.ID, "account_id", f.AccountID)
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folder_id": f.ID, "name": f.Name, "created_at": f.CreatedAt.Format(time.RFC3339),
		"same_name_as": same})
}

func (s *Server) handleFolders(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len(q) > 200 {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_query", "The q parameter is not valid.", "q is up to 200 characters."})
		return
	}
	if q != "" {
		// What the documents name is searched: label them all first.
		if _, err := s.documentLabels(r.Context(), account(r).ID, maxLabelBatches); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	fs, err := s.store.SearchFolders(r.Context(), account(r).ID, q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	items := make([]folderItem, 0, len(fs))
	for _, f := range fs {
		it, err := s.newFolderItem(r.Context(), f)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		items = append(items, it)
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folders": items})
}

// ownFolder loads the caller's folder id: 404 when there is none, 403 when
// it is another account's.
func (s *Server) ownFolder(r *http.Request, id string) (store.Folder, error) {
	f, err := s.store.Folder(r.Context(), id)
	if err != nil {
		return store.Folder{}, err
	}
	if f.AccountID != account(r).ID {
		return store.Folder{}, &apiError{http.StatusForbidden, "forbidden", "This folder belongs to another account.", "Use a folder_id returned to your own API key."}
	}
	return f, nil
}

// folderSet reads a folder's documents and puts them together as a set.
func (s *Server) folderSet(ctx context.Context, f store.Folder) (*export.Set, []store.FolderDocument, error) {
	docs, err := s.store.FolderDocuments(ctx, f.ID)
	if err != nil {
		return nil, nil, err
	}
	sources := make([]export.Source, 0, len(docs))
	for _, d := range docs {
		src := export.Source{ID: d.ID, Name: d.OriginalName, Status: d.Status, Error: d.Error, SetAside: d.SetAside, SetAsideAt: d.SetAsideAt}
		if d.Status == store.StatusCompleted && !d.SetAside {
			if src.Result, err = decodeServed(d.ID, d.Result, d.Edit); err != nil {
				return nil, nil, err
			}
		}
		sources = append(sources, src)
	}
	return export.NewSet(sources), docs, nil
}

func (s *Server) handleFolder(w http.ResponseWriter, r *http.Request) {
	f, err := s.ownFolder(r, mux.Vars(r)["folder_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	set, docs, err := s.folderSet(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	resp := folderResponse{Success: true, FolderID: f.ID, Name: f.Name, CreatedAt: f.CreatedAt.UTC().Format(time.RFC3339),
		Documents: make([]folderDocument, 0, len(docs)), SetJSON: set.JSON()}
	for _, d := range docs {
		fd := folderDocument{FileID: d.ID, OriginalName: d.OriginalName, PageCount: d.PageCount, Status: d.Status, SetAside: d.SetAside}
		switch d.Status {
		case store.StatusCompleted:
			rec := d.Reconciliation
			fd.Reconciliation = &rec
		case store.StatusFailed:
			fd.Error, fd.ErrorCode = d.Error, d.ErrorCode
		}
		resp.Documents = append(resp.Documents, fd)
	}
	writeJSON(w, http.StatusOK, resp)
}

// handleDeleteFolder deletes a folder; its documents stay.
func (s *Server) handleDeleteFolder(w http.ResponseWriter, r *http.Request) {
	f, err := s.ownFolder(r, mux.Vars(r)["folder_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.DeleteFolder(r.Context(), f.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("folder deleted", "folder_id", f.ID, "account_id", f.AccountID)
	s.audit(r, store.Event{Action: store.ActFolderDelete, FolderID: f.ID, Detail: f.Name})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folder_id": f.ID})
}

// folderAndDocument loads the caller's folder and document named in the path.
func (s *Server) folderAndDocument(r *http.Request) (store.Folder, store.Document, error) {
	v := mux.Vars(r)
	f, err := s.ownFolder(r, v["folder_id"])
	if err != nil {
		return f, store.Document{}, err
	}
	d, err := s.ownDocumentID(r, v["file_id"])
	return f, d, err
}

// handleAddToFolder puts one of the caller's documents in a folder; a
// document already in it stays.
func (s *Server) handleAddToFolder(w http.ResponseWriter, r *http.Request) {
	f, d, err := s.folderAndDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.AddToFolder(r.Context(), f.ID, d.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActFolderAdd, FolderID: f.ID, DocumentID: d.ID})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folder_id": f.ID, "file_id": d.ID})
}

// handleRemoveFromFolder takes a document out of a folder; it stays among
// the caller's documents.
func (s *Server) handleRemoveFromFolder(w http.ResponseWriter, r *http.Request) {
	f, d, err := s.folderAndDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.RemoveFromFolder(r.Context(), f.ID, d.ID); err != nil {
		s.fail(w, r, &apiError{http.StatusNotFound, "not_found", "That document is not in this folder.",
			"GET /api/v1/folders/{folder_id} lists the folder's documents."})
		return
	}
	s.audit(r, store.Event{Action: store.ActFolderRemove, FolderID: f.ID, DocumentID: d.ID})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folder_id": f.ID, "file_id": d.ID})
}

// handleFolderDownload writes every account of the folder over the whole
// period in one file. While a document still converts it answers 409
// not_ready, as a document's download does: the file would miss its rows.
func (s *Server) handleFolderDownload(w http.ResponseWriter, r *http.Request) {
	format, opts, apiErr := downloadOptions(r.URL.Query(), s.cfg.IntuBID)
	if apiErr != nil {
		s.fail(w, r, apiErr)
		return
	}
	f, err := s.ownFolder(r, mux.Vars(r)["folder_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	set, _, err := s.folderSet(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if set.Status() == export.SetProcessing {
		w.Header().Set("Retry-After", "2")
		s.fail(w, r, &apiError{http.StatusConflict, "not_ready", "A document of the folder is still being processed.",
			"Poll GET /api/v1/folders/{folder_id} every 2 seconds until no document is processing."})
		return
	}
	// The workbook says who set a statement aside: the trail knows.
	by, err := s.store.SetAsideBy(r.Context(), f.AccountID, f.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i := range set.Sources {
		set.Sources[i].SetAsideBy = by[set.Sources[i].ID]
	}
	var buf bytes.Buffer
	opts.FileID, opts.OriginalName, opts.Created = f.ID, f.Name, s.store.Now()
	if err := export.WriteSet(&buf, format, opts, set); err != nil {
		s.fail(w, r, fmt.Errorf("export folder %s as %s: %w", f.ID, format, err))
		return
	}
	s.audit(r, store.Event{Action: store.ActExport, FolderID: f.ID, Detail: string(format)})
	serveExport(w, format, exportName(cleanName(strings.ReplaceAll(f.Name, "/", "-")), opts), buf.Bytes())
}

// sameName finds another folder of the account (not except) with the name,
// letters of either case the same: two folders "Smith 2024" are one
// client's year split in two.
func (s *Server) sameName(r *http.Request, name, except string) (store.Folder, bool, error) {
	fs, err := s.store.Folders(r.Context(), account(r).ID)
	if err != nil {
		return store.Folder{}, false, err
	}
	for _, f := range fs {
		if f.ID != except && strings.EqualFold(strings.TrimSpace(f.Name), name) {
			return f, true, nil
		}
	}
	return store.Folder{}, false, nil
}

// handleRenameFolder renames a folder: PATCH /folders/{folder_id} with
// {"name": "..."}; a name another folder has is refused (409 name_taken).
func (s *Server) handleRenameFolder(w http.ResponseWriter, r *http.Request) {
	f, err := s.ownFolder(r, mux.Vars(r)["folder_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	name, err := folderName(http.MaxBytesReader(w, r.Body, 4096))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	other, taken, err := s.sameName(r, name, f.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if taken {
		s.fail(w, r, &apiError{http.StatusConflict, "name_taken", fmt.Sprintf("A folder is already called %q.", other.Name),
			"Open that folder (its folder_id is " + other.ID + "), or choose another name."})
		return
	}
	if err := s.store.RenameFolder(r.Context(), f.ID, name); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.Info("folder renamed", "folder_id", f.ID, "account_id", f.AccountID)
	s.audit(r, store.Event{Action: store.ActFolderRename, FolderID: f.ID, Detail: f.Name + " → " + name})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folder_id": f.ID, "name": name})
}

// handleSetAside sets a statement of a folder aside, or puts it back:
// PATCH /folders/{folder_id}/documents/{file_id} with {"set_aside": true}.
// Set aside, it stays in the folder, out of its continuity and downloads:
// the choice of which of two conflicting statements the folder keeps.
func (s *Server) handleSetAside(w http.ResponseWriter, r *http.Request) {
	f, d, err := s.folderAndDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req struct {
		SetAside *bool `json:"set_aside"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil || req.SetAside == nil {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_request", "The body must be {\"set_aside\": true} or {\"set_aside\": false}.",
			`Send {"set_aside": true} to leave the statement out of the folder, false to take it back in.`})
		return
	}
	if err := s.store.SetAside(r.Context(), f.ID, d.ID, *req.SetAside); err != nil {
		s.fail(w, r, &apiError{http.StatusNotFound, "not_found", "That document is not in this folder.",
			"GET /api/v1/folders/{folder_id} lists the folder's documents."})
		return
	}
	action := store.ActFolderTakeBack
	if *req.SetAside {
		action = store.ActFolderSetAside
	}
	s.audit(r, store.Event{Action: action, FolderID: f.ID, DocumentID: d.ID})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "folder_id": f.ID, "file_id": d.ID, "set_aside": *req.SetAside})
}
