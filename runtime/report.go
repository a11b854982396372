package runtime

import (
	"encoding/json"
	"fmt"

	"convfiles/files"
)

// Report is what one execution produced. It is filled even when the script
// fails, so the logs and files written before the failure are not lost.
type Report struct {
	// Result is the JSON of the value the script returned, or of its last
	// expression. A script with neither (its last statement a console.log
	// or a declaration) has as its result the last line it printed, when
	// that line is JSON: the Workspace Execute API's rule (seed 002) for
	// scripts that print their result. Otherwise null.
	Result json.RawMessage `json:"result"`
	// Logs holds print and console output, one entry per call, capped.
	Logs []string `json:"logs"`
	// FilesTouched is the final state of every file the script wrote or
	// removed, in the order they were first touched.
	FilesTouched []Touched `json:"files_touched"`
	// Error is set when the script did not finish normally.
	Error *ScriptError `json:"error,omitempty"`
	// NoValue says the script left no value and printed no JSON; Printed
	// is then its standard output, trimmed, which the Workspace Execute
	// API (seed 002) answers as its result.
	NoValue bool   `json:"-"`
	Printed string `json:"-"`
}

// Touched is the final state of one file after a run (seed 001's
// aggregation): "write" with its size when it exists, "remove" when it does not.
type Touched struct {
	Name  string `json:"name"`
	Op    string `json:"op"`
	Bytes int64  `json:"bytes,omitempty"`
	URL   string `json:"url,omitempty"`
}

// The types of ScriptError, named as the Workspace Execute API names them.
const (
	TypeSyntax    = "SyntaxError"    // the script does not parse
	TypeExecution = "ExecutionError" // the script threw and did not catch it
	TypeTimeout   = "TimeoutError"   // the script ran past its timeout
	TypeLimit     = "LimitError"     // the script hit a memory, stack or output limit
	TypeInternal  = "InternalError"  // convfiles failed, not the script
	TypeBusy      = "BusyError"      // the credential's share of the workers is full: retry
)

// ScriptError says why a run did not finish normally.
type ScriptError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	// Limit names the limit that was hit for TimeoutError and LimitError:
	// "timeout", "memory", "call_stack", "result_size".
	Limit string `json:"limit,omitempty"`
	// Stack is the JS stack trace, when there is one. Its positions are
	// those of the user's source, TypeScript included.
	Stack string `json:"stack,omitempty"`
	// Line and Column locate a SyntaxError.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// Error formats the error as "Type: message".
func (e *ScriptError) Error() string { return e.Type + ": " + e.Message }

// LimitHit is the value passed to goja's Interrupt; it becomes a ScriptError.
type LimitHit struct {
	Limit string
	msg   string
}

// Error returns the message shown to the user.
func (l *LimitHit) Error() string { return l.msg }

func (l *LimitHit) ScriptError() *ScriptError {
	typ := TypeLimit
	if l.Limit == "timeout" {
		typ = TypeTimeout
	}
	return &ScriptError{Type: typ, Message: l.msg, Limit: l.Limit}
}

func timeoutHit(d fmt.Stringer) *LimitHit {
	return &LimitHit{Limit: "timeout", msg: fmt.Sprintf("the script ran longer than its timeout of %s and was stopped", d)}
}

// Written is one file a run left behind, as code-mcp's files_written
// names it (seed 000): its name, where it lives on the host, and its size.
type Written struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

// HostPather says where a file lives on the host; files.Ops does.
type HostPather interface{ HostPath(name string) string }

// FilesWritten lists the files of touched that exist after the run, with
// their host paths in sp (nil: a run without files, which wrote none).
func FilesWritten(touched []Touched, sp HostPather) []Written {
	out := []Written{}
	if sp == nil {
		return out
	}
	for _, t := range touched {
		if t.Op != files.Removed.String() {
			out = append(out, Written{Name: t.Name, Path: sp.HostPath(t.Name), Bytes: t.Bytes})
		}
	}
	return out
}
