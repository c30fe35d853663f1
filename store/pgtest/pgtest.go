// Package pgtest starts a throwaway PostgreSQL server for tests, from
// Debian's postgresql package: initdb into a temporary directory, a Unix
// socket in that directory and no TCP port, trust authentication for a
// superuser named passbook, durability off. initdb and postgres refuse to
// run as root, so as root the server runs as the user nobody. Each test
// gets a database of its own. When PostgreSQL is missing, tests fail and
// say how to install it: they never skip.
package pgtest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// Install is how to get PostgreSQL's server programs (make test-deps does).
const Install = "apt-get install postgresql (make test-deps installs it)"

// Server is a running PostgreSQL server of the tests.
type Server struct {
	dir    string // holds data/ and the socket; removed by Stop
	cmd    *exec.Cmd
	exited chan error // the server process's end
	log    *syncBuffer
	admin  *sql.DB
	n      atomic.Int64
}

// Bin finds a PostgreSQL server program (initdb, postgres, pg_dump...):
// in the newest /usr/lib/postgresql/VERSION/bin, where Debian puts them off
// the PATH, or else on the PATH.
func Bin(name string) (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExec(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("PostgreSQL's %s is not installed: %s", name, Install)
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Start initialises a new cluster in a temporary directory and starts its
// server, with durability off (fsync, synchronous commits): tests do not
// survive a power cut anyway. Stop ends it and removes the directory.
func Start() (*Server, error) { return start(false) }

// StartDurable is Start with PostgreSQL's default durability (every commit
// flushed to disk), for benchmarks that measure what a real server costs.
func StartDurable() (*Server, error) { return start(true) }

func start(durable bool) (*Server, error) {
	initdb, err := Bin("initdb")
	if err != nil {
		return nil, err
	}
	postgres, err := Bin("postgres")
	if err != nil {
		return nil, err
	}
	// As root, the directory must be reachable by nobody, whose server
	// makes its socket there: /tmp is, whatever TMPDIR names (and keeps
	// the socket's path short).
	base := ""
	if os.Geteuid() == 0 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "passbook-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, log: &syncBuffer{}}
	cred, err := s.owner()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	cmd := s.command(cred, initdb, "-D", data, "-U", "passbook", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	args := []string{"-D", data, "-k", dir, "-c", "listen_addresses=", "-c", "max_connections=300", "-c", "log_min_messages=warning"}
	if !durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "shared_buffers=32MB")
	}
	s.cmd = s.command(cred, postgres, args...)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	// If the test binary dies, the server stops with it (immediate shutdown).
	s.cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	s.exited = make(chan error, 1)
	go func() { s.exited <- s.cmd.Wait() }()
	s.admin, err = sql.Open("pgx", s.URL("postgres"))
	if err != nil {
		s.Stop()
		return nil, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = s.admin.PingContext(ctx)
		cancel()
		if err == nil {
			break
		}
		select {
		case werr := <-s.exited:
			s.exited <- werr
			s.Stop()
			return nil, fmt.Errorf("postgres exited at start-up (%v): %s", werr, s.log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("postgres did not answer within 60 s: %v: %s", err, s.log.String())
		}
	}
	return s, nil
}

// owner makes dir the server's: as root, the user nobody's, since initdb
// and postgres refuse to run as root; otherwise the caller's own.
func (s *Server) owner() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL must run as another user, and there is no user nobody: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(s.dir, uid, gid); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func (s *Server) command(cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "TZ=UTC", "HOME=" + s.dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	return cmd
}

// URL is the address of database db on the server, for pgx, psql and
// pg_dump alike.
func (s *Server) URL(db string) string {
	return "postgres://passbook@/" + db + "?host=" + url.QueryEscape(s.dir) + "&sslmode=disable"
}

// NewDatabase creates an empty database and returns its URL.
func (s *Server) NewDatabase() (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), s.n.Add(1))
	if _, err := s.admin.Exec("CREATE DATABASE " + name); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return s.URL(name), nil
}

// DropDatabase removes a database made by NewDatabase, ending its sessions.
func (s *Server) DropDatabase(dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return err
	}
	_, err = s.admin.Exec("DROP DATABASE IF EXISTS " + strings.TrimPrefix(u.Path, "/") + " WITH (FORCE)")
	return err
}

// Stop shuts the server down (fast shutdown: sessions are ended) and
// removes its directory.
func (s *Server) Stop() error {
	if s.admin != nil {
		s.admin.Close()
	}
	var err error
	if s.exited != nil {
		_ = s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			err = errors.New("postgres did not stop within 10 s; killed")
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	}
	return errors.Join(err, os.RemoveAll(s.dir))
}

var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Shared is the test binary's server, started on first use and stopped by
// Main. A test that needs PostgreSQL fails here when it cannot start.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start() })
	if shared.err != nil {
		t.Fatalf("this test needs PostgreSQL: %v", shared.err)
	}
	return shared.srv
}

// Database creates a database of its own for the test on the shared
// server, dropped when the test ends, and returns its URL.
func Database(t testing.TB) string {
	t.Helper()
	srv := Shared(t)
	dsn, err := srv.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.DropDatabase(dsn); err != nil {
			t.Errorf("drop the test's database: %v", err)
		}
	})
	return dsn
}

// Main runs a package's tests and stops the shared server after them, if
// one was started: call it from TestMain, os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	return code
}

// syncBuffer collects the server's log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
