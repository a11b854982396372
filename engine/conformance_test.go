package engine_test

import (
	"path/filepath"
	"testing"

	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
)

// TestConformance runs the conformance suite against the two kinds of
// Space that need no index: a conversation of a Store without one, and a
// standalone folder (convfiles run --dir). The shipped configuration,
// with the SQLite index, runs it in package sqlite.
func TestConformance(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, l files.Limits) enginetest.Setup {
		s, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{Limits: l})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return enginetest.Setup{Dir: filepath.Join(s.Dir(), "conf"), Open: func() *engine.Space {
			sp, err := s.Space("conf")
			if err != nil {
				t.Fatal(err)
			}
			return sp
		}}
	})
}

// TestConformanceStandalone runs it against a standalone folder, each
// Space opened on its own as each run of convfiles run --dir opens it.
func TestConformanceStandalone(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, l files.Limits) enginetest.Setup {
		dir := filepath.Join(t.TempDir(), "out")
		return enginetest.Setup{Dir: dir, Open: func() *engine.Space {
			sp, err := engine.OpenDir(dir, engine.Options{Limits: l})
			if err != nil {
				t.Fatal(err)
			}
			return sp
		}}
	})
}
