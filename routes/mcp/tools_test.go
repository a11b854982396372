package mcp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/fetch"
	"convfiles/internal/storetest"
	"convfiles/prompts"
	"convfiles/routes/mcp"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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
	if read.Content != "two\n" || read.TotalLines != 3 {
		t.Fatalf("line 2 read as %+v", read)
	}
	e.ok("file_replace_lines", args("id", created.ID, "start_line", 2, "end_line", 2, "content", "TWO\nTWO and a half"), nil)
	e.ok("file_read_text", args("id", "notes/a.txt"), &read)
	if read.Content != "one\nTWO\nTWO and a half\nthree\n" || read.TotalLines != 4 {
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

func TestEditingToolsKeepVersions(t *testing.T) {
	e := newEnv(t, "conv-a")
	var made struct{ ID string }
	e.ok("file_create", map[string]any{"name": "list.md", "content": "b\nd"}, &made)
	msg := e.refused("file_create", map[string]any{"name": "list.md"})
	if !strings.Contains(msg, "file_write_text") {
		t.Errorf("creating a taken name: %s", msg)
	}
	var lines struct {
		TotalLines int `json:"total_lines"`
	}
	e.ok("file_insert_lines", map[string]any{"id": made.ID, "after_line": 0, "content": "a"}, &lines)
	e.ok("file_insert_lines", map[string]any{"id": made.ID, "after_line": 2, "content": "c"}, &lines)
	if lines.TotalLines != 4 {
		t.Fatalf("after two inserts: %d lines", lines.TotalLines)
	}
	var found struct {
		Matches []struct {
			Line    int
			Content string
		}
	}
	e.ok("file_search_text", map[string]any{"id": "list.md", "pattern": "^[bc]$"}, &found)
	if len(found.Matches) != 2 || found.Matches[0].Line != 2 || found.Matches[1].Content != "c" {
		t.Fatalf("search found %+v", found)
	}
	e.refused("file_search_text", map[string]any{"id": "list.md", "pattern": "(?<=a)b"})
	var copied, renamed struct{ ID, Name string }
	e.ok("file_copy", map[string]any{"id": made.ID, "new_name": "copy.md"}, &copied)
	if copied.ID == made.ID || copied.Name != "copy.md" {
		t.Fatalf("copy answered %+v", copied)
	}
	e.refused("file_copy", map[string]any{"id": made.ID, "new_name": "copy.md"})
	e.refused("file_rename", map[string]any{"id": made.ID, "new_name": "copy.md"})
	e.ok("file_rename", map[string]any{"id": made.ID, "new_name": "final.md"}, &renamed)
	if renamed.ID != made.ID {
		t.Fatalf("a rename changed the ID: %+v", renamed)
	}
	var deleted struct{ Deleted bool }
	e.ok("file_delete", map[string]any{"id": made.ID}, &deleted)
	if !deleted.Deleted {
		t.Fatal("file_delete did not say deleted")
	}
	var versions struct {
		Versions []struct {
			Version int
			Reason  string
		}
	}
	e.ok("file_versions", map[string]any{"id": made.ID}, &versions)
	if len(versions.Versions) < 3 || versions.Versions[0].Reason != "delete" {
		t.Fatalf("versions after two inserts and a delete: %+v", versions)
	}
	var restored struct{ Name string }
	e.ok("file_restore", map[string]any{"id": made.ID, "version": versions.Versions[0].Version}, &restored)
	var read struct{ Content string }
	e.ok("file_read_text", map[string]any{"id": made.ID}, &read)
	if restored.Name != "final.md" || read.Content != "a\nb\nc\nd" {
		t.Fatalf("restored %q holding %q", restored.Name, read.Content)
	}
	e.refused("file_restore", map[string]any{"id": made.ID, "version": 0})
	e.refused("file_restore", map[string]any{"id": made.ID, "version": 999})
	var info struct {
		Type, Source, SHA256 string
		Version              int
	}
	e.ok("file_info", map[string]any{"id": copied.ID}, &info)
	if info.Type != "text" || info.Source != "derived" || len(info.SHA256) != 64 {
		t.Fatalf("file_info of the copy: %+v", info)
	}
}

func TestScopedServerRefusesOtherConversations(t *testing.T) {
	e := newEnv(t, "mine")
	e.ok("file_write_text", map[string]any{"id": "a.txt", "content": "x"}, nil)
	e.ok("file_list", map[string]any{"conversation_id": "mine"}, nil)
	msg := e.refused("file_list", map[string]any{"conversation_id": "theirs"})
	if !strings.Contains(msg, "mine") {
		t.Errorf("refusal does not say which conversation is served: %s", msg)
	}
	if _, err := e.client.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "convfiles://theirs/a.txt"}); err == nil {
		t.Error("read a resource of another conversation")
	}
	if err := e.client.Subscribe(context.Background(), &sdk.SubscribeParams{URI: "convfiles://theirs/a.txt"}); err == nil {
		t.Error("subscribed to a resource of another conversation")
	}
	p, err := e.client.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: "convfiles"})
	if err != nil {
		t.Fatal(err)
	}
	body := p.Messages[0].Content.(*sdk.TextContent).Text
	if !strings.Contains(body, "write_file(") || !strings.Contains(body, "`a.txt`") || !strings.Contains(body, link("mine", "a.txt")) {
		t.Errorf("the prompt does not list the conversation's files:\n%s", body[max(0, len(body)-400):])
	}
}

func TestExecuteScript(t *testing.T) {
	e := newEnv(t, "")
	res := e.call("execute_script", map[string]any{"conversation_id": "s1", "code": "write_file('a.txt', 'hi'); console.log('x'); ({n: 1})"})
	if res.IsError {
		t.Fatal(text(res))
	}
	out := res.StructuredContent.(map[string]any)
	if out["result"].(map[string]any)["n"] != 1.0 || out["files_touched"].([]any)[0].(map[string]any)["url"] != link("s1", "a.txt") {
		t.Fatalf("report %v", out)
	}
	res = e.call("execute_script", map[string]any{"conversation_id": "s1", "code": "write_file('b.txt', 'x'); while (true) {}", "timeout": 0.2})
	if !res.IsError || !strings.Contains(text(res), "TimeoutError") || !strings.Contains(text(res), "b.txt") {
		t.Fatalf("a runaway script: %s", text(res))
	}
	for _, bad := range []map[string]any{
		{"conversation_id": "s1", "code": "1", "language": "python"},
		{"conversation_id": "s1", "code": "1", "timeout": 0},
		{"conversation_id": "s1", "code": "1", "timeout": 301},
		{"conversation_id": "s1"},
		{"conversation_id": "s1", "code": "1", "extra": true},
		{"conversation_id": "s1", "code": "1", "script": "2"},
		{"conversation_id": "s1", "code": "1", "timeout": 1, "timeout_ms": 1000},
		{"conversation_id": "s1", "script": "1", "timeout_ms": 300001},
		{"conversation_id": "s1", "script": "  \n "},
	} {
		if msg := e.refused("execute_script", bad); !strings.Contains(msg, "execute_script") {
			t.Errorf("%v: refusal %q does not name the tool", bad, msg)
		}
	}
}

func TestLimitsAndDownloadsAreToolErrors(t *testing.T) {
	dir := t.TempDir()
	store, _ := storetest.Open(t, dir, engine.Options{Limits: files.Limits{MaxFileBytes: 100}})
	e := newEnvWith(t, dir, mcp.Config{Store: store, Conversation: "lim", MaxMediaBytes: 50}, "")
	msg := e.refused("file_write_text", map[string]any{"id": "big.txt", "content": strings.Repeat("x", 101)})
	if !strings.Contains(msg, "100") {
		t.Errorf("a file over the limit: %s", msg)
	}
	msg = e.refused("file_download", map[string]any{"url": "http://127.0.0.1/x"})
	if !strings.Contains(msg, "not enabled") {
		t.Errorf("a download without a downloader: %s", msg)
	}
	// Media and resource reads are capped: a file over the cap is refused
	// with what to do instead, and read neither whole nor in part.
	e.ok("file_write_text", map[string]any{"id": "media.txt", "content": strings.Repeat("y", 60)}, nil)
	if msg = e.refused("file_read_media", map[string]any{"id": "media.txt"}); !strings.Contains(msg, "file_read_text") {
		t.Errorf("a media read over the cap: %s", msg)
	}
	_, err := e.client.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "convfiles://lim/media.txt"})
	if err == nil || !strings.Contains(err.Error(), "60 bytes") {
		t.Errorf("a resource read over the cap: %v", err)
	}
}

// TestFileDownload fetches from a real loopback server: allowed by a
// policy that allows private addresses, refused (isError, nothing written)
// by the default policy, and a failing fetch or a bad name is a tool error.
func TestFileDownload(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/data.csv" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Disposition", `attachment; filename="data.csv"`)
		io.WriteString(w, "a,b\n1,2\n")
	}))
	defer srv.Close()
	open, err := fetch.New(fetch.Policy{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, _ := storetest.Open(t, dir, engine.Options{})
	e := newEnvWith(t, dir, mcp.Config{Store: store, Conversation: "dl", Downloader: open}, "")
	var got struct {
		ID, Name, URL string
		Size          int64
		MIME          string `json:"mime_type"`
	}
	e.ok("file_download", map[string]any{"url": srv.URL + "/data.csv"}, &got)
	if got.Name != "data.csv" || got.Size != 8 || got.MIME != "text/csv" || got.URL != link("dl", "data.csv") {
		t.Fatalf("file_download answered %+v", got)
	}
	e.ok("file_download", map[string]any{"url": srv.URL + "/data.csv", "filename": "copy/x.csv"}, &got)
	if got.Name != "copy/x.csv" {
		t.Fatalf("a named download was saved as %q", got.Name)
	}
	if msg := e.refused("file_download", map[string]any{"url": srv.URL + "/missing"}); !strings.Contains(msg, "404") {
		t.Errorf("a failing fetch: %s", msg)
	}
	if msg := e.refused("file_download", map[string]any{"url": srv.URL + "/data.csv", "filename": "../x.csv"}); !strings.Contains(msg, "..") {
		t.Errorf("a hostile filename: %s", msg)
	}
	strict, err := fetch.New(fetch.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	e = newEnvWith(t, dir, mcp.Config{Store: store, Conversation: "dl2", Downloader: strict}, "")
	if msg := e.refused("file_download", map[string]any{"url": srv.URL + "/data.csv"}); !strings.Contains(msg, "only public addresses") {
		t.Errorf("a private address under the default policy: %s", msg)
	}
	var list struct{ Files []any }
	e.ok("file_list", nil, &list)
	if len(list.Files) != 0 {
		t.Errorf("a refused download left %d files", len(list.Files))
	}
}

func TestEveryToolIsDescribed(t *testing.T) {
	e := newEnv(t, "")
	res, err := e.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
	}
	want := prompts.ToolNames()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("tools %v, prompts/tools.md describes %v", got, want)
	}
}

// TestBadArgumentsSayWhatToSend sends arguments that do not fit a tool's
// schema; each is a tool error naming the problem and the parameters.
func TestBadArgumentsSayWhatToSend(t *testing.T) {
	e := newEnv(t, "args")
	e.ok("file_write_text", map[string]any{"id": "a.txt", "content": "x"}, nil)
	for _, c := range []struct {
		args any
		want string
	}{
		{map[string]any{"id": "a.txt", "start_line": "two"}, `"start_line" must be an integer, not string`},
		{map[string]any{"id": 7}, `"id" must be a string, not number`},
		{map[string]any{"id": nil}, `"id" is missing`},
		{map[string]any{}, `"id" is missing`},
		{map[string]any{"id": "a.txt", "colour": "red"}, `no parameter "colour"`},
		{[]any{"a.txt"}, "must be a JSON object"},
		{map[string]any{"id": "a.txt", "start_line": 1.5}, `"start_line" must be an integer`},
	} {
		msg := e.refused("file_read_text", c.args)
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "file_read_text takes id (string)") {
			t.Errorf("%v: %s", c.args, msg)
		}
	}
}
