package files

import (
	"context"
	"sync"
	"time"
)

// FollowPoll is how often the Store looks for changes another process
// (the CLI next to a server) recorded in the index: those do not reach
// this process's Bus.
const FollowPoll = time.Second

// followBatch bounds the events one Next returns.
const followBatch = 500

// Follower reads the index's event history in order, from a given point,
// and waits for more: an in-process change to its conversation wakes it
// at once through the Bus, and changes by other processes within
// FollowPoll. It queries the index only when woken for its own
// conversation, so a thousand followers cost nothing while other
// conversations change. Every door that streams changes (the SSE stream,
// MCP notifications) reads them through a Follower.
type Follower struct {
	ix      Index
	conv    string
	last    int64
	sub     *Subscription
	outside *outsideChanges
}

// Follow returns a Follower of one conversation's events, or of every
// conversation's when conv is "", starting after sequence number after.
// It needs an index; Close it when done.
func (s *Store) Follow(conv string, after int64) (*Follower, error) {
	if s.opts.Index == nil {
		return nil, E("follow", KindNotFound, "", "this store keeps no event history", nil)
	}
	f := &Follower{ix: s.opts.Index, conv: conv, last: after, outside: s.outsideWatch()}
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
func (f *Follower) Next(ctx context.Context, idle time.Duration) ([]Event, error) {
	var idleC <-chan time.Time
	if idle > 0 {
		t := time.NewTimer(idle)
		defer t.Stop()
		idleC = t.C
	}
	var wake <-chan Event
	if f.sub != nil {
		wake = f.sub.C
	}
	for query := true; ; {
		if query {
			evs, err := f.ix.Events(ctx, f.conv, f.last, followBatch)
			if err != nil {
				return nil, err
			}
			if len(evs) > 0 {
				f.last = evs[len(evs)-1].Seq
				return evs, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-idleC:
			return nil, nil
		case <-f.outside.changed():
			query = true
		case ev := <-wake:
			query = f.mine(ev)
		drain:
			for { // one query answers a burst of wake-ups
				select {
				case ev := <-wake:
					query = query || f.mine(ev)
				default:
					break drain
				}
			}
		}
	}
}

func (f *Follower) mine(ev Event) bool {
	return f.conv == "" || ev.Conversation == f.conv || f.sub.Dropped() > 0
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
	ix  Index
	bus *Bus

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
		o.stop = make(chan struct{})
		go o.poll(o.stop)
	}
}

func (o *outsideChanges) leave() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.followers--; o.followers == 0 {
		close(o.stop)
	}
}

func (o *outsideChanges) poll(stop chan struct{}) {
	var sub *Subscription
	var local <-chan Event
	if o.bus != nil {
		sub = o.bus.Subscribe(1024)
		defer sub.Close()
		local = sub.C
	}
	_, seen, _ := o.ix.EventRange(context.Background())
	t := time.NewTicker(FollowPoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case ev := <-local:
			// Only an event right after seen proves that no other
			// process committed in between; past a gap, the next tick
			// finds last > seen and wakes the followers.
			if ev.Seq == seen+1 {
				seen = ev.Seq
			}
		case <-t.C:
			_, last, err := o.ix.EventRange(context.Background())
			if err != nil || last <= seen {
				continue
			}
			seen = last
			o.mu.Lock()
			close(o.wake)
			o.wake = make(chan struct{})
			o.mu.Unlock()
		}
	}
}
