package lua

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// luaRun runs a Lua script in conversation conv, after writing the given
// files there, and returns the report and error.
func luaRun(e *runtimetest.Env, conv, src string, seed map[string]string) (*runtime.Report, error) {
	e.T.Helper()
	sp, err := e.Store.Space(conv)
	if err != nil {
		e.T.Fatal(err)
	}
	defer sp.Close()
	for name, body := range seed {
		if _, err := sp.WriteBytes(context.Background(), name, []byte(body), files.WriteOptions{}); err != nil {
			e.T.Fatal(err)
		}
	}
	return e.Runner.Run(context.Background(), runtime.Request{Source: src, Space: sp, Language: runtime.Lua})
}

// toolscriptCases are the tests of toolscript's sandboxed io library
// (src/runtime/io.rs, seed 001), each script verbatim. want is the
// result as JSON; fails is a text the error must contain instead.
var toolscriptCases = []struct {
	name  string
	seed  map[string]string
	src   string
	want  string
	fails string
}{
	{name: "write_and_read_all", src: `
                local f = io.open("hello.txt", "w")
                f:write("hello world")
                f:close()
                local f2 = io.open("hello.txt", "r")
                local content = f2:read("*a")
                f2:close()
                return content`, want: `"hello world"`},
	{name: "read_line", seed: map[string]string{"lines.txt": "line1\nline2\nline3\n"}, src: `
                local f = io.open("lines.txt", "r")
                local a = f:read("*l")
                local b = f:read("*l")
                local c = f:read("*l")
                f:close()
                return a .. "|" .. b .. "|" .. c`, want: `"line1|line2|line3"`},
	{name: "read_number", seed: map[string]string{"nums.txt": "  42  3.14"}, src: `
                local f = io.open("nums.txt", "r")
                local a = f:read("*n")
                local b = f:read("*n")
                f:close()
                return a + b`, want: `45.14`},
	{name: "io_lines", seed: map[string]string{"iter.txt": "alpha\nbeta\ngamma\n"}, src: `
                local parts = {}
                for line in io.lines("iter.txt") do
                    table.insert(parts, line)
                end
                return table.concat(parts, ",")`, want: `"alpha,beta,gamma"`},
	{name: "handle_lines", seed: map[string]string{"hlines.txt": "one\ntwo\nthree\n"}, src: `
                local f = io.open("hlines.txt", "r")
                local parts = {}
                for line in f:lines() do
                    table.insert(parts, line)
                end
                f:close()
                return table.concat(parts, ",")`, want: `"one,two,three"`},
	{name: "seek", src: `
                local f = io.open("seek.txt", "w")
                f:write("abcdefghij")
                f:close()
                local f2 = io.open("seek.txt", "r")
                f2:seek("set", 3)
                local data = f2:read("*a")
                f2:close()
                return data`, want: `"defghij"`},
	{name: "append_mode", src: `
                local f = io.open("app.txt", "w")
                f:write("hello")
                f:close()
                local f2 = io.open("app.txt", "a")
                f2:write(" world")
                f2:close()
                local f3 = io.open("app.txt", "r")
                local data = f3:read("*a")
                f3:close()
                return data`, want: `"hello world"`},
	{name: "io_type", src: `
                local f = io.open("t.txt", "w")
                f:write("x")
                local t1 = io.type(f)
                f:close()
                local t2 = io.type(f)
                local t3 = io.type("not a file")
                local t3_str = tostring(t3)
                return t1 .. "|" .. t2 .. "|" .. t3_str`, want: `"file|closed file|nil"`},
	{name: "io_list", seed: map[string]string{"a.txt": "", "b.txt": ""}, src: `
                local entries = io.list()
                table.sort(entries)
                return entries`, want: `["a.txt","b.txt"]`},
	{name: "io_list_subdir", seed: map[string]string{"sub/c.txt": "", "sub/d.txt": ""}, src: `
                local entries = io.list("sub")
                table.sort(entries)
                return entries`, want: `["c.txt","d.txt"]`},
	{name: "os_remove", seed: map[string]string{"gone.txt": "bye"}, src: `
                os.remove("gone.txt")
                return true`, want: `true`},
	{name: "write_chaining", src: `
                local f = io.open("chain.txt", "w")
                f:write("hello"):write(" "):write("world")
                f:close()
                local f2 = io.open("chain.txt", "r")
                local data = f2:read("*a")
                f2:close()
                return data`, want: `"hello world"`},
	{name: "flush", src: `
                local f = io.open("fl.txt", "w")
                f:write("flushed")
                f:flush()
                f:close()
                return true`, want: `true`},
	{name: "subdirectory_auto_create", src: `
                local f = io.open("deep/nested/file.txt", "w")
                f:write("deep content")
                f:close()
                local f2 = io.open("deep/nested/file.txt", "r")
                local data = f2:read("*a")
                f2:close()
                return data`, want: `"deep content"`},
	{name: "rejects_path_traversal", src: `return io.open("../evil.txt", "w")`, fails: "traversal"},
	{name: "rejects_absolute_path", src: `return io.open("/etc/passwd", "r")`, fails: "ValidationError"},
	{name: "rejects_null_bytes", src: `return io.open("te\0st.txt", "w")`, fails: "ValidationError"},
	{name: "use_after_close", src: `
                local f = io.open("uc.txt", "w")
                f:write("data")
                f:close()
                f:write("more")`, fails: "closed file"},
	{name: "os_remove_rejects_traversal", src: `os.remove("../evil.txt")`, fails: "traversal"},
	{name: "os_remove_rejects_directories", seed: map[string]string{"mydir/inside.txt": "x"}, src: `os.remove("mydir")`, fails: "cannot remove directory"},
	{name: "io_list_rejects_traversal", src: `return io.list("..")`, fails: "traversal"},
}

// TestToolscriptIOCasesVerbatim runs toolscript's own io tests as Lua.
func TestToolscriptIOCasesVerbatim(t *testing.T) {
	for _, tc := range toolscriptCases {
		t.Run(tc.name, func(t *testing.T) {
			e := runtimetest.NewEnv(t, runtime.Config{})
			rep, err := luaRun(e, "ts", tc.src, tc.seed)
			if tc.fails != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fails) {
					t.Fatalf("got %v (result %s); want an error containing %q", err, rep.Result, tc.fails)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\nlogs %v", err, rep.Logs)
			}
			var got, want any
			json.Unmarshal(rep.Result, &got)
			json.Unmarshal([]byte(tc.want), &want)
			if gb, _ := json.Marshal(got); string(gb) != string(mustJSON(t, want)) {
				t.Fatalf("result %s, want %s", rep.Result, tc.want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestToolscriptIOLimitsAndFinalState: toolscript's cases that set up
// their limits or read the final state from Rust, with their scripts
// verbatim (the two chunks of the write-limit case run as one execution,
// which is what its shared context stood for).
func TestToolscriptIOLimitsAndFinalState(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{MaxExecutionBytes: 10})
	_, err := luaRun(e, "limit", `
            local f = io.open("a.txt", "w")
            f:write("hello")
            f:close()
                local f = io.open("b.txt", "w")
                f:write("world!")
                f:close()`, nil)
	if err == nil || !strings.Contains(err.Error(), "LimitError") {
		t.Fatalf("enforces_write_limit: %v", err)
	}

	e = runtimetest.NewEnv(t, runtime.Config{})
	_, err = luaRun(e, "handles", `
            local kept = {}
            for i = 1, 64 do kept[i] = io.open("x.txt", "r") end
                local f2 = io.open("x.txt", "r")`, map[string]string{"x.txt": "data"})
	if err == nil || !strings.Contains(err.Error(), "too many open files") {
		t.Fatalf("enforces_handle_limit: %v", err)
	}

	rep, err := luaRun(e, "state", `
            local f = io.open("state.txt", "w")
            f:write("some data")
            f:close()`, nil)
	if b, _ := json.Marshal(rep.FilesTouched); err != nil || !strings.HasPrefix(string(b), `[{"name":"state.txt","op":"write","bytes":9`) {
		t.Fatalf("collect_final_state: %s %v", b, err)
	}
	rep, err = luaRun(e, "del", `
            local f = io.open("del.txt", "w")
            f:write("temporary")
            f:close()
            os.remove("del.txt")`, nil)
	if b, _ := json.Marshal(rep.FilesTouched); err != nil || string(b) != `[{"name":"del.txt","op":"remove"}]` {
		t.Fatalf("final_state_write_then_delete: %s %v", b, err)
	}
	// handle_cleanup_on_drop: a handle the script never closed is closed
	// when the run ends (here a success, so its content is kept).
	if _, err := luaRun(e, "leak", `
            local f = io.open("leak.txt", "w")
            f:write("data")
            -- deliberately NOT calling f:close()`, nil); err != nil {
		t.Fatal(err)
	}
	sp, _ := e.Store.Space("leak")
	defer sp.Close()
	if b, _, err := sp.ReadFile(context.Background(), "leak.txt", 100); err != nil || string(b) != "data" {
		t.Fatalf("handle_cleanup_on_drop: %q %v", b, err)
	}
}
