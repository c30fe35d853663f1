package server

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"passbook/extract/redact"
	"passbook/extract/source"
	"passbook/store"
)

// redacter is a Converter that also makes a statement's shareable copy
// (extract/redact) in a worker: extract/worker's Pool is one.
type redacter interface {
	Redact(ctx context.Context, data []byte, password string, pages int) ([]byte, redact.Sidecar, error)
}

// handleRedact sends a copy of a converted statement (text, scan or
// photo) that reads as
// it does and shows nothing of its client, for reporting a layout read
// wrong (GET /api/v1/redact?file_id=; roles as for downloads). The copy
// is checked in the worker before it is sent: a copy that could not be
// made safe is refused with what could not, and never sent. The
// sidecar's facts (rows, opening, closing, status) come in X-Redact-*
// headers. An encrypted PDF's password is sent again in
// X-Document-Password, as for pages.
func (s *Server) handleRedact(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocument(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rd, ok := s.conv.(redacter)
	if !ok {
		s.fail(w, r, &apiError{http.StatusNotImplemented, "not_implemented", "This server makes no shareable copies.", "Run passbook redact on the file instead."})
		return
	}
	if err := notServed(w, doc); err != nil {
		s.fail(w, r, err)
		return
	}
	data, err := s.store.Content(r.Context(), doc.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, side, err := rd.Redact(r.Context(), data, r.Header.Get("X-Document-Password"), doc.PageCount)
	switch {
	case errors.Is(err, redact.ErrRefused):
		s.fail(w, r, &apiError{http.StatusUnprocessableEntity, "redact_refused", "No copy was made: " + strings.TrimPrefix(err.Error(), "no copy written: "), "Nothing was sent. Describe the layout in words, or run passbook redact on the file to try again with another factor."})
		return
	case errors.Is(err, source.ErrBusy):
		w.Header().Set("Retry-After", "30")
		s.fail(w, r, &apiError{http.StatusServiceUnavailable, "busy", "The server was too busy to make the copy in time.",
			"Retry after the number of seconds in the Retry-After header."})
		return
	case errors.Is(err, source.ErrPassword):
		s.fail(w, r, &apiError{http.StatusBadRequest, "password_required", "The PDF is password-protected and its password is not kept after conversion.",
			"Send the password again in the X-Document-Password header."})
		return
	case err != nil:
		s.fail(w, r, probeError(err))
		return
	}
	s.audit(r, store.Event{Action: store.ActExport, DocumentID: doc.ID, Detail: "redacted copy"})
	// Named for the document's id, not its original name, which often
	// names the client.
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "layout-" + doc.ID + ".pdf"}))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Redact-Rows", strconv.Itoa(side.Rows))
	h.Set("X-Redact-Reconciliation", side.Reconciliation)
	if side.OpeningBalance != nil {
		h.Set("X-Redact-Opening-Balance", *side.OpeningBalance)
	}
	if side.ClosingBalance != nil {
		h.Set("X-Redact-Closing-Balance", *side.ClosingBalance)
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}
