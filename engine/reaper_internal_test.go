package engine

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"testing"

	"convfiles/files/driver"
)

// stuckBlobs records deletions; one of the path "stuck" blocks until
// released.
type stuckBlobs struct {
	driver.Blobs
	release chan struct{}
	mu      sync.Mutex
	deleted []string
}

func (b *stuckBlobs) Delete(_ context.Context, key driver.BlobKey) error {
	if key.Path == "stuck" {
		<-b.release
	}
	b.mu.Lock()
	b.deleted = append(b.deleted, key.Path)
	b.mu.Unlock()
	return nil
}

func (b *stuckBlobs) has(path string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.deleted {
		if p == path {
			return true
		}
	}
	return false
}

// TestReaperBoundsItsQueue: while the reaper is stuck on one removal and
// its queue is full, a writer removes its own at once; after close,
// every queued removal is done and later ones happen at once.
func TestReaperBoundsItsQueue(t *testing.T) {
	b := &stuckBlobs{release: make(chan struct{})}
	r := newReaper(b, slog.New(slog.DiscardHandler))
	r.remove(b, driver.BlobKey{Path: "stuck"})
	waitFor(t, func() bool { return len(r.queue) == 0 }) // the reaper holds it
	for i := range reapQueue {
		r.remove(b, driver.BlobKey{Path: "queued-" + strconv.Itoa(i)})
	}
	r.remove(b, driver.BlobKey{Path: "overflow"})
	if !b.has("overflow") {
		t.Fatal("a removal past the full queue was not done at once")
	}
	if b.has("queued-0") {
		t.Fatal("a queued removal ran while the reaper was stuck")
	}
	close(b.release)
	r.close()
	if !b.has("stuck") || !b.has("queued-"+strconv.Itoa(reapQueue-1)) {
		t.Fatal("close returned before the queue was drained")
	}
	r.remove(b, driver.BlobKey{Path: "late"})
	if !b.has("late") {
		t.Fatal("a removal after close was not done at once")
	}
}

// batchBlobs records the batches it is asked to remove; the first blocks
// until released.
type batchBlobs struct {
	driver.Blobs
	entered, release chan struct{}
	mu               sync.Mutex
	batches          [][]string
	noDeadline       int // batches asked for with no deadline
}

func (b *batchBlobs) DeleteBatch(ctx context.Context, keys []driver.BlobKey) error {
	b.mu.Lock()
	if _, ok := ctx.Deadline(); !ok {
		b.noDeadline++
	}
	first := len(b.batches) == 0
	var paths []string
	for _, k := range keys {
		paths = append(paths, k.Path)
	}
	b.batches = append(b.batches, paths)
	b.mu.Unlock()
	if first {
		close(b.entered)
		<-b.release
	}
	return nil
}

// TestReaperRemovesInBatches: over a store that removes many keys in one
// request, what queues while a removal runs goes in one request after
// it, every key once, and close sends what is left. Every request has a
// deadline, so a store that stops answering cannot hold the reaper.
func TestReaperRemovesInBatches(t *testing.T) {
	b := &batchBlobs{entered: make(chan struct{}), release: make(chan struct{})}
	r := newReaper(b, slog.New(slog.DiscardHandler))
	r.remove(b, driver.BlobKey{Path: "first"})
	<-b.entered // the first batch is being removed
	const queued = 300
	for i := range queued {
		r.remove(b, driver.BlobKey{Path: "queued-" + strconv.Itoa(i)})
	}
	close(b.release)
	r.close()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.batches) != 2 || len(b.batches[0]) != 1 || len(b.batches[1]) != queued {
		sizes := []int{}
		for _, batch := range b.batches {
			sizes = append(sizes, len(batch))
		}
		t.Fatalf("batches of %v keys, want [1 %d]", sizes, queued)
	}
	if b.noDeadline != 0 {
		t.Fatalf("%d batch removals were asked for with no deadline", b.noDeadline)
	}
	for i, p := range b.batches[1] {
		if p != "queued-"+strconv.Itoa(i) {
			t.Fatalf("key %d of the second batch is %q, want queued-%d: every key once, in order", i, p, i)
		}
	}
}
