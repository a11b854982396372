package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/peakrss"
	"convfiles/ops"
	"convfiles/sqlite"
)

// listFixture is a conversation of 100,000 files (a tenth of them .csv),
// indexed once per benchmark process.
var listFixture struct {
	once  sync.Once
	dir   string // the conversation's folder
	store *engine.Store
	err   error
}

const listFiles = 100_000

// writeFolder writes listFiles one-byte files into 100 folders of conv,
// a tenth of them .csv.
func writeFolder(conv string) error {
	exts := []string{"csv", "json", "txt", "md", "png", "pdf", "xlsx", "log", "html", "bin"}
	for i := 0; i < listFiles; i++ {
		name := filepath.Join(conv, fmt.Sprintf("d%02d", i%100), fmt.Sprintf("file%06d.%s", i, exts[i%len(exts)]))
		if i < 100 {
			os.MkdirAll(filepath.Dir(name), 0o755)
		}
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func listStore(b *testing.B) (*engine.Store, string) {
	listFixture.once.Do(func() {
		root := os.Getenv("CONVFILES_BENCH_DIR")
		if root == "" {
			root = os.TempDir()
		}
		dir, err := os.MkdirTemp(root, "convfiles-list-bench-")
		if err != nil {
			listFixture.err = err
			return
		}
		conv := filepath.Join(dir, "files", "big")
		if listFixture.err = writeFolder(conv); listFixture.err != nil {
			return
		}
		ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
		if err != nil {
			listFixture.err = err
			return
		}
		// Opening the Store reconciles: the 100,000 files enter the index.
		listFixture.store, listFixture.err = engine.OpenStore(filepath.Join(dir, "files"), engine.Options{Index: ix})
		listFixture.dir = conv
	})
	if listFixture.err != nil {
		b.Fatal(listFixture.err)
	}
	return listFixture.store, listFixture.dir
}

// BenchmarkList100k lists a conversation of 100,000 files with a glob
// through the index, against the baseline of walking the folder and
// matching every name (how a listing works without an index).
func BenchmarkList100k(b *testing.B) {
	store, dir := listStore(b)
	sp, err := store.Space("big")
	if err != nil {
		b.Fatal(err)
	}
	defer sp.Close()
	find := func(q files.ListQuery, want int) func(*testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				recs, total, err := sp.Find(context.Background(), q)
				if err != nil || total != want {
					b.Fatalf("%d matches, want %d: %v (%d records)", total, want, err, len(recs))
				}
			}
		}
	}
	b.Run("ops-list-page", func(b *testing.B) {
		// The list operation every door calls (files.list, list_files,
		// file_list, POST …/ops/list): a page of 1000 file objects.
		for b.Loop() {
			page, err := ops.List(context.Background(), ops.Env{Space: sp}, ops.ListIn{})
			if err != nil || len(page.Files) != ops.DefaultPage || page.Total != listFiles {
				b.Fatalf("%d files of %d: %v", len(page.Files), page.Total, err)
			}
		}
	})
	b.Run("index-glob-page", find(files.ListQuery{Pattern: "*.csv", Limit: 100}, listFiles/10))
	b.Run("index-glob-all", find(files.ListQuery{Pattern: "*.csv"}, listFiles/10))
	b.Run("index-glob-all-sorted-by-size", find(files.ListQuery{Pattern: "*.csv", Sort: files.SortSize, Desc: true}, listFiles/10))
	b.Run("disk-walk-glob", func(b *testing.B) {
		standalone, err := engine.OpenDir(dir, engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer standalone.Close()
		for b.Loop() {
			if _, total, err := standalone.Find(context.Background(), files.ListQuery{Pattern: "*.csv"}); err != nil || total != listFiles/10 {
				b.Fatalf("%d matches: %v", total, err)
			}
		}
	})
}

// TestMain removes the listing benchmark's 100,000 files after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if listFixture.store != nil {
		listFixture.store.Close()
		os.RemoveAll(filepath.Dir(filepath.Dir(listFixture.dir)))
	}
	os.Exit(code)
}

// BenchmarkReconcile100k opens a Store over a folder of 100,000 files
// that its index has never seen (as after convfiles migrate, or a folder
// copied in), so start-up reconciliation adds every one; peak-MiB is the
// rise of the process's peak resident memory while it does. The
// baseline is the walk alone: reading every directory entry and its
// size, which any reconciliation must do. process-peak-MiB is the peak
// resident memory of the whole process while it reconciles.
func BenchmarkReconcile100k(b *testing.B) {
	filesDir := filepath.Join(b.TempDir(), "files")
	conv := filepath.Join(filesDir, "big")
	if err := writeFolder(conv); err != nil {
		b.Fatal(err)
	}
	b.Run("walk-baseline", func(b *testing.B) {
		for b.Loop() {
			n := 0
			filepath.WalkDir(conv, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if _, err := d.Info(); err == nil {
						n++
					}
				}
				return nil
			})
			if n != listFiles {
				b.Fatalf("walked %d files", n)
			}
		}
	})
	b.Run("reconcile-new-index", func(b *testing.B) {
		var peak, whole float64
		for b.Loop() {
			b.StopTimer()
			ixPath := filepath.Join(b.TempDir(), "index.db")
			ix, err := sqlite.Open(ixPath)
			if err != nil {
				b.Fatal(err)
			}
			peakrss.Reset()
			before := peakrss.Bytes()
			b.StartTimer()
			store, err := engine.OpenStore(filesDir, engine.Options{Index: ix})
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			peak = max(peak, float64(peakrss.Bytes()-before)/(1<<20))
			whole = max(whole, float64(peakrss.Bytes())/(1<<20))
			sp, err := store.Space("big")
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if _, err := sp.WriteBytes(context.Background(), "first.txt", []byte("x"), files.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
			first := time.Since(t0)
			t0 = time.Now()
			if _, err := sp.WriteBytes(context.Background(), "second.txt", []byte("x"), files.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(first.Microseconds())/1000, "first-write-ms")
			b.ReportMetric(float64(time.Since(t0).Microseconds())/1000, "second-write-ms")
			for _, n := range []string{"first.txt", "second.txt"} {
				if err := sp.Remove(context.Background(), n); err != nil {
					b.Fatal(err)
				}
			}
			sp.Close()
			if _, total, err := ix.List(context.Background(), "big", files.ListQuery{Limit: 1}); err != nil || total != listFiles {
				b.Fatalf("indexed %d files: %v", total, err)
			}
			store.Close()
			b.StartTimer()
		}
		b.ReportMetric(peak, "peak-MiB")
		b.ReportMetric(whole, "process-peak-MiB")
	})
}

// BenchmarkEventRange100k asks a store of 100,000 events for the oldest
// and newest event, as every listing page and every idle follower does,
// against the single select of MIN and MAX that it replaced (planned as
// a scan of the whole table), run on the same file.
func BenchmarkEventRange100k(b *testing.B) {
	store, dir := listStore(b)
	ix := store.Index()
	b.Run("two-probes", func(b *testing.B) {
		for b.Loop() {
			if first, last, err := ix.EventRange(context.Background()); err != nil || last-first+1 < listFiles {
				b.Fatalf("events %d to %d: %v", first, last, err)
			}
		}
	})
	b.Run("baseline-min-max-scan", func(b *testing.B) {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(filepath.Dir(filepath.Dir(dir)), "index.db")+"?mode=ro")
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		for b.Loop() {
			var first, last int64
			if err := db.QueryRow(`SELECT MIN(seq), MAX(seq) FROM events`).Scan(&first, &last); err != nil || last-first+1 < listFiles {
				b.Fatalf("events %d to %d: %v", first, last, err)
			}
		}
	})
}
