package sandbox

import (
	"os"
	"sync"
	"time"
)

// cpuMeasured says this system lets the server read a worker's CPU time.
var cpuMeasured = func() bool {
	_, ok := processCPU(os.Getpid())
	return ok
}()

// cpuWatch kills a worker once the job it runs has used more than its
// CPU time: a format operation is bounded by the work it does, so a busy
// machine, which slows every job alike, never makes a valid file look
// hostile. Its wall-clock time is bounded apart (the request's deadline,
// FormatWall) and reported as the server being busy.
type cpuWatch struct {
	mu      sync.Mutex
	stopped bool
	fired   bool
	done    chan struct{}
}

// watchCPU starts watching w's CPU time from now; budget 0 watches
// nothing. Where the CPU time of a process cannot be read, nothing is
// watched either, and the caller's wall-clock bound is the only one.
func watchCPU(w *proc, budget time.Duration, kill func()) *cpuWatch {
	c := &cpuWatch{done: make(chan struct{})}
	if budget <= 0 || w.cmd.Process == nil {
		return c
	}
	pid := w.cmd.Process.Pid
	start, ok := processCPU(pid)
	if !ok {
		return c
	}
	go pollCPU(budget, 100*time.Millisecond, c.done, func() bool {
		used, ok := processCPU(pid)
		if !ok {
			return true // the process is gone: its end is reported elsewhere
		}
		if used-start > budget && c.fire() {
			kill()
			return true
		}
		return false
	})
	return c
}

// fire decides to kill, unless the job ended first.
func (c *cpuWatch) fire() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fired = !c.stopped
	return c.fired
}

// stop ends the watch and reports whether it had not fired: a worker
// whose watch fired is killed and must not be reused.
func (c *cpuWatch) stop() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopped {
		c.stopped = true
		close(c.done)
	}
	return !c.fired
}
