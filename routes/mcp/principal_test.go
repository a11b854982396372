package mcp_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHostedFailsClosed: a hosted MCP server whose calls arrive without a
// principal from the HTTP door (a transport that authenticated nothing)
// refuses every tool and lists no resource, while the same store served
// locally lists and reads them.
func TestHostedFailsClosed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	store, _ := storetest.Open(t, dir, engine.Options{Bus: files.NewBus()})
	sp, err := store.Space("c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteBytes(context.Background(), "a.txt", []byte("secret\n"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sp.Close()
	local := newEnvWith(t, dir, mcp.Config{Store: store}, "")
	if res, err := local.client.ListResources(context.Background(), nil); err != nil || len(res.Resources) != 1 {
		t.Fatalf("local server lists %v, %v", res, err)
	}
	hosted := newEnvWith(t, dir, mcp.Config{Store: store, Hosted: true}, "")
	for tool, args := range map[string]map[string]any{
		"file_list":       {"conversation_id": "c1"},
		"file_read_text":  {"conversation_id": "c1", "id": "a.txt"},
		"file_write_text": {"conversation_id": "c1", "id": "b.txt", "content": "x"},
		"file_read_media": {"conversation_id": "c1", "id": "a.txt"},
		"execute_script":  {"conversation_id": "c1", "code": "1"},
	} {
		msg := hosted.refused(tool, args)
		if !strings.Contains(msg, "no credential") || strings.Contains(msg, "secret") {
			t.Errorf("%s without a principal: %q", tool, msg)
		}
	}
	res, err := hosted.client.ListResources(context.Background(), nil)
	if err != nil || len(res.Resources) != 0 {
		t.Fatalf("hosted server lists %d resources without a principal (%v)", len(res.Resources), err)
	}
	if _, err := hosted.client.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: local.resourceURI(t)}); err == nil {
		t.Fatal("hosted server read a resource without a principal")
	}
}

// resourceURI is the URI of the one resource the local server lists.
func (e *env) resourceURI(t *testing.T) string {
	t.Helper()
	res, err := e.client.ListResources(context.Background(), nil)
	if err != nil || len(res.Resources) == 0 {
		t.Fatalf("no resource: %v", err)
	}
	return res.Resources[0].URI
}
