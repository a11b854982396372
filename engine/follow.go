package engine

import (
	"context"
	"sync"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// FollowPoll is how often the Store looks for changes another process
// (the CLI next to a server) recorded in the index, when the index cannot
// tell it (see ChangeNotifier): those do not reach this process's Bus.
const FollowPoll = time.Second

// busGrace is how long the outside watcher waits for this process's Bus
// to carry an event the index already holds before it takes the event for
// another process's: a commit is published just after it is made.
const busGrace = 50 * time.Millisecond

// followBatch bounds the events one Next returns.
const followBatch = 500

// Follower reads the index's event history in order, from a given point,
// and waits for more: an in-process change to its conversation wakes it
// at once through the Bus, and changes by other processes within
// FollowPoll. While every event this process publishes follows the last
// one the Follower accounted for, it passes the published event on as it
// is and never queries; only a gap (another process's commit, an event
// the Bus dropped) or FollowPoll's wake-up sends it to the index. So a
// thousand followers cost nothing while other conversations change, and
// a follower of a busy conversation costs no query per change. Every door
// that streams changes (the SSE stream, MCP notifications) reads them
// through a Follower.
type Follower struct {
	ix   driver.Index
	conv string
	last int64 // the newest event passed on
	// horizon is a sequence number up to which every event is accounted
	// for (passed on, or not this Follower's); -1 until the first query.
	horizon int64
	sub     *files.Subscription
	outside *outsideChanges
	// outsideC is the outside watcher's wake-up channel when last looked
	// at: closed since, another process has committed.
	outsideC <-chan struct{}
	// stale is set when only a query can tell what comes next: before the
	// first, after a gap, or after another process committed.
	stale bool
}

// Follow returns a Follower of one conversation's events, or of every
// conversation's when conv is "", starting after sequence number after.
// It needs an index; Close it when done.
func (s *Store) Follow(conv string, after int64) (*Follower, error) {
	if s.opts.Index == nil {
		return nil, files.E("follow", files.KindNotFound, "", "this store keeps no event history", nil)
	}
	f := &Follower{ix: s.opts.Index, conv: conv, last: after, horizon: -1, stale: true, outside: s.outsideWatch()}
	if s.opts.Bus != nil {
		f.sub = s.opts.Bus.Subscribe(256)
	}
	f.outside.join()
	return f, nil
}

// Next returns the next events, oldest first, waiting until there are some.
// It returns no events and no error when idle passes first (a stream uses
// that to keep its connection alive; idle <= 0 waits without bound), and
// ctx's error when ctx ends.
func (f *Follower) Next(ctx context.Context, idle time.Duration) ([]files.Event, error) {
	var idleC <-chan time.Time
	if idle > 0 {
		t := time.NewTimer(idle)
		defer t.Stop()
		idleC = t.C
	}
	var wake <-chan files.Event
	if f.sub != nil {
		wake = f.sub.C
	}
	select {
	case <-f.outsideC:
		f.stale = true
	default:
	}
	var out []files.Event
	for seen := int64(0); ; {
		if f.stale && len(out) < followBatch {
			if err := f.query(ctx, &out, seen); err != nil {
				return nil, err
			}
			seen = 0
		}
		if len(out) > 0 {
			return out, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-idleC:
			return nil, nil
		case <-f.outsideC:
			f.stale = true
		case ev, open := <-wake:
			if !open { // closed by Close
				wake = nil
				continue
			}
			for more := true; more; { // a burst of events is handled at once
				if f.take(ev, &out) {
					f.stale, seen = true, max(seen, ev.Seq)
				}
				select {
				case ev, more = <-wake:
				default:
					more = false
				}
			}
		}
	}
}

// query reads the events after the last one passed on into out. seen is
// the newest sequence number the Bus delivered, so committed before the
// query began; the first query learns it from the index.
func (f *Follower) query(ctx context.Context, out *[]files.Event, seen int64) error {
	f.outsideC = f.outside.changed() // a commit from now on wakes us again
	if f.horizon < 0 {
		_, top, err := f.ix.EventRange(ctx)
		if err != nil {
			return err
		}
		seen = max(seen, top)
	}
	limit := followBatch - len(*out)
	evs, err := f.ix.Events(ctx, f.conv, f.last, limit)
	if err != nil {
		return err
	}
	if n := len(evs); n > 0 {
		f.last = evs[n-1].Seq
		*out = append(*out, evs...)
	}
	f.horizon = max(f.horizon, f.last)
	if len(evs) < limit { // all there is, so everything up to seen too
		f.horizon = max(f.horizon, seen)
	}
	f.stale = false
	return nil
}

// take accounts for an event the Bus delivered: one right after the
// horizon is passed on (if it is this Follower's) and moves the horizon;
// one at or before it was accounted for already. take reports a gap: an
// event after the horizon that only a query can fill in.
func (f *Follower) take(ev files.Event, out *[]files.Event) (gap bool) {
	switch {
	case ev.Seq <= f.horizon:
		return false
	case f.horizon < 0 || ev.Seq != f.horizon+1 || len(*out) == followBatch:
		return true
	}
	f.horizon = ev.Seq
	if (f.conv == "" || ev.Conversation == f.conv) && ev.Seq > f.last {
		*out = append(*out, ev)
		f.last = ev.Seq
	}
	return false
}

// Close releases the Follower's subscription.
func (f *Follower) Close() {
	f.outside.leave()
	if f.sub != nil {
		f.sub.Close()
	}
}

// outsideChanges wakes the followers of a Store when another process
// recorded events: while anyone follows, it asks the index for its newest
// sequence number once per FollowPoll, and wakes them only when that
// passes the newest one this process's Bus carried. One query a second
// for the whole Store, however many follow.
type outsideChanges struct {
	ix  driver.Index
	bus *files.Bus

	mu        sync.Mutex
	followers int
	wake      chan struct{} // closed and replaced when the index moves on
	stop      chan struct{}
}

func (s *Store) outsideWatch() *outsideChanges {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outside == nil {
		s.outside = &outsideChanges{ix: s.opts.Index, bus: s.opts.Bus, wake: make(chan struct{})}
	}
	return s.outside
}

func (o *outsideChanges) changed() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.wake
}

func (o *outsideChanges) join() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.followers++; o.followers == 1 {
		// The baseline is taken before any follower can query: a commit
		// that the poller's first look would otherwise count as seen,
		// after a follower's first query, would never wake anyone.
		_, seen, _ := o.ix.EventRange(context.Background())
		o.stop = make(chan struct{})
		go o.poll(o.stop, seen)
	}
}

func (o *outsideChanges) leave() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.followers--; o.followers == 0 {
		close(o.stop)
	}
}

func (o *outsideChanges) poll(stop chan struct{}, seen int64) {
	var sub *files.Subscription
	var local <-chan files.Event
	if o.bus != nil {
		sub = o.bus.Subscribe(1024)
		defer sub.Close()
		local = sub.C
	}
	// An index that hears of commits (PostgreSQL's NOTIFY) says when to
	// look; any other is asked once per FollowPoll.
	var tick <-chan time.Time
	notices := make(chan struct{}, 1)
	var mu sync.Mutex
	heard := int64(0) // the newest number a notice named; -1: look anyway
	if n, ok := o.ix.(driver.ChangeNotifier); ok {
		defer n.NotifyChanges(func(seq int64) {
			mu.Lock()
			if seq == 0 || heard < 0 {
				heard = -1
			} else {
				heard = max(heard, seq)
			}
			mu.Unlock()
			select {
			case notices <- struct{}{}:
			default:
			}
		})()
	} else {
		t := time.NewTicker(FollowPoll)
		defer t.Stop()
		tick = t.C
	}
	look := func() {
		_, last, err := o.ix.EventRange(context.Background())
		if err != nil || last <= seen {
			return
		}
		// A commit of this process may be between the index and the Bus:
		// give the Bus a moment to carry it before taking the difference
		// for another process's commits (which would send every follower
		// to the index).
		grace := time.After(busGrace)
		for waiting := true; waiting && seen < last; {
			select {
			case ev := <-local:
				if ev.Seq == seen+1 {
					seen = ev.Seq
				}
			case <-grace:
				waiting = false
			case <-stop:
				return
			}
		}
		if seen >= last {
			return
		}
		seen = last
		o.mu.Lock()
		close(o.wake)
		o.wake = make(chan struct{})
		o.mu.Unlock()
	}
	for {
		select {
		case <-stop:
			return
		case ev := <-local:
			// Only an event right after seen proves that no other
			// process committed in between; past a gap, the next look
			// finds last > seen and wakes the followers.
			if ev.Seq == seen+1 {
				seen = ev.Seq
			}
		case <-tick:
			look()
		case <-notices:
			// A notice of this process's own commit, already seen on
			// the Bus, needs no look.
			mu.Lock()
			h := heard
			heard = 0
			mu.Unlock()
			if h < 0 || h > seen {
				look()
			}
		}
	}
}
