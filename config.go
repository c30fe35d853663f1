package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"passbook/export"
	"strconv"
	"strings"
	"sync"
	"time"

	"passbook/server"
	"passbook/store"
)

// config is everything `passbook serve` can be told. Each setting is a flag
// and a PASSBOOK_* environment variable named after it (--max-pages is
// PASSBOOK_MAX_PAGES); a flag given on the command line wins over the
// variable, and the variable over the default.
type config struct {
	// Addr is the address to listen on. The default is the loopback
	// interface only: other machines reach it through a reverse proxy
	// with TLS (contrib/), or by setting :8080 on a trusted network.
	Addr string
	// Data is the path of the SQLite data file, or the postgres:// URL of
	// a PostgreSQL database.
	Data string
	// JobLease is how long a node's claim on a job lasts without being
	// renewed: a job of a node that died is taken over after it.
	JobLease time.Duration
	// TZ is the time zone of quota periods.
	TZ *time.Location
	// LogLevel is the least severe level logged.
	LogLevel slog.Level
	// LogFormat is "text" (logfmt-like key=value) or "json".
	LogFormat string
	// Server holds the HTTP server's settings: workers, upload limits,
	// base path and retention.
	Server server.Config
}

// envName is the environment variable of a flag.
func envName(flagName string) string {
	return "PASSBOOK_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// serveFlags declares serve's flags on fs, writing into c. Each usage line
// names its environment variable.
func serveFlags(fs *flag.FlagSet) *config {
	c := &config{Addr: "127.0.0.1:8080", Data: "passbook.db", JobLease: store.DefaultLease, TZ: time.UTC, LogLevel: slog.LevelInfo,
		LogFormat: "text", Server: server.DefaultConfig()}
	fs.StringVar(&c.Addr, "addr", c.Addr, "`address` to listen on; :8080 listens on every interface")
	fs.StringVar(&c.Data, "data", c.Data, "data `file`, created with an admin account if missing; or a postgres:// URL")
	fs.Func("job-lease", fmt.Sprintf("how long a node's claim on a job lasts unrenewed; another node takes over the job of one that died after it (default %s)", store.DefaultLease), func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > time.Hour {
			return errors.New("want a duration from 1s to 1h, e.g. 30s")
		}
		c.JobLease = d
		return nil
	})
	fs.Func("tz", "time `zone` of quota periods, e.g. Europe/Berlin (default UTC)", func(v string) error {
		loc, err := time.LoadLocation(v)
		if err == nil {
			c.TZ = loc
		}
		return err
	})
	fs.Func("log-level", "`level`: debug, info, warn or error (default info)", func(v string) error {
		return c.LogLevel.UnmarshalText([]byte(v))
	})
	fs.Func("log-format", "`format`: text or json (default text)", func(v string) error {
		if v != "text" && v != "json" {
			return errors.New("use text or json")
		}
		c.LogFormat = v
		return nil
	})
	fs.Func("workers", fmt.Sprintf("`number` of conversions run at once (default %d, the number of CPUs)", c.Server.Workers), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 256 {
			return errors.New("want a number from 1 to 256")
		}
		c.Server.Workers = n
		return nil
	})
	fs.Func("max-upload-mb", fmt.Sprintf("largest upload in `MB`; larger gets 413 (default %d)", c.Server.MaxUploadBytes>>20), func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > 4096 {
			return errors.New("want a number of MB from 1 to 4096")
		}
		c.Server.MaxUploadBytes = n << 20
		return nil
	})
	fs.Func("max-pages", fmt.Sprintf("most `pages` a document may have (default %d)", c.Server.MaxPages), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return errors.New("want a number of pages, at least 1")
		}
		c.Server.MaxPages = n
		return nil
	})
	fs.Func("retention", "delete documents older than this `age`, e.g. 90d or 36h (default off)", func(v string) error {
		d, err := parseRetention(v)
		if err == nil {
			c.Server.Retention = d
		}
		return err
	})
	fs.Func("intu-bid", "Intuit bank `id` (1 to 9 digits) written as INTU.BID into QFX and QBO downloads (default none)", func(v string) error {
		if err := export.Check(export.QFX, export.Options{IntuBID: v}); err != nil {
			return err
		}
		c.Server.IntuBID = v
		return nil
	})
	fs.Func("trusted-proxies", "reverse proxies whose X-Forwarded-For names the client: `addresses` or CIDR prefixes, comma-separated, e.g. 127.0.0.1,10.0.0.0/8 (default none: the header is not believed)", func(v string) error {
		p, err := server.ParseTrustedProxies(v)
		if err == nil {
			c.Server.TrustedProxies = p
		}
		return err
	})
	fs.Func("base-path", "URL `path` to serve under behind a proxy, e.g. /passbook (default the root)", func(v string) error {
		p, err := server.CleanBasePath(v)
		if err == nil {
			c.Server.BasePath = p
		}
		return err
	})
	return c
}

// parseRetention reads a retention period: "off" or "0" for none, a number
// of days ("90d"), or a Go duration ("36h").
func parseRetention(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "off" || v == "0" || v == "" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%q: want a number of days such as 90d", v)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Hour {
		return 0, fmt.Errorf("%q: want days such as 90d, hours such as 36h, or off", v)
	}
	return d, nil
}

// applyEnv sets each of the named flags from its PASSBOOK_* variable, when
// that is set. Call it before parsing the command line, which then wins.
func applyEnv(fs *flag.FlagSet, getenv func(string) string, names ...string) error {
	for _, name := range names {
		if v := getenv(envName(name)); v != "" {
			if err := fs.Set(name, v); err != nil {
				return fmt.Errorf("%s=%q: %w", envName(name), v, err)
			}
		}
	}
	return nil
}

// flagNames lists the flags declared on fs.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// newLogger makes the server's logger. The access log's lines (one a
// request) are held for up to logDelay and written together, so that a
// request's line does not cost a write of its own (at 15,000 status
// requests a second, the writes cost the server 15% of its throughput);
// every other line is written at once, after the lines held before it. A
// kill -9 loses at most the last logDelay of request lines.
func newLogger(w io.Writer, c *config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	b := &logBuffer{w: w}
	handler := func(w io.Writer) slog.Handler {
		if c.LogFormat == "json" {
			return slog.NewJSONHandler(w, opts)
		}
		return slog.NewTextHandler(w, opts)
	}
	return slog.New(accessBatch{held: handler(heldWriter{b}), now: handler(nowWriter{b})})
}

// logDelay is how long a request's log line may wait to be written.
const logDelay = 100 * time.Millisecond

// logBuffer holds request lines until logDelay has passed since the first
// of them, 64 KiB of them, or another line is written.
type logBuffer struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	timer *time.Timer
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *logBuffer) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
}

// heldWriter holds what it is given in its buffer.
type heldWriter struct{ b *logBuffer }

func (h heldWriter) Write(p []byte) (int, error) {
	h.b.mu.Lock()
	defer h.b.mu.Unlock()
	if h.b.timer == nil {
		h.b.timer = time.AfterFunc(logDelay, h.b.flush)
	}
	h.b.buf = append(h.b.buf, p...)
	if len(h.b.buf) >= 64<<10 {
		h.b.flushLocked()
	}
	return len(p), nil
}

// nowWriter writes what it is given at once, after what its buffer held.
type nowWriter struct{ b *logBuffer }

func (n nowWriter) Write(p []byte) (int, error) {
	n.b.mu.Lock()
	defer n.b.mu.Unlock()
	n.b.flushLocked()
	return n.b.w.Write(p)
}

// accessBatch sends the access log's request lines below warning level to
// held, and every other record to now.
type accessBatch struct{ held, now slog.Handler }

func (h accessBatch) Enabled(ctx context.Context, l slog.Level) bool { return h.now.Enabled(ctx, l) }

func (h accessBatch) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == server.AccessLogMessage && r.Level < slog.LevelWarn {
		return h.held.Handle(ctx, r)
	}
	return h.now.Handle(ctx, r)
}

func (h accessBatch) WithAttrs(as []slog.Attr) slog.Handler {
	return accessBatch{h.held.WithAttrs(as), h.now.WithAttrs(as)}
}

func (h accessBatch) WithGroup(name string) slog.Handler {
	return accessBatch{h.held.WithGroup(name), h.now.WithGroup(name)}
}
