package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// loadDrive is how the load-and-fault suite's clients send their changes
// (see replicaClient.load): writes go through REST, /execute and MCP in
// turn; a share of the requests is abandoned by its client mid-way; an
// outage's 503 is an answer whose outcome the files tell; and a request
// that no answer ends within loadStall is a stall, which the suite counts
// as a failure.
type loadDrive struct {
	http       *http.Client
	disconnect float64 // the share of requests whose client goes away
	stalled    atomic.Int64
	abandoned  atomic.Int64
	byDoor     [3]atomic.Int64 // acknowledged through rest, execute, mcp
}

// loadStall is past the server's own deadline (routes.DefaultRequestTimeout)
// with room to spare: a request still unanswered then waits on nothing
// that will end it.
const loadStall = 90 * time.Second

// loadSettle is how long a change whose client hung up may still land:
// the server stops a request whose client is gone at its next wait (a
// lock, a connection, the worker), but a commit already under way
// finishes, and during an outage it waits for the database to answer.
const loadSettle = 8 * time.Second

var doorNames = [3]string{"rest", "execute", "mcp"}

func newLoadDrive(disconnect float64) *loadDrive {
	return &loadDrive{http: &http.Client{Timeout: loadStall}, disconnect: disconnect}
}

// send makes one change through a door and returns its answer, read
// whole: 200 for a change made, 503 for an outage, the door's own status
// (500 for a failed script or tool) for anything else.
func (d *loadDrive) send(c *replicaClient, base, op string, in map[string]any) (*http.Response, error) {
	door := 0
	if op == "write_text" {
		door = c.rnd.IntN(3)
	}
	ctx := context.Background()
	abandon := c.rnd.Float64() < d.disconnect
	if abandon {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(1+c.rnd.IntN(40))*time.Millisecond)
		defer cancel()
	}
	var status int
	var body []byte
	var err error
	switch door {
	case 0:
		status, body, err = d.post(ctx, fmt.Sprintf("%s/api/conversations/%s/ops/%s", base, c.conv, op), "", in)
	case 1:
		code := fmt.Sprintf(`files.writeText(%q, %q); "ok"`, in["id"], in["content"])
		status, body, err = d.post(ctx, base+"/execute", "", map[string]any{"code": code, "language": "js", "conversationId": c.conv})
		if err == nil && status == 200 && !bytes.Contains(body, []byte(`"success":true`)) {
			status = 500
		}
	case 2:
		status, body, err = d.mcpWrite(ctx, base, c.conv, in)
	}
	switch {
	case err != nil && abandon && errors.Is(err, context.DeadlineExceeded):
		d.abandoned.Add(1)
		return nil, err
	case err != nil && errors.Is(err, context.DeadlineExceeded):
		d.stalled.Add(1)
		c.t.Errorf("a request through %s stalled: no answer within %s", doorNames[door], loadStall)
		return nil, err
	case err != nil:
		return nil, err
	}
	if bytes.Contains(body, []byte("UnavailableError")) || bytes.Contains(body, []byte("try again shortly")) ||
		bytes.Contains(body, []byte("the change may have been made")) {
		status = http.StatusServiceUnavailable
	}
	if bytes.Contains(body, []byte("StorageFullError")) || bytes.Contains(body, []byte("disk is full")) {
		status = http.StatusInsufficientStorage
	}
	if status == 200 {
		d.byDoor[door].Add(1)
	}
	return &http.Response{StatusCode: status, Body: io.NopCloser(bytes.NewReader(body))}, nil
}

// post sends a JSON request and reads the whole answer.
func (d *loadDrive) post(ctx context.Context, url, session string, in any) (int, []byte, error) {
	b, _ := json.Marshal(in)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if session != "" || strings.HasSuffix(url, "/mcp") {
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if session == "" && strings.HasSuffix(url, "/mcp") {
		return resp.StatusCode, []byte(resp.Header.Get("Mcp-Session-Id")), err
	}
	return resp.StatusCode, body, err
}

// mcpWrite writes a file with the file_write_text tool, in a session of
// its own (a replica's sessions die with it).
func (d *loadDrive) mcpWrite(ctx context.Context, base, conv string, in map[string]any) (int, []byte, error) {
	status, session, err := d.post(ctx, base+"/mcp", "", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize",
		"params": map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "load", "version": "1"}}})
	if err != nil || status != 200 {
		return status, session, err
	}
	args := map[string]any{"conversation_id": conv, "id": in["id"], "content": in["content"]}
	status, body, err := d.post(ctx, base+"/mcp", string(session), map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": "file_write_text", "arguments": args}})
	if err == nil && status == 200 && bytes.Contains(body, []byte(`"isError":true`)) {
		status = 500
	}
	return status, body, err
}
