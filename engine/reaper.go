package engine

import (
	"context"
	"log/slog"
	"sync"
	"time"

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
	ctx, cancel := reapContext()
	defer cancel()
	blobs.Delete(ctx, key)
}

// reapBatch is the most keys one batch removal sends (S3's limit for a
// multi-object delete), reapLinger how long the reaper waits for more
// after the first before sending a batch, and reapTimeout how long one
// removal may take: a store that stops answering leaves its garbage to
// the next start-up instead of holding the reaper, and a Store's Close
// that drains it, forever.
const (
	reapBatch   = 1000
	reapLinger  = 100 * time.Millisecond
	reapTimeout = time.Minute
)

// reapContext is the context of one removal: its deadline, nothing else.
func reapContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), reapTimeout)
}

func (r *reaper) run() {
	defer close(r.done)
	bd, batches := r.blobs.(driver.BatchDeleter)
	for key := range r.queue {
		if batches {
			r.removeBatch(bd, r.gather(key))
		} else {
			r.removeOne(key)
		}
	}
}

// removeOne removes one key's bytes, within reapTimeout.
func (r *reaper) removeOne(key driver.BlobKey) {
	ctx, cancel := reapContext()
	defer cancel()
	if err := r.blobs.Delete(ctx, key); err != nil {
		r.log.Error("remove a pruned version; the next start-up removes it",
			"conversation", key.Conversation, "path", key.Path, "err", err)
	}
}

// removeBatch removes the bytes of every key of batch in one request,
// within reapTimeout.
func (r *reaper) removeBatch(bd driver.BatchDeleter, batch []driver.BlobKey) {
	ctx, cancel := reapContext()
	defer cancel()
	if err := bd.DeleteBatch(ctx, batch); err != nil {
		r.log.Error("remove pruned versions; the next start-up removes what is left",
			"count", len(batch), "err", err)
	}
}

// gather is first, everything the queue holds, and what else it receives
// within reapLinger, up to reapBatch keys: one request removes them all.
// A closed queue ends the wait.
func (r *reaper) gather(first driver.BlobKey) []driver.BlobKey {
	batch := []driver.BlobKey{first}
	linger := time.NewTimer(reapLinger)
	defer linger.Stop()
	for len(batch) < reapBatch {
		var key driver.BlobKey
		var ok bool
		select { // what is queued already goes in, however long the wait has been
		case key, ok = <-r.queue:
		default:
			select {
			case key, ok = <-r.queue:
			case <-linger.C:
				return batch
			}
		}
		if !ok {
			return batch
		}
		batch = append(batch, key)
	}
	return batch
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
