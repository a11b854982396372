package s3server

import (
	"os"
	"testing"

	"convfiles/internal/testserver"
)

// shared is the server of one test binary.
var shared testserver.Shared[*Server]

// Shared returns the test binary's server, starting it on first use. A
// machine without the gateway fails the test with how to install it: the
// object store is a shipped configuration, so its tests never skip.
func Shared(t testing.TB) *Server {
	t.Helper()
	return shared.Get(t, "the S3 server", Start)
}

// Bucket creates a new, empty bucket on the shared server and returns its
// name.
func Bucket(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := shared.Name("t", "-")
	if err := s.CreateBucket(name); err != nil {
		t.Fatalf("create bucket: %v", err)
	}
	return name
}

// Main runs a package's tests and then stops the shared server: call it
// from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	StopShared()
	os.Exit(code)
}

// StopShared stops the shared server, if one was started: for a TestMain
// that uses more than one kind of server.
func StopShared() { shared.Stop() }
