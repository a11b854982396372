package prompts_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/tokens"
	"convfiles/prompts"
	"convfiles/runtime"
)

// exampleRunner is a store and a runner for the prompt's examples.
func exampleRunner(t *testing.T) (*engine.Store, *runtime.Runner) {
	t.Helper()
	store, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store, runtime.New(runtime.Config{Link: func(c, n string) string { return "http://127.0.0.1:8080/files/" + c + "/" + n }})
}

// TestExamplesRun runs every example of the system prompt, in order, in one
// conversation, so the prompt never teaches code that fails.
func TestExamplesRun(t *testing.T) {
	store, r := exampleRunner(t)
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

// TestLuaExamplesRun runs every Lua example of the system prompt, as Lua,
// and checks what the first one says it shows.
func TestLuaExamplesRun(t *testing.T) {
	store, r := exampleRunner(t)
	examples := prompts.LuaExamples()
	if len(examples) == 0 {
		t.Fatal("the system prompt has no Lua example")
	}
	for i, src := range examples {
		sp, _ := store.Space("prompt-lua")
		rep, err := r.Run(context.Background(), runtime.Request{Source: src, Space: sp, Language: runtime.Lua})
		sp.Close()
		if err != nil {
			t.Fatalf("Lua example %d failed: %v\n%s", i+1, err, src)
		}
		if i == 0 {
			logs := strings.Join(rep.Logs, "\n")
			for _, want := range []string{"ada,3", "true\tnope.txt", "false\t", `".." components are not allowed`} {
				if !strings.Contains(logs, want) {
					t.Errorf("Lua example 1 logged %q, without %q", logs, want)
				}
			}
			if !strings.Contains(string(rep.Result), `"count":2`) || !strings.Contains(string(rep.Result), "summary.json") {
				t.Errorf("Lua example 1 returned %s", rep.Result)
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

func TestToolTextsAreComplete(t *testing.T) {
	names := prompts.ToolNames()
	if len(names) < 12 || names[0] != "file_list" {
		t.Fatalf("tools.md lists %v", names)
	}
	for _, name := range names {
		tt, ok := prompts.Tool(name)
		if !ok || len(tt.Description) < 40 || strings.Contains(tt.Description, "- `") {
			t.Errorf("%s: description %q", name, tt.Description)
		}
		for p, d := range tt.Params {
			if len(d) < 10 {
				t.Errorf("%s.%s: description %q", name, p, d)
			}
		}
	}
	shared, ok := prompts.Tool(prompts.SharedTool)
	if !ok || shared.Params["conversation_id"] == "" {
		t.Error("tools.md does not describe conversation_id for every tool")
	}
}

func TestForConversationListsFilesAndSaysHowManyMore(t *testing.T) {
	got := prompts.ForConversation("c9", []prompts.File{{ID: "id-1", Name: "a b.csv", Size: 12, MIME: "text/csv", URL: "http://x/files/c9/a%20b.csv"}}, 3)
	for _, want := range []string{prompts.System(), "Conversation `c9` has 3 file(s)", "- `a b.csv` (id id-1, text/csv, 12 bytes): http://x/files/c9/a%20b.csv", "and 2 more"} {
		if !strings.Contains(got, want) {
			t.Errorf("the prompt lacks %q", want)
		}
	}
	if empty := prompts.ForConversation("c0", nil, 0); !strings.Contains(empty, "has no files yet") {
		t.Errorf("an empty conversation: %s", empty[len(empty)-80:])
	}
}

// TestSystemPromptIsUnder2000Tokens: the prompt a model reads on every
// turn stays small; the full reference is the tools' own descriptions
// and the docs.
func TestSystemPromptIsUnder2000Tokens(t *testing.T) {
	n, err := tokens.Count(prompts.System())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the system prompt is %d tokens (o200k_base), %d bytes", n, len(prompts.System()))
	if n >= 2000 {
		t.Errorf("the system prompt is %d tokens; keep it under 2000", n)
	}
}
