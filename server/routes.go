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
	api.Use(s.requireKey)
	api.HandleFunc("/extract", s.handleUpload).Methods(http.MethodPost).Name(routeUpload)
	api.HandleFunc("/status", s.handleStatus).Methods(http.MethodGet)
	api.HandleFunc("/download", s.handleDownload).Methods(http.MethodGet)
	api.HandleFunc("/user", s.handleUser).Methods(http.MethodGet)
	// Any other method on those paths is 405: gorilla's own method check
	// loses to the web catch-all below and answers 404.
	for _, p := range []string{"/extract", "/status", "/download", "/user"} {
		api.HandleFunc(p, s.handleMethodNotAllowed)
	}

	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/readyz", s.handleReady).Methods(http.MethodGet, http.MethodHead)
	r.PathPrefix("/").Handler(s.page(web.Handler())).Methods(http.MethodGet, http.MethodHead)
	s.router = r
}
