package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"time"

	"passbook/store"
)

// apiError is an error the client is told about: its status, a snake_case
// code, a message and a hint for putting the request right.
type apiError struct {
	status int
	code   string
	msg    string
	hint   string
}

func (e *apiError) Error() string { return e.msg }

// errorBody is every error response of the API.
type errorBody struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Hint    string `json:"hint"`
	Code    string `json:"code"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// fail answers with the error: an *apiError as it says, a missing row as
// 404, a full disk as 507, anything else as a 500 that is logged and shows
// no internals. A request whose body may be unread is answered and its
// connection closed at once, so a slow body cannot hold it.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(time.Second))
	}
	var ae *apiError
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, store.ErrFull), errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		s.log.Error("storage full", "method", r.Method, "path", r.URL.Path, "err", err)
		ae = errStorageFull
	case errors.Is(err, store.ErrNoFolder):
		ae = &apiError{http.StatusNotFound, "not_found", "No folder with that folder_id.", "Use a folder_id from POST or GET /api/v1/folders."}
	case errors.Is(err, store.ErrFolderFull):
		ae = &apiError{http.StatusConflict, "folder_full", fmt.Sprintf("The folder holds %d documents, the most it may.", store.MaxFolderDocuments),
			"Make another folder for the rest, or take documents out of this one."}
	case errors.Is(err, store.ErrNotFound):
		ae = &apiError{http.StatusNotFound, "not_found", "No document with that file_id.", "Use the file_id returned by POST /api/v1/extract."}
	default:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		ae = &apiError{http.StatusInternalServerError, "internal_error", "Something went wrong on the server.", "Try again; if it keeps happening, tell the administrator (the server log has the details)."}
	}
	note(r, func(i *reqInfo) { i.code = ae.code })
	s.logRejected(r, ae)
	writeJSON(w, ae.status, errorBody{Success: false, Error: ae.msg, Hint: ae.hint, Code: ae.code})
}

// errStorageFull answers a write the disk had no room for.
var errStorageFull = &apiError{http.StatusInsufficientStorage, "storage_full", "The server's disk is full; nothing was saved or charged.",
	"Try again later; the administrator has been told by the server log."}

func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, &apiError{http.StatusNotFound, "not_found", "No such endpoint.", "Endpoints are POST /api/v1/extract, GET /api/v1/status, GET /api/v1/download, GET /api/v1/user, /api/v1/documents and /api/v1/folders (see docs/api.md)."})
}

func (s *Server) handleMethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, &apiError{http.StatusMethodNotAllowed, "method_not_allowed", "This endpoint does not take " + r.Method + ".", "Upload with POST /api/v1/extract; a document also takes DELETE, and its transactions PUT and DELETE; folders take POST and DELETE, a folder's documents PUT and DELETE; the rest is GET (see docs/api.md)."})
}
