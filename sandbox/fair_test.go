package sandbox

import (
	"context"
	"errors"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/runtime"
)

// TestFairSlotsShareByCredential: a share at its cap never holds up
// another's job; a full queue refuses at once; a freed slot goes to the
// waiting share that runs fewest, whatever arrived first; a job that
// stops waiting leaves the queue; the local user is one user with the
// whole pool.
func TestFairSlotsShareByCredential(t *testing.T) {
	ctx := context.Background()
	f := newFairSlots(4, 2, 2)
	for range 2 {
		if err := f.acquire(ctx, "key:a"); err != nil {
			t.Fatal(err)
		}
	}
	// A at its cap: its next two wait, the one after is refused.
	granted := make(chan string, 8)
	wait := func(share string) {
		go func() {
			if err := f.acquire(ctx, share); err == nil {
				granted <- share
			}
		}()
	}
	wait("key:a")
	wait("key:a")
	waitQueued(t, f, "key:a", 2)
	if err := f.acquire(ctx, "key:a"); !errors.Is(err, ErrBusy) {
		t.Fatalf("A's third waiting job: %v, want ErrBusy", err)
	}
	// B starts at once on the free slots, though A queued first.
	for range 2 {
		if err := f.acquire(ctx, "key:b"); err != nil {
			t.Fatal(err)
		}
	}
	wait("key:b")
	waitQueued(t, f, "key:b", 1)
	// One of A's jobs ends: A (1 running, under its cap) and B (2, at its
	// cap) wait; A gets it.
	f.release("key:a")
	if got := <-granted; got != "key:a" {
		t.Fatalf("the slot A freed went to %s", got)
	}
	// One of B's ends: both run 2 and B is under its cap again: B gets it.
	f.release("key:b")
	if got := <-granted; got != "key:b" {
		t.Fatalf("the slot B freed went to %s", got)
	}
	// A waiter that gives up leaves the queue.
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- f.acquire(cctx, "key:c") }()
	waitQueued(t, f, "key:c", 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) || f.waiting("key:c") != 0 {
		t.Fatalf("a cancelled wait: %v, %d left waiting", err, f.waiting("key:c"))
	}

	local := newFairSlots(3, 1, 0)
	for range 3 {
		if err := local.acquire(ctx, "local"); err != nil {
			t.Fatalf("the local user takes the whole pool: %v", err)
		}
	}
}

// waitQueued waits until share has n jobs waiting.
func waitQueued(t *testing.T, f *fairSlots, share string, n int) {
	t.Helper()
	for f.waiting(share) != n {
		select {
		case <-t.Context().Done():
			t.Fatalf("%s never had %d waiting", share, n)
		default:
		}
		goruntime.Gosched()
	}
}

// TestOneTenantCannotHoldEveryWorker: while tenant A fills its share of
// the pool with endless loops and its queue behind them, A's next run is
// refused at once with BusyError, and tenant B's small run is answered
// while A's loops still run. No clock is read: the order is the proof.
func TestOneTenantCannotHoldEveryWorker(t *testing.T) {
	p := newPool(t, Config{Workers: 2, Warm: 1, PerCredential: 1, QueuePerCredential: 1})
	as := func(key string) (context.Context, context.CancelFunc) {
		return context.WithCancel(auth.NewContext(context.Background(), &auth.Principal{ID: "key:" + key, Key: key, Scopes: auth.Execute}))
	}
	endless := runtime.Request{Source: `for (;;) {}`, Timeout: 2 * time.Minute} // under the workers' CPU lifetime
	aCtx, stopA := as("a")
	defer stopA()
	aDone := make(chan error, 2)
	go func() { _, err := p.Run(aCtx, endless); aDone <- err }() // runs
	for p.fair.waiting("key:a") == 0 && runningOf(p.fair, "key:a") == 0 {
		goruntime.Gosched()
	}
	go func() { _, err := p.Run(aCtx, endless); aDone <- err }() // waits
	waitQueued(t, p.fair, "key:a", 1)

	rep, err := p.Run(aCtx, runtime.Request{Source: `1 + 1`})
	if err == nil || rep.Error == nil || rep.Error.Type != runtime.TypeBusy {
		t.Fatalf("A's run past its share and queue: %v %+v, want BusyError", err, rep)
	}

	// A format operation (a preview, a thumbnail, a tool) past the share
	// is "unavailable, retry" (503 with Retry-After at the doors).
	if _, err := p.Call(aCtx, formats.Env{}, formats.NameOf(formats.PreviewOf), formats.PreviewArgs{File: "x.png"}); files.KindOf(err) != files.KindUnavailable {
		t.Fatalf("A's format call past its share: %v", err)
	}
	// A lint holds a worker too: A's counts against A's share.
	if d := p.Lint(aCtx, "x.js", "1", ""); len(d) != 1 || !strings.Contains(d[0].Message, "share of the workers") {
		t.Fatalf("A's lint past its share: %+v", d)
	}

	bCtx, stopB := as("b")
	defer stopB()
	if d := p.Lint(bCtx, "x.js", "const x = 1;\nconsole.log(x);", ""); len(d) != 0 {
		t.Fatalf("B's lint while A floods: %+v", d)
	}
	rep, err = p.Run(bCtx, runtime.Request{Source: `1 + 1`})
	if err != nil || string(rep.Result) != "2" {
		t.Fatalf("B's small run while A floods: %v %+v", err, rep)
	}
	select {
	case err := <-aDone:
		t.Fatalf("one of A's endless loops ended before B's run was answered: %v", err)
	default:
	}
	stopA()
	for range 2 {
		<-aDone
	}
}

// runningOf is how many jobs share runs.
func runningOf(f *fairSlots, share string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running[share]
}
