package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"passbook/store"
)

type ctxKey int

const accountKey ctxKey = 0

const keyHint = "Send your API key in the header 'Authorization: Bearer uk_...'. An administrator creates keys with 'passbook keys create'."

// requireKey lets a request through only with a live API key, and puts its
// account in the request's context. It reads headers only, so a slow body
// from a client without a key gets its 401 at once; an address with too many
// failures gets 429 until its window passes.
func (s *Server) requireKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := clientAddr(r)
		if wait, blocked := s.failures.blocked(addr); blocked {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
			s.fail(w, r, &apiError{http.StatusTooManyRequests, "too_many_failures", "Too many requests with a wrong API key came from your address.",
				"Wait for the time in the Retry-After header, then send a valid key."})
			return
		}
		h := r.Header.Get("Authorization")
		scheme, key, _ := strings.Cut(strings.TrimSpace(h), " ")
		key = strings.TrimSpace(key)
		if h == "" {
			// A missing key guesses nothing: it does not count as a failure.
			s.authFailed(w, r, &apiError{http.StatusUnauthorized, "missing_api_key", "No API key was sent.", keyHint})
			return
		}
		if !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(key, store.KeyPrefix) {
			s.failures.fail(addr)
			s.authFailed(w, r, &apiError{http.StatusUnauthorized, "invalid_api_key", "The API key is invalid.", keyHint})
			return
		}
		acc, err := s.store.AccountByKey(r.Context(), key)
		if errors.Is(err, store.ErrNotFound) {
			s.failures.fail(addr)
			s.authFailed(w, r, &apiError{http.StatusUnauthorized, "invalid_api_key", "The API key is invalid or has been revoked.", keyHint})
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		note(r, func(i *reqInfo) { i.accountID = acc.ID })
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), accountKey, acc)))
	})
}

// authFailed answers a request without a valid key, and logs it with the
// caller's address and never the key, so an administrator can see guessing.
func (s *Server) authFailed(w http.ResponseWriter, r *http.Request, ae *apiError) {
	s.log.Warn("authentication failed", "code", ae.code, "method", r.Method, "path", r.URL.Path, "remote_addr", r.RemoteAddr)
	s.fail(w, r, ae)
}

// account is the caller, as requireKey found it.
func account(r *http.Request) store.Account {
	return r.Context().Value(accountKey).(store.Account)
}
