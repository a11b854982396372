package routes

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"convfiles/auth"
)

// credentialRecheck is how often long-lived work (an event stream, an
// MCP stream) asks whether the credential that opened it still works: a
// revoked key ends it within this, an expired token at its expiry.
const credentialRecheck = 2 * time.Second

// credentialWatch is a request's context that ends when its credential
// does.
type credentialWatch struct {
	ctx    context.Context
	cancel context.CancelFunc
	ended  atomic.Pointer[error]
}

// watchCredential returns r's context, ended also when the credential
// that authenticated r expires or is revoked. The local user's never
// ends; stop releases the watch.
func (s *Server) watchCredential(r *http.Request) (w *credentialWatch, stop func()) {
	ctx, cancel := context.WithCancel(r.Context())
	w = &credentialWatch{ctx: ctx, cancel: cancel}
	p := auth.FromContext(r.Context())
	if s.auth == nil || p == nil || p == auth.Local {
		return w, cancel
	}
	go w.run(s.auth, p)
	return w, cancel
}

func (w *credentialWatch) run(a *auth.Authenticator, p *auth.Principal) {
	tick := time.NewTicker(credentialRecheck)
	defer tick.Stop()
	var expiry <-chan time.Time
	if !p.Expires.IsZero() {
		t := time.NewTimer(time.Until(p.Expires))
		defer t.Stop()
		expiry = t.C
	}
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-expiry:
		case <-tick.C:
		}
		check, cancel := context.WithTimeout(w.ctx, credentialRecheck)
		err := a.StillValid(check, p)
		cancel()
		if err != nil && w.ctx.Err() == nil {
			w.ended.Store(&err)
			w.cancel()
			return
		}
	}
}

// why is the reason the credential ended the work, or nil.
func (w *credentialWatch) why() error {
	if err := w.ended.Load(); err != nil {
		return *err
	}
	return nil
}
