package runtime

import (
	"context"
	"fmt"
	"time"

	"convfiles/files"
)

// supervise runs body on a goroutine of its own under the run's limits:
// stop is called with the limit that ends it (the timeout, the memory
// watchdog, the request's cancellation), and a body that has not ended
// abandonGrace past its timeout is abandoned: its outcome is a timeout,
// and its goroutine ends by itself.
func (r *Runner) supervise(ctx context.Context, timeout time.Duration, stop func(*LimitHit), body func(chan<- Outcome)) Outcome {
	timer := time.AfterFunc(timeout, func() { stop(timeoutHit(timeout)) })
	defer timer.Stop()
	unwatch := r.guard.watch(func() {
		stop(&LimitHit{Limit: "memory", msg: fmt.Sprintf("the server's memory passed its limit of %s while scripts ran; this script was stopped", files.FormatBytes(r.cfg.MemoryLimit))})
	})
	defer unwatch()
	stopOnCancel := context.AfterFunc(ctx, func() {
		stop(&LimitHit{Limit: "cancelled", msg: "the request was cancelled before the script finished"})
	})
	defer stopOnCancel()

	done := make(chan Outcome, 1)
	r.inFlight.Add(1)
	go func() {
		defer r.inFlight.Done()
		body(done)
	}()
	select {
	case out := <-done:
		return out
	case <-time.After(timeout + abandonGrace):
		r.abandoned.Add(1)
		r.cfg.Logger.Warn("script abandoned after its timeout; its goroutine ends by itself", "timeout", timeout)
		return Outcome{Err: timeoutHit(timeout).ScriptError()}
	}
}

// Finish is the Report of a run that ended with out.
func (s *Run) Finish(out Outcome) (*Report, error) {
	rep := &Report{Result: out.Result, Logs: s.Logs.snapshot(), FilesTouched: s.Touches.Final(s.Ctx, s.Files, s.link)}
	if rep.Result == nil && out.Err == nil {
		// No value: the last line printed, when it is JSON (restexec).
		rep.Result = s.Logs.printedResult()
		if rep.Result == nil {
			rep.NoValue, rep.Printed = true, s.Logs.printedOutput()
		}
	}
	if rep.Result == nil {
		rep.Result = []byte("null")
	}
	if out.Err != nil {
		rep.Error = out.Err
		return rep, out.Err
	}
	return rep, nil
}

type Outcome struct {
	Result []byte
	Err    *ScriptError
}
