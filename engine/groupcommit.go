package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"convfiles/files"
	"convfiles/files/driver"
)

// maxGroup bounds how many changes one group commit carries, so that a
// change waits for at most one commit of that size before its own.
const maxGroup = 64

// committer makes the index transactions of concurrent changes one
// commit (group commit). A change queues itself; when no commit is
// running it leads one, taking every change queued so far into a single
// Index.UpdateBatch, where each runs in turn, serialized as before, and
// one commit makes them all durable. Changes that arrive meanwhile queue
// for the next commit, which the first of them leads. One writer alone
// commits at once, as without grouping; eight at once share commits.
type committer struct {
	ix driver.Index
	// direct runs each change in a transaction of its own, at once, for
	// an index that commits concurrent transactions together by itself
	// and locks each conversation on its own (see ConcurrentCommitter).
	direct  bool
	max     int // the most changes in one commit; 0: maxGroup
	mu      sync.Mutex
	queue   []*change
	leading bool // a commit is running or about to; its leader hands on
}

// newCommitter returns the committer of changes to ix.
func newCommitter(ix driver.Index) *committer {
	cc, ok := ix.(driver.ConcurrentCommitter)
	return &committer{ix: ix, direct: ok && cc.ConcurrentCommits()}
}

// change is one Space.update waiting for, or in, a group commit.
type change struct {
	sp       *Space
	ctx      context.Context
	op, name string
	fn       func(t *txn) error
	t        *txn
	err      error
	wake     chan bool // true: lead the next commit; false: settled
	// solo, when set, is run alone in place of a commit (see exclusive).
	solo func()
	// held is set when the conversation's lock is already held for the
	// change (an index with concurrent commits, see do).
	held bool
}

// exclusive runs fn while no commit of g runs and none starts. Removing a
// conversation needs this: it holds the conversation's lock while it
// changes the index, the opposite order of a commit, which holds the
// index while each change takes its conversation's lock.
func (g *committer) exclusive(fn func()) {
	g.do(&change{solo: fn})
}

// groupSize is how many changes at the head of queue the next commit
// takes: up to most, and a solo change always alone.
func groupSize(queue []*change, most int) int {
	if queue[0].solo != nil {
		return 1
	}
	n := 1
	for n < len(queue) && n < most && queue[n].solo == nil {
		n++
	}
	return n
}

// do runs c in a group commit and returns once it is settled: committed,
// refused (c.err), or applied on disk with an index that failed (logged).
func (g *committer) do(c *change) {
	if g.direct {
		if c.solo != nil {
			c.solo()
			return
		}
		// The conversation's lock before the database connection, never
		// the other way round: a change waiting for the lock holds no
		// connection, so the one holding it always gets one.
		q := c.sp.q
		q.mu.Lock()
		defer q.mu.Unlock()
		c.held = true
		c.settle(g.ix.Update(c.ctx, c.run), nil)
		return
	}
	c.wake = make(chan bool, 1)
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if g.leading {
		g.mu.Unlock()
		if lead := <-c.wake; !lead {
			return
		}
		g.mu.Lock()
	}
	g.leading = true
	// c is at the head of the queue: it started it, or was handed it.
	n := groupSize(g.queue, cmp.Or(g.max, maxGroup))
	group := append([]*change(nil), g.queue[:n]...)
	g.queue = append(g.queue[:0], g.queue[n:]...)
	g.mu.Unlock()

	g.commit(group, c)

	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].wake <- true
	} else {
		g.leading = false
	}
	g.mu.Unlock()
}

// commit runs group as one batch (or the leader's solo function alone)
// and settles each change in order, so
// that their events are published in the order they were numbered; it
// wakes every change but the leader's own.
func (g *committer) commit(group []*change, leader *change) {
	if leader.solo != nil { // alone at the head: see groupSize
		leader.solo()
		return
	}
	fns := make([]func(driver.Tx) error, len(group))
	for i, c := range group {
		fns[i] = c.run
	}
	errs, err := g.ix.UpdateBatch(context.Background(), fns)
	if err != nil {
		// Nothing committed: what the changes did on disk is undone
		// newest first, since a later change may have moved what an
		// earlier one wrote.
		for i := len(group) - 1; i >= 0; i-- {
			group[i].settle(nil, err)
		}
	} else {
		for i, c := range group {
			c.settle(errs[i], nil)
		}
	}
	for _, c := range group {
		if c != leader {
			c.wake <- false
		}
	}
}

// run is c's part of the batch: its change, under its conversation's
// lock, with the conversation's usage as this transaction sees it. A
// panic is c's failure alone: it must not leave the changes queued
// behind it waiting for a leader that is gone.
func (c *change) run(tx driver.Tx) (err error) {
	sp := c.sp
	if !c.held {
		sp.q.mu.Lock()
		defer sp.q.mu.Unlock()
	}
	defer func() {
		if p := recover(); p != nil {
			sp.opts.Logger.Error("panic in a change", "conversation", sp.id, "name", c.name, "panic", p, "stack", string(debug.Stack()))
			err = files.E(c.op, files.KindInternal, c.name, "the change failed inside convfiles", fmt.Errorf("panic: %v", p))
		}
	}()
	if sp.q.gen != sp.gen {
		return errDeleted(c.op, c.name)
	}
	c.t = &txn{sp: sp, ctx: c.ctx, tx: tx}
	u, err := c.t.usageAndLookup(c.name)
	if err != nil {
		return err
	}
	c.t.before, c.t.beforeFiles = u.Bytes, u.Files
	if err := c.ctx.Err(); err != nil {
		return classify(c.op, c.name, err)
	}
	return c.fn(c.t)
}

// settle records how c's change ended. A change whose transaction did
// not commit after it changed the blobs (t.applied) is undone and its
// error returned. When the commit's outcome is unknown (ErrCommitUnknown),
// or the undo fails, the change stands on disk, the error is returned all
// the same, and the next start-up reconciles the index with the blobs.
func (c *change) settle(fnErr, txErr error) {
	err := fnErr
	if err == nil {
		err = txErr
	}
	t := c.t
	if t == nil || (err != nil && !t.applied) {
		c.err = err
		return
	}
	sp := c.sp
	if !c.held {
		sp.q.mu.Lock()
		defer sp.q.mu.Unlock()
	}
	if err != nil {
		c.err = err
		if errors.Is(err, files.ErrCommitUnknown) {
			// The index may have recorded it: what it names stays.
			sp.opts.Logger.Error("index commit unanswered; the change stays on disk and the next start-up reconciles it",
				"conversation", sp.id, "name", c.name, "err", err)
		} else if undoErr := t.rollback(); undoErr == nil {
			return
		} else {
			sp.opts.Logger.Error("index update failed and its change could not be undone; the next start-up reconciles it",
				"conversation", sp.id, "name", c.name, "err", err, "undo", undoErr)
		}
		// The change stands on disk, unrecorded: its versions and events
		// are the next start-up's to settle.
		t.pruned, t.drop, t.events = nil, nil, nil
		sp.q.loaded = false
	} else {
		sp.q.committed, sp.q.loaded = t.after, true
	}
	t.finish()
}
