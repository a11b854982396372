package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// petsMock stands in for the OpenAPI server of code-mcp's end-to-end
// tests (e2e/tests): its sdk.list_pets answers these four pets.
const petsMock = `sdk = { list_pets = function() return { items = {
  {id = "1", name = "Fido"}, {id = "2", name = "Whiskers"}, {id = "3", name = "Rex"}, {id = "4", name = "Tweety"} } } end }
`

// TestCodeMCPEndToEnd runs code-mcp's two file.save end-to-end tests
// (e2e/tests/test_stdio_scripts.py) through execute_script as its
// clients call it: script, files_written, the file on disk.
func TestCodeMCPEndToEnd(t *testing.T) {
	e := newEnv(t, "out")
	t.Run("test_file_save_writes_to_disk", func(t *testing.T) {
		res := e.call("execute_script", map[string]any{"script": petsMock + `
            local pets = sdk.list_pets()
            local csv = "id,name\n"
            for _, p in ipairs(pets.items) do
                csv = csv .. p.id .. "," .. p.name .. "\n"
            end
            file.save("pets.csv", csv)
            return { saved = true, count = #pets.items }
        `})
		var data struct {
			Result struct {
				Saved bool
				Count int
			}
			FilesWritten []struct {
				Name  string
				Bytes int
			} `json:"files_written"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &data)
		if res.IsError || !data.Result.Saved || data.Result.Count != 4 || len(data.FilesWritten) != 1 || data.FilesWritten[0].Name != "pets.csv" || data.FilesWritten[0].Bytes <= 0 {
			t.Fatalf("%s", text(res))
		}
		content, err := os.ReadFile(filepath.Join(e.dir, "out", "pets.csv"))
		if err != nil || !strings.Contains(string(content), "Fido") || !strings.Contains(string(content), "Whiskers") {
			t.Errorf("pets.csv: %v %q", err, content)
		}
	})
	t.Run("test_file_save_rejects_traversal", func(t *testing.T) {
		res := e.call("execute_script", map[string]any{"script": `return file.save("../evil.txt", "pwned")`})
		if msg := strings.ToLower(text(res)); !res.IsError || !strings.Contains(msg, "traversal") && !strings.Contains(msg, "error") {
			t.Errorf("%v %s", res.IsError, text(res))
		}
	})
}
