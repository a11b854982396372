package s3server

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// shared is the server of one test binary, started by the first test
// that asks for a bucket and stopped by Main.
var shared struct {
	once sync.Once
	s    *Server
	err  error
	next atomic.Int64
}

// Shared returns the test binary's server, starting it on first use. A
// machine without the gateway fails the test with how to install it: the
// object store is a shipped configuration, so its tests never skip.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() { shared.s, shared.err = Start() })
	if shared.err != nil {
		t.Fatalf("start the S3 server: %v", shared.err)
	}
	return shared.s
}

// Bucket creates a new, empty bucket on the shared server and returns its
// name.
func Bucket(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := fmt.Sprintf("t%d-%d", os.Getpid(), shared.next.Add(1))
	if err := s.CreateBucket(name); err != nil {
		t.Fatalf("create bucket: %v", err)
	}
	return name
}

// Main runs a package's tests and then stops the shared server, if one
// was started: call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	StopShared()
	os.Exit(code)
}

// StopShared stops the shared server, if one was started: for a TestMain
// that uses more than one kind of server.
func StopShared() {
	if shared.s != nil {
		shared.s.Stop()
	}
}
