// Package storetest opens Stores for tests the way the server opens them:
// with the SQLite metadata index and the content package's MIME sniffing.
//
// It is for tests only: nothing that ships imports it, and it never
// imports a door.
package storetest

import (
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/sqlite"
)

// Open opens an indexed Store over filesDir with opts (its Index and Sniff
// are set here), the index kept in a test folder of its own. It returns
// the Store and the index's path (for a second opener, as the CLI beside a
// server); both are closed when the test ends.
func Open(t testing.TB, filesDir string, opts engine.Options) (*engine.Store, string) {
	t.Helper()
	indexPath := filepath.Join(t.TempDir(), "index.db")
	ix, err := sqlite.Open(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	opts.Index, opts.Sniff = ix, content.SniffMIME
	store, err := engine.OpenStore(filesDir, opts)
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(); ix.Close() })
	return store, indexPath
}
