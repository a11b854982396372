package runtime

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
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
	// background until it returns (a regexp's match is bounded by its
	// interpreter).
	abandonGrace = 100 * time.Millisecond
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
	languages map[Language]Interpreter // each registered language's, made for this Runner
	guard     *memoryGuard
	abandoned atomic.Int64
	inFlight  sync.WaitGroup
}

// New returns a Runner with cfg's limits, running every registered
// language.
func New(cfg Config) *Runner {
	cfg = cfg.WithDefaults()
	return &Runner{cfg: cfg, languages: interpretersFor(cfg), guard: newMemoryGuard(uint64(cfg.MemoryLimit))}
}

// Interpreter is the Runner's interpreter of lang, if lang is
// registered.
func (r *Runner) Interpreter(lang Language) (Interpreter, bool) {
	in, ok := r.languages[lang]
	return in, ok
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

// Lint reports the syntax errors of src without running it, as its
// language's interpreter finds them.
func (r *Runner) Lint(_ context.Context, filename, src string, lang Language) []Diagnostic {
	if lang == "" {
		lang = LanguageOf(filename)
	}
	in, ok := r.languages[lang]
	if !ok {
		return []Diagnostic{{Line: 1, Column: 1, Message: unknownLanguage(lang).Error(), Severity: "error"}}
	}
	return in.Lint(filename, src)
}

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
	if auth.FromContext(ctx) == nil {
		// The door that started the run authorized it (POST /execute,
		// execute_script); inside it, the script reaches its Space alone.
		ctx = auth.NewContext(ctx, auth.Local)
	}
	in, ok := r.languages[req.Language]
	if !ok {
		err := &ScriptError{Type: TypeInternal, Message: unknownLanguage(req.Language).Error()}
		return &Report{Result: []byte("null"), Logs: []string{}, FilesTouched: []Touched{}, Error: err}, err
	}
	return r.runWith(ctx, in, req, timeout)
}
