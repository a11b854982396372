// Package storetest opens Stores for tests the way the server opens them:
// with the SQLite metadata index and the content package's MIME sniffing.
package storetest

import (
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/files"
	"convfiles/files/sqlite"
)

// Open opens an indexed Store over filesDir with opts (its Index and Sniff
// are set here), the index kept in a test folder of its own. It returns
// the Store and the index's path (for a second opener, as the CLI beside a
// server); both are closed when the test ends.
func Open(t testing.TB, filesDir string, opts files.Options) (*files.Store, string) {
	t.Helper()
	indexPath := filepath.Join(t.TempDir(), "index.db")
	ix, err := sqlite.Open(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	opts.Index, opts.Sniff = ix, content.SniffMIME
	store, err := files.OpenStore(filesDir, opts)
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(); ix.Close() })
	return store, indexPath
}
