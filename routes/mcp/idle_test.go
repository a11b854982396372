package mcp_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestIdleHTTPSessionsAreClosed: an MCP-over-HTTP session that sends
// nothing for SessionIdle is closed by the server (and stops receiving
// file events); a session in use stays open.
func TestIdleHTTPSessionsAreClosed(t *testing.T) {
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{Bus: files.NewBus()})
	server, err := mcp.New(mcp.Config{Store: store, SessionIdle: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	srv := httptest.NewServer(server.HTTPHandler())
	t.Cleanup(srv.Close)
	ctx := context.Background()
	connect := func() *sdk.ClientSession {
		c := sdk.NewClient(&sdk.Implementation{Name: "idle", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	idle, busy := connect(), connect()
	sessions := server.SessionCount
	if n := sessions(); n < 2 {
		t.Fatalf("%d sessions open, want both", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for sessions() != 1 && time.Now().Before(deadline) {
		if _, err := busy.ListTools(ctx, nil); err != nil {
			t.Fatalf("a session in use was closed: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := sessions(); n != 1 {
		t.Fatalf("%d sessions open after the idle one's timeout, want 1", n)
	}
	if _, err := idle.ListTools(ctx, nil); err == nil {
		t.Fatal("the idle session still answers after it was closed")
	}
}
