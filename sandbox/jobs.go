package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
	"convfiles/internal/links"
	"convfiles/runtime"
)

// lintTimeout bounds a lint: parsing and ESLint's rules, nothing run.
const lintTimeout = 15 * time.Second

// do sends j to a worker and serves its file operations until it is done.
// The worker is killed when the job passes deadline or ctx ends.
// jobBounds are a job's wall-clock time and, for a format operation,
// its CPU time (0: not bounded), each with its grace.
type jobBounds struct {
	wall, cpu time.Duration
}

func (p *Pool) do(ctx context.Context, j *job, ops *opServer, bounds jobBounds) (*jobResult, error) {
	share := shareOf(ctx)
	if err := p.fair.acquire(ctx, share); err != nil {
		return nil, err
	}
	defer p.fair.release(share)
	w, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer ops.close()
	// The job's file operations end with it: a helper call the server is
	// still serving (a slow download) when the worker is killed is
	// cancelled, so the answer is not held.
	jobCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	ops.ctx = jobCtx
	wallLimit := "timeout"
	if bounds.cpu > 0 {
		wallLimit = "wall"
	}
	timer := time.AfterFunc(bounds.wall, func() { w.kill(wallLimit); cancel() })
	defer timer.Stop()
	watch := watchCPU(w, bounds.cpu, func() { w.kill("timeout"); cancel() })
	defer watch.stop()
	cancelled := p.cancelOnEnd(ctx, w)
	defer cancelled.stop()
	if err := w.c.send(&message{Kind: kindJob, Job: j}); err != nil {
		return nil, p.fail(w, err)
	}
	var call inFlight
	defer call.end()
	for {
		m, fds, err := w.c.recv()
		closeAll(fds)
		if err != nil {
			return nil, p.fail(w, err)
		}
		switch m.Kind {
		case kindDone:
			// The answer to a call the worker gave up on goes out before
			// the worker can take another job.
			call.end()
			// Disarm the kills before the worker goes back to the pool:
			// one firing later would kill the next job's worker. One that
			// already fired has killed this one.
			disarmed := timer.Stop()
			disarmed = watch.stop() && disarmed
			disarmed = cancelled.stop() && disarmed
			p.release(w, disarmed && m.Result != nil && !m.Result.Retire)
			if m.Result == nil {
				return nil, &ended{"crash", "it answered without a result"}
			}
			return m.Result, nil
		case kindCall:
			// One call at a time: a worker's client waits for each answer,
			// so the last call is at most finishing; a worker that does not
			// wait is served in turn all the same.
			call.wait()
			call.start(jobCtx, func(ctx context.Context) {
				reply, pass := ops.handleIn(ctx, m)
				if err := w.c.send(reply, pass...); err != nil {
					w.kill("protocol")
				}
				closeAll(pass)
			})
		case kindCallCancel:
			call.cancel() // a cancel that crossed its answer finds none
		default:
			return nil, p.fail(w, errors.New("sandbox: a worker sent a message out of turn"))
		}
	}
}

// inFlight is the one file operation a job's worker is waiting on: it
// runs on its own goroutine while the job's messages are still read, so
// that the worker's cancel of it reaches it.
type inFlight struct {
	stop context.CancelFunc
	done chan struct{}
}

// start runs serve under a context of its own, below ctx.
func (c *inFlight) start(ctx context.Context, serve func(context.Context)) {
	ctx, c.stop = context.WithCancel(ctx)
	c.done = make(chan struct{})
	go func(stop context.CancelFunc, done chan struct{}) {
		defer close(done)
		defer stop()
		serve(ctx)
	}(c.stop, c.done)
}

// wait waits for the call being served, if any, to answer.
func (c *inFlight) wait() {
	if c.done != nil {
		<-c.done
	}
}

// cancel ends the call being served, if any.
func (c *inFlight) cancel() {
	if c.stop != nil {
		c.stop()
	}
}

// end cancels the call being served, if any, and waits for it to answer.
func (c *inFlight) end() {
	c.cancel()
	c.wait()
}

// cancelGrace is how long a worker has to end a cancelled job and answer
// before it is killed.
const cancelGrace = 5 * time.Second

// jobCancel is the cancel of one job when its context ends (its client
// went away): the worker is asked to end the job, and killed only if it
// has not answered within cancelGrace.
type jobCancel struct {
	after func() bool
	sent  chan struct{} // closed once the cancel was sent (or failed)
	kill  *time.Timer
	once  sync.Once
	alive bool
}

// cancelOnEnd arranges the cancel of w's job when ctx ends.
func (p *Pool) cancelOnEnd(ctx context.Context, w *proc) *jobCancel {
	c := &jobCancel{sent: make(chan struct{})}
	c.after = context.AfterFunc(ctx, func() {
		defer close(c.sent)
		if err := w.c.send(&message{Kind: kindCancel}); err != nil {
			w.kill("cancelled")
			return
		}
		c.kill = time.AfterFunc(cancelGrace, func() { w.kill("cancelled") })
	})
	return c
}

// stop disarms the cancel once the job is done. It reports whether the
// worker is left alive by it: no cancel was sent, or the worker answered
// the one sent in time.
// A second stop reports what the first did.
func (c *jobCancel) stop() bool {
	c.once.Do(func() {
		if c.after() {
			c.alive = true
			return
		}
		<-c.sent
		c.alive = c.kill != nil && c.kill.Stop()
	})
	return c.alive
}

// fail retires a worker whose socket failed mid-job and says why it
// ended. A socket that failed while the worker lives (a message too large
// or out of turn: hostile code in the worker) gets it killed at once.
func (p *Pool) fail(w *proc, err error) error {
	if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, syscall.EPIPE) {
		p.log.Warn("sandbox: a worker broke the protocol", "err", err)
		w.kill("protocol")
	}
	limit, why := w.death()
	if limit == "crash" {
		p.log.Warn("sandbox: a worker died", "why", why, "stderr", firstLines(w.stderr.String(), 4))
	}
	p.release(w, false)
	return &ended{limit, why}
}

// Run executes a script in a worker, with req.Space's files served by
// this process. It answers as runtime.Runner.Run does; a run whose worker
// was killed or died reports a TimeoutError or LimitError saying so, and
// the files it had touched by then.
func (p *Pool) Run(ctx context.Context, req runtime.Request) (*runtime.Report, error) {
	timeout := p.cfg.Runtime.Timeout
	if req.Timeout > 0 {
		timeout = req.Timeout
	}
	if sp, ok := req.Space.(*engine.Space); ok && sp == nil {
		req.Space = nil // a nil *Space means no files, as nil does
	}
	j := &job{Kind: "run", Source: req.Source, Filename: req.Filename, Language: string(req.Language),
		Session: req.Session, Env: req.Env, Timeout: timeout}
	ops := &opServer{ctx: ctx, sp: req.Space, roots: p.cfg.Runtime.ReadRoots, downloader: p.cfg.Runtime.Downloader,
		budget: files.NewBudget(p.workerCfg.Limits.MaxExecutionBytes)}
	if req.Space != nil {
		j.HasSpace, j.Conversation = true, req.Space.ID()
		j.HostDir = strings.TrimSuffix(req.Space.HostPath(""), "/")
		if s := p.cfg.LinkSigner.ForConversation(j.Conversation); s != nil {
			j.LinkKey, j.LinkTTL = &s.Keys[0], s.TTL
		}
	}
	if ops.roots == nil {
		ops.roots = (*engine.ReadRoots)(nil)
	}
	res, err := p.do(ctx, j, ops, jobBounds{wall: timeout + p.cfg.Grace})
	if err != nil {
		rep := &runtime.Report{Result: []byte("null"), Logs: []string{}, FilesTouched: ops.touchedFiles(links.Links{Base: p.cfg.LinkBase, Sign: p.cfg.LinkSigner})}
		rep.Error = p.runError(err, timeout)
		return rep, rep.Error
	}
	rep := res.Report
	if rep == nil {
		rep = &runtime.Report{Result: []byte("null")}
	}
	if rep.Logs == nil {
		rep.Logs = []string{}
	}
	if rep.FilesTouched == nil {
		rep.FilesTouched = []runtime.Touched{}
	}
	if rep.Error != nil {
		if res.Retire && rep.Error.Type == runtime.TypeTimeout && !strings.Contains(rep.Error.Message, "worker process") {
			// The script was abandoned inside its worker (a call no
			// interrupt reaches), and the worker is killed for it.
			rep.Error.Message += "; its worker process was stopped and replaced"
		}
		return rep, rep.Error
	}
	return rep, nil
}

// Lint reports a script's syntax errors, parsed in a worker, within the
// share of the credential ctx carries.
func (p *Pool) Lint(ctx context.Context, filename, src string, lang runtime.Language) []runtime.Diagnostic {
	ctx, cancel := context.WithTimeout(ctx, lintTimeout)
	defer cancel()
	res, err := p.do(ctx, &job{Kind: "lint", Filename: filename, Source: src, Language: string(lang), Timeout: lintTimeout},
		&opServer{ctx: ctx}, jobBounds{wall: lintTimeout})
	if err != nil {
		var e *ended
		msg := "the code could not be checked: " + err.Error()
		if errors.As(err, &e) {
			msg = "the code could not be checked: its parser was stopped (" + e.limit + ")"
		}
		return []runtime.Diagnostic{{Line: 1, Column: 1, Severity: "error", Message: msg}}
	}
	return res.Diags
}

// Call runs the formats operation name (see formats.NameOf) on e's files
// in a worker and returns its JSON answer. A file that makes its decoder
// run past the format timeout, or past a limit, is refused with why.
func (p *Pool) Call(ctx context.Context, e formats.Env, name string, args any) (json.RawMessage, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	j := &job{Kind: "format", Op: name, Args: raw, Write: toWire(e.Write), Timeout: p.cfg.FormatTimeout, HasSpace: e.Space != nil}
	if e.Space != nil {
		j.Conversation = e.Space.ID()
	}
	ops := &opServer{ctx: ctx, sp: e.Space, budget: e.Write.Budget}
	bounds := jobBounds{wall: p.cfg.FormatWall, cpu: p.cfg.FormatTimeout + p.cfg.Grace}
	if !cpuMeasured {
		bounds = jobBounds{wall: p.cfg.FormatTimeout + p.cfg.Grace}
	}
	res, err := p.do(ctx, j, ops, bounds)
	if err != nil {
		var ended *ended
		if errors.Is(err, ErrBusy) {
			return nil, files.Unavailable(name, "", "this credential's share of the workers is full", err)
		}
		if !errors.As(err, &ended) {
			return nil, err
		}
		if ended.limit == "cancelled" && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if ended.limit == "wall" {
			return nil, files.Unavailable(name, "", fmt.Sprintf("the server was too busy to finish this within %v; the file was not at fault: try again", p.cfg.FormatWall), nil)
		}
		return nil, files.E(name, files.KindInvalid, "", formatEnd(ended, p.cfg.FormatTimeout), nil)
	}
	if e.Wrote != nil {
		for _, t := range ops.touchedFiles(links.Links{}) {
			if t.Op != files.Removed.String() {
				e.Wrote(t.Name)
			}
		}
	}
	if res.Err != nil {
		err := res.Err.decode()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			// The worker noticed its own deadline first: the same end.
			return nil, files.E(name, files.KindInvalid, "", formatEnd(&ended{limit: "timeout"}, p.cfg.FormatTimeout), nil)
		}
		return nil, err
	}
	return res.Output, nil
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
