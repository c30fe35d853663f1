// Package server is Passbook's HTTP API (spec/api-v1.md), its web page and
// the workers that run queued conversions.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"time"

	"github.com/gorilla/mux"

	"passbook/extract"
	"passbook/store"
)

// Converter reads documents; extract.Isolated is the real one, running each
// call in a child process.
type Converter interface {
	Probe(ctx context.Context, data []byte, password string) (extract.Info, error)
	Convert(ctx context.Context, data []byte, opts extract.Options) (*extract.Result, error)
	// RenderPage draws page n (from 1) width pixels wide for review.
	RenderPage(ctx context.Context, data []byte, password string, n, width int) (extract.Rendered, error)
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
	// wake tells idle workers a job was queued.
	wake chan struct{}
}

// New builds the server. Call RunWorkers to process uploads.
func New(log *slog.Logger, st *store.Store, conv Converter, cfg Config) *Server {
	s := &Server{log: log, store: st, conv: conv, cfg: cfg, wake: make(chan struct{}, 1)}
	s.routes()
	return s
}

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.router.ServeHTTP(w, r)
}
