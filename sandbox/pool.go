package sandbox

import (
	"context"
	"errors"
	"log/slog"
	"os"
	goruntime "runtime"
	"sync"
	"sync/atomic"
)

// Pool runs scripts and file decoders in worker processes: convfiles
// itself, started as "convfiles worker" and confined by the kernel (see
// WorkerMain). Each job runs alone in its worker, which keeps a pool of
// compiled programs and starts a fresh VM per run. A job that passes its
// timeout, or a worker that dies (a memory or CPU limit, a crash in a
// parser), ends that job with a clear error; the worker is killed and
// replaced, and every other job goes on. It is safe for concurrent use.
type Pool struct {
	cfg       Config
	workerCfg *workerConfig
	tempRoot  string
	tempLock  *os.File // held while the pool lives (see makeTempRoot)
	log       *slog.Logger

	slots chan struct{} // one token per worker that may be alive
	fair  *fairSlots    // the jobs' shares of the workers, by credential

	// idle holds the workers waiting for a job, the most recently used
	// last: a job takes the last one, whose code and heap are still in
	// the CPU's caches. Handing jobs round-robin to every worker made a
	// hello-world run cost a third more CPU on two cores.
	idleMu sync.Mutex
	idle   []*proc

	mu     sync.Mutex
	closed bool
	live   map[*proc]bool
	// warming counts the replacements being started; Close waits for them.
	warming sync.WaitGroup

	started, killed atomic.Int64
	status          atomic.Value // string: how the last worker started is confined
}

// New starts a pool and its warm workers. It fails when a worker cannot
// start, so a server that cannot confine its scripts does not serve.
func New(cfg Config) (*Pool, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 4 * goruntime.NumCPU()
	}
	if cfg.Warm <= 0 {
		cfg.Warm = goruntime.NumCPU()
	}
	cfg.Warm = min(cfg.Warm, cfg.Workers)
	if cfg.PerCredential <= 0 {
		cfg.PerCredential = max(cfg.Workers/2, 1)
	}
	if cfg.QueuePerCredential <= 0 {
		cfg.QueuePerCredential = 2 * cfg.Workers
	}
	if len(cfg.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		cfg.Command = []string{exe, "worker"}
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.FormatTimeout <= 0 {
		cfg.FormatTimeout = DefaultFormatTimeout
	}
	if cfg.FormatWall <= 0 {
		cfg.FormatWall = DefaultFormatWall
	}
	if cfg.TempBytes <= 0 {
		cfg.TempBytes = DefaultTempBytes
	}
	if cfg.CPULifetime == 0 {
		cfg.CPULifetime = DefaultCPULifetime
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	rc := cfg.Runtime.WithDefaults()
	cfg.Runtime.Timeout = rc.Timeout
	if cfg.DataBytes <= 0 {
		cfg.DataBytes = rc.MemoryLimit + dataReserve
	}
	if cfg.AddressSpace <= 0 {
		cfg.AddressSpace = rc.MemoryLimit + addressReserve
	}
	tmp, lock, err := makeTempRoot(cfg.Logger)
	if err != nil {
		return nil, err
	}
	p := &Pool{cfg: cfg, tempRoot: tmp, tempLock: lock, log: cfg.Logger, slots: make(chan struct{}, cfg.Workers),
		fair: newFairSlots(cfg.Workers, cfg.PerCredential, cfg.QueuePerCredential),
		live: map[*proc]bool{},
		workerCfg: &workerConfig{Limits: limitsOf(rc), LinkBase: cfg.LinkBase, AddressSpace: cfg.AddressSpace,
			DataBytes: cfg.DataBytes, TempBytes: cfg.TempBytes, CPULifetime: cfg.CPULifetime}}
	for i := 0; i < cfg.Warm; i++ {
		w, err := p.start()
		if err != nil {
			p.Close()
			return nil, err
		}
		p.adopt(w)
		p.putIdle(w)
	}
	return p, nil
}

// Status says how workers are confined: "rlimits; landlock ABI 7", or
// why Landlock does not hold on this kernel.
func (p *Pool) Status() string {
	s, _ := p.status.Load().(string)
	return s
}

// Health describes the workers for /healthz: how many are alive, started
// and killed so far, and what confines them.
func (p *Pool) Health() map[string]any {
	started, killed := p.Stats()
	return map[string]any{"sandbox": map[string]any{"workers": p.Workers(), "started": started, "killed": killed, "confinement": p.Status()}}
}

// Stats reports how many workers were started and killed so far.
func (p *Pool) Stats() (started, killed int64) { return p.started.Load(), p.killed.Load() }

func (p *Pool) adopt(w *proc) {
	p.mu.Lock()
	p.live[w] = true
	p.mu.Unlock()
	p.status.Store(w.status)
	if p.Status() != "" && w.status != "" && p.started.Load() == 1 {
		p.log.Info("sandbox workers confined", "by", w.status)
	}
}

// errClosed is a job sent to a pool that was closed.
var errClosed = errors.New("sandbox: the server is shutting down")

// acquire takes a worker slot and an idle worker, starting one if none
// is idle. It waits while every slot is busy, until ctx ends.
func (p *Pool) acquire(ctx context.Context) (*proc, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for {
		if w := p.takeIdle(); w != nil {
			select {
			case <-w.done: // died while idle
				p.forget(w)
				continue
			default:
				return w, nil
			}
		}
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if closed {
			<-p.slots
			return nil, errClosed
		}
		w, err := p.start()
		if err != nil {
			<-p.slots
			return nil, err
		}
		p.adopt(w)
		return w, nil
	}
}

// release gives a worker back after a job. A worker that failed, or has
// served many runs, is stopped instead, and a fresh one started in its
// place so the pool stays warm.
func (p *Pool) release(w *proc, healthy bool) {
	w.runs++
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if healthy && !closed && w.runs < maxRunsPerWorker {
		p.putIdle(w)
		<-p.slots
		return
	}
	if !healthy {
		p.killed.Add(1)
	}
	w.kill("retired")
	p.forget(w)
	<-p.slots
	if p.idleCount() < p.cfg.Warm {
		p.mu.Lock()
		if !p.closed {
			p.warming.Add(1)
			go func() {
				defer p.warming.Done()
				p.warm()
			}()
		}
		p.mu.Unlock()
	}
}

func (p *Pool) warm() {
	select {
	case p.slots <- struct{}{}:
	default:
		return
	}
	defer func() { <-p.slots }()
	w, err := p.start()
	if err != nil {
		p.log.Error("sandbox: could not start a worker", "err", err)
		return
	}
	p.adopt(w)
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		w.kill("shutdown")
		p.forget(w)
		return
	}
	p.putIdle(w)
}

func (p *Pool) putIdle(w *proc) {
	p.idleMu.Lock()
	p.idle = append(p.idle, w)
	p.idleMu.Unlock()
}

// takeIdle takes the most recently used idle worker, or nil.
func (p *Pool) takeIdle() *proc {
	p.idleMu.Lock()
	defer p.idleMu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	w := p.idle[n-1]
	p.idle = p.idle[:n-1]
	return w
}

func (p *Pool) idleCount() int {
	p.idleMu.Lock()
	defer p.idleMu.Unlock()
	return len(p.idle)
}

func (p *Pool) forget(w *proc) {
	p.mu.Lock()
	delete(p.live, w)
	p.mu.Unlock()
}

// Close kills every worker, busy ones included: their jobs end with an
// error. A graceful shutdown calls it after the HTTP server stopped
// taking requests, so that abandoned work never holds it.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.warming.Wait() // a replacement started now sees closed and stops
	p.mu.Lock()
	live := make([]*proc, 0, len(p.live))
	for w := range p.live {
		live = append(live, w)
	}
	p.mu.Unlock()
	for _, w := range live {
		w.kill("shutdown")
	}
	for _, w := range live {
		<-w.done
	}
	err := os.RemoveAll(p.tempRoot)
	p.tempLock.Close()
	return err
}

// Workers reports how many worker processes are alive.
func (p *Pool) Workers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live)
}
