package runtime

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// memoryGuard samples the heap while scripts run and stops them when it
// passes the limit. goja cannot account memory per VM, so the guard cannot
// tell which script grew the heap: it stops every script running at that
// moment, which keeps the server alive at the price of a retry for scripts
// that happened to share the moment. It samples only while scripts run.
type memoryGuard struct {
	limit uint64

	mu       sync.Mutex
	watchers map[int]func()
	next     int
	running  bool
}

const memorySampleEvery = 5 * time.Millisecond

func newMemoryGuard(limit uint64) *memoryGuard {
	return &memoryGuard{limit: limit, watchers: map[int]func(){}}
}

// watch registers onLimit to be called (at most once) when the heap passes
// the limit, until the returned function is called.
func (g *memoryGuard) watch(onLimit func()) (unwatch func()) {
	var once sync.Once
	fire := func() { once.Do(onLimit) }
	g.mu.Lock()
	id := g.next
	g.next++
	g.watchers[id] = fire
	if !g.running {
		g.running = true
		go g.loop()
	}
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		delete(g.watchers, id)
		g.mu.Unlock()
	}
}

func (g *memoryGuard) loop() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	t := time.NewTicker(memorySampleEvery)
	defer t.Stop()
	for range t.C {
		g.mu.Lock()
		if len(g.watchers) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		if !g.over(sample) {
			continue
		}
		// The heap counts garbage too: collect it, and stop scripts only if
		// what is still alive is over the limit. A runaway that was already
		// stopped leaves garbage that must not stop the next, innocent run.
		runtime.GC()
		if !g.over(sample) {
			continue
		}
		g.mu.Lock()
		fire := make([]func(), 0, len(g.watchers))
		for _, f := range g.watchers {
			fire = append(fire, f)
		}
		g.mu.Unlock()
		for _, f := range fire {
			f()
		}
	}
}

func (g *memoryGuard) over(sample []metrics.Sample) bool {
	metrics.Read(sample)
	return sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > g.limit
}
