package s3server

import (
	"os"
	"testing"

	"convfiles/internal/needs"
	"convfiles/internal/testserver"
)

// shared is the server of one test binary.
var shared testserver.Shared[*Server]

// Shared returns the test binary's server, starting it on first use. On
// a machine without the gateway the test skips naming how to install it
// (fails, where CONVFILES_REQUIRE asks for s3); a gateway that is there
// and does not start fails it.
func Shared(t testing.TB) *Server {
	t.Helper()
	Require(t)
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

// Require ends the test as needs.Missing does when the machine lacks the
// server's binaries: for a test that starts servers of its own.
func Require(t testing.TB) {
	t.Helper()
	if _, err := binary(); err != nil {
		needs.Missing(t, needs.S3, err)
	}
}
