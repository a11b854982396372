package prompts_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/files"
	"convfiles/prompts"
	"convfiles/runtime"
)

// TestExamplesRun runs every example of the system prompt, in order, in one
// conversation, so the prompt never teaches code that fails.
func TestExamplesRun(t *testing.T) {
	store, err := files.OpenStore(filepath.Join(t.TempDir(), "files"), files.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r := runtime.New(runtime.Config{Link: func(c, n string) string { return "http://127.0.0.1:8080/files/" + c + "/" + n }})
	examples := prompts.Examples()
	if len(examples) < 6 {
		t.Fatalf("found %d examples, want one per helper", len(examples))
	}
	for i, src := range examples {
		sp, _ := store.Space("prompt-examples")
		rep, err := r.Run(context.Background(), runtime.Request{Source: src, Space: sp})
		sp.Close()
		if err != nil {
			t.Fatalf("example %d failed: %v\n%s", i+1, err, src)
		}
		for _, l := range rep.Logs {
			if strings.Contains(l, "undefined") {
				t.Errorf("example %d logged %q", i+1, l)
			}
		}
	}
}

func TestSystemPromptNamesEveryHelper(t *testing.T) {
	for _, h := range []string{"write_file(", "read_file(", "list_files(", "file_info(", "delete_file(", "get_str()"} {
		if !strings.Contains(prompts.System(), h) {
			t.Errorf("the system prompt does not teach %s", h)
		}
	}
}
