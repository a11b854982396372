package runtime

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// memoryGuard samples the heap while scripts run and stops them when it
// passes the limit. goja cannot account memory per VM, so the guard cannot
// tell which script grew the heap: it stops every armed script running at
// that moment, which keeps the server alive at the price of a retry for a
// script that happened to share the moment.
//
// A run is armed when the heap is under the limit at its start, or falls
// under it later. A run that starts while the heap is over the limit (the
// garbage a stopped runaway left) is not blamed for it; the guard collects
// that garbage instead. Armed runs are stopped at the first sample over the
// limit, without waiting for a collection, which a huge allocation in
// progress could hold up for seconds.
type memoryGuard struct {
	limit uint64

	mu       sync.Mutex
	watchers map[int]*watcher
	next     int
	running  bool
}

type watcher struct {
	armed bool
	fire  func()
}

const memorySampleEvery = 5 * time.Millisecond

func newMemoryGuard(limit uint64) *memoryGuard {
	return &memoryGuard{limit: limit, watchers: map[int]*watcher{}}
}

// watch registers onLimit to be called (at most once) when the heap passes
// the limit, until the returned function is called.
func (g *memoryGuard) watch(onLimit func()) (unwatch func()) {
	var once sync.Once
	w := &watcher{armed: !g.over(), fire: func() { once.Do(onLimit) }}
	g.mu.Lock()
	id := g.next
	g.next++
	g.watchers[id] = w
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
	t := time.NewTicker(memorySampleEvery)
	defer t.Stop()
	for range t.C {
		over := g.over()
		var fire []func()
		g.mu.Lock()
		if len(g.watchers) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		for _, w := range g.watchers {
			switch {
			case !over:
				w.armed = true
			case w.armed:
				fire = append(fire, w.fire)
			}
		}
		g.mu.Unlock()
		for _, f := range fire {
			f()
		}
		if over && len(fire) == 0 {
			runtime.GC() // garbage of a stopped runaway: collect it
		}
	}
}

// over reports whether the heap holds more than the limit.
func (g *memoryGuard) over() bool {
	sample := [1]metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample[:])
	return sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > g.limit
}
