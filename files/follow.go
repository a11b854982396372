package files

import (
	"context"
	"time"
)

// FollowPoll is how often a Follower looks for changes another process
// (the CLI next to a server) recorded in the index: those do not reach
// this process's Bus.
const FollowPoll = time.Second

// followBatch bounds the events one Next returns.
const followBatch = 500

// Follower reads the index's event history in order, from a given point,
// and waits for more: in-process changes wake it at once through the Bus,
// changes by other processes are seen within FollowPoll. Every door that
// streams changes (the SSE stream, MCP notifications) reads them through a
// Follower, so none misses an event another door's change produced.
type Follower struct {
	ix   Index
	conv string
	last int64
	sub  *Subscription
	poll *time.Ticker
}

// Follow returns a Follower of one conversation's events, or of every
// conversation's when conv is "", starting after sequence number after.
// It needs an index; Close it when done.
func (s *Store) Follow(conv string, after int64) (*Follower, error) {
	if s.opts.Index == nil {
		return nil, E("follow", KindNotFound, "", "this store keeps no event history", nil)
	}
	f := &Follower{ix: s.opts.Index, conv: conv, last: after, poll: time.NewTicker(FollowPoll)}
	if s.opts.Bus != nil {
		f.sub = s.opts.Bus.Subscribe(256)
	}
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
	for {
		evs, err := f.ix.Events(f.conv, f.last, followBatch)
		if err != nil {
			return nil, err
		}
		if len(evs) > 0 {
			f.last = evs[len(evs)-1].Seq
			return evs, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-idleC:
			return nil, nil
		case <-f.poll.C:
		case <-wake:
		drain:
			for { // one query answers a burst of wake-ups
				select {
				case <-wake:
				default:
					break drain
				}
			}
		}
	}
}

// Close releases the Follower's subscription.
func (f *Follower) Close() {
	f.poll.Stop()
	if f.sub != nil {
		f.sub.Close()
	}
}
