package lua

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// The file.save tests of code-mcp (seed 000: src/runtime/sandbox.rs,
// src/runtime/executor.rs and tests/full_roundtrip.rs at the commit that
// added file.save), their Lua scripts run as written. Where code-mcp
// evaluates twice in one sandbox, the two chunks run as one script (one
// run is one execution here); its mocked sdk calls are stubbed in Lua
// with the data its mocks return. Its two end-to-end tests run through
// the MCP tool (routes/mcp). The conversation's folder is the output
// folder.

// codeMCPRun runs src in conversation "out" of an env with cfg and
// returns the report, its error and the folder file.save writes into.
func codeMCPRun(t *testing.T, cfg runtime.Config, src string) (*runtime.Report, error, string) {
	t.Helper()
	e := runtimetest.NewEnv(t, cfg)
	rep, err := luaRun(e, "out", src, nil)
	return rep, err, filepath.Join(e.Store.Dir(), "out")
}

func readOut(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCodeMCPFileSave(t *testing.T) {
	t.Run("test_file_save_basic", func(t *testing.T) {
		rep, err, dir := codeMCPRun(t, runtime.Config{}, `return file.save("test.txt", "hello world")`)
		var path string
		if err == nil {
			path = strings.Trim(string(rep.Result), `"`)
		}
		if err != nil || !strings.Contains(path, "test.txt") || !filepath.IsAbs(path) || readOut(t, dir, "test.txt") != "hello world" {
			t.Errorf("%v %s", err, rep.Result)
		}
	})
	t.Run("test_file_save_subdirectory", func(t *testing.T) {
		_, err, dir := codeMCPRun(t, runtime.Config{}, `return file.save("data/results.csv", "a,b,c")`)
		if err != nil || readOut(t, dir, "data/results.csv") != "a,b,c" {
			t.Errorf("%v", err)
		}
	})
	for name, src := range map[string]string{
		"test_file_save_rejects_path_traversal": `return file.save("../evil.txt", "pwned")`,
		"test_file_save_rejects_absolute_path":  `return file.save("/etc/passwd", "pwned")`,
		"test_file_save_rejects_null_bytes":     `return file.save("te\0st.txt", "data")`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err, dir := codeMCPRun(t, runtime.Config{}, src); err == nil {
				t.Errorf("%s was saved", src)
			} else if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("it wrote %v", entries)
			}
		})
	}
	t.Run("test_file_save_enforces_size_limit", func(t *testing.T) {
		rep, err, _ := codeMCPRun(t, runtime.Config{MaxExecutionBytes: 10}, "file.save(\"a.txt\", \"hello\")\nreturn file.save(\"b.txt\", \"world!\")")
		if err == nil || !strings.Contains(rep.Error.Message, `LimitError: write "b.txt": this execution may write at most 10 B`) {
			t.Errorf("%v", err)
		}
	})
	t.Run("test_file_save_tracks_files_written", func(t *testing.T) {
		rep, err, dir := codeMCPRun(t, runtime.Config{}, "file.save(\"a.txt\", \"aaa\")\nreturn file.save(\"b.txt\", \"bbb\")")
		if err != nil {
			t.Fatal(err)
		}
		written := runtime.FilesWritten(rep.FilesTouched, hostFolder(dir))
		if len(written) != 2 || written[0].Name != "a.txt" || written[0].Bytes != 3 || written[1].Name != "b.txt" || written[1].Bytes != 3 ||
			written[1].Path != filepath.Join(dir, "b.txt") {
			t.Errorf("files_written %+v", written)
		}
	})
	t.Run("test_execute_file_save", func(t *testing.T) {
		rep, err, dir := codeMCPRun(t, runtime.Config{}, "\n            file.save(\"test.json\", '{\"hello\":\"world\"}')\n            return \"done\"\n        ")
		if err != nil || string(rep.Result) != `"done"` || len(rep.FilesTouched) != 1 || rep.FilesTouched[0].Name != "test.json" || readOut(t, dir, "test.json") != `{"hello":"world"}` {
			t.Errorf("%v %s %+v", err, rep.Result, rep.FilesTouched)
		}
	})
	t.Run("test_execute_no_file_save_when_disabled", func(t *testing.T) {
		rep, err := runtime.New(runtime.Config{}).Run(t.Context(), runtime.Request{Language: runtime.Lua, Source: `return file.save("test.txt", "data")`})
		if err == nil {
			t.Errorf("file.save without files: %s", rep.Result)
		}
	})
	t.Run("test_file_save_roundtrip", func(t *testing.T) {
		const mock = `sdk = { list_pets = function() return {{id = "1", name = "Buddy", status = "available"}, {id = "2", name = "Max", status = "pending"}} end }
`
		rep, err, dir := codeMCPRun(t, runtime.Config{}, mock+`
            local pets = sdk.list_pets()
            local csv = "id,name,status\n"
            for _, p in ipairs(pets) do
                csv = csv .. p.id .. "," .. p.name .. "," .. p.status .. "\n"
            end
            file.save("pets.csv", csv)
            file.save("summary.json", json.encode({ count = #pets }))
            return "saved"
        `)
		if err != nil || string(rep.Result) != `"saved"` || len(rep.FilesTouched) != 2 {
			t.Fatalf("%v %s %+v", err, rep.Result, rep.FilesTouched)
		}
		if csv := readOut(t, dir, "pets.csv"); !strings.Contains(csv, "Buddy") || !strings.Contains(csv, "Max") {
			t.Errorf("pets.csv %q", csv)
		}
		if summary := readOut(t, dir, "summary.json"); summary != `{"count":2}` {
			t.Errorf("summary.json %q", summary)
		}
	})
}

// hostFolder is a Space's host path for FilesWritten, over the folder
// the run wrote into.
type hostFolder string

func (h hostFolder) HostPath(name string) string { return string(h) + "/" + name }
