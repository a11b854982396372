package sqlite_test

import (
	"path/filepath"
	"testing"

	"convfiles/files/driver"
	"convfiles/files/driver/indextest"
	"convfiles/internal/keyrows"
	"convfiles/sqlite"
)

// TestKeys runs the API key checks against the SQLite index.
func TestKeys(t *testing.T) {
	indextest.RunKeys(t, func(t *testing.T) keyrows.Store {
		ix, err := sqlite.OpenMemory()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	})
}

// TestIndexConformance runs the index conformance suite against the SQLite
// index in a file, as the binary ships it, and in memory.
func TestIndexConformance(t *testing.T) {
	t.Run("file", func(t *testing.T) {
		indextest.Run(t, func(t *testing.T) driver.Index {
			ix, err := sqlite.Open(filepath.Join(t.TempDir(), "index.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			return ix
		})
	})
	t.Run("memory", func(t *testing.T) {
		indextest.Run(t, func(t *testing.T) driver.Index {
			ix, err := sqlite.OpenMemory()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			return ix
		})
	})
}
