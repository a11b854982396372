package runtime

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"

	"github.com/dlclark/regexp2/v2"
)

// Defaults of Config.
const (
	DefaultTimeout        = 5 * time.Second
	DefaultMaxCallStack   = 2000
	DefaultMemoryLimit    = 512 << 20
	DefaultMaxLogLines    = 1000
	DefaultMaxLogBytes    = 64 << 10
	DefaultMaxResultBytes = 1 << 20
	// abandonGrace is how long a run may take to stop after its timeout
	// before the caller gets its report anyway. Go code that ignores
	// interrupts (a backtracking regexp, a huge Array fill) goes on in the
	// background until it returns, bounded by regexpMatchBound for regexps.
	abandonGrace = 100 * time.Millisecond
	// regexpMatchBound bounds one backtracking regexp match in any script.
	regexpMatchBound = 10 * time.Second
)

// Config sets the limits and the services of a Runner. Zero fields take
// the defaults above.
type Config struct {
	Timeout        time.Duration
	MaxCallStack   int
	MemoryLimit    int64 // heap bytes above which running scripts are stopped
	MaxLogLines    int
	MaxLogBytes    int
	MaxResultBytes int
	// MaxExecutionBytes caps the bytes one execution may write (default 50 MiB).
	MaxExecutionBytes int64
	// MaxReadBytes caps what read_file loads into the script (default 50 MiB).
	MaxReadBytes int64
	// ReadRoots opens what read_file may read by absolute path: a
	// *engine.ReadRoots, or in a worker the client of the server's; nil
	// refuses every absolute path.
	ReadRoots ReadRoots
	// Downloader fetches URLs for files.download; nil disables downloads.
	Downloader Downloader
	// Exclusive says this process runs one script at a time (a sandbox
	// worker): each run then sets the match bound of backtracking regular
	// expressions it compiles to its own timeout, and a run abandoned past
	// its timeout ends the process's usefulness (see Abandoned).
	Exclusive bool
	// Contained says this process is a disposable sandbox worker whose
	// memory, stack and CPU the kernel bounds: a script that allocates or
	// recurses past them ends the process, and its pool reports a
	// LimitError and starts another. The in-VM guards on size-driven
	// built-ins (typed arrays, Array(n), String repeat and pad, code
	// compiled at run time) protect a process that must outlive its
	// scripts; in a contained one they would only cost every run (about
	// half of a hello world's), so they are left out. The memory watchdog
	// and the timeout stay.
	Contained bool
	// Link returns the URL of a file of a conversation. For a standalone
	// folder (conversation "") it may return "".
	Link   func(conversation, name string) string
	Logger *slog.Logger
}

// ReadRoots opens a file by absolute path inside the configured folders.
type ReadRoots interface {
	Open(abs string) (files.Blob, files.Info, error)
}

// WithDefaults returns c with each zero field set to its default.
func (c Config) WithDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	def(&c.MaxCallStack, DefaultMaxCallStack)
	def(&c.MaxLogLines, DefaultMaxLogLines)
	def(&c.MaxLogBytes, DefaultMaxLogBytes)
	def(&c.MaxResultBytes, DefaultMaxResultBytes)
	if c.MemoryLimit <= 0 {
		c.MemoryLimit = DefaultMemoryLimit
	}
	if c.MaxExecutionBytes == 0 {
		c.MaxExecutionBytes = files.DefaultMaxExecutionBytes
	}
	if c.MaxReadBytes <= 0 {
		c.MaxReadBytes = files.DefaultMaxFileBytes
	}
	if rr, ok := c.ReadRoots.(*engine.ReadRoots); c.ReadRoots == nil || ok && rr == nil {
		c.ReadRoots = (*engine.ReadRoots)(nil) // refuses, saying no folder is configured
	}
	if c.Link == nil {
		c.Link = func(string, string) string { return "" }
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Executor runs scripts and checks their syntax: a Runner in this
// process, or a pool of worker processes (package sandbox) that run them
// where the kernel can bound and stop them. The doors take an Executor.
type Executor interface {
	Run(ctx context.Context, req Request) (*Report, error)
	// Lint takes the request's context: in a pool, a lint holds a worker
	// and counts against its credential's share as a run does.
	Lint(ctx context.Context, filename, src string, lang Language) []Diagnostic
}

var _ Executor = (*Runner)(nil)

// Runner executes scripts. It is safe for concurrent use; each Run gets a
// fresh VM, so nothing survives from one run to the next.
type Runner struct {
	cfg       Config
	compiler  *compiler
	guard     *memoryGuard
	abandoned atomic.Int64
	inFlight  sync.WaitGroup
}

var setRegexpBound sync.Once

// New returns a Runner with cfg's limits.
func New(cfg Config) *Runner {
	setRegexpBound.Do(func() { regexp2.DefaultMatchTimeout = regexpMatchBound })
	cfg = cfg.WithDefaults()
	return &Runner{cfg: cfg, compiler: newCompiler(512), guard: newMemoryGuard(uint64(cfg.MemoryLimit))}
}

// Request is one script to run.
type Request struct {
	// Source is the JavaScript code.
	Source string
	// Filename names the script in stack traces; default "script.js".
	Filename string
	// Space is where the file helpers read and write: a *engine.Space, or
	// in a worker process the client of one; nil means the script has no
	// files and every file helper throws.
	Space files.Ops
	// Timeout overrides the Runner's timeout when positive.
	Timeout time.Duration
	// Language is the script's language; "" infers it from Filename.
	Language Language
	// Env is visible to the script as process.env.
	Env map[string]string
	// Session names who runs the script (an agent's session); files the
	// script creates record it as their source_session_id.
	Session string
}

// Abandoned returns how many runs were reported as timed out while Go code
// they had called was still running. Such goroutines end by themselves.
func (r *Runner) Abandoned() int64 { return r.abandoned.Load() }

// Lint reports the syntax errors of src without running it: for
// TypeScript those of the TypeScript step (types are not checked), for
// JavaScript those of the parser. Code that compiles is checked with
// ESLint's rules (see ruleDiagnostics): each finding is a warning.
func (r *Runner) Lint(_ context.Context, filename, src string, lang Language) []Diagnostic {
	if lang == "" {
		lang = LanguageOf(filename)
	}
	if in, ok := interpreterOf(lang); ok {
		return in.Lint(filename, src)
	}
	_, err := r.compiler.compile(filename, src, lang)
	var ce *compileError
	if errors.As(err, &ce) {
		return ce.diags
	}
	if err != nil {
		return []Diagnostic{{Line: 1, Column: 1, Message: err.Error(), Severity: "error"}}
	}
	if d := ruleDiagnostics(filename, src, lang); d != nil {
		return d
	}
	return []Diagnostic{}
}

// Transpiles returns how many times the TypeScript step ran; a script run
// again is served from the cache and does not count.
func (r *Runner) Transpiles() int64 { return r.compiler.transpiles.Load() }

// Wait blocks until every script goroutine has ended, abandoned ones
// included. A server calls it on shutdown, after it stopped taking runs.
func (r *Runner) Wait() { r.inFlight.Wait() }

// Run executes req and returns its report. The error is the report's
// *ScriptError when the script did not finish normally.
func (r *Runner) Run(ctx context.Context, req Request) (*Report, error) {
	timeout := r.cfg.Timeout
	if req.Timeout > 0 {
		timeout = req.Timeout
	}
	if req.Language == "" {
		req.Language = LanguageOf(req.Filename)
	}
	if req.Filename == "" {
		req.Filename = "script" + req.Language.Ext()
	}
	if sp, ok := req.Space.(*engine.Space); ok && sp == nil {
		req.Space = nil // a nil *Space means no files, as nil does
	}
	if r.cfg.Exclusive {
		regexp2.DefaultMatchTimeout = timeout
	}
	if auth.FromContext(ctx) == nil {
		// The door that started the run authorized it (POST /execute,
		// execute_script); inside it, the script reaches its Space alone.
		ctx = auth.NewContext(ctx, auth.Local)
	}
	if in, ok := interpreterOf(req.Language); ok {
		return r.runWith(ctx, in, req, timeout)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newSession(runCtx, r.cfg, req.Space, req.Session)
	s.compiler, s.lang, s.env, s.src = r.compiler, req.Language, req.Env, req.Source
	s.install()

	out := r.supervise(ctx, timeout, func(hit *LimitHit) {
		s.stopped.CompareAndSwap(nil, hit)
		s.vm.Interrupt(hit)
		cancel()
	}, func(done chan<- Outcome) { s.execute(req.Filename, req.Source, done) })
	return s.Finish(out)
}
