package sandbox

import (
	"context"
	"errors"
	"sync"

	"convfiles/auth"
)

// ErrBusy is a job refused because its share's queue is full: the caller
// is told to retry (429 with Retry-After), never left waiting behind
// another tenant's work.
var ErrBusy = errors.New("sandbox: this credential's runs fill its share of the workers and its queue; retry shortly")

// fairSlots shares the pool's worker slots among shares (an API key and
// its tokens, an identity provider's user, the local user). Each share
// runs at most perShare jobs at once and queues at most queueMax more;
// a freed slot goes to the waiting share that runs fewest jobs (the one
// that waited longest among equals), so one share flooding the pool
// delays another's job by at most the jobs already running, never by its
// queue. The local user (a server without credentials) is one user: its
// share is the whole pool, and its queue unbounded, as before.
type fairSlots struct {
	mu       sync.Mutex
	size     int // the slots in all
	free     int
	perShare int
	queueMax int
	running  map[string]int
	queues   map[string][]*slotWaiter
	turn     []string // shares with waiting jobs, in the order they are served
}

// slotWaiter is a queued job; ready is closed when it is granted a slot.
type slotWaiter struct {
	ready   chan struct{}
	granted bool
}

func newFairSlots(slots, perShare, queueMax int) *fairSlots {
	return &fairSlots{size: slots, free: slots, perShare: max(perShare, 1), queueMax: max(queueMax, 0),
		running: map[string]int{}, queues: map[string][]*slotWaiter{}}
}

// shareOf is whose share a job counts against: the API key behind the
// credential (its tokens with it, so minting tokens buys no more
// workers), else the credential, else the local user.
func shareOf(ctx context.Context) string {
	p := auth.FromContext(ctx)
	switch {
	case p == nil || p == auth.Local:
		return "local"
	case p.Key != "":
		return "key:" + p.Key
	}
	return p.ID
}

// acquire takes a slot for share, queueing while the pool is full or the
// share at its cap; a full queue is ErrBusy at once.
func (f *fairSlots) acquire(ctx context.Context, share string) error {
	f.mu.Lock()
	if f.free > 0 && f.running[share] < f.capOf(share) && len(f.queues[share]) == 0 {
		f.free--
		f.running[share]++
		f.mu.Unlock()
		return nil
	}
	if share != "local" && len(f.queues[share]) >= f.queueMax {
		f.mu.Unlock()
		return ErrBusy
	}
	w := &slotWaiter{ready: make(chan struct{})}
	if len(f.queues[share]) == 0 {
		f.turn = append(f.turn, share)
	}
	f.queues[share] = append(f.queues[share], w)
	f.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		f.mu.Lock()
		defer f.mu.Unlock()
		if w.granted { // granted as the wait ended: give it back
			f.running[share]--
			f.free++
			f.dispatch()
		} else {
			f.dequeue(share, w)
		}
		return ctx.Err()
	}
}

// release gives share's slot back and hands it on.
func (f *fairSlots) release(share string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.running[share]--
	if f.running[share] <= 0 {
		delete(f.running, share)
	}
	f.free++
	f.dispatch()
}

// capOf is how many jobs share may run at once.
func (f *fairSlots) capOf(share string) int {
	if share == "local" {
		return f.size
	}
	return f.perShare
}

// dispatch grants free slots to waiting jobs: each to the waiting share
// under its cap that runs fewest. Called with mu held.
func (f *fairSlots) dispatch() {
	for f.free > 0 {
		best := -1
		for i, share := range f.turn {
			if f.running[share] >= f.capOf(share) {
				continue
			}
			if best < 0 || f.running[share] < f.running[f.turn[best]] {
				best = i
			}
		}
		if best < 0 {
			return
		}
		share := f.turn[best]
		q := f.queues[share]
		w := q[0]
		f.queues[share] = q[1:]
		// The share goes to the back of the turn, if it still waits.
		f.turn = append(f.turn[:best:best], f.turn[best+1:]...)
		if len(f.queues[share]) > 0 {
			f.turn = append(f.turn, share)
		} else {
			delete(f.queues, share)
		}
		f.free--
		f.running[share]++
		w.granted = true
		close(w.ready)
	}
}

// dequeue removes a job that stopped waiting. Called with mu held.
func (f *fairSlots) dequeue(share string, w *slotWaiter) {
	q := f.queues[share]
	for i, x := range q {
		if x == w {
			f.queues[share] = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(f.queues[share]) == 0 {
		delete(f.queues, share)
		for i, s := range f.turn {
			if s == share {
				f.turn = append(f.turn[:i:i], f.turn[i+1:]...)
				break
			}
		}
	}
}

// waiting is how many jobs of share wait (for tests and health).
func (f *fairSlots) waiting(share string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queues[share])
}
