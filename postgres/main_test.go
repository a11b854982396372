package postgres_test

import (
	"context"
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/files/driver/indextest"
	"convfiles/internal/keyrows"
	"convfiles/internal/pgserver"
	"convfiles/postgres"
)

func TestMain(m *testing.M) { pgserver.Main(m) }

// open opens the index of a database, closed when the test ends.
func open(t testing.TB, url string) *postgres.Index {
	t.Helper()
	ix, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestIndexConformance runs the index conformance suite against a fresh
// database of a real PostgreSQL server.
func TestIndexConformance(t *testing.T) {
	indextest.Run(t, func(t *testing.T) driver.Index { return open(t, pgserver.Database(t)) })
}

// TestKeys runs the API key checks against the PostgreSQL index.
func TestKeys(t *testing.T) {
	indextest.RunKeys(t, func(t *testing.T) keyrows.Store { return open(t, pgserver.Database(t)) })
}

// TestConformance runs the store conformance suite on disk with the
// PostgreSQL index: two Stores over one folder and one database, as a
// server and the CLI beside it open them.
func TestConformance(t *testing.T) {
	enginetest.Run(t, twoProcesses(0))
	enginetest.RunCatalog(t, twoProcesses(0))
	enginetest.RunShared(t, twoProcesses(-1))
}

func twoProcesses(versions int) enginetest.Maker {
	return func(t *testing.T, l files.Limits) enginetest.Setup {
		dir, url := t.TempDir(), pgserver.Database(t)
		first := openStore(t, dir, url, engine.Options{Limits: l, Versions: versions})
		second := openStore(t, dir, url, engine.Options{Limits: l, Versions: versions})
		return enginetest.Setup{Dir: filepath.Join(first.Dir(), "conf"), Open: enginetest.SpaceOf(t, first, "conf"), Other: enginetest.SpaceOf(t, second, "conf")}
	}
}

func openStore(t *testing.T, dir, url string, opts engine.Options) *engine.Store {
	t.Helper()
	opts.Index, opts.Sniff = open(t, url), content.SniffMIME
	s, err := engine.OpenStore(filepath.Join(dir, "files"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
