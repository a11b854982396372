package mcp_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"
	"convfiles/runtime"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// env is an MCP server over a real indexed Store, with a client connected
// through the SDK's in-memory transport.
type env struct {
	t       testing.TB
	dir     string
	store   *engine.Store
	server  *mcp.Server
	client  *sdk.ClientSession
	updates chan string // URIs of resources/updated notifications
	changed chan struct{}
}

func link(conv, name string) string { return "http://127.0.0.1:8080/files/" + conv + "/" + name }

func newEnv(t testing.TB, conversation string) *env {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	store, _ := storetest.Open(t, dir, engine.Options{Bus: files.NewBus()})
	return newEnvOn(t, store, dir, conversation, "")
}

// legacyProtocol is the protocol version deployed clients speak (the
// TypeScript SDK's newest); tests use it unless they name another.
const legacyProtocol = "2025-11-25"

// newEnvOn serves store (over the folder dir) to a client connected with
// protocol version proto ("" for legacyProtocol).
func newEnvOn(t testing.TB, store *engine.Store, dir, conversation, proto string) *env {
	return newEnvWith(t, dir, mcp.Config{Store: store, Conversation: conversation}, proto)
}

// newEnvWith serves cfg.Store (over the folder dir) with cfg, to which it
// adds a runner and links.
func newEnvWith(t testing.TB, dir string, cfg mcp.Config, proto string) *env {
	t.Helper()
	e := &env{t: t, dir: dir, store: cfg.Store, updates: make(chan string, 1024), changed: make(chan struct{}, 64)}
	runner := runtime.New(runtime.Config{Link: link})
	t.Cleanup(runner.Wait)
	cfg.Runner, cfg.Link, cfg.Version = runner, link, "test"
	if cfg.Tools == nil {
		cfg.Tools = []string{mcp.AllTools}
	}
	var err error
	e.server, err = mcp.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.server.Close() })
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := e.server.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) {
			e.updates <- r.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			select {
			case e.changed <- struct{}{}:
			default:
			}
		},
	})
	if proto == "" {
		proto = legacyProtocol
	}
	if e.client, err = client.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: proto}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.client.Close() })
	return e
}

// call calls a tool and returns its result; a protocol error fails the test.
func (e *env) call(tool string, args any) *sdk.CallToolResult {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := e.client.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		e.t.Fatalf("%s: protocol error %v", tool, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured answer.
func (e *env) ok(tool string, args any, out any) {
	e.t.Helper()
	res := e.call(tool, args)
	if res.IsError {
		e.t.Fatalf("%s(%v) failed: %s", tool, args, text(res))
	}
	if out == nil {
		return
	}
	b, _ := json.Marshal(res.StructuredContent)
	if res.StructuredContent == nil { // a long answer: its text is the JSON
		b = []byte(text(res))
	}
	if err := json.Unmarshal(b, out); err != nil {
		e.t.Fatalf("%s: decoding %s: %v", tool, b, err)
	}
}

// refused calls a tool that must fail with isError and returns its text.
func (e *env) refused(tool string, args any) string {
	e.t.Helper()
	res := e.call(tool, args)
	if !res.IsError {
		e.t.Fatalf("%s(%v) succeeded, want isError", tool, args)
	}
	return text(res)
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// waitUpdate waits for a resources/updated notification of uri.
func (e *env) waitUpdate(uri string) {
	e.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case got := <-e.updates:
			if got == uri {
				return
			}
		case <-deadline:
			e.t.Fatalf("no resources/updated for %s", uri)
		}
	}
}

// listAll lists every resource, page by page.
func (e *env) listAll() map[string]bool {
	e.t.Helper()
	out := map[string]bool{}
	cursor := ""
	for range 100 {
		res, err := e.client.ListResources(context.Background(), &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, r := range res.Resources {
			out[r.URI] = true
		}
		if cursor = res.NextCursor; cursor == "" {
			return out
		}
	}
	e.t.Fatal("more than 100 pages of resources")
	return nil
}

// waitList waits until the resource list satisfies ok.
func (e *env) waitList(what string, ok func(map[string]bool) bool) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l := e.listAll()
		if ok(l) {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("after %s the resource list is wrong (%d entries)", what, len(l))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
