package runtime

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"time"

	"convfiles/files"

	"github.com/dop251/goja"
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

// execute runs the script on its own goroutine, so the caller can give up
// on it, and turns every way it can end, panics included, into an outcome.
func (s *session) execute(filename, src string, done chan<- Outcome) {
	defer func() {
		if p := recover(); p != nil {
			s.CloseHandles(false)
			s.Cfg.Logger.Error("script panicked inside convfiles", "panic", p, "stack", string(debug.Stack()))
			done <- Outcome{Err: &ScriptError{Type: TypeInternal, Message: "internal error while running the script"}}
		}
	}()
	prg, err := s.compiler.compile(filename, src, s.lang)
	if err != nil {
		done <- Outcome{Err: compileScriptError(err)}
		return
	}
	v, err := s.vm.RunProgram(prg)
	if err == nil {
		err = s.timers.run()
	}
	if err == nil {
		v, err = s.settle(v)
	}
	if err != nil {
		s.CloseHandles(false)
		if hit := s.stopped.Load(); hit != nil {
			// The limit that stopped the run, not what it made a helper
			// answer on its way out (a call cancelled by it).
			err = hit
		}
		done <- Outcome{Err: toScriptError(err)}
		return
	}
	res, serr := s.exportResult(v)
	s.CloseHandles(serr == nil)
	done <- Outcome{Result: res, Err: serr}
}

var promiseType = reflect.TypeFor[*goja.Promise]()

// settle unwraps a Promise result. It is called once the event loop is
// idle: goja drains the microtask queue after the script and after each
// timer's callback, so a Promise is settled by now or never will be.
func (s *session) settle(v goja.Value) (goja.Value, error) {
	// Only a Promise is exported: exporting any other object would call
	// its getters here, outside the script, where one that throws was
	// an internal error instead of the script's.
	o, isObject := v.(*goja.Object)
	if !isObject || o.ExportType() != promiseType {
		return v, nil
	}
	p, ok := o.Export().(*goja.Promise)
	if !ok {
		return v, nil
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result(), nil
	case goja.PromiseStateRejected:
		return nil, &rejection{v: p.Result()}
	}
	return goja.Undefined(), nil
}
