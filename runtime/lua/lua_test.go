package lua

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"convfiles/internal/docs"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// seedLuaExample returns the Lua example of a seed document, copied
// verbatim into testdata/seeds (the seeds live outside the repository).
func seedLuaExample(t *testing.T, seed string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "seeds", seed+".lua"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sdkStub stands in for the API bindings of code-mcp's sdk table, which
// are not part of convfiles.
const sdkStub = `sdk = { list_transactions = function(opts)
  local items = {}
  for i = 1, 3 do items[i] = { id = "t" .. i, date = "2026-01-0" .. i, amount = i * 1.5, category = "food" } end
  return { items = items }
end }
`

// TestSeedLuaExamplesRunUnchanged: every Lua example of seeds 000 and 001
// runs as written (seed 000's with a stub for its sdk calls; seed 001's
// with the data table its example assumes). Each seed has one.
func TestSeedLuaExamplesRunUnchanged(t *testing.T) {
	code := []string{seedLuaExample(t, "000")}
	io := []string{seedLuaExample(t, "001")}
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep, err := luaRun(e, "seed000", sdkStub+code[0], nil)
	if err != nil {
		t.Fatalf("seed 000: %v", err)
	}
	var summary struct{ Total, Sum float64 }
	json.Unmarshal(rep.Result, &summary)
	if summary.Total != 3 || summary.Sum != 9 {
		t.Fatalf("seed 000 result %s", rep.Result)
	}
	sp, _ := e.Store.Space("seed000")
	csv, _, err := sp.ReadFile(context.Background(), "transactions.csv", 1<<20)
	sp.Close()
	if err != nil || !strings.HasPrefix(string(csv), "id,date,amount,category\nt1,2026-01-01,1.50,food\n") {
		t.Fatalf("transactions.csv: %q %v", csv, err)
	}
	data := `data = { { id = 1, name = "Ada", total = 10.5 }, { id = 2, name = "Lin", total = 7 } }
io.open("temp.txt", "w"):write("scratch"):close()
`
	rep, err = luaRun(e, "seed001", data+io[0], nil)
	if err != nil {
		t.Fatalf("seed 001: %v", err)
	}
	want := "id,name,total|1,Ada,10.5|2,Lin,7|results.csv|temp.txt"
	if got := strings.Join(rep.Logs, "|"); got != want {
		t.Fatalf("seed 001 logs %q, want %q", got, want)
	}
	if b, _ := json.Marshal(rep.FilesTouched); !strings.Contains(string(b), `{"name":"temp.txt","op":"remove"}`) {
		t.Fatalf("seed 001 files_touched %s", b)
	}
}

// TestLuaLimits: a runaway loop ends at the timeout, deep recursion and
// a huge string are refused cleanly, and nothing of the host is
// reachable.
func TestLuaLimits(t *testing.T) {
	// Only the loop's case checks the timeout: the others have one out
	// of their reach, so a slow machine never has it fire first.
	loop, e := runtimetest.NewEnv(t, runtime.Config{Timeout: 300 * time.Millisecond}), runtimetest.NewEnv(t, runtime.Config{Timeout: 5 * time.Minute})
	for _, tc := range []struct{ name, src, typ, want string }{
		{"endless loop", `while true do end`, runtime.TypeTimeout, "timeout"},
		{"deep recursion", `local function f(n) return f(n + 1) + 1 end return f(1)`, runtime.TypeLimit, "nested calls too deeply"},
		{"huge string", `return string.rep("x", 2^40)`, runtime.TypeExecution, "one string may be at most"},
		{"wide format", `return string.format("%0999999d", 1)`, runtime.TypeExecution, "width or precision too long"},
		{"dofile", `return dofile("/etc/passwd")`, runtime.TypeExecution, "attempt to call a non-function object"},
		{"require", `return require("os")`, runtime.TypeExecution, "modules are not available"},
		{"os.execute", `return os.execute("id")`, runtime.TypeExecution, "attempt to call a non-function object"},
		{"io.popen", `return io.popen("id")`, runtime.TypeExecution, "attempt to call a non-function object"},
		{"syntax", "local x = = 1", runtime.TypeSyntax, "line 1, column 11"},
	} {
		env := e
		if tc.typ == runtime.TypeTimeout {
			env = loop
		}
		rep, err := luaRun(env, "limits", tc.src, nil)
		var se *runtime.ScriptError
		if err == nil || rep.Error == nil {
			t.Errorf("%s: no error, result %s", tc.name, rep.Result)
			continue
		}
		se = rep.Error
		if se.Type != tc.typ || !strings.Contains(se.Message, tc.want) {
			t.Errorf("%s: %s: %s; want %s containing %q", tc.name, se.Type, se.Message, tc.typ, tc.want)
		}
	}
}

// TestLuaSABREAndJSON: SABRE's helpers and code-mcp's json in Lua.
func TestLuaSABREAndJSON(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep, err := luaRun(e, "sabre", `
local url = write_file("data.json", { name = "Ada", tags = { "a", "b" } })
local c = read_file("data.json")
local back = json.decode(c:get_str())
local copy = write_file("copy.json", c)
local files = list_files("*.json")
print(c.mime_type, c.size, #files, files.total)
delete_file("copy.json")
return { url = url, name = back.name, tag = back.tags[2], info = file_info("data.json").type, enc = json.encode({ n = 1, x = 2.5 }) }`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(rep.Result, &got)
	if got["url"] != "http://127.0.0.1:8080/files/sabre/data.json" || got["name"] != "Ada" || got["tag"] != "b" || got["info"] != "text" || got["enc"] != `{"n":1,"x":2.5}` {
		t.Fatalf("result %s", rep.Result)
	}
	if len(rep.Logs) != 1 || !strings.HasPrefix(rep.Logs[0], "application/json\t") || !strings.HasSuffix(rep.Logs[0], "\t2\t2") {
		t.Fatalf("logs %q", rep.Logs)
	}
}

// TestReadmeLuaExample runs the README's Lua example.
func TestReadmeLuaExample(t *testing.T) {
	b, err := []byte(docs.Text(t)), error(nil)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```lua\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) == 0 {
		t.Fatal("no Lua example in the README")
	}
	e := runtimetest.NewEnv(t, runtime.Config{})
	for _, m := range blocks {
		rep, err := luaRun(e, "readme-lua", m[1], nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, m[1])
		}
		switch {
		case strings.Contains(m[1], "totals.csv"):
			if strings.Join(rep.Logs, "|") != "id,total|1,10.5|2,7|nil\tmissing.txt: No such file or directory" ||
				string(rep.Result) != `{"link":"http://127.0.0.1:8080/files/readme-lua/note.txt","rows":2}` {
				t.Fatalf("logs %q result %s", rep.Logs, rep.Result)
			}
		case strings.Contains(m[1], "type Row"):
			if string(rep.Result) != `"2 rows, total 3, high, 3"` {
				t.Fatalf("the Luau example returned %s", rep.Result)
			}
		default:
			t.Errorf("a Lua example no test checks:\n%s", m[1])
		}
	}
}

// TestLuaHelpersRefuseHostileNames: every Lua helper that takes a name
// refuses one that leaves the conversation, is absolute (outside a read
// root) or holds a NUL, and nothing lands outside the conversation.
func TestLuaHelpersRefuseHostileNames(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	for _, call := range []string{`write_file(%s, "x")`, `file.save(%s, "x")`, `read_file(%s)`, `delete_file(%s)`,
		`file_info(%s)`, `io.lines(%s)`, `io.open(%s, "w")`, `io.list(%s)`, `os.remove(%s)`,
		`files.writeText(%s, "x")`, `files.readText(%s)`, `files.create(%s)`, `files.copy("a.txt", %s)`} {
		// Lua literals: \0 is a NUL in Lua source.
		for _, name := range []string{`"../escape.txt"`, `"/etc/passwd"`, `"a\0b.txt"`, `"sub/../../x.txt"`} {
			src := "return " + fmt.Sprintf(call, name)
			rep, err := luaRun(e, "hostile-lua", src, nil)
			if err == nil || rep.Error.Type != runtime.TypeExecution || !regexp.MustCompile(`ValidationError|PermissionError|FileNotFoundError`).MatchString(rep.Error.Message) {
				t.Errorf("%s: %v; want a refusal", src, err)
			}
		}
	}
	root := filepath.Dir(e.Store.Dir())
	if _, err := os.Stat(filepath.Join(root, "escape.txt")); err == nil {
		t.Fatal("a Lua helper wrote outside the store")
	}
}
