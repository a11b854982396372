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
