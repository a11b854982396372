package mcp_test

import (
	"strings"
	"testing"
)

func TestToolsRoundTrip(t *testing.T) {
	e := newEnv(t, "")
	args := func(kv ...any) map[string]any {
		m := map[string]any{"conversation_id": "c1"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	var created struct{ ID, Name, URL string }
	e.ok("file_create", args("name", "notes/a.txt", "content", "one\ntwo\nthree\n"), &created)
	if created.ID == "" || created.Name != "notes/a.txt" || created.URL != link("c1", "notes/a.txt") {
		t.Fatalf("file_create answered %+v", created)
	}
	var read struct {
		Content    string
		TotalLines int `json:"total_lines"`
	}
	e.ok("file_read_text", args("id", created.ID, "start_line", 2, "end_line", 2), &read)
	if read.Content != "two" || read.TotalLines != 3 {
		t.Fatalf("line 2 read as %+v", read)
	}
	e.ok("file_replace_lines", args("id", created.ID, "start_line", 2, "end_line", 2, "content", "TWO\nTWO and a half"), nil)
	e.ok("file_read_text", args("id", "notes/a.txt"), &read)
	if read.Content != "one\nTWO\nTWO and a half\nthree" || read.TotalLines != 4 {
		t.Fatalf("after replace: %+v", read)
	}
	msg := e.refused("file_read_text", args("id", "missing.txt"))
	if !strings.Contains(msg, "file_list") {
		t.Errorf("a missing file's message does not say what to do: %s", msg)
	}
	msg = e.refused("file_read_text", map[string]any{"id": "x"})
	t.Log(msg)
	msg = e.refused("file_replace_lines", args("id", "x"))
	t.Log(msg)
}
