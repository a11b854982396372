// Package testserver holds what the throwaway servers of the tests
// (internal/pgserver, internal/s3server) share: a free loopback port, a
// start retried when another process took that port first, and one
// server per test binary, started by the first test that asks.
//
// It must never import another convfiles package.
package testserver

import (
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// FreePort returns a loopback port nothing listens on right now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Retry runs start up to three times: between FreePort and the server's
// bind another process may take the port.
func Retry[S any](start func() (S, error)) (S, error) {
	var s S
	var err error
	for range 3 {
		if s, err = start(); err == nil {
			break
		}
	}
	return s, err
}

// Stopper is a server that can be stopped.
type Stopper interface{ Stop() error }

// Shared is the one server of a test binary.
type Shared[S Stopper] struct {
	once    sync.Once
	s       S
	err     error
	started bool
	next    atomic.Int64
}

// Get returns the server, starting it on first use; a server that cannot
// start fails the test with start's error, which says what to install.
func (sh *Shared[S]) Get(t testing.TB, what string, start func() (S, error)) S {
	t.Helper()
	sh.once.Do(func() {
		sh.s, sh.err = start()
		sh.started = sh.err == nil
	})
	if sh.err != nil {
		t.Fatalf("start %s: %v", what, sh.err)
	}
	return sh.s
}

// Name returns a name no other call of this test binary returns.
func (sh *Shared[S]) Name(prefix, sep string) string {
	return fmt.Sprintf("%s%d%s%d", prefix, os.Getpid(), sep, sh.next.Add(1))
}

// Stop stops the server if it was started.
func (sh *Shared[S]) Stop() {
	if sh.started {
		sh.s.Stop()
	}
}
