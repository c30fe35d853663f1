package server

import (
	"net/http"

	"github.com/gorilla/mux"

	"passbook/store"
	"passbook/web"
)

// routes lists every route in one place, grouped by who may call them:
// anyone (sign-in, an invitation, a client's upload link), then any member
// of an office with an API key or the page's session, each route naming
// the least role it needs (read_only views and downloads, staff changes
// work, owner manages the office).
func (s *Server) routes() {
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(s.handleNotFound)
	r.MethodNotAllowedHandler = http.HandlerFunc(s.handleMethodNotAllowed)

	// No credential: the request itself carries one (a password, an
	// invitation's or a link's token), checked and throttled by its handler.
	r.HandleFunc("/api/v1/signin", s.handleSignIn).Methods(http.MethodPost)
	r.HandleFunc("/api/v1/invites/{token}", s.handleInvite).Methods(http.MethodGet)
	r.HandleFunc("/api/v1/invites/{token}", s.handleAcceptInvite).Methods(http.MethodPost)
	r.HandleFunc("/l/{token}", s.handleLinkPage).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/l/{token}", s.handleLinkUpload).Methods(http.MethodPost).Name(routeUpload)
	for _, p := range []string{"/api/v1/signin", "/api/v1/invites/{token}", "/l/{token}"} {
		r.HandleFunc(p, s.handleMethodNotAllowed)
	}

	api := r.PathPrefix("/api/v1").Subrouter()
	api.NotFoundHandler = r.NotFoundHandler
	api.MethodNotAllowedHandler = r.MethodNotAllowedHandler
	// Issue 30's routes: several documents as a zip, a statement's header
	// corrected, a folder renamed, a statement set aside in a folder. They
	// come before the routes below, whose paths answer any other method
	// 405; their own new paths do so at the end of this block. Like every
	// route below they need a key or a session (api.Use applies to the
	// whole subrouter) and name the least role they need.
	view, staff, owner := store.RoleReadOnly, store.RoleStaff, store.RoleOwner
	api.HandleFunc("/documents/zip", s.need(view, s.handleZip)).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}/statement", s.need(staff, s.handleSaveStatement)).Methods(http.MethodPut)
	api.HandleFunc("/folders/{folder_id}", s.need(staff, s.handleRenameFolder)).Methods(http.MethodPatch)
	api.HandleFunc("/folders/{folder_id}/documents/{file_id}", s.need(staff, s.handleSetAside)).Methods(http.MethodPatch)
	for _, p := range []string{"/documents/zip", "/documents/{file_id}/statement"} {
		api.HandleFunc(p, s.handleMethodNotAllowed)
	}
	api.Use(s.requireKey)
	api.HandleFunc("/documents", s.need(view, s.handleDocuments)).Methods(http.MethodGet)
	api.HandleFunc("/transactions", s.need(view, s.handleTransactions)).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}", s.need(view, s.handleReview)).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}", s.need(staff, s.handleDeleteDocument)).Methods(http.MethodDelete)
	api.HandleFunc("/documents/{file_id}/pages/{n}", s.need(view, s.handlePage)).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}/history", s.need(view, s.handleHistory)).Methods(http.MethodGet)
	api.HandleFunc("/documents/{file_id}/retry", s.need(staff, s.handleRetry)).Methods(http.MethodPost)
	api.HandleFunc("/documents/{file_id}/transactions", s.need(staff, s.handleSaveEdit)).Methods(http.MethodPut)
	api.HandleFunc("/documents/{file_id}/transactions", s.need(staff, s.handleRevertEdit)).Methods(http.MethodDelete)
	api.HandleFunc("/documents/{file_id}/transactions/check", s.need(staff, s.handleCheckEdit)).Methods(http.MethodPost)
	api.HandleFunc("/extract", s.need(staff, s.handleUpload)).Methods(http.MethodPost).Name(routeUpload)
	api.HandleFunc("/status", s.need(view, s.handleStatus)).Methods(http.MethodGet)
	api.HandleFunc("/download", s.need(view, s.handleDownload)).Methods(http.MethodGet)
	api.HandleFunc("/redact", s.need(view, s.handleRedact)).Methods(http.MethodGet)
	api.HandleFunc("/user", s.need(view, s.handleUser)).Methods(http.MethodGet)
	api.HandleFunc("/folders", s.need(view, s.handleFolders)).Methods(http.MethodGet)
	api.HandleFunc("/folders", s.need(staff, s.handleCreateFolder)).Methods(http.MethodPost)
	api.HandleFunc("/folders/{folder_id}", s.need(view, s.handleFolder)).Methods(http.MethodGet)
	api.HandleFunc("/folders/{folder_id}", s.need(staff, s.handleDeleteFolder)).Methods(http.MethodDelete)
	api.HandleFunc("/folders/{folder_id}/documents/{file_id}", s.need(staff, s.handleAddToFolder)).Methods(http.MethodPut)
	api.HandleFunc("/folders/{folder_id}/documents/{file_id}", s.need(staff, s.handleRemoveFromFolder)).Methods(http.MethodDelete)
	api.HandleFunc("/folders/{folder_id}/download", s.need(view, s.handleFolderDownload)).Methods(http.MethodGet)
	api.HandleFunc("/session", s.need(view, s.handleSession)).Methods(http.MethodGet)
	api.HandleFunc("/signout", s.need(view, s.handleSignOut)).Methods(http.MethodPost)
	api.HandleFunc("/links", s.need(staff, s.handleLinks)).Methods(http.MethodGet)
	api.HandleFunc("/links", s.need(staff, s.handleCreateLink)).Methods(http.MethodPost)
	api.HandleFunc("/links/{link_id}", s.need(staff, s.handleRevokeLink)).Methods(http.MethodDelete)
	api.HandleFunc("/members", s.need(owner, s.handleMembers)).Methods(http.MethodGet)
	api.HandleFunc("/members", s.need(owner, s.handleInviteMember)).Methods(http.MethodPost)
	api.HandleFunc("/members/{member_id}", s.need(owner, s.handleSetRole)).Methods(http.MethodPut)
	api.HandleFunc("/members/{member_id}", s.need(owner, s.handleRemoveMember)).Methods(http.MethodDelete)
	api.HandleFunc("/invitations", s.need(owner, s.handleInvitations)).Methods(http.MethodGet)
	api.HandleFunc("/invitations/{invite_id}", s.need(owner, s.handleWithdrawInvite)).Methods(http.MethodDelete)
	api.HandleFunc("/invitations/{invite_id}/link", s.need(owner, s.handleRenewInviteLink)).Methods(http.MethodPost)
	api.HandleFunc("/office", s.need(owner, s.handleRenameOffice)).Methods(http.MethodPut)
	api.HandleFunc("/audit", s.need(owner, s.handleAudit)).Methods(http.MethodGet)
	// Any other method on an API path is 405. gorilla/mux's own method
	// check is not enough: a later route under the /api/v1 prefix clears
	// the mismatch, and the web catch-all below then answers 404.
	for _, p := range []string{"/documents", "/transactions", "/documents/{file_id}", "/documents/{file_id}/pages/{n}",
		"/documents/{file_id}/history", "/documents/{file_id}/retry", "/documents/{file_id}/transactions", "/documents/{file_id}/transactions/check", "/extract", "/status", "/download", "/redact", "/user",
		"/folders", "/folders/{folder_id}", "/folders/{folder_id}/documents/{file_id}", "/folders/{folder_id}/download",
		"/session", "/signout", "/links", "/links/{link_id}", "/members", "/members/{member_id}", "/office", "/audit",
		"/invitations", "/invitations/{invite_id}", "/invitations/{invite_id}/link"} {
		api.HandleFunc(p, s.handleMethodNotAllowed)
	}

	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/readyz", s.handleReady).Methods(http.MethodGet, http.MethodHead)
	r.PathPrefix("/").Handler(s.page(web.Handler())).Methods(http.MethodGet, http.MethodHead)
	s.router = r
}
