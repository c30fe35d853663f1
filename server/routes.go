package server

import (
	"net/http"

	"github.com/gorilla/mux"

	"passbook/web"
)

// routes lists every route in one place.
func (s *Server) routes() {
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(s.handleNotFound)
	r.MethodNotAllowedHandler = http.HandlerFunc(s.handleMethodNotAllowed)

	api := r.PathPrefix("/api/v1").Subrouter()
	api.NotFoundHandler = r.NotFoundHandler
	api.MethodNotAllowedHandler = r.MethodNotAllowedHandler
	// Issue 30's routes: several documents as a zip, a statement's header
	// corrected, a folder renamed, a statement set aside in a folder. They
	// come before the routes below, whose paths answer any other method
	// 405; their own new paths do so at the end of this block.
	api.HandleFunc("/documents/zip", s.handleZip).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}/statement", s.handleSaveStatement).Methods(http.MethodPut)
	api.HandleFunc("/folders/{folder_id}", s.handleRenameFolder).Methods(http.MethodPatch)
	api.HandleFunc("/folders/{folder_id}/documents/{file_id}", s.handleSetAside).Methods(http.MethodPatch)
	for _, p := range []string{"/documents/zip", "/documents/{file_id}/statement"} {
		api.HandleFunc(p, s.handleMethodNotAllowed)
	}
	api.Use(s.requireKey)
	api.HandleFunc("/documents", s.handleDocuments).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}", s.handleDeleteDocument).Methods(http.MethodDelete)
	api.HandleFunc("/documents/{file_id}/pages/{n}", s.handlePage).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}/transactions", s.handleSaveEdit).Methods(http.MethodPut)
	api.HandleFunc("/documents/{file_id}/transactions", s.handleRevertEdit).Methods(http.MethodDelete)
	api.HandleFunc("/extract", s.handleUpload).Methods(http.MethodPost).Name(routeUpload)
	api.HandleFunc("/status", s.handleStatus).Methods(http.MethodGet)
	api.HandleFunc("/download", s.handleDownload).Methods(http.MethodGet)
	api.HandleFunc("/user", s.handleUser).Methods(http.MethodGet)
	api.HandleFunc("/folders", s.handleFolders).Methods(http.MethodGet)
	api.HandleFunc("/folders", s.handleCreateFolder).Methods(http.MethodPost)
	api.HandleFunc("/folders/{folder_id}", s.handleFolder).Methods(http.MethodGet)
	api.HandleFunc("/folders/{folder_id}", s.handleDeleteFolder).Methods(http.MethodDelete)
	api.HandleFunc("/folders/{folder_id}/documents/{file_id}", s.handleAddToFolder).Methods(http.MethodPut)
	api.HandleFunc("/folders/{folder_id}/documents/{file_id}", s.handleRemoveFromFolder).Methods(http.MethodDelete)
	api.HandleFunc("/folders/{folder_id}/download", s.handleFolderDownload).Methods(http.MethodGet)
	// Any other method on an API path is 405. gorilla/mux's own method
	// check is not enough: a later route under the /api/v1 prefix clears
	// the mismatch, and the web catch-all below then answers 404.
	for _, p := range []string{"/documents", "/documents/{file_id}", "/documents/{file_id}/pages/{n}",
		"/documents/{file_id}/transactions", "/extract", "/status", "/download", "/user",
		"/folders", "/folders/{folder_id}", "/folders/{folder_id}/documents/{file_id}", "/folders/{folder_id}/download"} {
		api.HandleFunc(p, s.handleMethodNotAllowed)
	}

	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/readyz", s.handleReady).Methods(http.MethodGet, http.MethodHead)
	r.PathPrefix("/").Handler(s.page(web.Handler())).Methods(http.MethodGet, http.MethodHead)
	s.router = r
}
