package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/sqlite"
)

// walkCounter is an index that counts the conversations it reconciles:
// each is a walk of the conversation's files and a read of all its rows.
type walkCounter struct {
	*sqlite.Index
	mu     sync.Mutex
	walked map[string]int
}

func (w *walkCounter) Reconcile(ctx context.Context, conv string, r driver.Reconciliation) (map[string][]int, error) {
	w.mu.Lock()
	w.walked[conv]++
	w.mu.Unlock()
	return w.Index.Reconcile(ctx, conv, r)
}

// openCounted opens the Store of dir over a walk-counting index.
func openCounted(t *testing.T, dir string) (*engine.Store, *walkCounter) {
	t.Helper()
	ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	w := &walkCounter{Index: ix, walked: map[string]int{}}
	s, err := engine.OpenStore(filepath.Join(dir, "files"), engine.Options{Index: w})
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	return s, w
}

// TestARestartWalksWhatChanged restarts a store of 100,000 files: after a
// clean shutdown only the conversations whose folders changed since the
// last start-up are walked, a file added by hand while the server was
// down is found, and a start-up after a shutdown that left no mark (a
// crash) walks everything.
func TestARestartWalksWhatChanged(t *testing.T) {
	dir := t.TempDir()
	filesDir := filepath.Join(dir, "files")
	if err := writeFolder(filepath.Join(filesDir, "big")); err != nil {
		t.Fatal(err)
	}
	for _, conv := range []string{"quiet", "written", "handmade"} {
		must(t, os.MkdirAll(filepath.Join(filesDir, conv), 0o755))
		must(t, os.WriteFile(filepath.Join(filesDir, conv, "first.txt"), []byte(conv), 0o644))
	}
	// Folders modified within markMargin of a start-up count as changed.
	time.Sleep(engine.MarkMargin + 100*time.Millisecond)

	store, ix := openCounted(t, dir)
	if len(ix.walked) != 4 {
		t.Fatalf("the first start-up walked %v, want all four conversations", ix.walked)
	}
	sp, _ := store.Space("written")
	write(t, sp, "second.txt", "written while serving")
	sp.Close()
	store.Close()
	ix.Close()
	must(t, os.WriteFile(filepath.Join(filesDir, "handmade", "by-hand.txt"), []byte("added while stopped"), 0o644))
	time.Sleep(engine.MarkMargin + 100*time.Millisecond)

	store, ix = openCounted(t, dir)
	if want := map[string]int{"written": 1, "handmade": 1}; fmt.Sprint(ix.walked) != fmt.Sprint(want) {
		t.Errorf("a restart walked %v, want only what changed: %v", ix.walked, want)
	}
	sp, _ = store.Space("handmade")
	if _, err := sp.Record(context.Background(), "by-hand.txt"); err != nil {
		t.Errorf("the file added while the server was down: %v", err)
	}
	sp.Close()
	sp, _ = store.Space("big")
	if _, total, err := sp.Find(context.Background(), files.ListQuery{Limit: 1}); err != nil || total != listFiles {
		t.Errorf("the unwalked conversation lists %d files, %v", total, err)
	}
	sp.Close()
	store.Close()
	ix.Close()

	store, ix = openCounted(t, dir)
	if len(ix.walked) != 0 {
		t.Errorf("a restart with nothing changed walked %v", ix.walked)
	}
	store.Close()
	ix.Close()

	must(t, os.Remove(filepath.Join(filesDir, engine.CleanMarkName)))
	store, ix = openCounted(t, dir)
	defer func() { store.Close(); ix.Close() }()
	if len(ix.walked) != 4 {
		t.Errorf("a start-up without the clean mark walked %v, want all four conversations", ix.walked)
	}
}
