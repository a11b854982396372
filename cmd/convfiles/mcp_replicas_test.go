package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// alternating sends each request to the next of several replicas, as a
// load balancer without affinity does.
type alternating struct {
	hosts []string
	next  atomic.Int64
	seen  []atomic.Int64
}

func (a *alternating) RoundTrip(r *http.Request) (*http.Response, error) {
	i := int(a.next.Add(1)) % len(a.hosts)
	a.seen[i].Add(1)
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = a.hosts[i], a.hosts[i]
	return http.DefaultTransport.RoundTrip(r)
}

// TestStatelessMCPAcrossReplicas: with [server] mcp_stateless = true, an
// MCP client behind a balancer that sends each request to another
// replica initializes, writes a file through one replica and reads it
// back through another; without it, the second replica does not know
// the first one's session.
func TestStatelessMCPAcrossReplicas(t *testing.T) {
	storage, _, _ := distributedConfig(t, "")
	connect := func(stateless bool) (*sdk.ClientSession, *alternating, error) {
		toml := storage
		if stateless {
			toml = "[server]\nmcp_stateless = true\n" + storage
		}
		bal := &alternating{seen: make([]atomic.Int64, 2)}
		for range 2 {
			p := startServerProcessWith(t, t.TempDir(), toml)
			t.Cleanup(func() { p.cmd.Process.Signal(syscall.SIGTERM); p.cmd.Wait() })
			u, _ := url.Parse(p.base)
			bal.hosts = append(bal.hosts, u.Host)
		}
		client := sdk.NewClient(&sdk.Implementation{Name: "balanced", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: "http://" + bal.hosts[0] + "/mcp",
			HTTPClient: &http.Client{Transport: bal}, DisableStandaloneSSE: true}, nil)
		if err == nil {
			t.Cleanup(func() { cs.Close() })
		}
		return cs, bal, err
	}
	ctx := context.Background()

	cs, bal, err := connect(true)
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"written through one replica", "and again through the other"} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "file_write_text",
			Arguments: map[string]any{"conversation_id": "mcp-1", "id": "note.txt", "content": body}})
		if err != nil || res.IsError {
			t.Fatalf("write %d: %v %+v", i, err, res)
		}
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "file_read_text",
			Arguments: map[string]any{"conversation_id": "mcp-1", "id": "note.txt"}})
		if err != nil || res.IsError || !strings.Contains(text(res), body) {
			t.Fatalf("read back %d: %v %q", i, err, text(res))
		}
	}
	if bal.seen[0].Load() == 0 || bal.seen[1].Load() == 0 {
		t.Fatalf("the balancer sent %d and %d requests: both replicas must have answered", bal.seen[0].Load(), bal.seen[1].Load())
	}

	if cs, _, err := connect(false); err == nil {
		_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "file_read_text",
			Arguments: map[string]any{"conversation_id": "mcp-1", "id": "note.txt"}})
		if err == nil {
			_, err = cs.ListTools(ctx, nil)
		}
		if err == nil {
			t.Fatal("sessions moved between replicas without mcp_stateless: the test shows nothing")
		}
	}
}

// text joins the text contents of a tool result.
func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	if res == nil {
		return ""
	}
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
