package routes

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/runtime"
)

// TestStreamsAndMCPAreLimited: event streams past a client's cap get 429
// until one closes; MCP requests past their rate get 429 with
// Retry-After, before the MCP handler runs.
func TestStreamsAndMCPAreLimited(t *testing.T) {
	store, _ := storetest.Open(t, t.TempDir(), engine.Options{Bus: files.NewBus()})
	hits := 0
	h := New(Config{Store: store, API: true, Links: Links{Base: "http://127.0.0.1"},
		RateLimits: RateLimits{EventStreamsPerClient: 3, EventStreams: 10, MCPPerClient: 4},
		MCP:        http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ })})
	srv := httptest.NewServer(h)
	defer func() { h.Shutdown(); srv.Close() }()

	open := func() (*http.Response, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp, cancel
	}
	var cancels []context.CancelFunc
	for i := 0; i < 3; i++ {
		resp, cancel := open()
		if resp.StatusCode != 200 {
			t.Fatalf("stream %d: %d", i, resp.StatusCode)
		}
		cancels = append(cancels, func() { cancel(); resp.Body.Close() })
	}
	resp, cancel := open()
	var env envelopeOf[any]
	decode(t, resp, &env)
	cancel()
	if resp.StatusCode != 429 || !strings.Contains(env.Error.Message, "may keep 3 open") {
		t.Fatalf("a fourth stream: %d %+v", resp.StatusCode, env.Error)
	}
	cancels[0]()
	var ok bool
	for i := 0; i < 100 && !ok; i++ { // the server sees the close shortly
		resp, cancel := open()
		ok = resp.StatusCode == 200
		cancel()
		resp.Body.Close()
	}
	if !ok {
		t.Fatal("a stream closed did not free its place")
	}
	for _, c := range cancels[1:] {
		c()
	}

	for i := 0; i < 6; i++ {
		resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := 200; i >= 4 {
			if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("MCP request %d: %d", i, resp.StatusCode)
			}
		} else if resp.StatusCode != want {
			t.Fatalf("MCP request %d: %d", i, resp.StatusCode)
		}
	}
	if hits != 4 {
		t.Fatalf("the MCP handler ran %d times", hits)
	}
}

// TestStalledBodiesAreCutOff: a body that stops arriving is cut off after
// the idle time, and the handler sees an error; one that keeps coming is
// read whole however long it takes.
func TestStalledBodiesAreCutOff(t *testing.T) {
	store, _ := storetest.Open(t, t.TempDir(), engine.Options{Bus: files.NewBus()})
	runner := runtime.New(runtime.Config{})
	defer runner.Wait()
	h := New(Config{Store: store, API: true, Links: Links{Base: "http://127.0.0.1"}, BodyIdle: time.Second, Runner: runner})
	srv := httptest.NewServer(h)
	defer func() { h.Shutdown(); srv.Close() }()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/files/upload?conversation=c HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.txt\"\r\n\r\nabc")
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	reply, _ := io.ReadAll(conn)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the stalled upload held the connection %v", took)
	}
	if !strings.HasPrefix(string(reply), "HTTP/1.1 408") {
		t.Fatalf("answer to a stalled body: %.80q", reply)
	}
	sp, _ := store.Space("c")
	defer sp.Close()
	if list, _ := sp.List(context.Background()); len(list) != 0 {
		t.Fatalf("a stalled upload left %+v", list)
	}
	// A JSON body that stalls is the same 408, whatever route reads it.
	for _, path := range []string{"/api/conversations/c/ops/write_text", "/workspace", "/execute", "/lint"} {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		method := "POST"
		if path == "/workspace" {
			method = "PUT"
		}
		fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"id\": \"a.txt\", \"content\": \"abc", method, path)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		reply, _ := io.ReadAll(c)
		c.Close()
		if !strings.HasPrefix(string(reply), "HTTP/1.1 408") {
			t.Errorf("a stalled JSON body on %s: %.120q", path, reply)
		}
	}

	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte("--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"steady.txt\"\r\n\r\n"))
		for i := 0; i < 10; i++ { // 10 × 150 ms: longer than the idle time, never idle that long
			time.Sleep(150 * time.Millisecond)
			pw.Write([]byte("steady "))
		}
		pw.Write([]byte("\r\n--x--\r\n"))
		pw.Close()
	}()
	resp, err := http.Post(srv.URL+"/api/files/upload?conversation=c", "multipart/form-data; boundary=x", pr)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("a steady upload: %d", resp.StatusCode)
	}
}

// TestStreamsAreCappedInAll: past the server's total, a stream from any
// client is refused with 429 and says whose limit it is.
func TestStreamsAreCappedInAll(t *testing.T) {
	store, _ := storetest.Open(t, t.TempDir(), engine.Options{Bus: files.NewBus()})
	h := New(Config{Store: store, API: true, Links: Links{Base: "http://127.0.0.1"},
		RateLimits: RateLimits{EventStreamsPerClient: 10, EventStreams: 2}})
	srv := httptest.NewServer(h)
	defer func() { h.Shutdown(); srv.Close() }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last *http.Response
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		last = resp
	}
	var env envelopeOf[any]
	decode(t, last, &env)
	if last.StatusCode != 429 || !strings.Contains(env.Error.Message, "the server may keep 2 open") {
		t.Fatalf("a third stream: %d %+v", last.StatusCode, env.Error)
	}
}
