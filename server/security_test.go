package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"passbook/quota"
	"passbook/store"
)

// The attacks of issue 41's security review, each played from outside
// against a real server and store. Each test failed on main before its fix.

// linkHead is the head of a client's upload through a link's form,
// announcing a body that never comes.
func linkHead(token string) string {
	return "POST /l/" + token + " HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Length: 1000\r\n" +
		"Content-Type: multipart/form-data; boundary=XX\r\n\r\n--XX\r\n"
}

// TestIdleLinkUploadIsCutOff (issue 41, 2): a client's link upload that
// stops sending is cut off after the idle period, as an API upload is.
func TestIdleLinkUploadIsCutOff(t *testing.T) {
	f := newOffices(t, func(c *Config, _ *Converter) { c.BodyIdle = 300 * time.Millisecond })
	c, br := f.e.rawRequest(linkHead(f.linkToken))
	// The limit only ends a test that would otherwise hang: the server
	// cuts the body off after 300 ms.
	if got := readStatus(t, c, br, time.Minute); got != http.StatusRequestTimeout {
		t.Errorf("an idle link upload: status %d, want 408", got)
	}
}

// TestIdleLinkHoldsNoServerCapacity (issue 41, 2): as many idle uploads
// through one client link as the server takes at once (32) leave room for
// the office's own uploads, another link's and another office's.
func TestIdleLinkHoldsNoServerCapacity(t *testing.T) {
	f := newOffices(t)
	e := f.e
	slots := e.srv.cfg.MaxUploads
	answered := make(chan int, slots)
	for range slots {
		c, br := e.rawRequest(linkHead(f.linkToken))
		go func() {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				return // cut off when the test ends
			}
			resp.Body.Close()
			answered <- resp.StatusCode
		}()
		_ = c
	}
	// Wait until every idle upload holds a slot or was refused one.
	refused := 0
	for refused+len(e.srv.uploads) < slots {
		select {
		case code := <-answered:
			if code != http.StatusServiceUnavailable {
				t.Fatalf("an idle link upload answered %d, want 503 busy or nothing yet", code)
			}
			refused++
		case <-time.After(10 * time.Millisecond):
		}
	}
	if held := len(e.srv.uploads); held >= slots {
		t.Errorf("one link's idle uploads hold %d of the server's %d upload slots", held, slots)
	}
	other, _ := f.newLink(0)
	for _, tc := range []struct{ name, key string }{{"the office's owner", f.owner}, {"another office", f.other}} {
		if resp, m := e.upload(tc.key, map[string][]byte{"file": sample}); resp.StatusCode != 200 {
			t.Errorf("%s uploads while a link idles: %d %v", tc.name, resp.StatusCode, m)
		}
	}
	if code, body, _ := e.linkPost(other, map[string][]byte{"file": sample}, "application/json"); code != 200 {
		t.Errorf("another link uploads while one idles: %d %s", code, body)
	}
}

// inviteToken is the token of an invitation's invite_url.
func inviteToken(t *testing.T, m map[string]any) string {
	t.Helper()
	u, _ := m["invite_url"].(string)
	i := strings.Index(u, "#invite=")
	if i < 0 {
		t.Fatalf("no invite_url in %v", m)
	}
	return u[i+len("#invite="):]
}

// TestInvitationsDieWithTheirMaker (issue 41, 1): an owner who invites a
// second address of their own as owner, and is then removed or demoted,
// cannot come back through the invitation.
func TestInvitationsDieWithTheirMaker(t *testing.T) {
	f := newOffices(t)
	e := f.e
	for _, how := range []string{"removed", "demoted"} {
		key, m := e.member(f.a, how+"@a.example", store.RoleOwner)
		code, body := e.send("POST", "/api/v1/members", "Bearer "+key, `{"email":"back-door-`+how+`@evil.example","role":"owner"}`, "")
		if code != 201 {
			t.Fatalf("the rogue owner invites: %d %v", code, body)
		}
		token := inviteToken(t, body)
		if how == "removed" {
			code, body = e.send("DELETE", fmt.Sprintf("/api/v1/members/%d", m.ID), "Bearer "+f.owner, "", "")
		} else {
			code, body = e.send("PUT", fmt.Sprintf("/api/v1/members/%d", m.ID), "Bearer "+f.owner, `{"role":"staff"}`, "")
		}
		if code != 200 {
			t.Fatalf("the owner's %s: %d %v", how, code, body)
		}
		if code, body := e.send("GET", "/api/v1/invites/"+token, "", "", ""); code != http.StatusGone {
			t.Errorf("the invitation of an owner since %s: %d %v, want 410", how, code, body)
		}
		if code, body := e.send("POST", "/api/v1/invites/"+token, "", `{"password":"`+testPassword+`"}`, ""); code != http.StatusGone {
			t.Errorf("taking the invitation of an owner since %s: %d %v, want 410", how, code, body)
		}
	}
}

// TestPendingInvitations (issue 41, 1): an owner lists the office's
// pending invitations, withdraws one (its link then takes no one in) and
// copies another's link again (a new link; the old one stops).
func TestPendingInvitations(t *testing.T) {
	f := newOffices(t)
	e := f.e
	invite := func(email string) (string, float64) {
		code, m := e.send("POST", "/api/v1/members", "Bearer "+f.owner, `{"email":"`+email+`","role":"staff"}`, "")
		if code != 201 {
			t.Fatalf("invite %s: %d %v", email, code, m)
		}
		id, _ := m["invite_id"].(float64)
		return inviteToken(t, m), id
	}
	gone, goneID := invite("withdrawn@a.example")
	old, keptID := invite("kept@a.example")
	code, m := e.send("GET", "/api/v1/invitations", "Bearer "+f.owner, "", "")
	if code != 200 {
		t.Fatalf("list: %d %v", code, m)
	}
	var emails []string
	for _, inv := range m["invitations"].([]any) {
		inv := inv.(map[string]any)
		if inv["invite_url"] != nil {
			t.Errorf("a listed invitation shows a link: %v", inv)
		}
		emails = append(emails, inv["email"].(string))
	}
	sort.Strings(emails)
	if strings.Join(emails, " ") != "kept@a.example withdrawn@a.example" {
		t.Errorf("pending invitations %v", emails)
	}
	if code, m := e.send("GET", "/api/v1/invitations", "Bearer "+f.other, "", ""); code != 200 || len(m["invitations"].([]any)) != 0 {
		t.Errorf("another office lists A's invitations: %d %v", code, m)
	}
	if code, m := e.send("DELETE", fmt.Sprintf("/api/v1/invitations/%d", int64(goneID)), "Bearer "+f.other, "", ""); code != 404 {
		t.Errorf("another office withdraws A's invitation: %d %v", code, m)
	}
	if code, m := e.send("DELETE", fmt.Sprintf("/api/v1/invitations/%d", int64(goneID)), "Bearer "+f.owner, "", ""); code != 200 {
		t.Fatalf("withdraw: %d %v", code, m)
	}
	if code, m := e.send("GET", "/api/v1/invites/"+gone, "", "", ""); code != http.StatusGone {
		t.Errorf("a withdrawn invitation: %d %v, want 410", code, m)
	}
	code, m = e.send("POST", fmt.Sprintf("/api/v1/invitations/%d/link", int64(keptID)), "Bearer "+f.owner, "", "")
	if code != 200 {
		t.Fatalf("copy the link again: %d %v", code, m)
	}
	renewed := inviteToken(t, m)
	if code, m := e.send("GET", "/api/v1/invites/"+old, "", "", ""); code == 200 {
		t.Errorf("the first link after it was made again: %d %v", code, m)
	}
	b := e.browser()
	if resp, m := b.do("POST", "/api/v1/invites/"+renewed, `{"password":"`+testPassword+`"}`, false, nil); resp.StatusCode != 200 || m["email"] != "kept@a.example" {
		t.Errorf("accept through the new link: %d %v", resp.StatusCode, m)
	}
	if code, m := e.send("GET", "/api/v1/invitations", "Bearer "+f.owner, "", ""); code != 200 || len(m["invitations"].([]any)) != 0 {
		t.Errorf("pending after one was withdrawn and one taken: %d %v", code, m)
	}
}

// TestInvitationAnswersAlikeAcrossOffices (issue 41, 8): another office's
// owner cannot learn whether an address is a member of A: inviting A's
// member answers as inviting an address no one uses.
func TestInvitationAnswersAlikeAcrossOffices(t *testing.T) {
	f := newOffices(t)
	e := f.e
	shape := func(email string) string {
		code, m := e.send("POST", "/api/v1/members", "Bearer "+f.other, `{"email":"`+email+`","role":"staff"}`, "")
		keys := []string{}
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return fmt.Sprintf("%d %s %v", code, keys, m["code"])
	}
	member, stranger := shape("clerk@a.example"), shape("nobody@nowhere.example")
	if member != stranger || !strings.HasPrefix(member, "201 ") {
		t.Errorf("inviting another office's member answers %q, an unknown address %q: want the same 201", member, stranger)
	}
}

// TestRemovedMembersLinks (issue 41, 6): a removed member's upload links
// stop with the member, or with links=keep pass to the owner removing it.
func TestRemovedMembersLinks(t *testing.T) {
	f := newOffices(t)
	e := f.e
	makeLink := func(key string) (string, string) {
		code, m := e.send("POST", "/api/v1/links", "Bearer "+key, `{"folder_id":"`+f.folder+`","expires_in_days":366}`, "")
		if code != 201 {
			t.Fatalf("create link: %d %v", code, m)
		}
		l := m["link"].(map[string]any)
		u := l["url"].(string)
		return u[strings.Index(u, "/l/")+3:], l["link_id"].(string)
	}
	for _, tc := range []struct {
		query      string
		wantUpload int
	}{{"", http.StatusGone}, {"?links=revoke", http.StatusGone}, {"?links=keep", http.StatusOK}} {
		key, m := e.member(f.a, fmt.Sprintf("leaver%d@a.example", len(tc.query)), store.RoleStaff)
		token, id := makeLink(key)
		code, body := e.send("DELETE", fmt.Sprintf("/api/v1/members/%d%s", m.ID, tc.query), "Bearer "+f.owner, "", "")
		if code != 200 {
			t.Fatalf("remove%s: %d %v", tc.query, code, body)
		}
		if got, page, _ := e.linkPost(token, map[string][]byte{"file": sample}, "application/json"); got != tc.wantUpload {
			t.Errorf("removed%s: an upload through the member's link: %d %s, want %d", tc.query, got, page, tc.wantUpload)
		}
		_, ls := e.send("GET", "/api/v1/links", "Bearer "+f.owner, "", "")
		for _, l := range ls["links"].([]any) {
			l := l.(map[string]any)
			if l["link_id"] != id {
				continue
			}
			raw, _ := json.Marshal(l)
			if tc.wantUpload == http.StatusOK && (l["created_by"] != float64(f.ownerM.ID) || l["state"] != "live") {
				t.Errorf("a link kept: %s, want live and the owner's (%d)", raw, f.ownerM.ID)
			}
			if tc.wantUpload != http.StatusOK && l["state"] != "revoked" {
				t.Errorf("a removed member's link: %s, want revoked", raw)
			}
		}
	}
	if code, m := e.send("DELETE", "/api/v1/members/9999?links=sideways", "Bearer "+f.owner, "", ""); code != 400 {
		t.Errorf("links=sideways: %d %v", code, m)
	}
}

// from is an HTTP client whose connections come from a loopback address
// of its own (127.0.0.2, ...): another source, as far as the server sees.
func from(t *testing.T, ip string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// signInAs posts a sign-in from client c and returns the status, the
// body and the response's headers.
func signInAs(t *testing.T, e *testEnv, c *http.Client, email, password string, hdr map[string]string) (int, map[string]any, http.Header) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req, _ := http.NewRequest("POST", e.http.URL+"/api/v1/signin", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m, resp.Header
}

// TestWrongPasswordsSlowTheSourceNotTheAccount (issue 41, 5): someone who
// knows the owner's address and sends wrong passwords from elsewhere is
// slowed down, told for how long, and does not keep the owner out.
func TestWrongPasswordsSlowTheSourceNotTheAccount(t *testing.T) {
	e := newEnv(t, false)
	e.account("owner@office.example", quota.Business)
	c, _, err := e.store.MemberByEmail(context.Background(), "owner@office.example")
	if err != nil {
		t.Fatal(err)
	}
	hash, _ := store.HashPassword(testPassword)
	if err := e.store.SetPassword(context.Background(), c.Member.ID, hash); err != nil {
		t.Fatal(err)
	}
	attacker := from(t, "127.0.0.2")
	for i := range e.srv.cfg.SignInFailures {
		if code, m, _ := signInAs(t, e, attacker, "owner@office.example", fmt.Sprintf("guess number %d", i), nil); code != 401 {
			t.Fatalf("wrong password %d: %d %v", i+1, code, m)
		}
	}
	code, m, h := signInAs(t, e, attacker, "owner@office.example", testPassword, nil)
	if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("the failing source's next try: %d %v Retry-After %q, want 429 with Retry-After", code, m, h.Get("Retry-After"))
	}
	if msg, _ := m["error"].(string); !strings.Contains(msg, h.Get("Retry-After")+" seconds") {
		t.Errorf("429 says %q; want it to say how long to wait (%s seconds)", msg, h.Get("Retry-After"))
	}
	if code, m, _ := signInAs(t, e, http.DefaultClient, "owner@office.example", testPassword, nil); code != 200 {
		t.Errorf("the owner, from an address that has not failed: %d %v, want 200", code, m)
	}
}

// TestBehindTheProxy (issue 41, 4): behind a trusted reverse proxy, wrong
// keys from one client lock out that client, not every client; a client
// cannot escape by writing its own X-Forwarded-For; guessed link tokens
// are throttled apart from keys; the trail names the client.
func TestBehindTheProxy(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) {
		c.AuthFailures = 3
		c.TrustedProxies, _ = ParseTrustedProxies("127.0.0.1, ::1")
	})
	good := e.account("good@office.example", quota.Business)
	// Through the proxy: nginx sets X-Forwarded-For to the client's address.
	via := func(client, key, path string, extra ...string) int {
		req, _ := http.NewRequest("GET", e.http.URL+path, nil)
		req.Header.Set("X-Forwarded-For", strings.Join(append(extra, client), ", "))
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for range 3 {
		if code := via("203.0.113.9", "uk_wrong", "/api/v1/user"); code != 401 {
			t.Fatalf("a wrong key: %d", code)
		}
	}
	if code := via("203.0.113.9", "uk_wrong", "/api/v1/user"); code != 429 {
		t.Errorf("the guessing client's next wrong key: %d, want 429", code)
	}
	if code := via("203.0.113.9", good, "/api/v1/user", "198.51.100.7"); code != 429 {
		t.Errorf("the guessing client naming another address in its own X-Forwarded-For: %d, want 429", code)
	}
	if code := via("198.51.100.7", good, "/api/v1/user"); code != 200 {
		t.Errorf("another client behind the same proxy: %d, want 200", code)
	}
	// A client guessing links is throttled on its links, and its key
	// still works.
	for range 3 {
		if code := via("192.0.2.44", "", "/l/ul_guessed000000000000000000000000000000"); code != 404 {
			t.Fatalf("a guessed link: %d", code)
		}
	}
	if code := via("192.0.2.44", "", "/l/ul_guessed000000000000000000000000000000"); code != 429 {
		t.Errorf("the next guessed link: %d, want 429", code)
	}
	if code := via("192.0.2.44", good, "/api/v1/user"); code != 200 {
		t.Errorf("the link guesser's own key: %d, want 200 (guesses are throttled apart)", code)
	}
	// Not through a trusted proxy, X-Forwarded-For is not believed.
	untrusted := newEnv(t, false, func(c *Config, _ *Converter) { c.AuthFailures = 1 })
	req, _ := http.NewRequest("GET", untrusted.http.URL+"/api/v1/user", nil)
	for _, fwd := range []string{"203.0.113.1", "203.0.113.2"} {
		req.Header.Set("X-Forwarded-For", fwd)
		req.Header.Set("Authorization", "Bearer uk_wrong")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if fwd == "203.0.113.2" && resp.StatusCode != 429 {
			t.Errorf("a client without a trusted proxy names a new address each time: %d, want 429", resp.StatusCode)
		}
	}
	// The trail names the client, not the proxy.
	e.account("signer@office.example", quota.Business)
	code, _, _ := signInAs(t, e, http.DefaultClient, "signer@office.example", "not the password", map[string]string{"X-Forwarded-For": "198.51.100.23"})
	if code != 401 {
		t.Fatalf("a failed sign-in: %d", code)
	}
	acc, _ := e.store.AccountByEmail(context.Background(), "signer@office.example")
	es, _, _ := e.store.Audit(context.Background(), store.AuditQuery{AccountID: acc.ID})
	if len(es) == 0 || es[0].Address != "198.51.100.23" {
		t.Errorf("the trail's failed sign-in: %+v, want from 198.51.100.23", es)
	}
}

func TestParseTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		err  bool
	}{
		{"", "[]", false},
		{"127.0.0.1", "[127.0.0.1/32]", false},
		{"10.0.0.0/8, ::1 192.168.1.7/24", "[10.0.0.0/8 ::1/128 192.168.1.0/24]", false},
		{"::ffff:10.1.2.3", "[10.1.2.3/32]", false},
		{"proxy.example", "", true},
		{"10.0.0.0/33", "", true},
	} {
		got, err := ParseTrustedProxies(tc.in)
		if (err != nil) != tc.err || (!tc.err && fmt.Sprint(got) != tc.want) {
			t.Errorf("ParseTrustedProxies(%q) = %v, %v; want %s (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// TestIdleSignInIsCutOff (issue 41, 2): a sign-in or an invitation's
// acceptance whose body never comes is answered after the idle period,
// not held open for ever.
func TestIdleSignInIsCutOff(t *testing.T) {
	e := newEnv(t, false, func(c *Config, _ *Converter) { c.BodyIdle = 300 * time.Millisecond })
	for _, path := range []string{"/api/v1/signin", "/api/v1/invites/inv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"} {
		c, br := e.rawRequest("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		// The limit only ends a test that would otherwise hang.
		if got := readStatus(t, c, br, time.Minute); got != http.StatusBadRequest {
			t.Errorf("%s with a body that never comes: %d, want 400", path, got)
		}
	}
}
