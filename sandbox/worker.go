package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/links"
	"convfiles/internal/signing"
	"convfiles/runtime"
)

// workerEnv marks a process started as a worker; test binaries, which
// have no "worker" command, check it in TestMain (see RunWorkerIfAsked).
const workerEnv = "CONVFILES_SANDBOX_WORKER"

// socketFD is the descriptor a worker finds its socket on.
const socketFD = 3

// Exit codes a worker ends with on purpose; the pool reads them.
const (
	exitCPU      = 3 // its CPU time limit for the run
	exitProtocol = 4 // the server's socket failed or sent nonsense
)

// maxStack bounds a worker goroutine's stack: deep recursion in a parser
// or decoder ends the worker (a fatal error), quickly and long before it
// could exhaust memory.
const maxStack = 256 << 20

// RunWorkerIfAsked runs the worker and exits when this process was
// started as one; otherwise it returns at once. Test binaries call it
// first in TestMain, so that a Pool they start can run them as workers.
func RunWorkerIfAsked() {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(WorkerMain())
	}
}

// WorkerMain is convfiles worker: it confines itself, then runs the jobs
// its server sends on descriptor 3, one at a time, until the server
// closes the socket. It returns the exit code.
func WorkerMain() int {
	if typ, err := syscall.GetsockoptInt(socketFD, syscall.SOL_SOCKET, syscall.SO_TYPE); err != nil || typ != syscall.SOCK_STREAM {
		fmt.Fprintln(os.Stderr, "convfiles worker: no socket on descriptor 3; workers are started by convfiles serve and convfiles mcp")
		return exitProtocol
	}
	syscall.CloseOnExec(socketFD)
	c := newConn(socketFD)
	m, _, err := c.recv()
	if err != nil || m.Config == nil {
		return exitProtocol
	}
	cfg := m.Config
	debug.SetMaxStack(maxStack)
	if cfg.Limits.MemoryLimit > 0 {
		debug.SetMemoryLimit(cfg.Limits.MemoryLimit)
	}
	status := confine(cfg)
	if err := c.send(&message{Kind: kindDone, Results: []any{status}}); err != nil {
		return exitProtocol
	}
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, syscall.SIGXCPU)
	go func() {
		<-xcpu
		os.Exit(exitCPU)
	}()
	w := &worker{c: c, cfg: cfg, box: newMailbox(c)}
	w.runner = runtime.New(w.runtimeConfig())
	for {
		in, err := w.box.next()
		closeAll(in.fds)
		if errors.Is(err, io.EOF) {
			return 0
		}
		m := in.m
		if err != nil || m.Kind != kindJob || m.Job == nil {
			return exitProtocol
		}
		if err := setCPULimit(m.Job.Timeout); err != nil {
			return exitCPU
		}
		res := w.do(in.ctx, m.Job)
		w.box.done()
		// Half its CPU life spent, a worker asks to be replaced, so that no
		// job starts in one that could not finish it.
		res.Retire = res.Retire || cpuUsed() > cfg.CPULifetime/2
		if err := c.send(&message{Kind: kindDone, Result: res}); err != nil {
			return exitProtocol
		}
	}
}

type worker struct {
	c      *conn
	box    *mailbox // what the server sends, read as it comes
	cfg    *workerConfig
	runner *runtime.Runner
	// links builds the links of the job being run.
	links links.Links
}

func (w *worker) runtimeConfig() runtime.Config {
	rc := w.cfg.Limits.config()
	rc.Exclusive = true
	rc.Contained = true
	rc.ReadRoots = readRoots{&client{c: w.c, box: w.box}}
	rc.Link = func(conv, name string) string { return w.links.URL(conv, name) }
	rc.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return rc
}

// do runs j until it is done or ctx ends (the server cancelled it).
func (w *worker) do(ctx context.Context, j *job) *jobResult {
	var sp files.Ops
	w.links = links.Links{Base: w.cfg.LinkBase}
	if j.LinkKey != nil {
		w.links.Sign = &links.Signer{Keys: signing.Keyring{*j.LinkKey}, Conversation: j.Conversation, TTL: j.LinkTTL}
	}
	if j.HasSpace {
		sp = &client{c: w.c, box: w.box, id: j.Conversation, hostDir: j.HostDir}
	}
	switch j.Kind {
	case "run":
		lang, _ := runtime.ParseLanguage(j.Language)
		abandoned := w.runner.Abandoned()
		rep, _ := w.runner.Run(ctx, runtime.Request{Source: j.Source, Filename: j.Filename,
			Language: lang, Space: sp, Timeout: j.Timeout, Env: j.Env, Session: j.Session})
		// A run reported as timed out while Go code it called still runs
		// leaves that code burning this worker's CPU: retire the worker.
		return &jobResult{Report: rep, Retire: w.runner.Abandoned() > abandoned}
	case "lint":
		lang, _ := runtime.ParseLanguage(j.Language)
		return &jobResult{Diags: w.runner.Lint(context.Background(), j.Filename, j.Source, lang)}
	case "format":
		opts := j.Write.options(files.NewBudget(0)) // a stand-in: the server charges its own
		ctx, cancel := withCPUBudget(ctx, j.Timeout)
		defer cancel()
		out, err := formats.Call(ctx, formats.Env{Space: sp, Write: opts}, j.Op, j.Args)
		if err != nil {
			return &jobResult{Err: encodeError(err)}
		}
		b, err := json.Marshal(out)
		return &jobResult{Output: b, Err: encodeError(err)}
	}
	return &jobResult{Err: encodeError(fmt.Errorf("unknown job %q", j.Kind))}
}
