package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"passbook/store"
)

func muxVar(r *http.Request, name string) string { return mux.Vars(r)[name] }

// memberBody is a member as listed.
type memberBody struct {
	MemberID    int64   `json:"member_id"`
	Email       string  `json:"email"`
	Role        string  `json:"role"`
	HasPassword bool    `json:"has_password"`
	CreatedAt   string  `json:"created_at"`
	RemovedAt   *string `json:"removed_at"`
}

func memberOf(m store.Member) memberBody {
	b := memberBody{MemberID: m.ID, Email: m.Email, Role: string(m.Role), HasPassword: m.HasPassword,
		CreatedAt: m.CreatedAt.UTC().Format(time.RFC3339)}
	if m.RemovedAt != nil {
		t := m.RemovedAt.UTC().Format(time.RFC3339)
		b.RemovedAt = &t
	}
	return b
}

// handleMembers lists the office's members, removed ones too (owners).
func (s *Server) handleMembers(w http.ResponseWriter, r *http.Request) {
	ms, err := s.store.Members(r.Context(), account(r).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]memberBody, 0, len(ms))
	for _, m := range ms {
		out = append(out, memberOf(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "members": out})
}

// siteURL is the site's address as the browser reached it (through a
// reverse proxy's X-Forwarded-Host and -Proto when it sends them), with
// the base path: links made for other people start with it.
func (s *Server) siteURL(r *http.Request) string {
	scheme := "http"
	if secure(r) {
		scheme = "https"
	}
	host := r.Host
	if h := forwardedHost(r); h != "" {
		host = h
	}
	return scheme + "://" + host + s.cfg.BasePath
}

var errBadRole = &apiError{http.StatusBadRequest, "invalid_role", "The role is not one of owner, staff or read_only.", "Send role: owner, staff or read_only."}

// handleInviteMember makes a one-time invitation link for an address
// (owners): {email, role} → {invite_url, expires_at}. The link is shown
// once; its token is kept only as a hash.
func (s *Server) handleInviteMember(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	role, err := store.ParseRole(req.Role)
	if err != nil {
		s.fail(w, r, errBadRole)
		return
	}
	token, inv, err := s.store.CreateInvite(r.Context(), account(r).ID, caller(r).Member.ID, req.Email, role, s.cfg.InviteTTL)
	switch {
	case errors.Is(err, store.ErrBadEmail):
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_email", "That is not an e-mail address.", "Send the new member's e-mail address."})
		return
	case errors.Is(err, store.ErrExists):
		s.fail(w, r, &apiError{http.StatusConflict, "member_exists", "Someone with this e-mail address is a member of this office already.",
			"Find them in GET /api/v1/members."})
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActMemberInvite, Detail: inv.Email + " as " + string(inv.Role)})
	b := inviteOf(inv)
	b.InviteURL = s.inviteURL(r, token)
	writeJSON(w, http.StatusCreated, inviteAnswer{true, b})
}

func (s *Server) inviteURL(r *http.Request, token string) string {
	return s.siteURL(r) + "/#invite=" + token
}

// pendingInvite is an invitation as an owner sees it: its link only when
// it was just made or renewed (only its hash is kept).
type pendingInvite struct {
	InviteID  int64  `json:"invite_id"`
	Email     string `json:"email"`
	Role      string `json:"role"`
	InvitedBy int64  `json:"invited_by"`
	CreatedAt string `json:"created_at"`
	ExpiresAt string `json:"expires_at"`
	InviteURL string `json:"invite_url,omitempty"`
}

// inviteAnswer is the answer about one invitation.
type inviteAnswer struct {
	Success bool `json:"success"`
	pendingInvite
}

func inviteOf(inv store.Invite) pendingInvite {
	return pendingInvite{InviteID: inv.ID, Email: inv.Email, Role: string(inv.Role), InvitedBy: inv.InvitedBy,
		CreatedAt: inv.CreatedAt.UTC().Format(time.RFC3339), ExpiresAt: inv.ExpiresAt.UTC().Format(time.RFC3339)}
}

// handleInvitations lists the office's pending invitations (owners).
func (s *Server) handleInvitations(w http.ResponseWriter, r *http.Request) {
	invs, err := s.store.Invites(r.Context(), account(r).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]pendingInvite, 0, len(invs))
	for _, inv := range invs {
		out = append(out, inviteOf(inv))
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "invitations": out})
}

var errNoInvite = &apiError{http.StatusNotFound, "not_found", "No pending invitation with that invite_id.", "Use an invite_id from GET /api/v1/invitations."}

// inviteIDVar reads {invite_id} from the path.
func inviteIDVar(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(muxVar(r, "invite_id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoInvite
	}
	return id, nil
}

// handleWithdrawInvite withdraws a pending invitation (owners): its link
// takes no one in any more. Another office's, a used or expired one is 404.
func (s *Server) handleWithdrawInvite(w http.ResponseWriter, r *http.Request) {
	id, err := inviteIDVar(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	inv, err := s.store.WithdrawInvite(r.Context(), account(r).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		err = errNoInvite
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActInviteWithdraw, Detail: inv.Email + " as " + string(inv.Role)})
	writeJSON(w, http.StatusOK, inviteAnswer{true, inviteOf(inv)})
}

// handleRenewInviteLink gives a pending invitation a new link to copy
// again (owners); the link it had stops working.
func (s *Server) handleRenewInviteLink(w http.ResponseWriter, r *http.Request) {
	id, err := inviteIDVar(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	token, inv, err := s.store.RenewInviteLink(r.Context(), account(r).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		err = errNoInvite
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActInviteRenew, Detail: inv.Email + " as " + string(inv.Role)})
	b := inviteOf(inv)
	b.InviteURL = s.inviteURL(r, token)
	writeJSON(w, http.StatusOK, inviteAnswer{true, b})
}

// officeMemberID reads {member_id} from the path; another office's member,
// a removed one or a guess is 404, as an unknown one is.
func memberIDVar(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(muxVar(r, "member_id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, &apiError{http.StatusNotFound, "not_found", "No member with that member_id.", "Use a member_id from GET /api/v1/members."}
	}
	return id, nil
}

func (s *Server) memberError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrLastOwner):
		s.fail(w, r, &apiError{http.StatusConflict, "last_owner", "The office would have no owner left.", "Make another member an owner first."})
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, r, &apiError{http.StatusNotFound, "not_found", "No member with that member_id.", "Use a member_id from GET /api/v1/members."})
	default:
		s.fail(w, r, err)
	}
}

// handleSetRole changes a member's role (owners): {role}.
func (s *Server) handleSetRole(w http.ResponseWriter, r *http.Request) {
	id, err := memberIDVar(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req struct {
		Role string `json:"role"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	role, err := store.ParseRole(req.Role)
	if err != nil {
		s.fail(w, r, errBadRole)
		return
	}
	m, err := s.store.SetRole(r.Context(), account(r).ID, id, role)
	if err != nil {
		s.memberError(w, r, err)
		return
	}
	s.audit(r, store.Event{Action: store.ActMemberRole, Detail: m.Email + " is now " + string(m.Role)})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "member": memberOf(m)})
}

// handleRemoveMember takes a member out of the office (owners): its keys
// stop working, its sessions end and its invitations are withdrawn at
// once. Its live upload links are revoked, or with ?links=keep pass to
// the owner removing it.
func (s *Server) handleRemoveMember(w http.ResponseWriter, r *http.Request) {
	id, err := memberIDVar(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var heir int64
	switch r.URL.Query().Get("links") {
	case "", "revoke":
	case "keep":
		heir = caller(r).Member.ID
		if heir == id {
			s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_links", "You cannot keep your own links as you leave.",
				"Send links=revoke, or let another owner remove you with links=keep."})
			return
		}
	default:
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_links", "links is revoke or keep.",
			"Send links=revoke to stop the member's upload links, links=keep to take them over."})
		return
	}
	rm, err := s.store.RemoveMember(r.Context(), account(r).ID, id, heir)
	if err != nil {
		s.memberError(w, r, err)
		return
	}
	detail := fmt.Sprintf("%s; %d upload links revoked", rm.Email, rm.LinksRevoked)
	if heir != 0 {
		detail = fmt.Sprintf("%s; %d upload links passed to %s", rm.Email, rm.LinksPassed, caller(r).Member.Email)
	}
	s.audit(r, store.Event{Action: store.ActMemberRemove, Detail: detail})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "member": memberOf(rm.Member),
		"links_revoked": rm.LinksRevoked, "links_passed": rm.LinksPassed})
}

// handleRenameOffice names the office (owners): {name}; clients see it on
// their upload links' page.
func (s *Server) handleRenameOffice(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.RenameOffice(r.Context(), account(r).ID, req.Name); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, err)
			return
		}
		s.fail(w, r, &apiError{http.StatusBadRequest, "invalid_name", "An office's name has 1 to 200 characters.", "Send {\"name\": \"...\"}."})
		return
	}
	s.audit(r, store.Event{Action: store.ActOfficeRename, Detail: req.Name})
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}
