package sandbox

import (
	"context"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/runtime"
)

// BenchmarkSmallRunBesideAFlood times tenant B's `1 + 1` in a worker,
// on an idle pool and while tenant A keeps its whole share busy with
// endless loops and its queue full behind them (issue 34's flood: 10
// endless loops of one key). One pool, both in the same run:
//
//	go test -run '^$' -bench 'SmallRunBesideAFlood' -benchtime 200x ./sandbox
func BenchmarkSmallRunBesideAFlood(b *testing.B) {
	p := newPool(b, Config{Workers: 8, Warm: 4})
	as := func(key string) context.Context {
		return auth.NewContext(context.Background(), &auth.Principal{ID: "key:" + key, Key: key, Scopes: auth.Execute})
	}
	small := runtime.Request{Source: `1 + 1`}
	run := func(b *testing.B) {
		for b.Loop() {
			if rep, err := p.Run(as("b"), small); err != nil || string(rep.Result) != "2" {
				b.Fatalf("%v %+v", err, rep)
			}
		}
	}
	b.Run("idle", run)
	flood, stop := context.WithCancel(as("a"))
	defer stop()
	endless := runtime.Request{Source: `for (;;) {}`, Timeout: 2 * time.Minute}
	for range 10 {
		go p.Run(flood, endless)
	}
	for runningOf(p.fair, "key:a") < p.cfg.PerCredential {
		time.Sleep(10 * time.Millisecond)
	}
	b.Run("beside-a-flood", run)
}
