package runtime

import (
	"context"
	"time"

	"convfiles/files"
)

// Run is what one run keeps whatever its language: its Space, its
// byte budget, its logs, the files it touched and its open io handles.
// The JavaScript session and the Lua session each embed one; nothing in
// it outlives the run.
type Run struct {
	Ctx    context.Context
	Cfg    Config
	Files  files.Ops
	budget *files.Budget
	// sessionID is recorded as the source session of the files a run creates.
	sessionID string
	Logs      *LogBook
	Touches   *TouchLog
	handles   []*Handle
	// Timeout is how long the run may take: its request's, or the
	// configuration's.
	Timeout time.Duration
	Open    int
}

// NewRun is the state of a run of cfg over space, made by the Runner for
// each run (and by an interpreter that needs one outside a run).
func NewRun(ctx context.Context, cfg Config, space files.Ops, sessionID string) *Run {
	return &Run{
		Ctx:       ctx,
		Cfg:       cfg,
		Files:     space,
		budget:    files.NewBudget(cfg.MaxExecutionBytes),
		sessionID: sessionID,
		Logs:      &LogBook{maxLines: cfg.MaxLogLines, maxBytes: cfg.MaxLogBytes, maxOut: cfg.MaxResultBytes},
		Touches:   &TouchLog{},
	}
}

// WriteOpts are the options of every write a run makes: its budget and
// its session.
func (s *Run) WriteOpts() files.WriteOptions {
	return files.WriteOptions{Budget: s.budget, Session: s.sessionID}
}

// link is the URL of one of the run's files ("" in a standalone folder).
func (s *Run) link(name string) string {
	if s.Files == nil {
		return ""
	}
	return s.Cfg.Link(s.Files.ID(), name)
}

// LinkOrPath is a file's link, or its host path in a standalone folder.
func (s *Run) LinkOrPath(name string) string {
	if u := s.link(name); u != "" {
		return u
	}
	return s.Files.HostPath(name)
}

// Track adds a newly opened handle, forgetting closed ones now and then.
func (s *Run) Track(h *Handle) {
	s.Open++
	if len(s.handles) >= 2*MaxOpenFiles {
		live := s.handles[:0]
		for _, old := range s.handles {
			if !old.Closed {
				live = append(live, old)
			}
		}
		s.handles = live
	}
	s.handles = append(s.handles, h)
}

// CloseHandles ends every handle still open when the script stops: new
// versions are committed when the run succeeded and discarded when it
// failed, so a run that dies never leaves a file half-written.
func (s *Run) CloseHandles(success bool) {
	for _, h := range s.handles {
		if _, err := h.Close(!success); err != nil {
			s.Logs.note("[convfiles: " + h.Name + " was left open and could not be saved when the run ended: " + files.MessageOf(err) + "]")
		}
	}
	s.handles = nil
	s.Open = 0
}
