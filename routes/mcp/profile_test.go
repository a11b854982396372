package mcp_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/internal/tokens"
	"convfiles/routes/mcp"
)

// toolList lists the tools of a server with the groups given, bound to
// conv (or to none), and the bytes of its tools/list answer.
func toolList(t *testing.T, conv string, groups ...string) (names []string, size int, byName map[string]map[string]any) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	store := openStore(t, dir)
	if groups == nil {
		groups = []string{}
	}
	e := newEnvWith(t, dir, mcp.Config{Store: store, Conversation: conv, Tools: groups}, "")
	res, err := e.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	byName = map[string]map[string]any{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, _ := json.Marshal(tool)
		var m map[string]any
		json.Unmarshal(b, &m)
		byName[tool.Name] = m
	}
	slices.Sort(names)
	return names, len(raw), byName
}

// TestTheDefaultToolsAreFewAndSelfContained checks the core profile: at
// most 15 tools, each description naming only tools the server offers
// and never sending the model to a prompt, and no conversation_id when
// the server is bound to one conversation.
func TestTheDefaultToolsAreFewAndSelfContained(t *testing.T) {
	names, size, tools := toolList(t, "bound")
	want := []string{"execute_script", "file_copy", "file_delete", "file_edit", "file_info", "file_list", "file_read_media", "file_read_text",
		"file_rename", "file_search", "file_tree", "file_write_text", "folder_create", "folder_delete", "folder_move"}
	if !slices.Equal(names, want) {
		t.Fatalf("the default tools are %v, want %v", names, want)
	}
	t.Logf("core profile: %d tools, %d bytes of tools/list", len(names), size)
	toolName := regexp.MustCompile("`((?:file|folder|spreadsheet|pdf|image)_[a-z_]+|execute_script)`")
	for name, tool := range tools {
		text, _ := json.Marshal(tool)
		if strings.Contains(string(text), "conversation_id") {
			t.Errorf("%s mentions conversation_id on a server bound to one conversation", name)
		}
		if strings.Contains(strings.ToLower(string(text)), "prompt") {
			t.Errorf("%s sends the model to a prompt: %s", name, tool["description"])
		}
		for _, m := range toolName.FindAllStringSubmatch(string(text), -1) {
			if !slices.Contains(names, m[1]) {
				t.Errorf("%s names %s, which the core profile does not offer", name, m[1])
			}
		}
	}
	_, _, unbound := toolList(t, "")
	props := unbound["file_read_text"]["inputSchema"].(map[string]any)["properties"].(map[string]any)
	if _, ok := props["conversation_id"]; !ok {
		t.Error("a server bound to no conversation does not ask for conversation_id")
	}
}

// TestToolGroupsAddTools checks --tools: groups add their tools, all has
// every tool, and an unknown group is refused with the list.
func TestToolGroupsAddTools(t *testing.T) {
	core, _, _ := toolList(t, "")
	withPDF, _, _ := toolList(t, "", "core,pdf")
	all, allSize, _ := toolList(t, "", mcp.AllTools)
	t.Logf("all tools: %d tools, %d bytes of tools/list", len(all), allSize)
	if len(withPDF) != len(core)+12 || !slices.Contains(withPDF, "pdf_extract_text") || slices.Contains(withPDF, "image_resize") {
		t.Errorf("core,pdf offers %v", withPDF)
	}
	if chart, _, _ := toolList(t, "", "chart"); !slices.Equal(chart, []string{"chart_render"}) {
		t.Errorf("chart offers %v", chart)
	}
	files, _, _ := toolList(t, "", "files")
	if !slices.Contains(files, "file_replace_lines") || !slices.Contains(files, "file_versions") || slices.Contains(files, "execute_script") {
		t.Errorf("files offers %v", files)
	}
	if len(all) < 50 || !slices.Contains(all, "image_to_base64") || !slices.Contains(all, "file_download") {
		t.Errorf("all offers %d tools: %v", len(all), all)
	}
	if _, err := mcp.New(mcp.Config{Store: openStore(t, filepath.Join(t.TempDir(), "files")), Tools: []string{"core", "everything"}}); err == nil ||
		!strings.Contains(err.Error(), `no tool group "everything"; the groups are core, files, spreadsheet, pdf, image, chart, all`) {
		t.Errorf("an unknown group: %v", err)
	}
}

// TestABoundServerTakesItsOwnConversationID keeps clients that send the
// conversation's ID working after the schema stopped asking for it.
func TestABoundServerTakesItsOwnConversationID(t *testing.T) {
	e := newEnvWith(t, t.TempDir(), mcp.Config{Store: openStore(t, filepath.Join(t.TempDir(), "files")), Conversation: "mine", Tools: []string{}}, "")
	e.ok("file_write_text", map[string]any{"id": "a.txt", "content": "x", "conversation_id": "mine"}, nil)
	if msg := e.refused("file_read_text", map[string]any{"id": "a.txt", "conversation_id": "other"}); !strings.Contains(msg, "serves conversation mine only") {
		t.Errorf("another conversation: %s", msg)
	}
}

func openStore(t *testing.T, dir string) *engine.Store {
	store, _ := storetest.Open(t, dir, engine.Options{Bus: files.NewBus()})
	return store
}

// TestToolListTokens measures what a model reads of the tool list before
// its first call: the core profile stays under 6,000 tokens.
func TestToolListTokens(t *testing.T) {
	for _, groups := range [][]string{{}, {mcp.AllTools}, {mcp.MetaclawTools}} {
		dir := filepath.Join(t.TempDir(), "files")
		e := newEnvWith(t, dir, mcp.Config{Store: openStore(t, dir), Tools: groups}, "")
		res, err := e.client.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res)
		n, err := tokens.Count(string(raw))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("tools %v: %d tools, %d tokens (o200k_base), %d bytes", groups, len(res.Tools), n, len(raw))
		if len(groups) == 0 && n >= 6000 {
			t.Errorf("the core tool list is %d tokens; keep it under 6000", n)
		}
	}
}

// TestInputSchemasArePlain: no parameter of any tool is typed with
// "null": an optional parameter is left out, a required array is an
// array, as clients that fill a form from the schema need.
func TestInputSchemasArePlain(t *testing.T) {
	_, _, tools := toolList(t, "", mcp.AllTools)
	var walk func(tool, path string, v any)
	walk = func(tool, path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if types, ok := v["type"].([]any); ok && len(types) == 2 && slices.Contains(types, any("null")) {
				t.Errorf("%s: %s is typed %v", tool, path, types)
			}
			for k, x := range v {
				walk(tool, path+"/"+k, x)
			}
		case []any:
			for _, x := range v {
				walk(tool, path, x)
			}
		}
	}
	for name, tool := range tools {
		walk(name, "inputSchema", tool["inputSchema"])
	}
}
