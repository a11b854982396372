package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"
)

// TestToolscriptEndToEnd runs toolscript's two io end-to-end tests
// (e2e/tests/test_stdio_scripts.py, with the mcp_io_session fixture: a
// server started with --io-dir) as its client calls them: script alone,
// no language, no conversation, the answer read from its text. The one
// difference: sdk.list_pets, which toolscript generates from an OpenAPI
// mock, is the stub code-mcp's port uses.
func TestToolscriptEndToEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	store, _ := storetest.Open(t, dir, engine.Options{})
	ioDir := filepath.Join(t.TempDir(), "io")
	io, err := engine.OpenDir(ioDir, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer io.Close()
	e := newEnvWith(t, dir, mcp.Config{Store: store, IO: io}, "")
	parse := func(text string) map[string]any {
		var data map[string]any
		if err := json.Unmarshal([]byte(text), &data); err != nil {
			t.Fatalf("the answer's text is not JSON: %s", text)
		}
		return data
	}
	t.Run("test_io_write_to_disk", func(t *testing.T) {
		res := e.call("execute_script", map[string]any{"script": petsMock + `
            local pets = sdk.list_pets()
            local csv = "id,name\n"
            for _, p in ipairs(pets.items) do
                csv = csv .. p.id .. "," .. p.name .. "\n"
            end
            local f = io.open("pets.csv", "w")
            f:write(csv)
            f:close()
            return { saved = true, count = #pets.items }
        `})
		if res.IsError {
			t.Fatalf("Script execution error: %s", text(res))
		}
		data := parse(text(res))
		result := data["result"].(map[string]any)
		touched, _ := data["files_touched"].([]any)
		if result["saved"] != true || result["count"] != 4.0 || len(touched) != 1 ||
			touched[0].(map[string]any)["name"] != "pets.csv" || touched[0].(map[string]any)["bytes"].(float64) <= 0 {
			t.Fatalf("%v", data)
		}
		content, err := os.ReadFile(filepath.Join(ioDir, "pets.csv"))
		if err != nil || !strings.Contains(string(content), "Fido") || !strings.Contains(string(content), "Whiskers") {
			t.Errorf("pets.csv: %v %q", err, content)
		}
	})
	t.Run("test_io_rejects_traversal", func(t *testing.T) {
		res := e.call("execute_script", map[string]any{"script": "local f = io.open(\"../evil.txt\", \"w\")\nreturn f"})
		if msg := strings.ToLower(text(res)); !res.IsError || !strings.Contains(msg, "traversal") && !strings.Contains(msg, "error") {
			t.Errorf("%v %s", res.IsError, text(res))
		}
	})
}
