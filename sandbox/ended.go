package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"convfiles/files"
	"convfiles/runtime"
)

// ended is a job that ended without a result: its worker was killed
// (timeout, cancel, shutdown) or died (a limit, a crash).
type ended struct {
	limit, why string
}

func (e *ended) Error() string { return "the worker ended: " + e.limit + " " + e.why }

// runError turns the end of a worker into the error of the run it ran.
func (p *Pool) runError(err error, timeout time.Duration) *runtime.ScriptError {
	var e *ended
	switch {
	case errors.Is(err, ErrBusy):
		return &runtime.ScriptError{Type: runtime.TypeBusy, Limit: "workers", Message: fmt.Sprintf(
			"this credential already runs %d scripts and has %d more waiting, its share of the workers: retry when some have finished",
			p.cfg.PerCredential, p.cfg.QueuePerCredential)}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "cancelled", Message: "the request ended while the script waited for a worker"}
	case !errors.As(err, &e):
		return &runtime.ScriptError{Type: runtime.TypeInternal, Message: "the script could not be run: " + err.Error()}
	}
	const stopped = "; its worker process was stopped and replaced"
	switch e.limit {
	case "timeout":
		return &runtime.ScriptError{Type: runtime.TypeTimeout, Limit: "timeout", Message: fmt.Sprintf(
			"the script ran past its timeout of %v (inside a call that could not be interrupted)%s", timeout, stopped)}
	case "cancelled":
		return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "cancelled", Message: "the request was cancelled before the script finished" + stopped}
	case "protocol":
		return &runtime.ScriptError{Type: runtime.TypeInternal, Message: "the script's worker process broke its protocol with the server" + stopped}
	case "shutdown":
		return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "cancelled", Message: "the server is shutting down" + stopped}
	case "memory":
		return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: "memory", Message: fmt.Sprintf(
			"the script ran out of memory: its process may use %s%s", files.FormatBytes(p.workerCfg.DataBytes), stopped)}
	case "cpu", "stack":
		return &runtime.ScriptError{Type: runtime.TypeLimit, Limit: e.limit, Message: "the script was stopped: " + e.why + stopped}
	}
	return &runtime.ScriptError{Type: runtime.TypeInternal, Message: "the script's worker process crashed (" + e.why + ")" + stopped}
}

// formatEnd says why a format operation's worker ended, as its refusal.
func formatEnd(e *ended, timeout time.Duration) string {
	switch e.limit {
	case "timeout":
		return fmt.Sprintf("reading the file used more than %v of CPU time and was stopped: it is damaged, hostile or too complex", timeout)
	case "memory":
		return "reading the file needed more memory than a file operation may use: it is too large once decoded"
	}
	return "the file could not be read: its decoder failed (" + e.limit + ")"
}
