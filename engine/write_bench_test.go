package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/sqlite"
)

var kib = []byte(strings.Repeat("x", 1023) + "\n")

// BenchmarkWrite1KiB is one durable, indexed 1 KiB overwrite in the core,
// with what each part costs: kept versions, the index, and the baseline,
// Go's own durable replace (temp file, fsync, rename, fsync folder).
func BenchmarkWrite1KiB(b *testing.B) {
	for _, tc := range []struct {
		name     string
		index    bool
		versions int
	}{{"indexed-versions", true, 0}, {"indexed", true, -1}, {"standalone", false, 0}} {
		b.Run(tc.name, func(b *testing.B) {
			sp := benchSpace(b, tc.index, tc.versions, 0)
			for i := 0; b.Loop(); i++ {
				if _, err := sp.WriteBytes(context.Background(), fmt.Sprintf("f%d.txt", i%100), kib, files.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("go-durable-baseline", func(b *testing.B) {
		dir := b.TempDir()
		for i := 0; b.Loop(); i++ {
			goDurableWrite(b, dir, i)
		}
	})
}

// BenchmarkWrite1KiBConcurrent is 8 writers at once overwriting 1 KiB
// files of one conversation, indexed with versions, with group commit and
// without (one index commit per change), next to 8 goroutines doing Go's
// durable replace. ns/op is per write.
func BenchmarkWrite1KiBConcurrent(b *testing.B) {
	const writers = 8
	for _, tc := range []struct {
		name string
		most int
	}{{"group-commit", 0}, {"one-commit-per-write", 1}} {
		b.Run(tc.name, func(b *testing.B) {
			sp := benchSpace(b, true, 0, tc.most)
			concurrently(b, writers, func(w, i int) {
				if _, err := sp.WriteBytes(context.Background(), fmt.Sprintf("w%d/f%d.txt", w, i%20), kib, files.WriteOptions{}); err != nil {
					b.Error(err)
				}
			})
		})
	}
	b.Run("go-durable-baseline", func(b *testing.B) {
		dir := b.TempDir()
		for w := range writers {
			os.Mkdir(filepath.Join(dir, fmt.Sprint(w)), 0o755)
		}
		concurrently(b, writers, func(w, i int) { goDurableWrite(b, filepath.Join(dir, fmt.Sprint(w)), i) })
	})
}

// concurrently runs b.N calls of fn spread over n goroutines; fn gets the
// goroutine's number and its own call count.
func concurrently(b *testing.B, n int, fn func(w, i int)) {
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < b.N; i += n {
				fn(w, i/n)
			}
		}()
	}
	wg.Wait()
}

// benchSpace is a Space of a fresh Store; groupMost sets group commit's
// limit (0: the default).
func benchSpace(b *testing.B, indexed bool, versions, groupMost int) *engine.Space {
	dir := b.TempDir()
	opts := engine.Options{Versions: versions}
	if indexed {
		ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
		if err != nil {
			b.Fatal(err)
		}
		opts.Index = ix
	}
	store, err := engine.OpenStore(filepath.Join(dir, "files"), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	if indexed && groupMost > 0 {
		engine.SetGroupCommit(store, groupMost)
	}
	sp, err := store.Space("bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sp.Close() })
	return sp
}

// goDurableWrite replaces f<i%20>.txt in dir as a careful Go program
// does: a temporary file, fsync, rename, fsync of the folder.
func goDurableWrite(b *testing.B, dir string, i int) {
	tmp := filepath.Join(dir, fmt.Sprintf(".tmp-%d", i))
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	f.Write(kib)
	f.Sync()
	f.Close()
	if err := os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("f%d.txt", i%20))); err != nil {
		b.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	d.Sync()
	d.Close()
}
