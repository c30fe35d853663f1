package server

import (
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"passbook/store"
)

// Client upload links: staff make a link for one folder; whoever holds it
// can add statements to that folder through a plain page in the office's
// name, and read nothing at all. The link's token is its only credential;
// it is kept as a hash and shown once.

const linkKey ctxKey = 100

// linkBody is a link as listed.
type linkBody struct {
	LinkID     string  `json:"link_id"`
	FolderID   string  `json:"folder_id"`
	FolderName string  `json:"folder_name"`
	Label      string  `json:"label"`
	PageLimit  *int    `json:"page_limit"`
	PagesUsed  int     `json:"pages_used"`
	CreatedBy  int64   `json:"created_by"`
	CreatedAt  string  `json:"created_at"`
	ExpiresAt  string  `json:"expires_at"`
	RevokedAt  *string `json:"revoked_at"`
	State      string  `json:"state"`
	URL        string  `json:"url,omitempty"`
}

func (s *Server) linkOf(l store.Link) linkBody {
	b := linkBody{LinkID: l.ID, FolderID: l.FolderID, FolderName: l.FolderName, Label: l.Label, PagesUsed: l.PagesUsed,
		CreatedBy: l.CreatedBy, CreatedAt: l.CreatedAt.UTC().Format(time.RFC3339), ExpiresAt: l.ExpiresAt.UTC().Format(time.RFC3339), State: "live"}
	if l.PageLimit > 0 {
		n := l.PageLimit
		b.PageLimit = &n
	}
	switch {
	case l.RevokedAt != nil:
		t := l.RevokedAt.UTC().Format(time.RFC3339)
		b.RevokedAt, b.State = &t, "revoked"
	case !l.Live(s.store.Now()):
		b.State = "expired"
	}
	return b
}

// handleCreateLink makes a client upload link (staff): {folder_id,
// expires_in_days (default 30), page_limit (0: none), label} → the link
// with its url, shown this once.
func (s *Server) handleCreateLink(w http.ResponseWriter, r *http.Request) {
	var req struct {
		FolderID      string `json:"folder_id"`
		ExpiresInDays *int   `json:"expires_in_days"`
		PageLimit     int    `json:"page_limit"`
		Label         string `json:"label"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	// Left out, a link lasts 30 days; 0 days is out of range, not 30.
	days := 30
	if req.ExpiresInDays != nil {
		days = *req.ExpiresInDays
	}
	ttl := time.Duration(days) * 24 * time.Hour
	if days < 1 || ttl > s.cfg.LinkTTL || req.PageLimit < 0 || len(req.Label) > 200 {
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_link", "The link's expiry, page limit or label is out of range.",
			"Send expires_in_days from 1 to " + strconv.Itoa(int(s.cfg.LinkTTL/(24*time.Hour))) + ", page_limit of 0 (none) or more, a label of at most 200 characters."})
		return
	}
	if _, err := s.ownFolder(r, req.FolderID); err != nil {
		s.fail(w, r, err)
		return
	}
	token, l, err := s.store.CreateLink(r.Context(), store.NewLink{AccountID: account(r).ID, FolderID: req.FolderID,
		CreatedBy: caller(r).Member.ID, Label: req.Label, PageLimit: req.PageLimit, ExpiresAt: s.store.Now().Add(ttl)})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActLinkCreate, FolderID: l.FolderID, LinkID: l.ID, Detail: l.Label})
	b := s.linkOf(l)
	b.URL = s.siteURL(r) + "/l/" + token
	writeJSON(w, http.StatusCreated, map[string]any{"success": true, "link": b})
}

// handleLinks lists the office's links, newest first (staff);
// ?folder_id= keeps one folder's.
func (s *Server) handleLinks(w http.ResponseWriter, r *http.Request) {
	ls, err := s.store.Links(r.Context(), account(r).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	folder := r.URL.Query().Get("folder_id")
	out := []linkBody{}
	for _, l := range ls {
		if folder == "" || l.FolderID == folder {
			out = append(out, s.linkOf(l))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "links": out})
}

// handleRevokeLink stops a link (staff); another office's link is 404.
func (s *Server) handleRevokeLink(w http.ResponseWriter, r *http.Request) {
	l, err := s.store.RevokeLink(r.Context(), account(r).ID, muxVar(r, "link_id"))
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, &apiError{http.StatusNotFound, "not_found", "No link with that link_id.", "Use a link_id from GET /api/v1/links."})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActLinkRevoke, FolderID: l.FolderID, LinkID: l.ID})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "link": s.linkOf(l)})
}

// linkPage is the page a client's link opens: plain HTML in the office's
// name that works with no script (one file a visit), and that client.js,
// from this server, turns into a page taking many files, dropped or
// chosen, each with its progress, listing what was sent in this visit. It
// requests nothing from anywhere but this server, and follows the
// browser's dark mode. It is parsed on first use, not at the start of
// every process (a CLI call or a worker).
var linkPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("link").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><meta name="color-scheme" content="light dark">
<title>{{if .Office}}{{.Office}}: {{end}}send your statements</title>
<style>:root{--fg:#1d232b;--bg:#fff;--line:#c9d1da;--muted:#57616d;--ok:#13612e;--err:#a3191b;--accent:#2456a6;--over:#eef3fb}
@media (prefers-color-scheme: dark){:root{--fg:#e6e9ee;--bg:#15191f;--line:#3a4450;--muted:#a9b3bf;--ok:#7fd69a;--err:#ff9c9c;--accent:#8fb4ff;--over:#1f2a3a}}
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:var(--fg);background:var(--bg)}
h1{font-size:1.4rem;overflow-wrap:anywhere}.office{font-size:.95rem;color:var(--muted);margin:0}
.box{border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem}.ok{color:var(--ok)}.err{color:var(--err)}
.drop{border:2px dashed var(--line);text-align:center}.drop.over{border-color:var(--accent);background:var(--over)}
input[type=file],input[type=password]{font:inherit;max-width:100%}input[type=password]{padding:.4rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--bg);min-height:44px}
.muted{color:var(--muted);font-size:.9rem}ul.sent{list-style:none;padding:0}ul.sent li{border-bottom:1px solid var(--line);padding:.5rem 0;display:grid;grid-template-columns:minmax(0,1fr) auto;gap:.25rem .75rem}
ul.sent .name{overflow-wrap:anywhere;font-weight:600}ul.sent progress{grid-column:1/-1;width:100%;min-width:0;box-sizing:border-box}ul.sent .msg{grid-column:1/-1;font-size:.9rem}</style></head>
<body><main>
{{if .Gone}}<h1 id="title">{{.Title}}</h1><p class="box" id="message">{{.Message}}</p>
{{else}}<p class="office" id="office">{{.Office}}</p><h1 id="title">Send your statements to {{.Office}}</h1>
{{if .Label}}<p>{{.Label}}</p>{{end}}
{{if .Done}}<p class="box ok" id="done" role="status">Received {{.Done}}. Thank you: {{.Office}} has it now.</p>{{end}}
{{if .Error}}<p class="box err" id="error" role="alert">{{.Error}}</p>{{end}}
<form method="post" enctype="multipart/form-data" class="box drop" id="form">
<p><label for="file">Bank statements (PDF, PNG, JPEG, TIFF or WebP)</label><br>
<input id="file" name="file" type="file" required accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,application/pdf,image/*"></p>
<p id="drop-hint" class="muted" hidden>Choose several at once, or drop them here.</p>
<p><label for="password">Their password, if a PDF has one</label><br><input id="password" name="password" type="password" autocomplete="off"></p>
<p><button type="submit" id="send">Send</button></p></form>
<section id="visit" hidden aria-labelledby="visit-h"><h2 id="visit-h">Sent in this visit</h2><ul class="sent" id="sent" aria-live="polite"></ul></section>
<p class="muted">What you send goes to {{.Office}} only. This page shows nothing sent before this visit, by you or anyone.
{{if .PagesLeft}}This link takes {{.PagesLeft}} more page{{if ne .PagesLeft 1}}s{{end}}. {{end}}It works until {{.Expires}}.</p>
<script src="../client.js"></script>
{{end}}</main></body></html>
`))
})

type linkView struct {
	Office, Label, Expires, Done, Error, Title, Message string
	PagesLeft                                           int
	Gone                                                bool
}

func (s *Server) renderLink(w http.ResponseWriter, status int, v linkView) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = linkPage().Execute(w, v)
}

// linkFor finds a link by the token in the path, and answers a clear page
// itself when there is no live one: 404 for a token that opens nothing
// (counted as a guessed token of the address), 410 for a revoked
// or expired link.
func (s *Server) linkFor(w http.ResponseWriter, r *http.Request) (store.Link, bool) {
	addr := s.clientAddr(r)
	if wait, blocked := s.guesses.blocked(addr); blocked {
		s.renderLink(w, http.StatusTooManyRequests, linkView{Gone: true, Title: "Too many tries",
			Message: "Too many wrong links came from your address. Wait " + retryAfter(w, wait) + ", then open the link you were sent again."})
		return store.Link{}, false
	}
	token := muxVar(r, "token")
	var l store.Link
	err := store.ErrNotFound
	if strings.HasPrefix(token, store.LinkPrefix) {
		l, err = s.store.LinkByToken(r.Context(), token)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.guesses.fail(addr)
		s.renderLink(w, http.StatusNotFound, linkView{Gone: true, Title: "This link does not work",
			Message: "No upload link has this address. Check that you opened the whole link you were sent, or ask for a new one."})
		return store.Link{}, false
	case err != nil:
		s.log.Error("read upload link", "err", err)
		s.renderLink(w, http.StatusInternalServerError, linkView{Gone: true, Title: "Something went wrong",
			Message: "The server could not open this link just now. Try again in a minute."})
		return store.Link{}, false
	case !l.Live(s.store.Now()) && r.Method == http.MethodPost:
		// An upload tried through a dead link is a use the office may
		// want to know of; a look at its page is not.
		s.audit(r, store.Event{AccountID: l.AccountID, Actor: "link " + l.ID, Action: store.ActLinkRefused, FolderID: l.FolderID,
			LinkID: l.ID, Detail: "withdrawn or expired"})
		s.renderLink(w, http.StatusGone, linkView{Gone: true, Title: "This link no longer takes statements",
			Message: l.OfficeName + " has withdrawn this upload link, or its time is past. Ask them for a new one if you still have statements to send."})
		return store.Link{}, false
	case l.RevokedAt != nil:
		s.renderLink(w, http.StatusGone, linkView{Gone: true, Title: "This link was withdrawn",
			Message: l.OfficeName + " has withdrawn this upload link. Ask them for a new one if you still have statements to send."})
		return store.Link{}, false
	case !l.Live(s.store.Now()):
		s.renderLink(w, http.StatusGone, linkView{Gone: true, Title: "This link has expired",
			Message: "This upload link ended on " + l.ExpiresAt.UTC().Format("2 January 2006") + ". Ask " + l.OfficeName + " for a new one."})
		return store.Link{}, false
	}
	return l, true
}

func (s *Server) linkView(l store.Link) linkView {
	v := linkView{Office: l.OfficeName, Label: l.Label, Expires: l.ExpiresAt.UTC().Format("2 January 2006")}
	if l.PageLimit > 0 {
		v.PagesLeft = max(l.PageLimit-l.PagesUsed, 0)
	}
	return v
}

// handleLinkPage shows a client the upload page of a link.
func (s *Server) handleLinkPage(w http.ResponseWriter, r *http.Request) {
	l, ok := s.linkFor(w, r)
	if !ok {
		return
	}
	s.renderLink(w, http.StatusOK, s.linkView(l))
}

// handleLinkUpload takes a client's statement through a link, as POST
// /api/v1/extract takes one into the link's folder, charged to the office
// and marked with the link. It answers the link's page (or JSON to a
// client that asks for it), never the document's id or anything else.
func (s *Server) handleLinkUpload(w http.ResponseWriter, r *http.Request) {
	l, ok := s.linkFor(w, r)
	if !ok {
		return
	}
	office, err := s.store.AccountByID(r.Context(), l.AccountID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := context.WithValue(r.Context(), accountKey, office)
	ctx = context.WithValue(ctx, linkKey, l)
	buf := &bufferedResponse{under: w, header: http.Header{}}
	s.handleUpload(buf, r.WithContext(ctx))
	var body struct {
		Success      bool   `json:"success"`
		OriginalName string `json:"original_name"`
		PageCount    int    `json:"page_count"`
		Error        string `json:"error"`
		Hint         string `json:"hint"`
		Code         string `json:"code"`
	}
	_ = json.Unmarshal(buf.body.Bytes(), &body)
	if ra := buf.header.Get("Retry-After"); ra != "" {
		w.Header().Set("Retry-After", ra)
	}
	if c := buf.header.Get("Connection"); c != "" {
		w.Header().Set("Connection", c)
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		if body.Success {
			writeJSON(w, buf.status, map[string]any{"success": true, "original_name": body.OriginalName, "page_count": body.PageCount})
			return
		}
		writeJSON(w, buf.status, errorBody{Error: body.Error, Hint: body.Hint, Code: body.Code})
		return
	}
	if l2, err := s.store.LinkByID(r.Context(), l.ID); err == nil {
		l = l2
	}
	v := s.linkView(l)
	if body.Success {
		v.Done = body.OriginalName + " (" + strconv.Itoa(body.PageCount) + " page"
		if body.PageCount != 1 {
			v.Done += "s"
		}
		v.Done += ")"
	} else {
		v.Error = strings.TrimSpace(body.Error + " " + body.Hint)
	}
	s.renderLink(w, buf.status, v)
}

// uploadLink is the link an upload came by, if any.
func uploadLink(r *http.Request) (store.Link, bool) {
	l, ok := r.Context().Value(linkKey).(store.Link)
	return l, ok
}
