package js

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestReportGolden pins the JSON shape of a run's report, which HTTP and
// MCP clients parse: field names, order, and how each kind of entry looks.
// Regenerate with: go test ./runtime -run Golden -update
func TestReportGolden(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{MaxLogLines: 3})
	rep, _ := e.Run("golden", `
write_file("kept.csv", "a,b\n1,2\n");
write_file("gone.txt", "x");
delete_file("gone.txt");
for (let i = 0; i < 5; i++) console.log("line", i, {i});
console.warn("careful");
({rows: 1, names: list_files().map(f => f.name)})`)
	failed, _ := e.Run("golden", "let x = 1;\nnull.boom;")
	got, err := json.MarshalIndent(map[string]*runtime.Report{"ok": rep, "failed": failed}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "report.golden.json")
	if *update {
		os.WriteFile(path, append(got, '\n'), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("report differs from %s (run with -update if the change is intended)\n got:\n%s", path, got)
	}
}
