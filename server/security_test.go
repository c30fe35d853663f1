package server

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
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
// through one client link as the server takes at once leave room for
// the office's own uploads, another link's and another office's.
func TestIdleLinkHoldsNoServerCapacity(t *testing.T) {
	const slots = 8
	f := newOffices(t, func(c *Config, _ *Converter) { c.MaxUploads = slots })
	e := f.e
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

var _ = net.Dial
var _ = strings.Contains
