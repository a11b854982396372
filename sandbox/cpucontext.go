package sandbox

import (
	"context"
	"sync"
	"syscall"
	"time"
)

// cpuContext is done when its parent is, or once this process has used
// its budget of CPU time since it began; then its Err is
// context.DeadlineExceeded, as a deadline's would be, so the code that
// looks at it stops as it does at a deadline. A worker runs one job at a
// time, so the process's CPU time is the job's.
type cpuContext struct {
	context.Context
	done chan struct{}
	once sync.Once
	mu   sync.Mutex
	err  error
}

// withCPUBudget returns a context that ends when this process has used
// budget of CPU time from now, or when ctx ends.
func withCPUBudget(ctx context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	c := &cpuContext{Context: ctx, done: make(chan struct{})}
	stop := context.AfterFunc(ctx, func() { c.end(ctx.Err()) })
	start := selfCPU()
	go pollCPU(budget, 50*time.Millisecond, c.done, func() bool {
		if selfCPU()-start <= budget {
			return false
		}
		c.end(context.DeadlineExceeded)
		return true
	})
	return c, func() { stop(); c.end(context.Canceled) }
}

// pollCPU calls over every tenth of budget, but no more often than every
// 5 ms and no less often than every most, until over reports the budget
// spent or done is closed.
func pollCPU(budget, most time.Duration, done <-chan struct{}, over func() bool) {
	t := time.NewTicker(min(max(budget/10, 5*time.Millisecond), most))
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if over() {
				return
			}
		}
	}
}

func (c *cpuContext) end(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *cpuContext) Done() <-chan struct{} { return c.done }

func (c *cpuContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// selfCPU is the CPU time, user and system, this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
