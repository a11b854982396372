package js

import (
	"errors"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"

	"convfiles/runtime"
)

func init() {
	runtime.Register(func(runtime.Config) runtime.Interpreter { return &interpreter{compiler: newCompiler(512)} },
		runtime.JavaScript, runtime.TypeScript)
}

// regexpMatchBound bounds one backtracking regexp match in any script.
const regexpMatchBound = 10 * time.Second

// setRegexpBound sets goja's regexp engine's bound once per process:
// regexp2.DefaultMatchTimeout is the engine's only knob, read when a
// RegExp is compiled.
var setRegexpBound sync.Once

// interpreter runs JavaScript and TypeScript in goja, TypeScript compiled
// by esbuild and cached per Runner.
type interpreter struct {
	compiler *compiler
}

// Transpiles returns how many times the TypeScript step ran; a script run
// again is served from the cache and does not count.
func (in *interpreter) Transpiles() int64 { return in.compiler.transpiles.Load() }

// Start prepares a goja run of req over run (see runtime.Interpreter).
func (in *interpreter) Start(run *runtime.Run, req runtime.Request) runtime.Script {
	setRegexpBound.Do(func() { regexp2.DefaultMatchTimeout = regexpMatchBound })
	if run.Cfg.Exclusive {
		// One script at a time in this process (a sandbox worker): the
		// bound is this run's timeout.
		regexp2.DefaultMatchTimeout = run.Timeout
	}
	s := newSession(run)
	s.compiler, s.lang, s.env, s.src, s.filename = in.compiler, req.Language, req.Env, req.Source, req.Filename
	s.install()
	return s
}

// Lint reports the syntax errors of src without running it: for
// TypeScript those of the TypeScript step (types are not checked), for
// JavaScript those of the parser. Code that compiles is checked with
// ESLint's rules (see ruleDiagnostics): each finding is a warning.
func (in *interpreter) Lint(filename, src string) []runtime.Diagnostic {
	lang := runtime.LanguageOf(filename)
	_, err := in.compiler.compile(filename, src, lang)
	var ce *compileError
	if errors.As(err, &ce) {
		return ce.diags
	}
	if err != nil {
		return []runtime.Diagnostic{{Line: 1, Column: 1, Message: err.Error(), Severity: "error"}}
	}
	if d := ruleDiagnostics(filename, src, lang); d != nil {
		return d
	}
	return []runtime.Diagnostic{}
}

// Stop interrupts the VM with the limit that ends the run (see
// runtime.Script).
func (s *session) Stop(hit *runtime.LimitHit) {
	s.stopped.CompareAndSwap(nil, hit)
	s.vm.Interrupt(hit)
}

// Execute runs the script (see runtime.Script).
func (s *session) Execute(done chan<- runtime.Outcome) { s.execute(s.filename, s.src, done) }
