package mcp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHostileResourceURIsKeepTheSession reads resources at URIs a client
// should never send: each gets an error, and the session still works.
func TestHostileResourceURIsKeepTheSession(t *testing.T) {
	e := newEnv(t, "")
	e.ok("file_create", map[string]any{"conversation_id": "c1", "name": "ok.txt", "content": "fine"}, nil)
	ctx := context.Background()
	for _, uri := range []string{
		"convfiles://c1/a\x01b.txt", "convfiles://c1/a\x00b.txt", "convfiles://c1/a\x7fb.txt",
		"convfiles://c1/../c2/x.txt", "convfiles://c1/%2e%2e/x.txt", "convfiles://../etc/passwd",
		"file:///etc/passwd", "convfiles://c1/x.txt?q=1", "convfiles://user@c1/x.txt", "convfiles:///x.txt",
		"convfiles://c1/", "convfiles://c1/missing.txt", "not a uri", "",
	} {
		if _, err := e.client.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%q: read succeeded", uri)
		}
		rr, err := e.client.ReadResource(ctx, &sdk.ReadResourceParams{URI: "convfiles://c1/ok.txt"})
		if err != nil || rr.Contents[0].Text != "fine" {
			t.Fatalf("after %q the session no longer reads: %v", uri, err)
		}
	}
}

// TestResourcesFollowFiles checks the resource list and the notifications:
// a file written by any door is listed, subscribers hear of its changes,
// a renamed file moves, a deleted one goes away.
func TestResourcesFollowFiles(t *testing.T) {
	e := newEnv(t, "")
	resourcesFollowFiles(t, e, true)
}

// TestResourceUpdatesOnTheNewProtocol subscribes with the 2026-07-28
// protocol, where updates flow over subscriptions/listen.
func TestResourceUpdatesOnTheNewProtocol(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	store, _ := storetest.Open(t, dir, engine.Options{Bus: files.NewBus()})
	resourcesFollowFiles(t, newEnvOn(t, store, dir, "", "2026-07-28"), false)
}

func resourcesFollowFiles(t *testing.T, e *env, listChanged bool) {
	ctx := context.Background()
	uri := "convfiles://c1/docs/a%20b.txt"
	if err := e.client.Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	e.ok("file_write_text", map[string]any{"conversation_id": "c1", "id": "docs/a b.txt", "content": "v1"}, nil)
	e.waitUpdate(uri)
	list := e.listAll()
	if !list[uri] {
		t.Fatalf("%s is not listed: %v", uri, list)
	}
	// A change through a Space (as the REST API or the CLI makes it).
	sp, _ := e.store.Space("c1")
	sp.WriteBytes(ctx, "docs/a b.txt", []byte("v2"), files.WriteOptions{})
	sp.Close()
	e.waitUpdate(uri)
	rr, err := e.client.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil || rr.Contents[0].Text != "v2" || rr.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("read %s: %+v, %v", uri, rr, err)
	}
	e.ok("file_rename", map[string]any{"conversation_id": "c1", "id": "docs/a b.txt", "new_name": "c.txt"}, nil)
	e.waitUpdate(uri)
	e.waitList("the rename", func(l map[string]bool) bool { return !l[uri] && l["convfiles://c1/c.txt"] })
	e.ok("file_delete", map[string]any{"conversation_id": "c1", "id": "c.txt"}, nil)
	e.waitList("the delete", func(l map[string]bool) bool { return len(l) == 0 })
	if !listChanged {
		return
	}
	// The SDK sends list_changed once changes pause for 10 ms.
	select {
	case <-e.changed:
	case <-time.After(5 * time.Second):
		t.Error("no notifications/resources/list_changed arrived")
	}
}

// TestResourcesListInPages lists more files than one page holds, written
// before the server started (loaded from the index) and after.
func TestResourcesListInPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	store, _ := storetest.Open(t, dir, engine.Options{Bus: files.NewBus()})
	sp, _ := store.Space("big")
	for i := range 700 {
		sp.WriteBytes(context.Background(), fmt.Sprintf("before/%04d.txt", i), []byte("x"), files.WriteOptions{})
	}
	e := newEnvOn(t, store, dir, "", "")
	for i := range 600 {
		sp.WriteBytes(context.Background(), fmt.Sprintf("after/%04d.txt", i), []byte("x"), files.WriteOptions{})
	}
	sp.Close()
	e.waitList("1300 files", func(l map[string]bool) bool {
		return len(l) == 1300 && l["convfiles://big/before/0000.txt"] && l["convfiles://big/after/0599.txt"]
	})
	res, err := e.client.ListResources(context.Background(), &sdk.ListResourcesParams{})
	if err != nil || len(res.Resources) != 500 || res.NextCursor == "" {
		t.Fatalf("the first page has %d resources, cursor %q, err %v; want 500 and a cursor", len(res.Resources), res.NextCursor, err)
	}
}

// TestDeletedConversationLeavesTheResources deletes a conversation as
// convfiles cleanup does: its files leave the list, and their subscribers
// hear of it.
func TestDeletedConversationLeavesTheResources(t *testing.T) {
	e := newEnv(t, "")
	for _, name := range []string{"a.txt", "d/b.txt"} {
		e.ok("file_write_text", map[string]any{"conversation_id": "gone", "id": name, "content": "x"}, nil)
	}
	e.ok("file_write_text", map[string]any{"conversation_id": "kept", "id": "c.txt", "content": "x"}, nil)
	uri := "convfiles://gone/d/b.txt"
	if err := e.client.Subscribe(context.Background(), &sdk.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	e.waitList("the writes", func(l map[string]bool) bool { return len(l) == 3 })
	if err := e.store.RemoveConversation(context.Background(), "gone"); err != nil {
		t.Fatal(err)
	}
	e.waitUpdate(uri)
	e.waitList("the deletion", func(l map[string]bool) bool { return len(l) == 1 && l["convfiles://kept/c.txt"] })
}
