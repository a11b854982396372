package routes

import (
	"errors"
	"io"
	"net/http"
	"os"
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
