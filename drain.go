package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"
)

// drainListener is a TCP listener that can stop accepting without
// resetting what waits in its backlog (issue 41 point 13). Closing a
// listening socket resets every connection the kernel completed but the
// server had not accepted yet: a client whose connection was made, and
// whose request may have been sent, gets no answer. StopAccepting first
// has the kernel drop new connection attempts (a filter on the socket
// that drops every packet, or where the kernel has no socket filters a
// backlog of none: a client's SYN goes unanswered, and once the socket is
// closed, is refused), then Accept hands over what is left in the
// backlog, closes the socket the moment it is empty, and reports the
// listener closed; the HTTP server answers those connections like any
// other (cmdServe waits for them before it calls Shutdown).
type drainListener struct {
	*net.TCPListener
	stopping chan struct{}
	once     sync.Once
}

func listenDraining(addr string) (*drainListener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	tl, ok := ln.(*net.TCPListener)
	if !ok {
		ln.Close()
		return nil, fmt.Errorf("listen %s: not TCP", addr)
	}
	return &drainListener{TCPListener: tl, stopping: make(chan struct{})}, nil
}

// Accept returns the next connection; once StopAccepting was called, the
// ones still in the backlog, then net.ErrClosed.
func (l *drainListener) Accept() (net.Conn, error) {
	select {
	case <-l.stopping:
		return l.backlogged()
	default:
	}
	c, err := l.TCPListener.Accept()
	if err != nil {
		select {
		case <-l.stopping:
			return l.backlogged()
		default:
		}
	}
	return c, err
}

// StopAccepting makes the kernel take no new connections on the socket and
// wakes Accept to hand over what waits in the backlog.
func (l *drainListener) StopAccepting() error {
	var err error
	l.once.Do(func() {
		rc, rerr := l.TCPListener.SyscallConn()
		if rerr != nil {
			err = rerr
		} else if cerr := rc.Control(func(fd uintptr) {
			// A classic BPF program of one instruction: return 0, keep no
			// byte of any packet. Where the kernel has no socket filters,
			// a backlog of none: the kernel then drops a connection's SYN
			// while one completed connection waits to be accepted.
			if syscall.AttachLsf(int(fd), []syscall.SockFilter{{Code: syscall.BPF_RET | syscall.BPF_K, K: 0}}) != nil {
				err = syscall.Listen(int(fd), 0)
			}
		}); cerr != nil {
			err = cerr
		}
		close(l.stopping)
		// Wake an Accept that waits.
		l.TCPListener.SetDeadline(time.Now())
	})
	if err != nil {
		return fmt.Errorf("stop accepting: %w", err)
	}
	return nil
}

// backlogged accepts a connection the kernel completed before
// StopAccepting, without waiting: net.ErrClosed when there is none left.
func (l *drainListener) backlogged() (net.Conn, error) {
	rc, err := l.TCPListener.SyscallConn()
	if err != nil {
		return nil, net.ErrClosed
	}
	nfd := -1
	var aerr error
	// Control, not Read: the deadline that woke Accept has passed, and
	// Read would answer with it before trying.
	if err := rc.Control(func(fd uintptr) {
		nfd, _, aerr = syscall.Accept4(int(fd), syscall.SOCK_CLOEXEC|syscall.SOCK_NONBLOCK)
	}); err != nil || aerr != nil {
		// The backlog is empty: close at once, before a connection the
		// kernel completes meanwhile would be reset by a later close.
		l.TCPListener.Close()
		if aerr != nil && !errors.Is(aerr, syscall.EAGAIN) {
			return nil, fmt.Errorf("accept from the backlog: %w: %w", aerr, net.ErrClosed)
		}
		return nil, net.ErrClosed
	}
	f := os.NewFile(uintptr(nfd), "backlogged")
	defer f.Close()
	return net.FileConn(f)
}

// openConns counts an HTTP server's connections (its ConnState hook), so
// that a stopping server can wait for every connection it accepted to be
// answered and closed before it calls Shutdown: Shutdown drops, unanswered,
// a request it reads after it began (net/http checks shuttingDown right
// after reading one), which is what a backlogged connection sends.
type openConns struct {
	mu    sync.Mutex
	n     int
	empty chan struct{} // closed when n reaches 0; nil while nobody waits
}

// track is the http.Server's ConnState hook.
func (o *openConns) track(_ net.Conn, st http.ConnState) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch st {
	case http.StateNew:
		o.n++
	case http.StateClosed, http.StateHijacked:
		o.n--
	}
	if o.n == 0 && o.empty != nil {
		close(o.empty)
		o.empty = nil
	}
}

// wait returns once no connection is open, or ctx is done.
func (o *openConns) wait(ctx context.Context) error {
	o.mu.Lock()
	if o.n == 0 {
		o.mu.Unlock()
		return nil
	}
	if o.empty == nil {
		o.empty = make(chan struct{})
	}
	empty := o.empty
	o.mu.Unlock()
	select {
	case <-empty:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
