package sandbox

import (
	"context"
	"os"
	"sync"
)

// inbound is one message the server sent a worker, with its descriptors,
// or the error that ended the socket.
type inbound struct {
	m   *message
	fds []*os.File
	err error
	// ctx is a job's context, which a cancel from the server ends.
	ctx context.Context
}

// mailbox reads everything the server sends a worker, so that a cancel
// reaches the job while it runs: the job's context ends, the run stops,
// and the worker answers and takes the next job instead of being killed.
// The job loop and a call waiting for its reply take the other messages
// in the order they came.
//
// A job's context is made when its message is read, so a cancel sent
// right behind the job finds it; a cancel read after the job ended finds
// none and is dropped, and can never reach the next job, which the
// server sends only after it.
type mailbox struct {
	c  *conn
	in chan inbound

	mu     sync.Mutex
	cancel context.CancelFunc // the job being run's; nil between jobs
}

func newMailbox(c *conn) *mailbox {
	b := &mailbox{c: c, in: make(chan inbound, 1)}
	go b.read()
	return b
}

func (b *mailbox) read() {
	for {
		m, fds, err := b.c.recv()
		if err != nil {
			b.in <- inbound{err: err}
			return
		}
		in := inbound{m: m, fds: fds}
		switch m.Kind {
		case kindCancel:
			closeAll(fds)
			b.mu.Lock()
			if b.cancel != nil {
				b.cancel()
			}
			b.mu.Unlock()
			continue
		case kindJob:
			var cancel context.CancelFunc
			in.ctx, cancel = context.WithCancel(context.Background())
			b.mu.Lock()
			b.cancel = cancel
			b.mu.Unlock()
		}
		b.in <- in
	}
}

// recv returns the next message that is not a cancel.
func (b *mailbox) recv() (*message, []*os.File, error) {
	in := <-b.in
	return in.m, in.fds, in.err
}

// next returns the next job's message and its context, or the error
// that ended the socket.
func (b *mailbox) next() (inbound, error) {
	in := <-b.in
	return in, in.err
}

// done ends the job being run: a cancel read from now on is dropped.
func (b *mailbox) done() {
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
		b.cancel = nil
	}
	b.mu.Unlock()
}
