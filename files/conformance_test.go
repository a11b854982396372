package files_test

import (
	"path/filepath"
	"testing"

	"convfiles/files"
	"convfiles/files/filestest"
)

// TestConformance runs the conformance suite against the two kinds of
// Space that need no index: a conversation of a Store without one, and a
// standalone folder (convfiles run --dir). The shipped configuration,
// with the SQLite index, runs it in package sqlite.
func TestConformance(t *testing.T) {
	filestest.Run(t, func(t *testing.T, l files.Limits) filestest.Setup {
		s, err := files.OpenStore(filepath.Join(t.TempDir(), "files"), files.Options{Limits: l})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return filestest.Setup{Dir: filepath.Join(s.Dir(), "conf"), Open: func() *files.Space {
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
	filestest.Run(t, func(t *testing.T, l files.Limits) filestest.Setup {
		dir := filepath.Join(t.TempDir(), "out")
		return filestest.Setup{Dir: dir, Open: func() *files.Space {
			sp, err := files.OpenDir(dir, files.Options{Limits: l})
			if err != nil {
				t.Fatal(err)
			}
			return sp
		}}
	})
}
