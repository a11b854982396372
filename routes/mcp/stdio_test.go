package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioTransportSpeaksJSONRPC drives the stdio transport with raw
// lines: string and number IDs, a batch (older protocol versions), and a
// tool call, and checks every answer.
func TestStdioTransportSpeaksJSONRPC(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	store, _ := storetest.Open(t, dir, engine.Options{})
	server, err := mcp.New(mcp.Config{Store: store, Conversation: "io"})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, &mcp.StdioTransport{Reader: inR, Writer: outW}) }()
	out := bufio.NewScanner(outR)
	out.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(line string) { io.WriteString(inW, line+"\n") }
	answer := func() map[string]any {
		if !out.Scan() {
			t.Fatalf("no answer: %v", out.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("answer %q: %v", out.Text(), err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if a := answer(); a["id"] != "init" || a["result"] == nil {
		t.Fatalf("initialize answered %v", a)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	ids := map[float64]bool{}
	for range 2 {
		ids[answer()["id"].(float64)] = true
	}
	if !ids[1] || !ids[2] {
		t.Fatalf("the batch's answers have ids %v", ids)
	}
	// Lines that are no message get a JSON-RPC error, and the session goes
	// on: not JSON, not version 2.0, a broken batch, a line over the cap.
	for _, bad := range []string{`{"jsonrpc":"2.0","id":3,"method"`, `{"jsonrpc":"1.0","id":4,"method":"ping"}`, `[]`,
		`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", sdk.DefaultMaxLineLength) + `"}}`} {
		send(bad)
		a := answer()
		e, _ := a["error"].(map[string]any)
		if a["id"] != nil || e == nil || e["message"] == "" {
			t.Fatalf("%.60s… answered %v, want a JSON-RPC error", bad, a)
		}
	}
	send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if a := answer(); a["id"] != 6.0 || a["error"] != nil {
		t.Fatalf("after the bad lines a ping answered %v", a)
	}
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"file_write_text","arguments":{"id":"a b.txt","content":"héllo"}}}`)
	a := answer()
	res, _ := json.Marshal(a["result"])
	if a["id"] != 7.0 || !strings.Contains(string(res), `"ok":true`) {
		t.Fatalf("tools/call answered %v", a)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end when stdin closed")
	}
}
