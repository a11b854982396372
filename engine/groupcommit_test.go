package engine

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// batchIndex is an Index whose UpdateBatch runs each fn as the SQLite
// index does (a failed one does not stop the others) and records how many
// changes each commit carried; the first commit waits for release.
type batchIndex struct {
	driver.Index
	release chan struct{}
	mu      sync.Mutex
	sizes   []int
}

type usageTx struct{ driver.Tx }

func (usageTx) Usage(string) (files.Usage, error) { return files.Usage{}, nil }

func (b *batchIndex) UpdateBatch(_ context.Context, fns []func(driver.Tx) error) ([]error, error) {
	b.mu.Lock()
	first := len(b.sizes) == 0
	b.sizes = append(b.sizes, len(fns))
	b.mu.Unlock()
	if first {
		<-b.release
	}
	errs := make([]error, len(fns))
	for i, fn := range fns {
		errs[i] = fn(usageTx{})
	}
	return errs, nil
}

// TestGroupCommitSharesCommitsAndSurvivesAPanic queues five changes while
// a first one commits: they share the next commit; the one that panics
// fails alone, with an internal error, and nobody is left waiting.
func TestGroupCommitSharesCommitsAndSurvivesAPanic(t *testing.T) {
	ix := &batchIndex{release: make(chan struct{})}
	g := &committer{ix: ix}
	sp := &Space{id: "c", q: &quota{}, opts: Options{Index: ix, Logger: slog.New(slog.DiscardHandler)}.withDefaults(), commits: g}
	ok := func(*txn) error { return nil }
	errs := make(chan error, 6)
	go func() { _, err := sp.update(context.Background(), "write", "first", ok); errs <- err }()
	waitFor(t, func() bool { ix.mu.Lock(); defer ix.mu.Unlock(); return len(ix.sizes) == 1 })
	results := make([]error, 5)
	var wg sync.WaitGroup
	for i := range 5 {
		fn := ok
		if i == 2 {
			fn = func(*txn) error { panic("boom") }
		}
		wg.Add(1)
		go func() { defer wg.Done(); _, results[i] = sp.update(context.Background(), "write", "n", fn) }()
	}
	waitFor(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.queue) == 5 })
	close(ix.release)
	wg.Wait()
	if err := <-errs; err != nil {
		t.Fatalf("the first change: %v", err)
	}
	for i, err := range results {
		if (i == 2) != (err != nil) {
			t.Fatalf("change %d: %v; only the one that panicked may fail", i, err)
		}
	}
	if files.KindOf(results[2]) != files.KindInternal {
		t.Fatalf("the panic came back as %v, want an internal error", results[2])
	}
	if len(ix.sizes) != 2 || ix.sizes[1] != 5 {
		t.Fatalf("commits carried %v changes; the five queued behind the first must share one", ix.sizes)
	}
}

// waitFor polls cond for up to a few seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 5000 {
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("condition not reached")
}
