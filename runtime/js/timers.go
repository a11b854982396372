package js

import (
	"container/heap"
	"fmt"
	"time"

	"github.com/dop251/goja"
)

// MaxTimers bounds the timers one run may have pending at once.
const MaxTimers = 10000

// timerLoop is a run's event loop: setTimeout, setInterval and
// setImmediate, with their clear functions, as in browsers and Node.
// Once the script's own code has run, the loop runs each callback when
// it is due, oldest first, until none is pending (the run then ends) or
// the run is stopped. Promise jobs run after each callback, as goja
// drains them when a call returns. A callback that throws ends the run
// with its error, as an uncaught exception ends a Node process.
//
// The loop is convfiles' own rather than goja_nodejs's eventloop, which
// owns its VM, drops what callbacks throw, starts a goroutine per
// interval and bounds nothing; this one waits on the run's context, so a
// stopped run never waits for a timer.
type timerLoop struct {
	s       *session
	pending timerHeap
	byID    map[int64]*timer
	nextID  int64
	seq     int64
}

type timer struct {
	id       int64
	due      time.Time
	seq      int64 // ties: the order they were set
	every    time.Duration
	fn       goja.Callable
	args     []goja.Value
	cleared  bool
	position int
}

// installTimers binds the timer functions; their loop runs after the
// script (runTimers).
func (s *session) installTimers() {
	l := &timerLoop{s: s, byID: map[int64]*timer{}}
	s.timers = l
	set := func(repeat, immediate bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			return s.vm.ToValue(l.add(call, repeat, immediate))
		}
	}
	clear := func(call goja.FunctionCall) goja.Value {
		if t := l.byID[call.Argument(0).ToInteger()]; t != nil {
			t.cleared = true
			delete(l.byID, t.id)
			heap.Remove(&l.pending, t.position)
		}
		return goja.Undefined()
	}
	s.lazyFunc("setTimeout", set(false, false))
	s.lazyFunc("setInterval", set(true, false))
	s.lazyFunc("setImmediate", set(false, true))
	s.lazyFunc("clearTimeout", clear)
	s.lazyFunc("clearInterval", clear)
	s.lazyFunc("clearImmediate", clear)
}

func (l *timerLoop) add(call goja.FunctionCall, repeat, immediate bool) int64 {
	fn, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		l.s.throw("TypeError", "the callback must be a function; a string of code is not run")
	}
	if len(l.byID) >= MaxTimers {
		l.s.throw("RangeError", fmt.Sprintf("more than %d timers pending: clear the ones you no longer need", MaxTimers))
	}
	var delay time.Duration
	var args []goja.Value
	if !immediate {
		ms := call.Argument(1).ToFloat()
		if ms != ms || ms < 1 { // NaN, negative or under 1: as Node, 1 ms
			ms = 1
		}
		delay = time.Duration(min(ms, float64(24*time.Hour/time.Millisecond)) * float64(time.Millisecond))
		if len(call.Arguments) > 2 {
			args = append(args, call.Arguments[2:]...)
		}
	} else if len(call.Arguments) > 1 {
		args = append(args, call.Arguments[1:]...)
	}
	l.nextID++
	l.seq++
	t := &timer{id: l.nextID, due: time.Now().Add(delay), seq: l.seq, fn: fn, args: args}
	if repeat {
		t.every = delay
	}
	l.byID[t.id] = t
	heap.Push(&l.pending, t)
	return t.id
}

// run runs due callbacks until none is pending or the run is stopped;
// it returns the error that ends the run, if one does.
func (l *timerLoop) run() error {
	for l.pending.Len() > 0 {
		t := l.pending[0]
		if t.cleared {
			heap.Pop(&l.pending)
			continue
		}
		if wait := time.Until(t.due); wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-l.s.Ctx.Done():
				timer.Stop()
				return l.s.stopReason()
			}
		}
		if err := l.s.Ctx.Err(); err != nil {
			return l.s.stopReason()
		}
		heap.Pop(&l.pending)
		if t.every > 0 {
			l.seq++
			t.due, t.seq = time.Now().Add(t.every), l.seq
			heap.Push(&l.pending, t)
		} else {
			delete(l.byID, t.id)
		}
		if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
			return err
		}
	}
	return nil
}

// timerHeap orders timers by due time, then by the order they were set.
type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].position, h[j].position = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.position = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
