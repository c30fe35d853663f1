package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// mainCmd runs the test binary as the passbook binary, in dir, so that exit
// codes are main's own.
func mainCmd(dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PASSBOOK_AS_MAIN=1", "PASSBOOK_DATA="), env...)
	return cmd
}

// exitCode runs cmd and gives its exit code, standard output and error.
func exitCode(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("%v: %v", cmd.Args, err)
	return 0, "", ""
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := exitCode(t, mainCmd(t.TempDir(), nil, args...))
		if code != 0 || !strings.HasPrefix(out, "passbook ") || !strings.Contains(out, "commit ") ||
			!strings.Contains(out, "built ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and passbook VERSION (commit C, built D, go)", args, code, out, errOut)
		}
	}

	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "feedbeef"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, tt := range []struct {
		name    string
		v, c, d string
		bi      *debug.BuildInfo
		want    string
	}{
		{"ldflags win", "v1.2.3", "abc123", "2026-11-23T10:00:00Z", bi, "passbook v1.2.3 (commit abc123, built 2026-11-23T10:00:00Z, "},
		{"build record", "", "", "", bi, "passbook v0.3.0 (commit feedbeef, with uncommitted changes, built 2026-01-02T03:04:05Z, "},
		{"nothing known", "", "", "", nil, "passbook unknown (commit unknown, built unknown, "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.v, tt.c, tt.d, tt.bi).String(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got %q, want it to start %q", got, tt.want)
			}
		})
	}
}

// TestHelpExitsZero asks every command and sub-command for help: each
// prints a usage on standard output, exits 0, and touches no data file.
func TestHelpExitsZero(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"help"}, {"--help"}, {"-h"},
		{"serve", "--help"}, {"serve", "-h"}, {"extract", "--help"}, {"backup", "--help"}, {"version", "--help"},
		{"accounts", "--help"}, {"accounts", "help"}, {"keys", "--help"}, {"keys", "-h"},
		{"accounts", "create", "--help"}, {"accounts", "list", "--help"}, {"accounts", "set-plan", "--help"},
		{"accounts", "grant-credits", "-h"}, {"keys", "create", "--help"}, {"keys", "list", "--help"}, {"keys", "revoke", "--help"},
		{"accounts", "create", "x@example.com", "--plan", "business", "--help"},
		{"documents", "--help"}, {"documents", "list", "--help"}, {"documents", "delete", "-h"}, {"audit", "--help"},
	} {
		code, out, errOut := exitCode(t, mainCmd(dir, nil, args...))
		if code != 0 || !strings.HasPrefix(out, "usage") {
			t.Errorf("passbook %s: exit %d, stdout %q, stderr %q; want exit 0 and a usage", strings.Join(args, " "), code, out, errOut)
		}
	}
	for _, args := range [][]string{{}, {"bogus"}, {"accounts"}, {"accounts", "bogus"}, {"serve", "--bogus"}, {"keys", "revoke"}, {"version", "x"},
		{"documents"}, {"documents", "list"}, {"documents", "delete", "a", "b"}} {
		if code, out, errOut := exitCode(t, mainCmd(dir, nil, args...)); code != 1 || errOut == "" {
			t.Errorf("passbook %s: exit %d, stdout %q, stderr %q; want exit 1 with a reason", strings.Join(args, " "), code, out, errOut)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("help or a wrong command left %v in the working directory", left)
	}
}

// TestAdminCommandsNeedDataFile runs each administration command against a
// data file that does not exist: each refuses, names the path, creates
// nothing; --create makes one, and PASSBOOK_DATA names one.
func TestAdminCommandsNeedDataFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	for _, args := range [][]string{
		{"accounts", "list"}, {"accounts", "create", "a@example.com"}, {"accounts", "set-plan", "a@example.com", "free"},
		{"accounts", "grant-credits", "a@example.com", "5"}, {"keys", "create", "admin@localhost"}, {"keys", "list"},
		{"keys", "revoke", "1"}, {"backup", filepath.Join(dir, "copy.db")},
		{"documents", "list", "a@example.com"}, {"documents", "delete", "doc_x"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append(args, "--data", missing), os.Getenv, nil, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "--create") {
			t.Errorf("%v on a missing data file: err = %v; want one naming %s and --create", args, err, missing)
		}
		if stdout.Len() != 0 {
			t.Errorf("%v on a missing data file printed %q", args, stdout.String())
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("refused commands left %v behind", left)
	}
	err := run(context.Background(), []string{"accounts", "create", "a@example.com", "--data", filepath.Join(dir, "no/such/dir/p.db"), "--create"}, os.Getenv, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no/such/dir") {
		t.Errorf("accounts create --create in a missing directory: err = %v, want one naming the directory", err)
	}

	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"accounts", "create", "a@example.com", "--data", missing, "--create"}, os.Getenv, nil, &stdout, &stderr); err != nil {
		t.Fatalf("accounts create --create: %v", err)
	}
	if !strings.Contains(stderr.String(), "creating data file "+missing) || keyRE.FindString(stdout.String()) == "" {
		t.Errorf("accounts create --create: stdout %q, stderr %q; want a key and the path created", stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	getenv := func(k string) string {
		if k == "PASSBOOK_DATA" {
			return missing
		}
		return ""
	}
	if err := run(context.Background(), []string{"accounts", "list"}, getenv, nil, &stdout, &stderr); err != nil ||
		!strings.Contains(stdout.String(), "a@example.com") || !strings.Contains(stderr.String(), "data file "+missing) {
		t.Errorf("accounts list with PASSBOOK_DATA: %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
}

func TestServeConfigFromEnv(t *testing.T) {
	vars := map[string]string{
		"PASSBOOK_ADDR": "0.0.0.0:9999", "PASSBOOK_DATA": "/var/lib/passbook/passbook.db", "PASSBOOK_TZ": "Europe/Berlin",
		"PASSBOOK_WORKERS": "3", "PASSBOOK_MAX_UPLOAD_MB": "10", "PASSBOOK_MAX_PAGES": "20", "PASSBOOK_RETENTION": "90d",
		"PASSBOOK_LOG_LEVEL": "debug", "PASSBOOK_LOG_FORMAT": "json", "PASSBOOK_BASE_PATH": "/passbook/",
		"PASSBOOK_TRUSTED_PROXIES": "127.0.0.1,10.0.0.0/8",
	}
	getenv := func(k string) string { return vars[k] }
	c, err := loadServeConfig(env{getenv: getenv, stdout: io.Discard, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Server
	if c.Addr != "0.0.0.0:9999" || c.Data != "/var/lib/passbook/passbook.db" || c.TZ.String() != "Europe/Berlin" ||
		s.Workers != 3 || s.MaxUploadBytes != 10<<20 || s.MaxPages != 20 || s.Retention != 90*24*time.Hour ||
		c.LogLevel != slog.LevelDebug || c.LogFormat != "json" || s.BasePath != "/passbook" ||
		fmt.Sprint(s.TrustedProxies) != "[127.0.0.1/32 10.0.0.0/8]" {
		t.Errorf("config from the environment = %+v", c)
	}

	c, err = loadServeConfig(env{args: []string{"--workers", "1", "--addr", "127.0.0.1:0", "--log-format=text"}, getenv: getenv})
	if err != nil || c.Server.Workers != 1 || c.Addr != "127.0.0.1:0" || c.LogFormat != "text" || c.Server.MaxPages != 20 {
		t.Errorf("flags over the environment: %+v, %v; want flags to win and the rest from the environment", c, err)
	}

	c, err = loadServeConfig(env{getenv: func(string) string { return "" }})
	if err != nil || c.Addr != "127.0.0.1:8080" || c.Data != "passbook.db" || c.Server.Retention != 0 || c.LogFormat != "text" ||
		c.Server.BasePath != "" || c.TZ != time.UTC || c.Server.Workers < 1 {
		t.Errorf("defaults: %+v, %v; want localhost, passbook.db, no retention, text logs", c, err)
	}

	for name, value := range map[string]string{
		"PASSBOOK_WORKERS": "lots", "PASSBOOK_TZ": "Mars/Olympus", "PASSBOOK_LOG_FORMAT": "xml", "PASSBOOK_LOG_LEVEL": "loud",
		"PASSBOOK_RETENTION": "soon", "PASSBOOK_BASE_PATH": "/a b", "PASSBOOK_MAX_UPLOAD_MB": "0",
		"PASSBOOK_TRUSTED_PROXIES": "the proxy",
	} {
		_, err := loadServeConfig(env{getenv: func(k string) string {
			if k == name {
				return value
			}
			return ""
		}})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: err = %v, want one naming the variable", name, value, err)
		}
	}
}

func TestServeBadDataPath(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "p.db")
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", bad}, os.Getenv, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "directory is missing") {
		t.Errorf("serve with a data file in a missing directory: err = %v, want one naming %s and its missing directory", err, bad)
	}
}

func TestParseRetention(t *testing.T) {
	for in, want := range map[string]time.Duration{"off": 0, "0": 0, "90d": 90 * 24 * time.Hour, "36h": 36 * time.Hour, "1d": 24 * time.Hour} {
		if got, err := parseRetention(in); err != nil || got != want {
			t.Errorf("parseRetention(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"-5d", "xd", "5m", "forever"} {
		if got, err := parseRetention(in); err == nil {
			t.Errorf("parseRetention(%q) = %v, want an error", in, got)
		}
	}
}

// TestServeFromEnvironment starts the server configured only by PASSBOOK_*
// variables, below a base path with JSON logs, and stops it.
func TestServeFromEnvironment(t *testing.T) {
	data := filepath.Join(t.TempDir(), "p.db")
	vars := map[string]string{"PASSBOOK_ADDR": "127.0.0.1:0", "PASSBOOK_DATA": data, "PASSBOOK_BASE_PATH": "/books",
		"PASSBOOK_LOG_FORMAT": "json", "PASSBOOK_WORKERS": "1"}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return vars[k] }, nil, &stdout, &stderr)
	}()
	var serving map[string]any
	waitFor(t, "the serving line", func() string {
		sc := bufio.NewScanner(strings.NewReader(stderr.String()))
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["msg"] == "serving" {
				serving = m
				return "ok"
			}
		}
		return ""
	})
	if serving["data"] != data || serving["base_path"] != "/books" || serving["workers"] != 1.0 {
		t.Errorf("serving line %v; want the data file's path, base path /books and 1 worker", serving)
	}
	base := "http://" + serving["addr"].(string)
	waitFor(t, "/books/readyz to answer 200", func() string {
		resp, err := http.Get(base + "/books/readyz")
		if err != nil {
			return ""
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			return "ok"
		}
		return ""
	})
	c := client{t: t, base: base + "/books", key: keyRE.FindString(stdout.String())}
	var user map[string]any
	if code := c.get("/api/v1/user", &user); code != 200 || user["plan"] != "admin" {
		t.Errorf("GET /books/api/v1/user as the first account: %d %v; want 200 on the admin plan", code, user)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve returned %v", err)
	}
	for _, msg := range []string{`"msg":"shutting down","reason":"signal"`, `"msg":"stopped"`, `"msg":"request","method":"GET","path":"/books/api/v1/user","status":200`} {
		if !strings.Contains(stderr.String(), msg) {
			t.Errorf("the log lacks %s:\n%s", msg, stderr.String())
		}
	}
}

func TestLogLevelAndFormat(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, &config{LogLevel: slog.LevelWarn, LogFormat: "json"})
	log.Info("request", "path", "/api/v1/user")
	log.Warn("authentication failed", "code", "invalid_api_key")
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil || m["msg"] != "authentication failed" || strings.Count(buf.String(), "\n") != 1 {
		t.Errorf("warn-level JSON log = %q (%v); want only the warning, as JSON", buf.String(), err)
	}
	buf.Reset()
	newLogger(&buf, &config{LogLevel: slog.LevelInfo, LogFormat: "text"}).Info("serving", "addr", "127.0.0.1:1")
	if got := buf.String(); !strings.Contains(got, "level=INFO msg=serving addr=127.0.0.1:1") {
		t.Errorf("text log = %q", got)
	}
}

// TestAccessLogBatched: request lines wait up to logDelay and go out
// together; any other line is written at once, after them, in order.
func TestAccessLogBatched(t *testing.T) {
	var out syncBuffer
	log := newLogger(&out, &config{LogLevel: slog.LevelInfo, LogFormat: "text"}).With("k", "v")
	log.Info("request", "path", "/one")
	log.Info("request", "path", "/two")
	if out.String() != "" {
		t.Fatalf("request lines written at once: %q", out.String())
	}
	log.Warn("authentication failed")
	got := out.String()
	one, two, warn := strings.Index(got, "path=/one"), strings.Index(got, "path=/two"), strings.Index(got, "authentication failed")
	if one < 0 || two < one || warn < two || strings.Count(got, "k=v") != 3 {
		t.Fatalf("after a warning: %q; want both request lines, then the warning, each with k=v", got)
	}
	log.Info("request", "path", "/three")
	waitFor(t, "the held request line", func() string {
		if strings.Contains(out.String(), "path=/three") {
			return "written"
		}
		return ""
	})
}
