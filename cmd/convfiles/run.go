package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"

	"convfiles/engine"
	"convfiles/formats"
	"convfiles/internal/fetch"
	"convfiles/internal/links"
	"convfiles/runtime"
	"convfiles/sandbox"
)

func cmdRun(e *env, args []string) error {
	f := newFlags(e, "run", "[script.js | -]")
	conv := f.String("conversation", "", "conversation ID whose files the script uses")
	dir := f.String("dir", "", "a standalone folder the script uses instead of a conversation")
	f.StringVar(dir, "io-dir", "", "the same as --dir (toolscript's name)")
	f.StringVar(dir, "output-dir", "", "the same as --dir (code-mcp's name)")
	timeout := f.Duration("timeout", 0, "stop the script after this long (default 5s, config runtime.timeout)")
	public := f.String("public-url", "", "base URL of file links (default: config server.public_url, else the convfiles serve running on the same data)")
	language := f.String("language", "", "typescript (ts), javascript (js) or lua (luau); default from the file name (.ts, .lua, .luau), JavaScript for stdin")
	cfg, err := f.parse(args)
	if err != nil {
		return err
	}
	if *conv != "" && *dir != "" {
		return usagef("give --conversation or --dir, not both")
	}
	if f.NArg() > 1 {
		return usagef("give one script file, or - for stdin")
	}
	src, name, err := readScript(e, f.Arg(0))
	if err != nil {
		return err
	}
	lang, err := runtime.ParseLanguage(*language)
	if err != nil {
		return usagef("%v", err)
	}
	if name == "stdin.js" && lang != runtime.JavaScript && lang != "" {
		name = "stdin" + lang.Ext()
	}
	var space *engine.Space
	switch {
	case *conv != "":
		store, closeStore, err := openIndexedStore(cfg, e.logger, nil)
		if err != nil {
			return err
		}
		defer closeStore()
		if space, err = store.Space(*conv); err != nil {
			return err
		}
	case *dir != "":
		if space, err = engine.OpenDir(*dir, cfg.storeOptions()); err != nil {
			return err
		}
	case cfg.IO.Dir != "" && cfg.scriptFiles(): // [io] dir (code-mcp's [output] dir), unless enabled = false
		if err := cfg.checkIODir(); err != nil {
			return err
		}
		if space, err = engine.OpenDir(cfg.IO.Dir, cfg.storeOptions()); err != nil {
			return err
		}
	}
	if space != nil {
		defer space.Close()
	}
	if *conv != "" { // a standalone folder's files have no links
		resolveLinks(e, &cfg, *public)
	}
	// The script runs in a worker process, as serve's and mcp's do: its
	// timeout kills the worker, whatever the script is stuck in (a
	// backtracking regular expression no interrupt reaches), and a
	// decoder's bug meets the worker's kernel limits, not this process.
	// One worker: this command runs one script.
	// Its log says what went wrong, not that a worker started.
	cfg.Sandbox.Workers = 1
	quiet := *e
	quiet.logger = slog.New(atLeast{slog.LevelWarn, e.logger.Handler()})
	scripts, err := newScripting(cfg, &quiet, true)
	if err != nil {
		return err
	}
	defer scripts.close()
	req := runtime.Request{Source: src, Filename: name, Language: lang, Timeout: *timeout}
	if space != nil { // a nil *engine.Space in the interface would not be a missing one
		req.Space = space
	}
	rep, runErr := scripts.Run(context.Background(), req)
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	out := runReport{Report: rep}
	if *conv == "" && space != nil { // a folder's files are known by their paths, a conversation's by their links
		out.FilesWritten = runtime.FilesWritten(rep.FilesTouched, req.Space)
	}
	if err := enc.Encode(out); err != nil {
		return err
	}
	if runErr != nil {
		return errReported
	}
	return nil
}

// runReport is what convfiles run prints: the run's report, and for a
// script working in a folder the files it left there with their paths
// (code-mcp's files_written).
type runReport struct {
	*runtime.Report
	FilesWritten []runtime.Written `json:"files_written,omitempty"`
}

// scripting runs scripts and format operations: in worker processes (a
// sandbox pool) for serve, mcp and run, or in this process. It holds the read roots and the fetcher the server side uses.
type scripting struct {
	runtime.Executor
	formats formats.Caller
	roots   *engine.ReadRoots
	fetcher *fetch.Fetcher
	pool    *sandbox.Pool   // nil in this process
	runner  *runtime.Runner // nil with a pool
	links   links.Links     // how links are made, signed or not
}

// newScripting builds the script runner from the configuration; sandboxed
// runs scripts and decoders in worker processes.
func newScripting(cfg Config, e *env, sandboxed bool) (*scripting, error) {
	roots, err := engine.OpenReadRoots(cfg.Runtime.ReadRoots)
	if err != nil {
		return nil, err
	}
	fetcher, err := newDownloader(cfg)
	if err != nil {
		roots.Close()
		return nil, err
	}
	lb, err := cfg.linkBuilder()
	if err != nil {
		roots.Close()
		return nil, err
	}
	rc := runtime.Config{
		Downloader:        fetcher,
		Timeout:           cfg.Runtime.Timeout.Duration,
		MaxCallStack:      cfg.Runtime.MaxCallStack,
		MemoryLimit:       cfg.Runtime.MemoryLimit,
		MaxLogLines:       cfg.Runtime.MaxLogLines,
		MaxLogBytes:       cfg.Runtime.MaxLogBytes,
		MaxResultBytes:    cfg.Runtime.MaxResultBytes,
		MaxExecutionBytes: cfg.maxExecutionBytes(),
		MaxReadBytes:      cfg.Limits.MaxFileBytes,
		ReadRoots:         roots,
		Link:              lb.URL,
		Logger:            e.logger,
	}
	s := &scripting{roots: roots, fetcher: fetcher, links: lb}
	if !sandboxed {
		s.runner = runtime.New(rc)
		s.Executor, s.formats = s.runner, formats.Local{}
		return s, nil
	}
	s.pool, err = sandbox.New(sandbox.Config{Runtime: rc, LinkBase: lb.Base, LinkSigner: lb.Sign, Workers: cfg.Sandbox.Workers,
		PerCredential: cfg.Sandbox.PerCredential, QueuePerCredential: cfg.Sandbox.QueuePerCredential,
		FormatTimeout: cfg.Sandbox.FormatTimeout.Duration, Logger: e.logger})
	if err != nil {
		roots.Close()
		return nil, err
	}
	s.Executor, s.formats = s.pool, s.pool
	return s, nil
}

// health describes the sandbox for /healthz.
func (s *scripting) health() map[string]any {
	if s.pool == nil {
		return nil
	}
	return s.pool.Health()
}

// stop kills the workers of a pool, ending the jobs they run.
func (s *scripting) stop() {
	if s.pool != nil {
		s.pool.Close()
	}
}

// close ends the scripts (a pool kills its workers, a runner waits for
// its goroutines), then releases the read roots.
func (s *scripting) close() {
	s.stop()
	if s.runner != nil {
		s.runner.Wait()
	}
	s.roots.Close()
}

// newDownloader builds the fetcher of files.download and file_download,
// which refuses the server's own network unless the configuration allows it.
func newDownloader(cfg Config) (*fetch.Fetcher, error) {
	return fetch.New(fetch.Policy{
		AllowPrivate: cfg.Download.AllowPrivate,
		Allow:        cfg.Download.Allow,
		MaxBytes:     cfg.Download.MaxBytes,
		Timeout:      cfg.Download.Timeout.Duration,
	})
}

// readScript reads the script from a file the operator named, or stdin.
func readScript(e *env, arg string) (src, name string, err error) {
	if arg == "" || arg == "-" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, 16<<20))
		return string(b), "stdin.js", err
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return "", "", err
	}
	return string(b), arg, nil
}
