package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is one worker process and the server's end of its socket.
type proc struct {
	cmd    *exec.Cmd
	c      *conn
	tmp    string
	stderr *tail
	status string // what confines it, as it reported
	runs   int

	done    chan struct{} // closed when the process has exited
	exitErr error

	mu     sync.Mutex
	killed string // why the server killed it, if it did
}

// start launches a worker and sends it its configuration.
func (p *Pool) start() (*proc, error) {
	mine, theirs, err := socketPair()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(p.tempRoot, "w")
	if err != nil {
		syscall.Close(mine)
		theirs.Close()
		return nil, err
	}
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	// One job at a time: one P, so the workers of a busy server do not
	// compete for the cores with a scheduler and GC workers each. Garbage
	// is collected lazily, as the server does (a fresh VM per run makes
	// much of it), under the soft limit WorkerMain sets.
	cmd.Env = []string{workerEnv + "=1", "TMPDIR=" + tmp, "GOTRACEBACK=none", "GOMAXPROCS=1", "GOGC=400"}
	cmd.ExtraFiles = []*os.File{theirs} // descriptor 3
	w := &proc{cmd: cmd, c: newPolledConn(mine), tmp: tmp, stderr: &tail{max: 16 << 10}, done: make(chan struct{})}
	cmd.Stderr = w.stderr
	cmd.SysProcAttr = workerAttr()
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		w.c.close()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("sandbox: starting a worker: %w", err)
	}
	p.started.Add(1)
	go func() {
		w.exitErr = cmd.Wait()
		w.c.close()
		os.RemoveAll(tmp)
		close(w.done)
	}()
	cfg := *p.workerCfg
	cfg.TempDir = tmp
	if err := w.c.send(&message{Kind: kindJob, Config: &cfg}); err != nil {
		w.kill("broken")
		return nil, fmt.Errorf("sandbox: configuring a worker: %w (%s)", err, w.stderr.String())
	}
	ready, _, err := w.c.recv()
	if err != nil || ready.Kind != kindDone {
		w.kill("broken")
		<-w.done
		return nil, fmt.Errorf("sandbox: a worker did not start: %v %s", err, strings.TrimSpace(w.stderr.String()))
	}
	w.status = result[string](ready, 0)
	return w, nil
}

// kill stops the worker at once (SIGKILL to its process group); why is
// kept to explain the run's end. It is safe to call more than once.
func (w *proc) kill(why string) {
	w.mu.Lock()
	if w.killed == "" {
		w.killed = why
	}
	w.mu.Unlock()
	if w.cmd.Process != nil {
		syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		w.cmd.Process.Kill()
	}
}

func (w *proc) killedFor() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.killed
}

// death says why a worker ended in the middle of a job: the limit it hit,
// and a sentence for the user. It waits for the process to be gone.
func (w *proc) death() (limit, why string) {
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
		w.kill("unresponsive")
		<-w.done
	}
	if k := w.killedFor(); k != "" {
		return k, ""
	}
	var ee *exec.ExitError
	errors.As(w.exitErr, &ee)
	out := w.stderr.String()
	switch {
	case ee != nil && ee.ExitCode() == exitCPU:
		return "cpu", "it used all the CPU time it was given"
	case strings.Contains(out, "out of memory") || strings.Contains(out, "cannot allocate memory"):
		return "memory", "it used more memory than its limit"
	case strings.Contains(out, "stack overflow") || strings.Contains(out, "stack exceeds"):
		return "stack", "it nested or recursed too deeply"
	case ee != nil && !ee.Exited():
		return "crash", "its process was killed by " + ee.String()
	}
	if first, _, _ := strings.Cut(strings.TrimSpace(out), "\n"); first != "" {
		return "crash", "its process failed: " + first + "; a script that exhausts its worker's memory or stack can cause this"
	}
	return "crash", "its process failed"
}

// tail keeps the first and the last bytes written to it: a worker's
// stderr, whose first lines say why a Go runtime ended ("fatal error:
// runtime: out of memory", "stack overflow") before its goroutine dump.
type tail struct {
	mu   sync.Mutex
	max  int
	head []byte
	buf  []byte
}

const tailHead = 2 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := tailHead - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = bytes.Clone(t.buf[over:])
	}
	return n, nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.buf)
}
