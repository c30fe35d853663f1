// Package server is Passbook's HTTP API (spec/api-v1.md), its web page and
// the workers that run queued conversions.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/source"
	"passbook/store"
)

// Converter reads documents; extract/worker's Pool is the real one, running
// each call in a warm child process.
type Converter interface {
	Probe(ctx context.Context, data []byte, password string) (source.Info, error)
	Convert(ctx context.Context, data []byte, opts extract.Options) (*ledger.Result, error)
	// RenderPage draws page n (from 1) width pixels wide (0: the engine's
	// default) as a PNG for review, with the page's size in points; a page
	// or width the document cannot give fails with source.ErrNoPage.
	RenderPage(ctx context.Context, data []byte, password string, page, width int) (source.Rendered, error)
}

// jsonConverter is a Converter that can also hand a conversion's result
// over as the JSON encoding of extract.Result it received from its worker,
// with the number of transactions and the reconciliation status: the
// server stores that JSON as it is, instead of decoding and encoding every
// transaction again (extract/worker's Pool is one).
type jsonConverter interface {
	ConvertJSON(ctx context.Context, data []byte, opts extract.Options) (raw []byte, transactions int, reconciliation string, err error)
}

// Config holds the server's settings.
type Config struct {
	// MaxUploadBytes bounds a request body; larger uploads get 413.
	MaxUploadBytes int64
	// MaxPages bounds a document's pages; more gets 413.
	MaxPages int
	// Workers is how many conversions run at once.
	Workers int
	// ProbeTimeout bounds reading a document's type and page count at
	// upload, waiting for a free probe slot included. Probes run at most
	// Workers at once.
	ProbeTimeout time.Duration
	// MaxAttempts is how many times a job whose converter crashed is tried
	// before it fails; a crash of the whole server counts no attempt.
	MaxAttempts int
	// MaxUploads bounds the uploads being received at once; past it an
	// upload gets 503 busy with Retry-After. While its body arrives, one
	// office may hold half of them, one client upload link an eighth (at
	// least one each), so an idle or slow client never holds the whole
	// server's.
	MaxUploads int
	// BodyIdle cuts off an upload that sends less than BodyIdleBytes within
	// this long (a slow-body attack holds a connection forever otherwise).
	BodyIdle time.Duration
	// BodyIdleBytes is the least an upload must send each BodyIdle.
	BodyIdleBytes int64
	// BodyTimeout bounds receiving a whole upload.
	BodyTimeout time.Duration
	// AuthFailures is how many failed authentications an address may make
	// within AuthWindow before it gets 429 too_many_failures.
	AuthFailures int
	// AuthWindow is the period AuthFailures counts over.
	AuthWindow time.Duration
	// ProbePenalty slows an account whose uploads the converter cannot
	// read (damaged, too large to read, past a limit; a wrong password
	// does not count): after such an upload the account's next probe waits
	// ProbePenalty, doubled for each more within AuthWindow, up to 128
	// times. Reading such a file costs the server a worker's time and the
	// uploader nothing; a person who sends one broken file waits a quarter
	// of a second, a flood of probe bombs waits for ever longer, holding
	// no worker. 0 turns it off.
	ProbePenalty time.Duration
	// TempDir holds uploads while they arrive ("" is the system's).
	TempDir string
	// Sniff names a document's type from its first KiB, "" when the
	// converter cannot read it: such an upload is refused before the rest
	// is read. source.Sniff by default; nil leaves it to the probe.
	Sniff func(head []byte) string
	// Retention is how long a document is kept before it is deleted as
	// DELETE /api/v1/documents/{file_id} deletes it; zero, the default,
	// keeps documents until their owner deletes them.
	Retention time.Duration
	// PollInterval is how often idle workers look for jobs they were not woken for.
	PollInterval time.Duration
	// IntuBID is the Intuit bank id written as INTU.BID into QFX and QBO
	// downloads (1 to 9 digits). QuickBooks refuses a QBO without one it
	// knows; a download's intu_bid parameter overrides it. Empty, the
	// default, leaves INTU.BID out.
	IntuBID string
	// BasePath is the URL path the whole site answers under ("/passbook")
	// when a reverse proxy serves it below its root; "" for the root. Set
	// it through CleanBasePath.
	BasePath string
	// SessionIdle ends a page session unused for this long.
	SessionIdle time.Duration
	// SignInFailures is how many failed sign-ins for one account one
	// address may make within AuthWindow before its sign-ins for the
	// account get 429; the right password from an address that has not
	// failed still signs in. Per address, AuthFailures counts them with
	// wrong keys.
	SignInFailures int
	// InviteTTL is how long an invitation link stays usable.
	InviteTTL time.Duration
	// LinkTTL is the longest a client upload link may live.
	LinkTTL time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (see clientAddr): throttling, sessions and the trail see
	// the client's address, not the proxy's. None by default: the header
	// is then logged and never believed.
	TrustedProxies []netip.Prefix
}

// DefaultConfig suits a small office on one machine.
func DefaultConfig() Config {
	return Config{
		MaxUploadBytes: 50 << 20,
		MaxPages:       500,
		Workers:        runtime.NumCPU(),
		ProbeTimeout:   5 * time.Second,
		MaxAttempts:    2,
		PollInterval:   2 * time.Second,
		MaxUploads:     32,
		Sniff:          source.Sniff,
		BodyIdle:       20 * time.Second,
		BodyIdleBytes:  32 << 10,
		BodyTimeout:    10 * time.Minute,
		AuthFailures:   20,
		AuthWindow:     time.Minute,
		ProbePenalty:   250 * time.Millisecond,
		SessionIdle:    2 * time.Hour,
		SignInFailures: 5,
		InviteTTL:      7 * 24 * time.Hour,
		LinkTTL:        366 * 24 * time.Hour,
	}
}

// Server is the HTTP API and its job workers.
type Server struct {
	log    *slog.Logger
	store  *store.Store
	conv   Converter
	cfg    Config
	router *mux.Router
	// handler is the router behind the access log and the base path.
	handler http.Handler
	// wake tells idle workers a job was queued.
	wake chan struct{}
	// workersUp counts the running conversion workers, for /readyz.
	workersUp atomic.Int32
	// uploads and probes are semaphores: uploads being received, and
	// uploads held in memory for their probe (at most Workers).
	uploads, probes chan struct{}
	// accountProbes lets one account hold at most half the probe slots.
	accountProbes *accountSlots
	// officeUploads and linkUploads are each office's and each client
	// link's share of the upload slots while bodies arrive (half and an
	// eighth of them).
	officeUploads, linkUploads *shares
	// passwords holds encrypted PDFs' passwords by file_id, in memory only.
	passwords *secrets
	// failures counts failed authentications by address: wrong keys,
	// sessions and passwords.
	failures *authFailures
	// guesses counts, by address, anonymous probes that opened nothing: a
	// client link's or an invitation's token. They are throttled apart,
	// so a guessing client of an office behind the same address (or a
	// proxy not trusted) does not lock its members out.
	guesses *authFailures
	// unreadable counts uploads the converter could not read, by account.
	unreadable *authFailures
	// signins counts failed sign-ins by e-mail address and client address
	// together: the failing source slows down, not the account.
	signins *authFailures
	// healths caches each folder's health by folder_id (folderHealth).
	healths sync.Map
}

// New builds the server. Call RunWorkers to process uploads.
func New(log *slog.Logger, st *store.Store, conv Converter, cfg Config) *Server {
	s := &Server{log: log, store: st, conv: conv, cfg: cfg, wake: make(chan struct{}, 1),
		uploads:       make(chan struct{}, max(cfg.MaxUploads, 1)),
		probes:        make(chan struct{}, max(cfg.Workers, 1)),
		accountProbes: newAccountSlots(max(cfg.Workers, 1) / 2),
		officeUploads: newShares(cfg.MaxUploads / 2),
		linkUploads:   newShares(cfg.MaxUploads / 8),
		passwords:     &secrets{m: map[string]string{}},
		failures:      newFailures(cfg.AuthFailures, cfg.AuthWindow, st.Now),
		guesses:       newFailures(cfg.AuthFailures, cfg.AuthWindow, st.Now),
		unreadable:    newFailures(1, cfg.AuthWindow, st.Now),
		signins:       newFailures(cfg.SignInFailures, cfg.AuthWindow, st.Now),
	}
	s.routes()
	s.handler = s.accessLog(s.withBase(s.router))
	return s
}

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}
