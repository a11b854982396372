package runtime

import (
	"context"

	"convfiles/files"
)

// runState is what one run keeps whatever its language: its Space, its
// byte budget, its logs, the files it touched and its open io handles.
// The JavaScript session and the Lua session each embed one; nothing in
// it outlives the run.
type runState struct {
	ctx    context.Context
	cfg    Config
	space  files.Ops
	budget *files.Budget
	// sessionID is recorded as the source session of the files a run creates.
	sessionID string
	logs      *logBook
	touched   *TouchLog
	handles   []*handle
	open      int
}

func newRunState(ctx context.Context, cfg Config, space files.Ops, sessionID string) runState {
	return runState{
		ctx:       ctx,
		cfg:       cfg,
		space:     space,
		budget:    files.NewBudget(cfg.MaxExecutionBytes),
		sessionID: sessionID,
		logs:      &logBook{maxLines: cfg.MaxLogLines, maxBytes: cfg.MaxLogBytes, maxOut: cfg.MaxResultBytes},
		touched:   &TouchLog{},
	}
}

// writeOpts are the options of every write a run makes: its budget and
// its session.
func (s *runState) writeOpts() files.WriteOptions {
	return files.WriteOptions{Budget: s.budget, Session: s.sessionID}
}

// link is the URL of one of the run's files ("" in a standalone folder).
func (s *runState) link(name string) string {
	if s.space == nil {
		return ""
	}
	return s.cfg.Link(s.space.ID(), name)
}

// linkOrPath is a file's link, or its host path in a standalone folder.
func (s *runState) linkOrPath(name string) string {
	if u := s.link(name); u != "" {
		return u
	}
	return s.space.HostPath(name)
}

// track adds a newly opened handle, forgetting closed ones now and then.
func (s *runState) track(h *handle) {
	s.open++
	if len(s.handles) >= 2*MaxOpenFiles {
		live := s.handles[:0]
		for _, old := range s.handles {
			if !old.closed {
				live = append(live, old)
			}
		}
		s.handles = live
	}
	s.handles = append(s.handles, h)
}

// closeHandles ends every handle still open when the script stops: new
// versions are committed when the run succeeded and discarded when it
// failed, so a run that dies never leaves a file half-written.
func (s *runState) closeHandles(success bool) {
	for _, h := range s.handles {
		if _, err := h.close(!success); err != nil {
			s.logs.note("[convfiles: " + h.name + " was left open and could not be saved when the run ended: " + files.MessageOf(err) + "]")
		}
	}
	s.handles = nil
	s.open = 0
}
