package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/sqlite"
)

// TestPrunedVersionsLeaveTheDisk: the bytes of versions past the keep
// count are removed in the background once their commit is done, and a
// Store closed right after its writes still removes every one.
func TestPrunedVersionsLeaveTheDisk(t *testing.T) {
	dir := t.TempDir()
	ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	store, err := engine.OpenStore(filepath.Join(dir, "files"), engine.Options{Index: ix, Versions: 2})
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := store.Space("c1")
	overwrite := func(name string) string {
		var id string
		for i := 0; i < 10; i++ {
			info, err := sp.WriteBytes(context.Background(), name, []byte("version "+strconv.Itoa(i)), files.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			id = info.ID
		}
		return id
	}
	kept := func(id string) int {
		entries, err := os.ReadDir(filepath.Join(dir, "files", "c1", files.ReservedPrefix+"versions", id))
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	a := overwrite("a.txt")
	for i := 0; kept(a) != 2 && i < 5000; i++ { // removed in the background, soon
		time.Sleep(time.Millisecond)
	}
	if n := kept(a); n != 2 {
		t.Fatalf("after 10 writes with 2 versions kept, %d version files are on disk", n)
	}
	b := overwrite("b.txt")
	sp.Close()
	store.Close()
	if n := kept(b); n != 2 {
		t.Fatalf("after closing, %d version files are on disk", n)
	}
}
