package runtime

import (
	"context"
	"fmt"
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

// registered holds the languages their packages registered, as
// database/sql holds its drivers: what the program links is what it runs,
// fixed once its packages are initialized. Each Runner makes its own
// interpreters from them (see New), so what an interpreter caches (the
// TypeScript step's output) is the Runner's.
var registered struct {
	sync.RWMutex
	makers []maker
}

// maker makes the interpreter of some languages for a Runner.
type maker struct {
	make      func(Config) Interpreter
	languages []Language
}

// Register makes scripts of langs run by an interpreter that newFor makes
// for each Runner, from the Runner's configuration. A language's package
// calls it from its init; registering a language twice panics.
func Register(newFor func(Config) Interpreter, langs ...Language) {
	registered.Lock()
	defer registered.Unlock()
	for _, m := range registered.makers {
		for _, have := range m.languages {
			for _, l := range langs {
				if l == have {
					panic("runtime: " + string(l) + " is registered twice")
				}
			}
		}
	}
	registered.makers = append(registered.makers, maker{newFor, langs})
}

// interpretersFor makes every registered language's interpreter for a
// Runner with cfg.
func interpretersFor(cfg Config) map[Language]Interpreter {
	registered.RLock()
	defer registered.RUnlock()
	out := map[Language]Interpreter{}
	for _, m := range registered.makers {
		in := m.make(cfg)
		for _, l := range m.languages {
			out[l] = in
		}
	}
	return out
}

// unknownLanguage is the refusal of a language no package registered.
func unknownLanguage(lang Language) error {
	return fmt.Errorf("no interpreter runs %q scripts in this program", string(lang))
}

// runWith runs req with a registered interpreter under the core's
// limits, and reports it as every run is reported.
func (r *Runner) runWith(ctx context.Context, in Interpreter, req Request, timeout time.Duration) (*Report, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := NewRun(runCtx, r.cfg, req.Space, req.Session)
	run.Timeout = timeout
	script := in.Start(run, req)
	out := r.supervise(ctx, timeout, func(h *LimitHit) {
		script.Stop(h)
		cancel()
	}, script.Execute)
	return run.Finish(out)
}
