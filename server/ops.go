package server

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"passbook/store"
)

// This file is what an administrator running the server sees of it: the
// access log, the liveness and readiness checks, and serving below a base
// path behind a reverse proxy.

// routeUpload names the upload route, so a refused upload can be logged.
const routeUpload = "upload"

// reqInfo is what the handlers of a request tell its access log line.
type reqInfo struct {
	accountID int64
	code      string
}

const infoKey ctxKey = 1

// note gives the request's access log line what f sets, if it has one.
func note(r *http.Request, f func(*reqInfo)) {
	if info, ok := r.Context().Value(infoKey).(*reqInfo); ok {
		f(info)
	}
}

// recorder remembers the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n, err := rec.ResponseWriter.Write(p)
	rec.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// AccessLogMessage is the message of the access log's lines, one a
// request: a logger may batch them.
const AccessLogMessage = "request"

// accessLog writes one line a request: method, path (never the query, which
// may carry a file_id or, by mistake, a key), status, duration and, once the
// key was checked, the account. Health checks log at debug level, so a
// proxy or systemd polling them does not flood the log.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &reqInfo{}
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), infoKey, info)))
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", logPath(r.URL.Path)),
			slog.Int("status", rec.status),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			slog.Int64("bytes", rec.bytes),
			slog.String("remote_addr", r.RemoteAddr),
		}
		if fwd := r.Header.Get("X-Forwarded-For"); fwd != "" {
			// As the client or proxy says; client_addr is what the server
			// believes (see clientAddr).
			attrs = append(attrs, slog.String("forwarded_for", fwd), slog.String("client_addr", s.clientAddr(r)))
		}
		if info.accountID != 0 {
			attrs = append(attrs, slog.Int64("account_id", info.accountID))
		}
		if info.code != "" {
			attrs = append(attrs, slog.String("code", info.code))
		}
		level := slog.LevelInfo
		if p := strings.TrimPrefix(r.URL.Path, s.cfg.BasePath); p == "/healthz" || p == "/readyz" {
			level = slog.LevelDebug
		}
		s.log.LogAttrs(r.Context(), level, AccessLogMessage, attrs...)
	})
}

// logRejected writes the line for a refused request the administrator may
// want to see: a refused upload (a failed authentication has its own line,
// written where the key is checked).
func (s *Server) logRejected(r *http.Request, ae *apiError) {
	route := mux.CurrentRoute(r)
	if route == nil || route.GetName() != routeUpload || ae.status == http.StatusUnauthorized || ae.status >= 500 {
		return
	}
	attrs := []any{"code", ae.code, "status", ae.status}
	if acc, ok := r.Context().Value(accountKey).(store.Account); ok {
		attrs = append(attrs, "account_id", acc.ID)
	}
	s.log.Warn("upload rejected", attrs...)
}

// handleHealth is liveness: the process answers HTTP. It checks nothing
// else, so a busy data file never gets the server restarted.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "status": "alive"})
}

// readyBody is the answer of /readyz.
type readyBody struct {
	Success bool              `json:"success"`
	Checks  map[string]string `json:"checks"`
	Error   string            `json:"error,omitempty"`
	Hint    string            `json:"hint,omitempty"`
	Code    string            `json:"code,omitempty"`
}

// handleReady is readiness: the database takes a write, and the
// conversion workers are running. Either failing answers 503, and the
// reason is logged (the body says which check failed, not the internals).
// The database's check is named data_file on SQLite (with its disk's free
// room) and database on PostgreSQL.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	check := "data_file"
	if s.store.Kind() == "postgres" {
		check = "database"
	}
	body := readyBody{Success: true, Checks: map[string]string{check: "writable"}}
	if err := s.store.CheckWritable(ctx); err != nil {
		s.log.Error("not ready", "check", check, "err", err)
		body.Success, body.Checks[check] = false, "not writable"
	} else if free, err := s.store.FreeBytes(); err == nil && free < uint64(s.cfg.MaxUploadBytes) {
		// One small write fits long after an upload no longer does.
		s.log.Error("not ready", "check", check, "err", fmt.Sprintf("%d bytes free, less than one upload", free))
		body.Success, body.Checks[check] = false, "disk full"
	}
	if n := s.workersUp.Load(); n > 0 {
		body.Checks["workers"] = strconv.Itoa(int(n)) + " running"
	} else {
		s.log.Warn("not ready", "check", "workers", "err", "no conversion worker is running")
		body.Success, body.Checks["workers"] = false, "not running"
	}
	if !body.Success {
		body.Code, body.Error = "server_not_ready", "The server cannot take uploads now."
		body.Hint = "The server log says why: the database must take writes (disk space, permissions, mount; or the PostgreSQL server reachable) and the workers run."
		writeJSON(w, http.StatusServiceUnavailable, body)
		return
	}
	writeJSON(w, http.StatusOK, body)
}

// basePathRE is what a base path may be: segments of URL-safe characters.
var basePathRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)+$`) })

// CleanBasePath checks a base path and gives it the form the server uses:
// a leading slash, no trailing slash, and "" for the root.
func CleanBasePath(p string) (string, error) {
	p = strings.TrimRight(strings.TrimSpace(p), "/")
	if p == "" {
		return "", nil
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if !basePathRE().MatchString(p) || strings.Contains(p, "/./") || strings.Contains(p, "/../") ||
		strings.HasSuffix(p, "/..") || strings.HasSuffix(p, "/.") {
		return "", fmt.Errorf("base path %q: use a plain path such as /passbook", p)
	}
	return p, nil
}

// withBase serves the whole site below cfg.BasePath: a reverse proxy may
// pass /passbook/api/v1/... on unchanged. /healthz and /readyz also answer
// at the root, where local probes look for them.
func (s *Server) withBase(next http.Handler) http.Handler {
	base := s.cfg.BasePath
	if base == "" {
		return next
	}
	strip := http.StripPrefix(base, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == base:
			u := *r.URL
			u.Path += "/"
			http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
		case strings.HasPrefix(p, base+"/"):
			strip.ServeHTTP(w, r)
		case p == "/healthz" || p == "/readyz":
			next.ServeHTTP(w, r)
		default:
			s.handleNotFound(w, r)
		}
	})
}

// page serves the web page with, below a base path, a <base href> in its
// HTML, so that the page's relative URLs (api/v1/..., app.js) resolve under
// the base path.
func (s *Server) page(next http.Handler) http.Handler {
	if s.cfg.BasePath == "" {
		return next
	}
	tag := []byte(`<base href="` + s.cfg.BasePath + `/">`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/index.html" {
			next.ServeHTTP(w, r)
			return
		}
		buf := &bufferedResponse{under: w, header: http.Header{}}
		next.ServeHTTP(buf, r)
		body := buf.body.Bytes()
		if buf.status == http.StatusOK && strings.HasPrefix(buf.header.Get("Content-Type"), "text/html") {
			body = withBaseTag(body, tag)
			buf.header.Del("Content-Length")
			buf.header.Del("ETag")
		}
		for k, v := range buf.header {
			w.Header()[k] = v
		}
		if buf.status == http.StatusOK && r.Method != http.MethodHead {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(buf.status)
		_, _ = w.Write(body)
	})
}

// withBaseTag puts tag right after the <head> tag, or at the start when the
// page has none.
func withBaseTag(page, tag []byte) []byte {
	lower := bytes.ToLower(page)
	at := 0
	if i := bytes.Index(lower, []byte("<head")); i >= 0 {
		if j := bytes.IndexByte(page[i:], '>'); j >= 0 {
			at = i + j + 1
		}
	}
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:at]...)
	out = append(out, tag...)
	return append(out, page[at:]...)
}

// bufferedResponse holds a response so it can be changed before it is
// sent. It reaches the connection through under: a handler's read
// deadlines (http.ResponseController) apply to the real request.
type bufferedResponse struct {
	under  http.ResponseWriter
	header http.Header
	status int
	body   bytes.Buffer
}

// Unwrap lets http.ResponseController reach the real writer: without it
// SetReadDeadline fails quietly and a slow body is never cut off.
func (b *bufferedResponse) Unwrap() http.ResponseWriter { return b.under }

func (b *bufferedResponse) Header() http.Header { return b.header }
func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}
func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// logPath is a request's path as logged: the token of an upload link or
// an invitation, which is a credential, is cut to its prefix.
func logPath(p string) string {
	for _, marker := range []string{"/l/" + store.LinkPrefix, "/invites/inv_"} {
		if i := strings.Index(p, marker); i >= 0 {
			return p[:i+len(marker)] + "…"
		}
	}
	return p
}
