package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"passbook/store"
)

type ctxKey int

// The request context's keys (infoKey, linkKey: elsewhere).
const (
	accountKey ctxKey = 0
	callerKey  ctxKey = 10
)

const keyHint = "Send your API key in the header 'Authorization: Bearer uk_...', or sign in on the page. An administrator creates keys with 'passbook keys create'."

// SessionCookie is the name of the page's session cookie.
const SessionCookie = "passbook_session"

// CSRFHeader carries a session's CSRF token on every request that changes
// something; the page's one fetch helper sends it.
const CSRFHeader = "X-CSRF-Token"

// authed is how a request proved who it is.
type authed struct {
	store.Caller
	// session is set when the request came with the page's session cookie
	// rather than an API key.
	session *store.Session
	token   string
}

// requireKey lets a request through only as a member of an office: with a
// live API key in the Authorization header (the spec's way), or with the
// page's session cookie, and then, on a method that changes something,
// with the session's CSRF token in the X-CSRF-Token header and no foreign
// Origin. It puts the office (account) and the member in the request's
// context. It reads headers only, so a slow body from a client without
// credentials gets its 401 at once; an address with too many failures
// gets 429 until its window passes.
func (s *Server) requireKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := s.clientAddr(r)
		if wait, blocked := s.failures.blocked(addr); blocked {
			s.fail(w, r, tooManyFailures(w, wait, "Too many requests with a wrong API key or password came from your address."))
			return
		}
		h := r.Header.Get("Authorization")
		var a authed
		switch {
		case h != "":
			scheme, key, _ := strings.Cut(strings.TrimSpace(h), " ")
			key = strings.TrimSpace(key)
			if !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(key, store.KeyPrefix) {
				s.failures.fail(addr)
				s.authFailed(w, r, &apiError{http.StatusUnauthorized, "invalid_api_key", "The API key is invalid.", keyHint})
				return
			}
			c, err := s.store.CallerByKey(r.Context(), key)
			if errors.Is(err, store.ErrNotFound) {
				s.failures.fail(addr)
				s.authFailed(w, r, &apiError{http.StatusUnauthorized, "invalid_api_key", "The API key is invalid or has been revoked.", keyHint})
				return
			}
			if err != nil {
				s.fail(w, r, err)
				return
			}
			a.Caller = c
		default:
			ck, err := r.Cookie(SessionCookie)
			if err != nil || ck.Value == "" {
				// Nothing sent guesses nothing: it does not count as a failure.
				s.authFailed(w, r, &apiError{http.StatusUnauthorized, "missing_api_key", "No API key was sent and no one is signed in.", keyHint})
				return
			}
			c, sess, err := s.store.CallerBySession(r.Context(), ck.Value, s.cfg.SessionIdle)
			if errors.Is(err, store.ErrNotFound) {
				s.failures.fail(addr)
				s.clearSessionCookie(w, r)
				s.authFailed(w, r, &apiError{http.StatusUnauthorized, "session_expired", "You are signed out: the session ended or expired.", "Sign in again."})
				return
			}
			if err != nil {
				s.fail(w, r, err)
				return
			}
			if changes(r.Method) && !s.sameOrigin(r, sess.CSRF) {
				s.authFailed(w, r, &apiError{http.StatusForbidden, "csrf_failed", "The request did not come from this site's page.",
					"Reload the page and try again; a request from another site cannot use your session."})
				return
			}
			a.Caller, a.session, a.token = c, &sess, ck.Value
		}
		note(r, func(i *reqInfo) { i.accountID = a.Account.ID })
		ctx := context.WithValue(r.Context(), accountKey, a.Account)
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, callerKey, &a)))
	})
}

// changes says whether a method may change something (and so needs CSRF
// protection when a cookie authenticates it).
func changes(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// sameOrigin checks a cookie-authenticated request that changes something:
// it must carry the session's CSRF token, which another site cannot read,
// and any Origin it names must be this site's.
func (s *Server) sameOrigin(r *http.Request, csrf string) bool {
	got := r.Header.Get(CSRFHeader)
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(csrf)) != 1 {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" && !ourOrigin(r, o) {
		return false
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	return true
}

// authFailed answers a request without a valid key, and logs it with the
// caller's address and never the key, so an administrator can see guessing.
func (s *Server) authFailed(w http.ResponseWriter, r *http.Request, ae *apiError) {
	s.log.Warn("authentication failed", "code", ae.code, "method", r.Method, "path", r.URL.Path, "remote_addr", r.RemoteAddr, "client_addr", s.clientAddr(r))
	s.fail(w, r, ae)
}

// account is the caller's office, as requireKey found it.
func account(r *http.Request) store.Account {
	return r.Context().Value(accountKey).(store.Account)
}

// caller is who the request acts as, as requireKey found it.
func caller(r *http.Request) *authed {
	return r.Context().Value(callerKey).(*authed)
}

// need lets a request through only for a member whose role includes
// role; others get 403 forbidden.
func (s *Server) need(role store.Role, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !caller(r).Member.Role.Can(role) {
			s.fail(w, r, &apiError{http.StatusForbidden, "forbidden", "Your role in the office does not allow this.",
				"Ask an owner of the office: " + roleNeeds(role) + "."})
			return
		}
		h(w, r)
	}
}

func roleNeeds(role store.Role) string {
	switch role {
	case store.RoleOwner:
		return "only owners manage members, links' audit and the office"
	case store.RoleStaff:
		return "read-only members view and download; staff and owners convert, correct and manage folders"
	}
	return "this needs a member of the office"
}

// audit appends an event to the office's trail for the request's caller,
// with its address. A failure to record is logged, not answered: the
// action itself is done.
func (s *Server) audit(r *http.Request, e store.Event) {
	if a, ok := r.Context().Value(callerKey).(*authed); ok {
		e.AccountID, e.MemberID, e.Actor = a.Account.ID, a.Member.ID, a.Member.Email
	}
	if e.Address == "" {
		e.Address = s.clientAddr(r)
	}
	if err := s.store.Record(context.WithoutCancel(r.Context()), e); err != nil {
		s.log.Error("audit not recorded", "action", e.Action, "err", err)
	}
}

// ourOrigin says whether an Origin header names this site: the host the
// request reached, or the one a reverse proxy says the browser used
// (X-Forwarded-Host; a proxy that rewrites Host must send it).
func ourOrigin(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host) || strings.EqualFold(u.Host, forwardedHost(r))
}

// forwardedHost is the first host of X-Forwarded-Host, or "".
func forwardedHost(r *http.Request) string {
	h, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Host"), ",")
	return strings.TrimSpace(h)
}
