package mcp_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExecuteScriptAsToolscriptAndCodeMCPCallIt: toolscript's clients
// send script and timeout_ms (seed 001); code-mcp's read files_written,
// each file's name, host path and bytes (seed 000), beside files_touched.
func TestExecuteScriptAsToolscriptAndCodeMCPCallIt(t *testing.T) {
	e := newEnv(t, "")
	src := `local f = io.open("out.csv", "w"); f:write("a,b\n1,2\n"); f:close()
file.save("data/summary.json", json.encode({rows = 1}))
io.open("temp.txt", "w"):write("x"):close(); os.remove("temp.txt")
return "done"`
	res := e.call("execute_script", map[string]any{"conversation_id": "s2", "script": src, "timeout_ms": 2000})
	if res.IsError {
		t.Fatal(text(res))
	}
	out := res.StructuredContent.(map[string]any)
	if out["result"] != "done" {
		t.Fatalf("result %v", out["result"])
	}
	written := out["files_written"].([]any)
	if len(written) != 2 {
		t.Fatalf("files_written %v", written)
	}
	for i, want := range []struct {
		name  string
		bytes float64
	}{{"out.csv", 8}, {"data/summary.json", 10}} {
		w := written[i].(map[string]any)
		path, _ := w["path"].(string)
		if w["name"] != want.name || w["bytes"] != want.bytes || !filepath.IsAbs(path) || !strings.HasSuffix(path, "/s2/"+want.name) {
			t.Errorf("files_written[%d] = %v, want %s with %v bytes at its host path", i, w, want.name, want.bytes)
		}
	}
	if touched := out["files_touched"].([]any); len(touched) != 3 || touched[2].(map[string]any)["op"] != "remove" {
		t.Errorf("files_touched %v", touched)
	}
	res = e.call("execute_script", map[string]any{"conversation_id": "s2", "script": "while true do end", "timeout_ms": 150})
	if !res.IsError || !strings.Contains(text(res), "timeout of 150ms") {
		t.Fatalf("timeout_ms: %s", text(res))
	}
}

// TestScriptIsLuaAndCodeIsJavaScript: the seeds' tools take Lua as script
// and never send a language; code keeps its JavaScript default, and an
// explicit language wins over both.
func TestScriptIsLuaAndCodeIsJavaScript(t *testing.T) {
	e := newEnv(t, "")
	for _, tc := range []struct {
		args map[string]any
		want any
	}{
		{map[string]any{"script": `local n = 40; return n + 2`}, 42.0},
		{map[string]any{"code": `const n = 40; n + 2`}, 42.0},
		{map[string]any{"script": `const n = 40; n + 2`, "language": "js"}, 42.0},
		{map[string]any{"code": `local n = 40; return n + 2`, "language": "lua"}, 42.0},
		{map[string]any{"script": `let n: number = 40; n + 2`, "language": "ts"}, 42.0},
	} {
		tc.args["conversation_id"] = "langs"
		res := e.call("execute_script", tc.args)
		if res.IsError || res.StructuredContent.(map[string]any)["result"] != tc.want {
			t.Errorf("%v: %s", tc.args, text(res))
		}
	}
	res := e.call("execute_script", map[string]any{"conversation_id": "langs", "code": `local n = 1`})
	if !res.IsError || !strings.Contains(text(res), "SyntaxError") {
		t.Errorf("Lua sent as code ran as something else: %s", text(res))
	}
}
