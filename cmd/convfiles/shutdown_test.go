package main

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestShutdownEndsLongLivedStreams holds an event stream and an MCP
// session's standing stream open while the server shuts down: both must
// end, and the shutdown must finish cleanly instead of waiting out its
// deadline for them.
func TestShutdownEndsLongLivedStreams(t *testing.T) {
	addr, stop := startServe(t, t.TempDir())
	base := "http://" + addr
	client := &http.Client{Timeout: time.Minute}
	open := func(req *http.Request) *http.Response {
		t.Helper()
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s %s: %v %v", req.Method, req.URL, resp, err)
		}
		return resp
	}
	events := open(must(http.NewRequest("GET", base+"/api/events", nil)))
	init := must(http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)))
	init.Header.Set("Content-Type", "application/json")
	init.Header.Set("Accept", "application/json, text/event-stream")
	resp := open(init)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("initialize gave no Mcp-Session-Id")
	}
	standing := must(http.NewRequest("GET", base+"/mcp", nil))
	standing.Header.Set("Accept", "text/event-stream")
	standing.Header.Set("Mcp-Session-Id", session)
	standing.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	mcpStream := open(standing)
	ended := make(chan string, 2)
	for name, body := range map[string]io.Reader{"event stream": events.Body, "MCP stream": mcpStream.Body} {
		go func() {
			io.Copy(io.Discard, bufio.NewReader(body))
			ended <- name
		}()
	}
	stop() // fails the test if the shutdown times out
	for range 2 {
		select {
		case <-ended:
		case <-time.After(30 * time.Second):
			t.Fatal("a stream outlived the server")
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestShutdownKillsAbandonedWork: a script with a long timeout that never
// ends (in Go code no interrupt reaches) does not hold the shutdown: its
// worker is killed, its client gets an answer saying so, and the server
// is gone within seconds instead of after the script's minute.
func TestShutdownKillsAbandonedWork(t *testing.T) {
	addr, stop := startServe(t, t.TempDir())
	answer := make(chan string, 1)
	go func() {
		body := `{"code": "let o = {}; for (let i = 0; i < 4000; i++) o = {a: o}; for (;;) { try { JSON.stringify(o) } catch (e) {} }", "language": "js", "timeout": 60000}`
		req, _ := http.NewRequest("POST", "http://"+addr+"/execute", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answer <- "error: " + err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answer <- string(b)
	}()
	time.Sleep(500 * time.Millisecond) // the script is running
	start := time.Now()
	stop()
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("the shutdown took %v", took)
	}
	select {
	case a := <-answer:
		if !strings.Contains(a, "shutting down") {
			t.Fatalf("the client was told %q", a)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client got no answer")
	}
}
