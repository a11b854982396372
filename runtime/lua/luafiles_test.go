package lua

import (
	"encoding/json"
	"strings"
	"testing"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// TestLuaFilesTables: seed 004's files.* from Lua, the same operations
// as TestFilesTier1 and TestFilesTier2 run in JS, with Lua values.
func TestLuaFilesTables(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep, err := luaRun(e, "lf", `
local created = files.create("notes/todo.md")
files.writeText(created.id, "# To do\n- one\n")
local okDup, dup = pcall(files.create, "notes/todo.md")
local okPat, badPattern = pcall(files.list, "[a-")
local copied = files.copy(created.id, "notes/todo-copy.md")
local renamed = files.rename(copied.id, "archive/todo.md")
files.delete("notes/todo.md")
local names = {}
for _, f in ipairs(files.list()) do names[#names + 1] = f.name end
local csv = {"id,amount"}
for i = 1, 1000 do csv[#csv + 1] = i .. "," .. (i * 3) end
files.writeText("data.csv", table.concat(csv, "\n") .. "\n")
local range = files.readText("data.csv", {startLine = 501, end_line = 502})
local okOpt, badOption = pcall(files.readText, "data.csv", {startLine = "x"})
local rows = files.spreadsheet.readRange("data.csv", nil, "A2:B3")
return {names = names, info = files.info("archive/todo.md"), dup = dup, badPattern = badPattern,
  range = range, count = files.lineCount("data.csv"), rows = {#rows, rows[1][1], rows[2][2]}, badOption = badOption,
  okDup = okDup, okPat = okPat, okOpt = okOpt}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Names                      []string
		Info                       map[string]any
		Dup, BadPattern, BadOption string
		OkDup, OkPat, OkOpt        bool
		Range                      map[string]any
		Count                      int
		Rows                       []int
	}
	if err := json.Unmarshal(rep.Result, &got); err != nil {
		t.Fatalf("%v: %s", err, rep.Result)
	}
	if strings.Join(got.Names, ",") != "archive/todo.md" || got.Info["mime_type"] != "text/markdown" {
		t.Errorf("list %v info %v", got.Names, got.Info)
	}
	if got.OkDup || !strings.Contains(got.Dup, ":4: ConflictError: ") || got.OkPat || !strings.Contains(got.BadPattern, ":5: ValidationError: ") {
		t.Errorf("errors %q %q", got.Dup, got.BadPattern)
	}
	if got.OkOpt || !strings.Contains(got.BadOption, "TypeError: files.readText(") || !strings.Contains(got.BadOption, "startLine must be") {
		t.Errorf("a bad option: %q", got.BadOption)
	}
	if got.Range["content"] != "500,1500\n501,1503\n" || got.Count != 1001 {
		t.Errorf("range %v count %d", got.Range, got.Count)
	}
	if vals, _ := json.Marshal(got.Rows); string(vals) != "[2,1,6]" {
		t.Errorf("rows %v", got.Rows)
	}
	b, _ := json.Marshal(rep.FilesTouched)
	if !strings.Contains(string(b), `{"name":"notes/todo.md","op":"remove"}`) || !strings.Contains(string(b), `"name":"data.csv","op":"write"`) {
		t.Errorf("files_touched %s", b)
	}
}
