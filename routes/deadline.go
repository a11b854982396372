package routes

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// DefaultBodyIdle is how long a request body may stall: a client that
// sends nothing for this long is cut off, so a slow-loris upload cannot
// hold a connection and a handler for ever. A large upload that keeps
// moving is never cut.
const DefaultBodyIdle = 30 * time.Second

// stallGuard gives a request body a read deadline that every read making
// progress moves on, and lifts it at the end of the body (a reply may
// stream for longer than any body may stall).
type stallGuard struct {
	body    io.ReadCloser
	rc      *http.ResponseController
	idle    time.Duration
	stalled bool // a read ran into the deadline
}

func guardBody(w http.ResponseWriter, r *http.Request, idle time.Duration) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(idle)) != nil {
		return // not a connection with deadlines (a test recorder)
	}
	r.Body = &stallGuard{body: r.Body, rc: rc, idle: idle}
}

func (g *stallGuard) Read(p []byte) (int, error) {
	n, err := g.body.Read(p)
	switch {
	case err == io.EOF:
		g.rc.SetReadDeadline(time.Time{})
	case n > 0:
		g.rc.SetReadDeadline(time.Now().Add(g.idle))
	case errors.Is(err, os.ErrDeadlineExceeded):
		g.stalled = true
	}
	return n, err
}

func (g *stallGuard) Close() error { return g.body.Close() }

// bodyStalled reports whether r's body stopped arriving past its idle
// time: every door answers that 408, whatever it was reading for.
func bodyStalled(r *http.Request) bool {
	g, ok := r.Body.(*stallGuard)
	return ok && g.stalled
}

// stalledMessage is the answer to a stalled body.
var stalledMessage = "the request body stopped arriving: a body may not stall for more than " + DefaultBodyIdle.String() + " at a time"

// DefaultRequestTimeout is the server's own deadline for a request that
// neither streams (event streams, uploads, downloads) nor runs a script:
// past it, whatever the request still waits for (the index, the object
// store, a lock) gives up and the client is told 503 with Retry-After.
const DefaultRequestTimeout = 60 * time.Second

// runGrace is how long a request that runs a script may take beyond the
// longest timeout a run may ask for: compiling, queuing for a worker and
// answering.
const runGrace = 30 * time.Second

// deadlineOf is the server's deadline for r, or 0 for a request that
// streams for as long as its client reads or sends (a stall, not a
// length, is what ends those; see stallGuard).
func (s *Server) deadlineOf(r *http.Request) time.Duration {
	p := r.URL.Path
	switch {
	case p == "/api/events", p == "/api/files/upload", strings.HasPrefix(p, "/files/"),
		strings.HasPrefix(p, "/api/files/") && (strings.HasSuffix(p, "/download") || strings.HasSuffix(p, "/view")),
		strings.HasPrefix(p, "/api/conversations/") && strings.HasSuffix(p, "/zip"),
		p == "/mcp" && r.Method != http.MethodPost:
		return 0
	case p == "/execute", p == "/mcp":
		return MaxTimeoutMS*time.Millisecond + runGrace
	}
	return s.requestTimeout
}

// withDeadline gives r the server's deadline for it (see deadlineOf).
func (s *Server) withDeadline(r *http.Request) (*http.Request, context.CancelFunc) {
	d := s.deadlineOf(r)
	if d <= 0 {
		return r, func() {}
	}
	ctx, cancel := context.WithTimeout(r.Context(), d)
	return r.WithContext(ctx), cancel
}
