package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"passbook/store"
)

// The page's sign-in: e-mail and password for a server-side session kept
// behind an HttpOnly cookie. The cookie alone authorises reading; a
// request that changes something must also send the session's CSRF token
// in X-CSRF-Token (see requireKey).

type signInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// sessionBody is what GET /api/v1/session and a sign-in answer.
type sessionBody struct {
	Success bool   `json:"success"`
	Email   string `json:"email"`
	Role    string `json:"role"`
	Office  office `json:"office"`
	// CSRFToken is set for a session (not for an API key): the page sends
	// it back in X-CSRF-Token.
	CSRFToken string `json:"csrf_token,omitempty"`
	MemberID  int64  `json:"member_id"`
}

type office struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Plan string `json:"plan"`
	// Named says an owner has named the office: until then its name is
	// the address it was made for, which the page asks an owner to
	// replace before clients see it.
	Named bool `json:"named"`
}

var errBadSignIn = &apiError{http.StatusUnauthorized, "invalid_credentials", "The e-mail address or the password is wrong.",
	"Check both. An owner of your office, or the administrator with 'passbook accounts reset-password', can set a new password."}

// fromThisSite refuses a sign-in or an invitation's acceptance that
// another site's page could have sent (login CSRF: signing a victim's
// browser in as someone else): the body must be declared JSON, which a
// cross-site form cannot send without the browser asking first, and any
// Origin or Sec-Fetch-Site must be this site's.
func fromThisSite(r *http.Request) error {
	bad := !strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "application/json")
	if o := r.Header.Get("Origin"); o != "" && !ourOrigin(r, o) {
		bad = true
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		bad = true
	}
	if bad {
		return &apiError{http.StatusForbidden, "csrf_failed", "The request did not come from this site's page.",
			"Send the JSON body with Content-Type: application/json, from this site."}
	}
	return nil
}

// cutOffIdleBody gives a request anyone may send (a sign-in, an
// invitation's acceptance) BodyIdle to send its small body: a client that
// sends headers and then nothing does not hold a connection for ever.
func (s *Server) cutOffIdleBody(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.BodyIdle))
}

// readJSON decodes a small JSON body into v.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return &apiError{http.StatusBadRequest, "invalid_json", "The request body is not the JSON expected.", "Send a JSON object."}
	}
	return nil
}

// handleSignIn checks an e-mail and password and starts a session. Failures
// are throttled per address (with bad keys) and per account and address
// together, and each is recorded in the office's trail when the address
// is a member's.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	addr := s.clientAddr(r)
	if err := fromThisSite(r); err != nil {
		s.fail(w, r, err)
		return
	}
	var req signInRequest
	s.cutOffIdleBody(w)
	if err := readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	email := strings.TrimSpace(strings.ToLower(req.Email))
	// The failing source slows down, not the account: someone who knows an
	// owner's address and guesses from elsewhere does not keep the owner
	// out.
	source := email + " " + addr
	if wait, blocked := s.failures.blocked(addr); blocked {
		s.fail(w, r, tooManyFailures(w, wait, "Too many failed sign-ins or wrong keys came from your address."))
		return
	}
	if wait, blocked := s.signins.blocked(source); blocked {
		s.fail(w, r, tooManyFailures(w, wait, "Too many failed sign-ins for this account came from your address."))
		return
	}
	c, hash, err := s.store.MemberByEmail(r.Context(), email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, err)
		return
	}
	if err != nil || hash == "" {
		store.CheckNoPassword(req.Password)
	}
	if err != nil || hash == "" || !store.CheckPassword(hash, req.Password) {
		s.failures.fail(addr)
		if email != "" {
			s.signins.fail(source)
		}
		if err == nil {
			_ = s.store.Record(r.Context(), store.Event{AccountID: c.Account.ID, MemberID: c.Member.ID, Actor: c.Member.Email,
				Action: store.ActSignInFailed, Address: addr})
		} else {
			_ = s.store.Record(r.Context(), store.Event{Actor: email, Action: store.ActSignInFailed, Address: addr, Detail: "no such member"})
		}
		s.authFailed(w, r, errBadSignIn)
		return
	}
	s.startSession(w, r, c, store.ActSignIn)
}

// startSession signs a member in: a new session, its cookie, and its
// record in the trail.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, c store.Caller, action string) {
	token, sess, err := s.store.CreateSession(r.Context(), c.Member.ID, s.clientAddr(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: token, Path: s.cookiePath(), HttpOnly: true,
		Secure: secure(r), SameSite: http.SameSiteLaxMode})
	_ = s.store.Record(r.Context(), store.Event{AccountID: c.Account.ID, MemberID: c.Member.ID, Actor: c.Member.Email,
		Action: action, Address: s.clientAddr(r)})
	writeJSON(w, http.StatusOK, sessionOf(c, &sess))
}

func sessionOf(c store.Caller, sess *store.Session) sessionBody {
	b := sessionBody{Success: true, Email: c.Member.Email, Role: string(c.Member.Role), MemberID: c.Member.ID,
		Office: office{ID: c.Account.ID, Name: c.Account.Name, Plan: string(c.Account.Plan), Named: c.Account.Name != c.Account.Email}}
	if sess != nil {
		b.CSRFToken = sess.CSRF
	}
	return b
}

// secure says whether the request reached the site over TLS (itself, or
// through a proxy that says so): the session cookie is Secure then.
func secure(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

func (s *Server) cookiePath() string {
	if s.cfg.BasePath == "" {
		return "/"
	}
	return s.cfg.BasePath + "/"
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: s.cookiePath(), MaxAge: -1, HttpOnly: true,
		Secure: secure(r), SameSite: http.SameSiteLaxMode})
}

// handleSession says who is signed in, with the CSRF token the page sends.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	a := caller(r)
	writeJSON(w, http.StatusOK, sessionOf(a.Caller, a.session))
}

// handleSignOut ends the session it came with; with {"everywhere": true}
// (or with an API key) every session of the member ends.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	a := caller(r)
	var req struct {
		Everywhere bool `json:"everywhere"`
	}
	if r.ContentLength != 0 {
		if err := readJSON(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	var err error
	if a.session == nil || req.Everywhere {
		err = s.store.EndSessions(r.Context(), a.Member.ID)
	} else {
		err = s.store.EndSession(r.Context(), a.token)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	detail := ""
	if a.session == nil || req.Everywhere {
		detail = "everywhere"
	}
	s.audit(r, store.Event{Action: store.ActSignOut, Detail: detail})
	s.clearSessionCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

// inviteBody is what an invitation shows the person it names.
type inviteBody struct {
	Success   bool   `json:"success"`
	Office    string `json:"office"`
	Email     string `json:"email"`
	Role      string `json:"role"`
	ExpiresAt string `json:"expires_at"`
}

var errInviteGone = &apiError{http.StatusGone, "invite_expired", "This invitation has expired or was used already.",
	"Ask an owner of the office for a new invitation."}

// inviteToken reads an invitation's token from the path, counting a wrong
// one as a failed authentication of the address.
func (s *Server) inviteLookup(w http.ResponseWriter, r *http.Request) (store.Invite, store.Account, string, bool) {
	addr := s.clientAddr(r)
	if wait, blocked := s.guesses.blocked(addr); blocked {
		s.fail(w, r, tooManyFailures(w, wait, "Too many wrong links came from your address."))
		return store.Invite{}, store.Account{}, "", false
	}
	token := muxVar(r, "token")
	inv, a, err := s.store.InviteByToken(r.Context(), token)
	switch {
	case errors.Is(err, store.ErrExpired):
		s.fail(w, r, errInviteGone)
	case errors.Is(err, store.ErrNotFound):
		s.guesses.fail(addr)
		s.fail(w, r, &apiError{http.StatusNotFound, "not_found", "No invitation has this link.", "Check the link you were sent."})
	case err != nil:
		s.fail(w, r, err)
	default:
		return inv, a, token, true
	}
	return store.Invite{}, store.Account{}, "", false
}

// handleInvite shows an invitation to the person it names.
func (s *Server) handleInvite(w http.ResponseWriter, r *http.Request) {
	inv, a, _, ok := s.inviteLookup(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, inviteBody{Success: true, Office: a.Name, Email: inv.Email, Role: string(inv.Role),
		ExpiresAt: inv.ExpiresAt.UTC().Format(time.RFC3339)})
}

// handleAcceptInvite takes an invitation once with the new member's
// password, and signs the member in.
func (s *Server) handleAcceptInvite(w http.ResponseWriter, r *http.Request) {
	if err := fromThisSite(r); err != nil {
		s.fail(w, r, err)
		return
	}
	var req struct {
		Password string `json:"password"`
	}
	s.cutOffIdleBody(w)
	if err := readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if _, _, _, ok := s.inviteLookup(w, r); !ok {
		return
	}
	hash, err := store.HashPassword(req.Password)
	if err != nil {
		s.fail(w, r, &apiError{http.StatusBadRequest, "weak_password", "The password is too short or too long.",
			"Choose a password of " + strconv.Itoa(store.MinPassword) + " to 256 characters."})
		return
	}
	m, err := s.store.AcceptInvite(r.Context(), muxVar(r, "token"), hash)
	switch {
	case errors.Is(err, store.ErrExpired):
		s.fail(w, r, errInviteGone)
		return
	case errors.Is(err, store.ErrExists):
		s.fail(w, r, &apiError{http.StatusConflict, "member_exists", "Someone with this e-mail address is a member already.", "Sign in instead."})
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	c, _, err := s.store.MemberByEmail(r.Context(), m.Email)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.startSession(w, r, c, store.ActMemberJoin)
}
