// Package server is Passbook's HTTP API (spec/api-v1.md), its web page and
// the workers that run queued conversions.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"passbook/extract"
	"passbook/store"
)

// Converter reads documents; extract/worker's Pool is the real one, running
// each call in a warm child process.
type Converter interface {
	Probe(ctx context.Context, data []byte, password string) (extract.Info, error)
	Convert(ctx context.Context, data []byte, opts extract.Options) (*extract.Result, error)
	// RenderPage draws page n (from 1) width pixels wide (0: the engine's
	// default) as a PNG for review, with the page's size in points; a page
	// or width the document cannot give fails with extract.ErrNoPage.
	RenderPage(ctx context.Context, data []byte, password string, page, width int) (extract.Rendered, error)
}

// Config holds the server's settings.
type Config struct {
	// MaxUploadBytes bounds a request body; larger uploads get 413.
	MaxUploadBytes int64
	// MaxPages bounds a document's pages; more gets 413.
	MaxPages int
	// Workers is how many conversions run at once.
	Workers int
	// ProbeTimeout bounds reading a document's type and page count at upload.
	ProbeTimeout time.Duration
	// MaxAttempts is how many times a job interrupted by a crash of the
	// whole server is tried before it fails.
	MaxAttempts int
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
	// Retention is how long a document is kept before it is deleted as
	// DELETE /api/v1/documents/{file_id} deletes it; zero, the default,
	// keeps documents until their owner deletes them.
	Retention time.Duration
}

// DefaultConfig suits a small office on one machine.
func DefaultConfig() Config {
	return Config{
		MaxUploadBytes: 50 << 20,
		MaxPages:       500,
		Workers:        runtime.NumCPU(),
		ProbeTimeout:   30 * time.Second,
		MaxAttempts:    3,
		PollInterval:   2 * time.Second,
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
}

// New builds the server. Call RunWorkers to process uploads.
func New(log *slog.Logger, st *store.Store, conv Converter, cfg Config) *Server {
	s := &Server{log: log, store: st, conv: conv, cfg: cfg, wake: make(chan struct{}, 1)}
	s.routes()
	s.handler = s.accessLog(s.withBase(s.router))
	return s
}

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}
