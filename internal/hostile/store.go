package hostile

import (
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/files"
	"convfiles/files/sqlite"
)

// OpenStore opens the Store over the fixture's folder as the server does,
// with a metadata index (kept outside the fixture, in a test folder), so
// attacks meet IDs and versions too. It is closed when the test ends.
func (f *Fixture) OpenStore(t testing.TB) *files.Store {
	t.Helper()
	ix, err := sqlite.Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	store, err := files.OpenStore(f.FilesDir, files.Options{Index: ix, Sniff: content.SniffMIME})
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(); ix.Close() })
	return store
}
