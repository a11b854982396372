package js

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"

	"convfiles/runtime"

	"github.com/dop251/goja"
)

// execute runs the script on its own goroutine, so the caller can give up
// on it, and turns every way it can end, panics included, into an outcome.
func (s *session) execute(filename, src string, done chan<- runtime.Outcome) {
	defer func() {
		if p := recover(); p != nil {
			s.CloseHandles(false)
			s.Cfg.Logger.Error("script panicked inside convfiles", "panic", p, "stack", string(debug.Stack()))
			done <- runtime.Outcome{Err: &runtime.ScriptError{Type: runtime.TypeInternal, Message: "internal error while running the script"}}
		}
	}()
	prg, err := s.compiler.compile(filename, src, s.lang)
	if err != nil {
		done <- runtime.Outcome{Err: compileScriptError(err)}
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
		done <- runtime.Outcome{Err: toScriptError(err)}
		return
	}
	res, serr := s.exportResult(v)
	s.CloseHandles(serr == nil)
	done <- runtime.Outcome{Result: res, Err: serr}
}

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

// compileScriptError reports a script that does not compile, with the
// position of its first error.
func compileScriptError(err error) *runtime.ScriptError {
	var ce *compileError
	if errors.As(err, &ce) {
		d := ce.diags[0]
		return &runtime.ScriptError{Type: runtime.TypeSyntax, Message: ce.Error(), Line: d.Line, Column: d.Column}
	}
	return &runtime.ScriptError{Type: runtime.TypeSyntax, Message: err.Error()}
}

// rejection is the reason of a Promise the script returned rejected.
type rejection struct{ v goja.Value }

// Error renders the rejection reason.
func (r *rejection) Error() string { return inspect(r.v) }

func toScriptError(err error) *runtime.ScriptError {
	var hit *runtime.LimitHit
	if errors.As(err, &hit) {
		return hit.ScriptError()
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if hit, ok := ie.Value().(*runtime.LimitHit); ok {
			return hit.ScriptError()
		}
		return &runtime.ScriptError{Type: runtime.TypeTimeout, Message: fmt.Sprint(ie.Value()), Limit: "timeout"}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "call_stack", Message: "maximum call stack size exceeded (unbounded recursion?)"}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return &runtime.ScriptError{Type: runtime.TypeExecution, Message: ex.Value().String(), Stack: ex.String()}
	}
	var rj *rejection
	if errors.As(err, &rj) {
		return &runtime.ScriptError{Type: runtime.TypeExecution, Message: "unhandled promise rejection: " + rj.Error()}
	}
	return &runtime.ScriptError{Type: runtime.TypeExecution, Message: err.Error()}
}

var promiseType = reflect.TypeFor[*goja.Promise]()
