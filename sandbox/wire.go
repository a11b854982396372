package sandbox

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"convfiles/files"
	"convfiles/internal/signing"
	"convfiles/runtime"
)

// The kinds of message.
const (
	kindJob   = 'j' // server → worker: do a job
	kindCall  = 'c' // worker → server: a file operation for the job
	kindReply = 'r' // server → worker: the operation's answer
	kindDone  = 'd' // worker → server: the job's result
	// kindCancel, server → worker: end the job being run (its client
	// went away) and answer it as done.
	kindCancel = 'x'
	// kindCallCancel, worker → server: the context of the call being
	// served ended; the server cancels it and still answers it.
	kindCallCancel = 'y'
)

// message is every message of the protocol: a job, a file operation and
// its answer, or a job's result. Only the fields a message uses are set,
// and gob sends only those.
type message struct {
	Kind byte
	FDs  int // descriptors passed with this message

	// A file operation: the files.Ops method (or a writer's, see
	// opcall.go) and its arguments, in the method's own types but for
	// its context, which is the caller's deadline. The answer carries
	// the method's results but for its error, which is Err.
	Op       string
	Args     []any
	Deadline time.Time
	Results  []any
	Err      *wireError

	Job    *job
	Result *jobResult
	Config *workerConfig
}

// workerConfig is the first message a worker receives: its limits and
// what its runs need to know.
type workerConfig struct {
	Limits   runLimits
	LinkBase string
	// AddressSpace is RLIMIT_AS in bytes, DataBytes RLIMIT_DATA,
	// CPULifetime RLIMIT_CPU's hard limit in seconds, TempBytes
	// RLIMIT_FSIZE; 0 leaves one unset.
	AddressSpace, DataBytes, TempBytes int64
	CPULifetime                        uint64
	// TempDir is the worker's own temporary folder, the one place
	// Landlock lets it write.
	TempDir string
}

// job is work for a worker: a script run, a lint, or a format operation.
type job struct {
	Kind string // "run", "lint", "format"

	Source, Filename, Language, Session string
	Env                                 map[string]string
	Timeout                             time.Duration
	// HasSpace says the job has a conversation's files; Conversation and
	// HostDir describe them.
	HasSpace              bool
	Conversation, HostDir string
	// LinkKey signs the links of Conversation only (signing.Key.Derive),
	// so a worker taken over by its script can sign no other
	// conversation's links; nil gives plain links. LinkTTL is their life.
	LinkKey *signing.Key
	LinkTTL time.Duration

	Op    string // a formats operation
	Args  []byte // its JSON arguments
	Write *wireOpts
}

// jobResult is what a job gave.
type jobResult struct {
	Report *runtime.Report
	Diags  []runtime.Diagnostic
	Output []byte // a format operation's JSON answer
	Err    *wireError
	// Retire asks the server to kill the worker: work the job started
	// goes on in it.
	Retire bool
}

// runLimits are the limits of runtime.Config, as they cross the socket.
type runLimits struct {
	Timeout                                                time.Duration
	MaxCallStack, MaxLogLines, MaxLogBytes, MaxResultBytes int
	MemoryLimit, MaxExecutionBytes, MaxReadBytes           int64
}

func limitsOf(c runtime.Config) runLimits {
	return runLimits{Timeout: c.Timeout, MaxCallStack: c.MaxCallStack, MaxLogLines: c.MaxLogLines, MaxLogBytes: c.MaxLogBytes,
		MaxResultBytes: c.MaxResultBytes, MemoryLimit: c.MemoryLimit, MaxExecutionBytes: c.MaxExecutionBytes, MaxReadBytes: c.MaxReadBytes}
}

func (l runLimits) config() runtime.Config {
	return runtime.Config{Timeout: l.Timeout, MaxCallStack: l.MaxCallStack, MaxLogLines: l.MaxLogLines, MaxLogBytes: l.MaxLogBytes,
		MaxResultBytes: l.MaxResultBytes, MemoryLimit: l.MemoryLimit, MaxExecutionBytes: l.MaxExecutionBytes, MaxReadBytes: l.MaxReadBytes}
}

// wireOpts are files.WriteOptions as they cross the socket. A budget is
// the job's own, kept by the server: Budget says whether to charge it.
type wireOpts struct {
	Budget      bool
	NoReplace   bool
	IfUnchanged *files.Info
	Source      files.Source
	Session     string
	DerivedFrom string
}

func toWire(o files.WriteOptions) *wireOpts {
	return &wireOpts{Budget: o.Budget != nil, NoReplace: o.NoReplace, IfUnchanged: o.IfUnchanged,
		Source: o.Source, Session: o.Session, DerivedFrom: o.DerivedFrom}
}

func (w *wireOpts) options(budget *files.Budget) files.WriteOptions {
	if w == nil {
		return files.WriteOptions{}
	}
	o := files.WriteOptions{NoReplace: w.NoReplace, IfUnchanged: w.IfUnchanged, Source: w.Source,
		Session: w.Session, DerivedFrom: w.DerivedFrom}
	if w.Budget {
		o.Budget = budget
	}
	return o
}

// wireError is an error as it crosses the socket: a files.Error's parts,
// and which of the errors callers test with errors.Is it wraps.
type wireError struct {
	Op, Name, Msg, Cause string
	Kind                 files.Kind
	Files                bool // it was a *files.Error
	Sentinel             string
	Fetch, Refused       bool // a download's FetchError, and a refusal
}

var sentinels = map[string]error{
	"changed": files.ErrChanged, "exist": fs.ErrExist, "notexist": fs.ErrNotExist,
	"canceled": context.Canceled, "deadline": context.DeadlineExceeded,
}

func encodeError(err error) *wireError {
	if err == nil {
		return nil
	}
	w := &wireError{Cause: err.Error()}
	var fe *files.Error
	if errors.As(err, &fe) {
		w.Files, w.Op, w.Kind, w.Name, w.Msg, w.Cause = true, fe.Op, fe.Kind, fe.Name, fe.Msg, ""
		if fe.Err != nil {
			w.Cause = fe.Err.Error()
		}
	}
	for name, s := range sentinels {
		if errors.Is(err, s) {
			w.Sentinel = name
			break
		}
	}
	var fetch *runtime.FetchError
	w.Fetch = errors.As(err, &fetch)
	var ref runtime.Refusal
	w.Refused = errors.As(err, &ref) && ref.Refused()
	return w
}

// refusal is a decoded error that was a download refusal.
type refusal struct{ error }

func (refusal) Refused() bool { return true }

func (r refusal) Unwrap() error { return r.error }

func (w *wireError) decode() error {
	if w == nil {
		return nil
	}
	var cause error
	if w.Cause != "" {
		cause = errors.New(w.Cause)
	}
	if s, ok := sentinels[w.Sentinel]; ok {
		cause = s
		if w.Cause != s.Error() {
			cause = &wrapped{msg: w.Cause, err: s}
		}
	}
	if w.Refused {
		cause = refusal{cause}
	}
	err := cause
	if w.Files {
		err = &files.Error{Op: w.Op, Kind: w.Kind, Name: w.Name, Msg: w.Msg, Err: cause}
	}
	if w.Fetch {
		err = &runtime.FetchError{Err: err}
	}
	return err
}

// wrapped keeps an error's message and the sentinel it wrapped.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }
