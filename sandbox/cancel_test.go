package sandbox

import (
	"context"
	"slices"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/runtime"
)

// TestACancelledRunLeavesItsWorker cancels runs the way a client that
// disconnects does, once each has reached its worker: one spinning in
// JavaScript, one waiting for the server to answer a helper call. Each
// ends with the run, not with its worker: the same worker, never killed,
// answers the next run.
func TestACancelledRunLeavesItsWorker(t *testing.T) {
	p := newPool(t, Config{Warm: 1, Workers: 1, Runtime: runtime.Config{Downloader: stalledDownloads{}}})
	store, sp := newSpace(t, "c")
	if rep, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: `1 + 1`}); err != nil {
		t.Fatalf("the first run: %v %+v", err, rep)
	}
	worker := p.pids()
	for i, src := range []string{
		`write_file("started-0.txt", "1"); for (;;) {}`,
		`write_file("started-1.txt", "1"); files.download("http://stalled.example/big.bin")`,
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan *runtime.Report, 1)
		go func() {
			rep, _ := p.Run(ctx, runtime.Request{Space: sp, Source: src, Timeout: 5 * time.Minute})
			done <- rep
		}()
		started := waitForFile(t, store, "c", []string{"started-0.txt", "started-1.txt"}[i])
		cancel()
		rep := <-done
		if !started || rep == nil || rep.Error == nil {
			t.Fatalf("run %d: started %v, report %+v", i, started, rep)
		}
		t.Logf("run %d cancelled: %s %s", i, rep.Error.Type, rep.Error.Message)
		if _, killed := p.Stats(); killed != 0 {
			t.Errorf("run %d: a cancelled run cost its worker (%d killed)", i, killed)
		}
		rep, err := p.Run(context.Background(), runtime.Request{Space: sp, Source: `6 * 7`})
		if err != nil || string(rep.Result) != "42" {
			t.Fatalf("the run after cancel %d: %v %+v", i, err, rep)
		}
		if now := p.pids(); !slices.Equal(now, worker) {
			t.Errorf("after cancel %d the workers are %v, were %v", i, now, worker)
		}
	}
}

// waitForFile waits until conv holds name, for at most a minute: far
// longer than any run needs to write it, so only a run that never did
// reaches the end.
func waitForFile(t *testing.T, store *engine.Store, conv, name string) bool {
	t.Helper()
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if _, err := sp.Stat(context.Background(), name); err == nil {
			return true
		}
	}
	return false
}
