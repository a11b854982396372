package engine

import (
	"context"
	"log/slog"
	"sync"

	"convfiles/files/driver"
)

// reapQueue bounds the removals a reaper holds; past it a writer removes
// its own, so garbage never piles up faster than it goes.
const reapQueue = 1024

// reaper removes the bytes of pruned versions after their commit, off the
// writer's path: freeing a large file's blocks takes as long as writing a
// small one, and a group commit's leader would make every writer behind
// it wait for it. Once the index no longer lists a version its bytes are
// garbage no reader can reach (every version is found through the index),
// and a crash before they go leaves orphans that the next start-up's
// reconciliation removes.
type reaper struct {
	blobs driver.Blobs
	log   *slog.Logger
	done  chan struct{}

	mu     sync.Mutex
	queue  chan driver.BlobKey
	closed bool
}

func newReaper(blobs driver.Blobs, log *slog.Logger) *reaper {
	r := &reaper{blobs: blobs, log: log, queue: make(chan driver.BlobKey, reapQueue), done: make(chan struct{})}
	go r.run()
	return r
}

// remove removes key's bytes soon: in the background, or at once when
// the queue is full or the reaper closed (or there is none, as in a
// standalone Space).
func (r *reaper) remove(blobs driver.Blobs, key driver.BlobKey) {
	if r != nil {
		r.mu.Lock()
		queued := false
		if !r.closed {
			select {
			case r.queue <- key:
				queued = true
			default:
			}
		}
		r.mu.Unlock()
		if queued {
			return
		}
	}
	blobs.Delete(context.Background(), key)
}

func (r *reaper) run() {
	defer close(r.done)
	for key := range r.queue {
		if err := r.blobs.Delete(context.Background(), key); err != nil {
			r.log.Error("remove a pruned version; the next start-up removes it",
				"conversation", key.Conversation, "path", key.Path, "err", err)
		}
	}
}

// close removes what is queued and stops the reaper; later removals
// happen at once.
func (r *reaper) close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.queue)
	r.mu.Unlock()
	<-r.done
}
