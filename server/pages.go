package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"passbook/extract/source"

	"github.com/gorilla/mux"
)

// handlePage sends a PNG of one page of the caller's document, drawn in a
// worker child. An encrypted PDF's password is never stored (the server
// holds it in memory only until its conversion ends): the client sends it
// again in the X-Document-Password header.
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocumentID(r, mux.Vars(r)["file_id"])
	if err != nil {
		s.fail(w, r, err)
		return
	}
	n, err := strconv.Atoi(mux.Vars(r)["n"])
	if err != nil || n < 1 || n > doc.PageCount {
		s.fail(w, r, &apiError{http.StatusNotFound, "no_such_page",
			fmt.Sprintf("The document has no page %s.", mux.Vars(r)["n"]),
			fmt.Sprintf("Pages are numbered from 1 to %d.", doc.PageCount)})
		return
	}
	width := 0 // the engine's default
	if v := r.URL.Query().Get("width"); v != "" {
		width, err = strconv.Atoi(v)
		if err != nil || width < source.MinRenderWidth || width > source.MaxRenderWidth {
			s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_width",
				fmt.Sprintf("width must be a number of pixels from %d to %d.", source.MinRenderWidth, source.MaxRenderWidth),
				fmt.Sprintf("Leave width out for a %d-pixel image.", source.DefaultRenderWidth)})
			return
		}
	}
	data, err := s.store.Content(r.Context(), doc.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.ProbeTimeout)
	defer cancel()
	img, err := s.conv.RenderPage(ctx, data, r.Header.Get("X-Document-Password"), n, width)
	if err != nil {
		if errors.Is(err, source.ErrPassword) {
			s.fail(w, r, &apiError{http.StatusBadRequest, "password_required", "The PDF is password-protected and its password is not kept after conversion.",
				"Send the password again in the X-Document-Password header."})
			return
		}
		s.fail(w, r, probeError(err))
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Page-Size", strconv.FormatFloat(img.Width, 'f', 2, 64)+" "+strconv.FormatFloat(img.Height, 'f', 2, 64))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(img.PNG)
}
