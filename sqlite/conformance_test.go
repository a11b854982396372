package sqlite_test

import (
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
	"convfiles/sqlite"
)

// TestConformance runs the conformance suite against the configuration
// the binary ships: conversations on disk, the SQLite index in a file.
// Writers of the second process are a second Store and index opened over
// the same folder and file, as the CLI beside a server opens them.
func TestConformance(t *testing.T) {
	enginetest.Run(t, twoProcesses(0))
	enginetest.RunCatalog(t, twoProcesses(0))
	// Kept versions count toward the quota, so only a store that keeps
	// none frees space when a file is deleted.
	enginetest.RunShared(t, twoProcesses(-1))
}

// TestConformanceInMemory runs the suite against a Store whose index is
// an in-memory SQLite database: the fast setup other packages' tests use
// when they need an index but not a file.
func TestConformanceInMemory(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, l files.Limits) enginetest.Setup {
		ix, err := sqlite.OpenMemory()
		if err != nil {
			t.Fatal(err)
		}
		s, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{Limits: l, Index: ix, Sniff: content.SniffMIME})
		if err != nil {
			ix.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(); ix.Close() })
		return enginetest.Setup{Dir: filepath.Join(s.Dir(), "conf"), Open: func() *engine.Space {
			sp, err := s.Space("conf")
			if err != nil {
				t.Fatal(err)
			}
			return sp
		}}
	})
}

// twoProcesses makes setups of two Stores over one folder and index, each
// keeping versions as engine.Options.Versions says.
func twoProcesses(versions int) enginetest.Maker {
	return func(t *testing.T, l files.Limits) enginetest.Setup {
		dir := t.TempDir()
		first := openStore(t, dir, engine.Options{Limits: l, Versions: versions})
		second := openStore(t, dir, engine.Options{Limits: l, Versions: versions})
		return enginetest.Setup{Dir: filepath.Join(first.Dir(), "conf"), Open: enginetest.SpaceOf(t, first, "conf"), Other: enginetest.SpaceOf(t, second, "conf")}
	}
}

// openStore opens a Store over dir/files with its index at dir/index.db.
func openStore(t *testing.T, dir string, opts engine.Options) *engine.Store {
	t.Helper()
	ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	opts.Index, opts.Sniff = ix, content.SniffMIME
	s, err := engine.OpenStore(filepath.Join(dir, "files"), opts)
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); ix.Close() })
	return s
}
