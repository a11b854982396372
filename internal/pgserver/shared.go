package pgserver

import (
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"convfiles/internal/needs"
	"convfiles/internal/testserver"
)

// shared is the server of one test binary.
var shared testserver.Shared[*Server]

// Shared returns the test binary's server, starting it on first use. On
// a machine without PostgreSQL's binaries the test skips naming what to
// install (fails, where CONVFILES_REQUIRE asks for postgres); binaries
// that are there and do not start fail it.
func Shared(t testing.TB) *Server {
	t.Helper()
	Require(t)
	return shared.Get(t, "PostgreSQL", func() (*Server, error) { return Start(Options{}) })
}

// Database creates a new, empty database on the shared server and
// returns its URL; it is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := shared.Name("t", "_")
	if err := s.exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() { s.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	return s.URL(name)
}

// exec runs one statement in the postgres database.
func (s *Server) exec(sql string) error {
	ctx, cancel := ctxTimeout()
	defer cancel()
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, sql)
	return err
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
	if _, err := binDir(); err != nil {
		needs.Missing(t, needs.PostgreSQL, err)
	}
}
