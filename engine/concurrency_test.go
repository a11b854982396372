package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"convfiles/files"
)

// TestConcurrentOverwritesAreNeverTorn has 50 writers overwrite one name,
// each with a version of its own length filled with its own byte, while
// readers read it: every read must be exactly one whole version.
func TestConcurrentOverwritesAreNeverTorn(t *testing.T) {
	s, _ := newStore(t, files.Limits{})
	ctx := context.Background()
	const writers, rounds = 50, 4
	if _, err := space(t, s, "c").WriteBytes(ctx, "shared.bin", version(0), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 100)
	for w := 1; w <= writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp := space(t, s, "c")
			for range rounds {
				if _, err := sp.WriteBytes(ctx, "shared.bin", version(w), files.WriteOptions{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var rg sync.WaitGroup
	reads := make([]int, 4)
	for r := range reads {
		rg.Add(1)
		go func() {
			defer rg.Done()
			sp := space(t, s, "c")
			for {
				select {
				case <-stop:
					return
				default:
				}
				f, _, err := sp.Open(ctx, "shared.bin")
				if err != nil {
					errs <- err
					return
				}
				b, err := io.ReadAll(f)
				f.Close()
				if err != nil {
					errs <- err
					return
				}
				if err := checkVersion(b); err != nil {
					errs <- err
					return
				}
				reads[r]++
			}
		}()
	}
	wg.Wait()
	close(stop)
	rg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	total := 0
	for _, n := range reads {
		total += n
	}
	if total == 0 {
		t.Fatal("no read completed")
	}
	entries, _ := os.ReadDir(filepath.Join(s.Dir(), "c"))
	if len(entries) != 1 {
		t.Fatalf("stray files after concurrent writes: %d entries", len(entries))
	}
}

// version w is w+1 KiB of the byte w.
func version(w int) []byte { return bytes.Repeat([]byte{byte(w)}, (w+1)*1024) }

func checkVersion(b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("read an empty file")
	}
	w := int(b[0])
	if len(b) != (w+1)*1024 || !bytes.Equal(b, version(w)) {
		return fmt.Errorf("torn read: %d bytes starting with version %d", len(b), w)
	}
	return nil
}

// TestParallelWritersNeverOvershootQuota races writers of new names, some
// streamed and some sized, against a small quota.
func TestParallelWritersNeverOvershootQuota(t *testing.T) {
	const quotaBytes = 1 << 20
	s, _ := newStore(t, files.Limits{MaxConversationBytes: quotaBytes})
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp := space(t, s, "q")
			data := make([]byte, 100<<10)
			var err error
			if i%2 == 0 {
				_, err = sp.WriteBytes(ctx, fmt.Sprintf("f%d", i), data, files.WriteOptions{})
			} else {
				_, err = sp.Write(ctx, fmt.Sprintf("f%d", i), bytes.NewReader(data), files.WriteOptions{})
			}
			if err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if files.KindOf(err) != files.KindTooLarge {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var onDisk int64
	filepath.Walk(filepath.Join(s.Dir(), "q"), func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && fi.Mode().IsRegular() {
			onDisk += fi.Size()
		}
		return nil
	})
	if onDisk > quotaBytes {
		t.Fatalf("conversation holds %d bytes, quota %d", onDisk, quotaBytes)
	}
	if ok != 10 {
		t.Fatalf("%d writes of 100 KiB fit a 1 MiB quota, want 10", ok)
	}
	// Overwrites release the old bytes: rewriting a file in place still fits.
	sp := space(t, s, "q")
	list, _ := sp.List(ctx)
	if _, err := sp.WriteBytes(ctx, list[0].Name, []byte("small"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteBytes(ctx, "new", make([]byte, 90<<10), files.WriteOptions{}); err != nil {
		t.Fatalf("space freed by a shrinking overwrite was not released: %v", err)
	}
}
