package server

import (
	"net/http"
	"strconv"
	"time"

	"passbook/store"
)

// eventBody is one line of the trail as the API shows it.
type eventBody struct {
	ID         int64  `json:"id"`
	At         string `json:"at"`
	Action     string `json:"action"`
	Actor      string `json:"actor"`
	MemberID   *int64 `json:"member_id"`
	DocumentID string `json:"file_id,omitempty"`
	FolderID   string `json:"folder_id,omitempty"`
	LinkID     string `json:"link_id,omitempty"`
	Address    string `json:"address"`
	Detail     string `json:"detail,omitempty"`
}

func eventsOf(es []store.Event) []eventBody {
	out := make([]eventBody, 0, len(es))
	for _, e := range es {
		b := eventBody{ID: e.ID, At: e.CreatedAt.UTC().Format(time.RFC3339), Action: e.Action, Actor: e.Actor,
			DocumentID: e.DocumentID, FolderID: e.FolderID, LinkID: e.LinkID, Address: e.Address, Detail: e.Detail}
		if e.MemberID != 0 {
			id := e.MemberID
			b.MemberID = &id
		}
		out = append(out, b)
	}
	return out
}

func badAuditQuery(what string) *apiError {
	return &apiError{http.StatusBadRequest, "invalid_query", "The " + what + " parameter is not valid.",
		"member_id is a number, file_id a doc_ id, from and to are dates (2024-03-01) or RFC 3339 times, before an event id, limit 1 to 500."}
}

// parseWhen reads a date (its start, UTC) or an RFC 3339 time.
func parseWhen(v string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, true
	}
	t, err := time.Parse("2006-01-02", v)
	return t, err == nil
}

// handleAudit reads the office's trail, newest first (owners):
// ?member_id=&file_id=&from=&to=&before=&limit=. to is exclusive; a date
// as to means up to the end of that day.
func (s *Server) handleAudit(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	aq := store.AuditQuery{AccountID: account(r).ID, DocumentID: q.Get("file_id"), Limit: 100}
	var err error
	if v := q.Get("member_id"); v != "" {
		if aq.MemberID, err = strconv.ParseInt(v, 10, 64); err != nil || aq.MemberID <= 0 {
			s.fail(w, r, badAuditQuery("member_id"))
			return
		}
	}
	if v := q.Get("from"); v != "" {
		t, ok := parseWhen(v)
		if !ok {
			s.fail(w, r, badAuditQuery("from"))
			return
		}
		aq.From = t
	}
	if v := q.Get("to"); v != "" {
		t, ok := parseWhen(v)
		if !ok {
			s.fail(w, r, badAuditQuery("to"))
			return
		}
		if len(v) == len("2006-01-02") {
			t = t.AddDate(0, 0, 1)
		}
		aq.To = t
	}
	if v := q.Get("before"); v != "" {
		if aq.Before, err = strconv.ParseInt(v, 10, 64); err != nil || aq.Before <= 0 {
			s.fail(w, r, badAuditQuery("before"))
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		if aq.Limit, err = strconv.Atoi(v); err != nil || aq.Limit < 1 || aq.Limit > 500 {
			s.fail(w, r, badAuditQuery("limit"))
			return
		}
	}
	es, next, err := s.store.Audit(r.Context(), aq)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var nextV *int64
	if next != 0 {
		nextV = &next
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "events": eventsOf(es), "next": nextV})
}

// handleHistory is a document's own trail, oldest first (any member of
// its office): who uploaded, converted, corrected, exported it.
func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ownDocumentID(r, muxVar(r, "file_id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	es, _, err := s.store.Audit(r.Context(), store.AuditQuery{AccountID: doc.AccountID, DocumentID: doc.ID, Limit: 500})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "file_id": doc.ID, "events": eventsOf(es)})
}
