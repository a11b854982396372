package routes

import (
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"convfiles/auth"

	"golang.org/x/time/rate"
)

// RateLimits are requests per minute; 0 turns a limit off. The defaults
// are the numbers seed 002 proposes for production.
type RateLimits struct {
	PerClient int // per client address, on /workspace, /execute and /lint
	PerCodeID int // saves of one codeId
	Global    int // all clients together
	// PerCredential is requests a minute per credential in hosted mode,
	// on every authenticated route (0: no limit).
	PerCredential int
	// MCPPerClient is MCP requests a minute per client address over HTTP.
	MCPPerClient int
	// EventStreams and EventStreamsPerClient cap the long-lived streams
	// open at once (0: DefaultEventStreams, DefaultEventStreamsPerClient).
	EventStreams, EventStreamsPerClient int
}

// DefaultRateLimits are seed 002's numbers; an agent's MCP client makes
// a call per tool use, so it gets more room. It is a function, not a
// variable, so that no one can change the defaults of every server.
func DefaultRateLimits() RateLimits {
	return RateLimits{PerClient: 100, PerCodeID: 10, Global: 1000, MCPPerClient: 600, PerCredential: 6000,
		EventStreams: DefaultEventStreams, EventStreamsPerClient: DefaultEventStreamsPerClient}
}

// limiter holds one token bucket per key (a client address, a codeId), each
// refilling at perMinute and holding up to perMinute tokens, so a quiet
// client may burst. Buckets idle for ten minutes are forgotten.
type limiter struct {
	perMinute int
	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(perMinute int) *limiter {
	return &limiter{perMinute: perMinute, buckets: map[string]*bucket{}, lastSweep: time.Now()}
}

// allow takes a token for key, or says how long until one is free.
func (l *limiter) allow(key string) (ok bool, retryAfter time.Duration) {
	if l == nil || l.perMinute <= 0 {
		return true, 0
	}
	now := time.Now()
	l.mu.Lock()
	b, found := l.buckets[key]
	if !found {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(float64(l.perMinute)/60), l.perMinute)}
		l.buckets[key] = b
	}
	b.seen = now
	if now.Sub(l.lastSweep) > time.Minute {
		for k, old := range l.buckets {
			if now.Sub(old.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.lastSweep = now
	}
	l.mu.Unlock()
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// limits holds the limiters of the API.
type limits struct {
	client, codeID, global, mcp, credential *limiter
	streams                                 *streamCaps
}

func newLimits(rl RateLimits) *limits {
	return &limits{client: newLimiter(rl.PerClient), codeID: newLimiter(rl.PerCodeID), global: newLimiter(rl.Global),
		mcp: newLimiter(rl.MCPPerClient), credential: newLimiter(rl.PerCredential), streams: newStreamCaps(rl.EventStreamsPerClient, rl.EventStreams)}
}

// limitMCP applies the MCP rate limit to every /mcp request, and the
// stream caps to its standing streams (GET).
func (s *Server) limitMCP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := s.limits.mcp.allow(clientKey(r)); !ok {
			tooMany(w, "this client", s.rates.MCPPerClient, wait)
			return
		}
		if r.Method == http.MethodGet {
			release := s.limits.streams.acquire(w, r)
			if release == nil {
				return
			}
			defer release()
		}
		h.ServeHTTP(w, r)
	})
}

// admit checks the client and global limits, answering 429 with
// Retry-After when either is exhausted. It reports whether to go on.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) bool {
	if ok, wait := s.limits.client.allow(clientKey(r)); !ok {
		tooMany(w, "this client", s.rates.PerClient, wait)
		return false
	}
	if ok, wait := s.limits.global.allow(""); !ok {
		tooMany(w, "the server", s.rates.Global, wait)
		return false
	}
	return true
}

func tooMany(w http.ResponseWriter, who string, perMinute int, wait time.Duration) {
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	writeJSON(w, http.StatusTooManyRequests, envelope{Error: &errorBody{
		Type:    "RateLimitError",
		Message: "Too many requests: " + who + " may make " + strconv.Itoa(perMinute) + " per minute; retry in " + strconv.Itoa(secs) + " s",
		Details: map[string]any{"limitPerMinute": perMinute, "retryAfterSeconds": secs},
	}})
}

// clientKey is who a per-client limit counts: the credential of an
// authenticated request (hosted mode), else the client's address.
func clientKey(r *http.Request) string {
	if p := auth.FromContext(r.Context()); p != nil && p != auth.Local {
		return "credential " + p.ID
	}
	return clientNetwork(clientAddr(r))
}

// clientNetwork is what one client controls of its address: every
// loopback address is one client (a local program can send from any of
// 127.0.0.0/8), as is an IPv6 /64 (one machine's usual share); an IPv4
// address is itself.
func clientNetwork(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.Is6():
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// clientAddr is the client's IP address, without its port.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
