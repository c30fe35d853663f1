package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// secrets holds PDF passwords by file_id, in memory only: a password never
// reaches the data file, and a restart forgets it.
type secrets struct {
	mu sync.Mutex
	m  map[string]string
}

func (p *secrets) put(id, password string) {
	p.mu.Lock()
	p.m[id] = password
	p.mu.Unlock()
}

func (p *secrets) get(id string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pw, ok := p.m[id]
	return pw, ok
}

func (p *secrets) drop(id string) {
	p.mu.Lock()
	delete(p.m, id)
	p.mu.Unlock()
}

// authFailures counts failed authentications per client address over a
// window, so guessing keys is throttled.
type authFailures struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	now    func() time.Time
	seen   map[string]*failureCount
}

type failureCount struct {
	n     int
	since time.Time
}

func newFailures(limit int, window time.Duration, now func() time.Time) *authFailures {
	return &authFailures{limit: limit, window: window, now: now, seen: map[string]*failureCount{}}
}

// blocked says whether addr has used up its failures, and for how long.
func (f *authFailures) blocked(addr string) (time.Duration, bool) {
	if f.limit <= 0 {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.seen[addr]
	if c == nil {
		return 0, false
	}
	left := c.since.Add(f.window).Sub(f.now())
	if left <= 0 {
		delete(f.seen, addr)
		return 0, false
	}
	return left, c.n >= f.limit
}

// retryAfter sets Retry-After to wait, rounded up to whole seconds, and
// returns the same as words for a message: the server knows how long the
// client must wait, and says so.
func retryAfter(w http.ResponseWriter, wait time.Duration) string {
	secs := int((wait + time.Second - 1) / time.Second)
	secs = max(secs, 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	if secs == 1 {
		return "1 second"
	}
	return strconv.Itoa(secs) + " seconds"
}

// tooManyFailures answers an address or source that has used up its
// failures: 429 with Retry-After, and the wait in the message.
func tooManyFailures(w http.ResponseWriter, wait time.Duration, what string) *apiError {
	return &apiError{http.StatusTooManyRequests, "too_many_failures", what + " Try again in " + retryAfter(w, wait) + ".",
		"Wait for the time in the Retry-After header, then try again."}
}

// fail counts one failure of addr, and returns how many it has made in
// the window so far.
func (f *authFailures) fail(addr string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	// Forget expired addresses as the map grows, so a scan of many
	// addresses cannot grow it for ever.
	if len(f.seen) > 10000 {
		for a, c := range f.seen {
			if now.Sub(c.since) >= f.window {
				delete(f.seen, a)
			}
		}
	}
	c := f.seen[addr]
	if c == nil || now.Sub(c.since) >= f.window {
		c = &failureCount{since: now}
		f.seen[addr] = c
	}
	c.n++
	return c.n
}

// clientAddr is the address of the client that sent the request: the
// connection's remote IP, or, when that is a trusted proxy's
// (Config.TrustedProxies), the address X-Forwarded-For names. The header
// is read from its right, where each proxy appends the address it was
// reached from: the first address that is not a trusted proxy's is the
// client's, and whatever the client wrote further left is not believed.
func (s *Server) clientAddr(r *http.Request) string {
	peer := r.RemoteAddr
	if host, _, err := net.SplitHostPort(peer); err == nil {
		peer = host
	}
	ip, err := netip.ParseAddr(peer)
	if err != nil || !s.trusted(ip) {
		return peer
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a hop a proxy would not write: believe none further left
		}
		ip = hop.Unmap()
		if !s.trusted(ip) {
			break
		}
	}
	return ip.String()
}

// trusted says whether ip is one of the trusted proxies'.
func (s *Server) trusted(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads a list of trusted proxies: addresses and
// CIDR prefixes, separated by commas or spaces ("" is none).
func ParseTrustedProxies(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an address such as 10.0.0.5 or a prefix such as 10.0.0.0/8", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// deadlineReader keeps an upload's read deadline moving while the client
// sends at least minBytes each idle period, up to an overall end: a slow
// body is cut off after idle, a steady one is not.
type deadlineReader struct {
	r        interface{ Read([]byte) (int, error) }
	rc       *http.ResponseController
	idle     time.Duration
	minBytes int64
	end      time.Time
	now      func() time.Time
	got      int64
}

func (d *deadlineReader) start() {
	_ = d.rc.SetReadDeadline(d.next())
}

func (d *deadlineReader) next() time.Time {
	t := d.now().Add(d.idle)
	if t.After(d.end) {
		t = d.end
	}
	return t
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.got += int64(n)
	if d.got >= d.minBytes {
		d.got = 0
		_ = d.rc.SetReadDeadline(d.next())
	}
	return n, err
}

// accountSlots bounds what one account holds at once (its probes), so one
// account's flood of uploads cannot take every probe slot while another
// account's upload waits.
type accountSlots struct {
	mu    sync.Mutex
	limit int
	held  map[int64]chan struct{}
}

func newAccountSlots(limit int) *accountSlots {
	return &accountSlots{limit: max(limit, 1), held: map[int64]chan struct{}{}}
}

// acquire takes one of the account's slots, waiting until done is closed;
// false when it gave up. release gives it back.
func (a *accountSlots) acquire(account int64, done <-chan struct{}) bool {
	a.mu.Lock()
	c := a.held[account]
	if c == nil {
		c = make(chan struct{}, a.limit)
		a.held[account] = c
	}
	a.mu.Unlock()
	select {
	case c <- struct{}{}:
		return true
	default:
	}
	select {
	case c <- struct{}{}:
		return true
	case <-done:
		return false
	}
}

// release gives back a slot. Channels stay in the map (one per account
// that ever uploaded): dropping one while a waiter holds it would split
// the account's slots in two.
func (a *accountSlots) release(account int64) {
	a.mu.Lock()
	c := a.held[account]
	a.mu.Unlock()
	<-c
}

// releaseAfter gives back a slot after d, so the account's next probe
// waits that long (its timer owns the slot until then).
func (a *accountSlots) releaseAfter(account int64, d time.Duration) {
	if d <= 0 {
		a.release(account)
		return
	}
	time.AfterFunc(d, func() { a.release(account) })
}

// penalty is how long an account's next probe waits after its n-th upload
// within the window that the converter could not read: base, doubled for
// each one more, at most 128 times base.
func penalty(base time.Duration, n int) time.Duration {
	if base <= 0 || n <= 0 {
		return 0
	}
	return base << min(n-1, 7)
}

// shares bounds how many of the server's upload slots one holder (an
// office, a client's link) may hold at once, so a slow or idle client
// holds its own share of the capacity and never all of it.
type shares struct {
	mu    sync.Mutex
	limit int
	held  map[string]int
}

func newShares(limit int) *shares { return &shares{limit: max(limit, 1), held: map[string]int{}} }

// take takes one of key's slots, false when key holds its share already.
func (s *shares) take(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[key] >= s.limit {
		return false
	}
	s.held[key]++
	return true
}

// give gives back one of key's slots.
func (s *shares) give(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[key]--; s.held[key] <= 0 {
		delete(s.held, key)
	}
}
