package routes

import (
	"net/http"
	"strconv"
	"sync"
)

// Defaults of the stream caps.
const (
	DefaultEventStreams          = 512
	DefaultEventStreamsPerClient = 32
)

// streamCaps bounds the long-lived streams (/api/events, MCP's standing
// stream) open at once, per client address and in all: each holds a
// connection and a goroutine for as long as the client likes.
type streamCaps struct {
	perClient, total int
	mu               sync.Mutex
	open             map[string]int
	all              int
}

func newStreamCaps(perClient, total int) *streamCaps {
	if perClient <= 0 {
		perClient = DefaultEventStreamsPerClient
	}
	if total <= 0 {
		total = DefaultEventStreams
	}
	return &streamCaps{perClient: perClient, total: total, open: map[string]int{}}
}

// acquire takes a place for a stream of r's client, or answers 429 and
// returns nil. The returned function gives the place back.
func (c *streamCaps) acquire(w http.ResponseWriter, r *http.Request) (release func()) {
	client := clientKey(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	var who string
	var max int
	switch {
	case c.open[client] >= c.perClient:
		who, max = "this client", c.perClient
	case c.all >= c.total:
		who, max = "the server", c.total
	}
	if who != "" {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusTooManyRequests, envelope{Error: &errorBody{
			Type:    "RateLimitError",
			Message: "too many open streams: " + who + " may keep " + strconv.Itoa(max) + " open at once; close one and retry",
			Details: map[string]any{"maxStreams": max},
		}})
		return nil
	}
	c.open[client]++
	c.all++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.open[client]--; c.open[client] == 0 {
			delete(c.open, client)
		}
		c.all--
	}
}
