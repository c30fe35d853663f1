package server

import (
	"net/http"
	"time"
)

// quotaBody is the quota object of GET /api/v1/user; resets_at is ours.
type quotaBody struct {
	Used      int    `json:"used"`
	Limit     int    `json:"limit"`
	Remaining int    `json:"remaining"`
	Period    string `json:"period"`
	ResetsAt  string `json:"resets_at"`
}

type userResponse struct {
	Success bool      `json:"success"`
	Email   string    `json:"email"`
	Plan    string    `json:"plan"`
	Credits int       `json:"credits"`
	Quota   quotaBody `json:"quota"`
}

// handleUser is the spec's account: the calling member's address, and the
// office's plan, credits and quota (an office's members share them).
func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	acc := account(r)
	u, err := s.store.Usage(r.Context(), acc.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userResponse{
		Success: true, Email: caller(r).Member.Email, Plan: string(acc.Plan), Credits: u.Credits,
		Quota: quotaBody{Used: u.Used, Limit: u.Limit, Remaining: u.Remaining(), Period: string(u.Period),
			ResetsAt: u.ResetsAt.UTC().Format(time.RFC3339)},
	})
}
