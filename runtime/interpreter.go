package runtime

import (
	"context"
	"sync"
	"time"
)

// An Interpreter runs the scripts of one language on the run core. The
// core keeps what every language shares (the run's files, byte budget,
// logs, io handles, limits, SABRE helpers, the operations table and the
// report); a language's package adds an interpreter and its bindings,
// and registers it. runtime/lua is one; a third language is one more
// package.
type Interpreter interface {
	// Start prepares a run of req over run: the language's state, with
	// its helpers bound to run.
	Start(run *Run, req Request) Script
	// Lint reports the syntax errors of src without running it.
	Lint(filename, src string) []Diagnostic
}

// A Script is one run of an Interpreter.
type Script interface {
	// Execute runs the script to its end on the calling goroutine and
	// sends how it ended on done.
	Execute(done chan<- Outcome)
	// Stop records the limit that ends the run; the core then cancels
	// the run's context, which the interpreter checks as it runs. It is
	// safe from any goroutine, more than once.
	Stop(hit *LimitHit)
}

// interpreters holds the languages registered by their packages, as
// database/sql holds its drivers: the set of languages the program links
// is what it registers, fixed once its packages are initialized.
var interpreters struct {
	sync.RWMutex
	byLanguage map[Language]Interpreter
}

// Register makes in the interpreter of lang. A language's package calls
// it from its init; registering a language twice panics.
func Register(lang Language, in Interpreter) {
	interpreters.Lock()
	defer interpreters.Unlock()
	if _, dup := interpreters.byLanguage[lang]; dup {
		panic("runtime: " + string(lang) + " is registered twice")
	}
	if interpreters.byLanguage == nil {
		interpreters.byLanguage = map[Language]Interpreter{}
	}
	interpreters.byLanguage[lang] = in
}

// interpreterOf is the registered interpreter of lang, if any.
func interpreterOf(lang Language) (Interpreter, bool) {
	interpreters.RLock()
	defer interpreters.RUnlock()
	in, ok := interpreters.byLanguage[lang]
	return in, ok
}

// runWith runs req with a registered interpreter under the core's
// limits, and reports it as every run is reported.
func (r *Runner) runWith(ctx context.Context, in Interpreter, req Request, timeout time.Duration) (*Report, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := newRunState(runCtx, r.cfg, req.Space, req.Session)
	script := in.Start(&run, req)
	out := r.supervise(ctx, timeout, func(h *LimitHit) {
		script.Stop(h)
		cancel()
	}, script.Execute)
	return run.Finish(out)
}
