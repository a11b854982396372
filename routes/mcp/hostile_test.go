package mcp_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/internal/hostile"
)

// TestHostileNamesThroughTools sends every hostile name of the foundation
// table through the MCP tools and resources/read: each is refused with
// isError and a clear message, or (a legal if odd name) contained inside
// the conversation, and nothing outside the conversation is read or
// written.
func TestHostileNamesThroughTools(t *testing.T) {
	fx := hostile.NewFixture(t, t.TempDir()+"/files")
	e := newEnvOn(t, fx.OpenStore(t), fx.FilesDir, "", "")
	args := func(kv ...any) map[string]any {
		m := map[string]any{"conversation_id": hostile.Conversation}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	var seed struct{ ID string }
	e.ok("file_create", args("name", "seed.txt", "content", "seed"), &seed)
	for _, c := range hostile.Names() {
		name := c.Name
		// JSON cannot carry bytes that are not UTF-8: a client's encoder
		// turns them into U+FFFD, so that is the name convfiles receives.
		outcome := c.Outcome
		if !utf8.ValidString(name) {
			name = strings.ToValidUTF8(name, "\uFFFD")
		}
		results := map[string]*sdk.CallToolResult{
			"read":      e.call("file_read_text", args("id", name)),
			"info":      e.call("file_info", args("id", name)),
			"media":     e.call("file_read_media", args("id", name)),
			"search":    e.call("file_search_text", args("id", name, "pattern", ".")),
			"copy-from": e.call("file_copy", args("id", name, "new_name", "copied.txt")),
		}
		if outcome != hostile.Trap {
			results["create"] = e.call("file_create", args("name", name, "content", "x"))
			results["copy-to"] = e.call("file_copy", args("id", seed.ID, "new_name", name))
		}
		results["write"] = e.call("file_write_text", args("id", name, "content", "x"))
		results["reread"] = e.call("file_read_text", args("id", name))
		if outcome != hostile.Trap {
			results["delete"] = e.call("file_delete", args("id", name))
		}
		for op, res := range results {
			if strings.Contains(text(res), hostile.Secret) {
				t.Fatalf("%q: %s returned content from outside the conversation", c.Name, op)
			}
			if strings.Contains(text(res), fx.Outside) || strings.Contains(text(res), fx.FilesDir) {
				t.Errorf("%q: %s leaks a host path: %s", c.Name, op, text(res))
			}
		}
		refused := func(ops ...string) {
			for _, op := range ops {
				if r := results[op]; !r.IsError || len(text(r)) < 30 {
					t.Errorf("%q: %s answered %q (isError %v), want a clear refusal", c.Name, op, text(r), r.IsError)
				}
			}
		}
		switch {
		case outcome == hostile.Refuse && name == c.Name:
			refused("read", "info", "media", "search", "copy-from", "create", "copy-to", "write", "reread", "delete")
		case outcome == hostile.Trap:
			refused("read", "info", "media", "search", "copy-from")
			if results["write"].IsError || !strings.Contains(text(results["reread"]), `"content":"x"`) {
				t.Errorf("%q: writing over a planted link: %s / %s", c.Name, text(results["write"]), text(results["reread"]))
			}
			fx.CheckContained(t, c.Name)
		default: // a legal literal name, or a refused one JSON turned into one
			if r := results["write"]; r.IsError && outcome != hostile.Refuse {
				t.Errorf("%q: a legal name was refused: %s", c.Name, text(r))
			}
		}
		// resources/read is a protocol request: a hostile URI is a
		// protocol error, never a file.
		rr, err := e.client.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "convfiles://" + hostile.Conversation + "/" + name})
		if err == nil && outcome == hostile.Refuse && name == c.Name {
			for _, ct := range rr.Contents {
				if strings.Contains(ct.Text, hostile.Secret) || strings.Contains(string(ct.Blob), hostile.Secret) {
					t.Fatalf("%q: resources/read returned a canary", c.Name)
				}
			}
		}
	}
	for _, id := range hostile.ConversationIDs() {
		res := e.call("file_list", map[string]any{"conversation_id": id})
		if !res.IsError || !strings.Contains(text(res), "conversation") {
			t.Errorf("conversation %q: file_list answered %q, want a refusal", id, text(res))
		}
		res = e.call("execute_script", map[string]any{"conversation_id": id, "code": `write_file("x.txt", "x")`})
		if !res.IsError {
			t.Errorf("conversation %q: execute_script ran", id)
		}
	}
	fx.CheckUntouched(t)
}
