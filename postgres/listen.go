package postgres

import (
	"context"
	"strconv"
	"sync"
	"time"

	"convfiles/files/driver"

	"github.com/jackc/pgx/v5"
)

var _ driver.ChangeNotifier = (*Index)(nil)

// listener holds one connection that LISTENs for the notices of every
// commit that adds events, in any replica, and hands them to the
// subscribers. It runs only while someone subscribes.
type listener struct {
	ix     *Index
	mu     sync.Mutex
	subs   map[int]func(int64)
	nextID int
	cancel context.CancelFunc
	done   chan struct{}
}

func (l *listener) init(ix *Index) { l.ix = ix }

// NotifyChanges calls fn with the number of every event committed from
// now on, by any process, or with 0 when notices may have been missed
// (the listening connection was lost and is back). fn must not block.
func (ix *Index) NotifyChanges(fn func(seq int64)) (stop func()) {
	l := &ix.listen
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs == nil {
		l.subs = map[int]func(int64){}
	}
	id := l.nextID
	l.nextID++
	l.subs[id] = fn
	if l.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		l.cancel, l.done = cancel, make(chan struct{})
		go l.run(ctx, l.done)
	}
	return func() {
		l.mu.Lock()
		delete(l.subs, id)
		var wait chan struct{}
		if len(l.subs) == 0 && l.cancel != nil {
			l.cancel()
			wait, l.cancel = l.done, nil
		}
		l.mu.Unlock()
		if wait != nil {
			<-wait
		}
	}
}

func (l *listener) close() {
	l.mu.Lock()
	cancel, done := l.cancel, l.done
	l.cancel = nil
	l.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// run listens until ctx ends, reconnecting after a lost connection.
func (l *listener) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	for attempt := 0; ctx.Err() == nil; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(min(time.Duration(attempt)*200*time.Millisecond, 5*time.Second)):
			}
		}
		if l.listenOnce(ctx) {
			attempt = 0
		}
	}
}

// listenOnce listens on one connection until it fails or ctx ends, and
// reports whether it got as far as listening.
func (l *listener) listenOnce(ctx context.Context) bool {
	// The pool's connection settings, without its pool_* parameters.
	conn, err := pgx.ConnectConfig(ctx, l.ix.pool.Config().ConnConfig.Copy())
	if err != nil {
		return false
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+eventsChannel); err != nil {
		return false
	}
	l.deliver(0) // what committed before this LISTEN was not heard
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true
		}
		seq, _ := strconv.ParseInt(n.Payload, 10, 64)
		l.deliver(seq)
	}
}

func (l *listener) deliver(seq int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, fn := range l.subs {
		fn(seq)
	}
}
