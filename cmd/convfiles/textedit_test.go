package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"convfiles/ops"
)

// newDoors starts a server (scripts in workers) and returns the doors
// into one of its conversations.
func newDoors(t *testing.T, conv string) *doors {
	t.Helper()
	dir := t.TempDir()
	addr, stop := startServe(t, dir, func(c *Config) { c.RateLimit = RateLimitConfig{} })
	t.Cleanup(stop)
	config := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(config, nil, 0o600)
	return &doors{t: t, h: &hostileServer{t: t, base: "http://" + addr}, dir: dir, config: config, conv: conv}
}

// put stores text as name over REST.
func (d *doors) put(name, text string) {
	d.t.Helper()
	code, out := d.h.post("/api/conversations/"+d.conv+"/ops/write_text", jsonOf(map[string]any{"id": name, "content": text}))
	if code != http.StatusOK {
		d.t.Fatalf("write %s: %d %s", name, code, jsonOf(out))
	}
}

// content is the file as it is on disk.
func (d *doors) content(name string) string {
	d.t.Helper()
	b, err := os.ReadFile(filepath.Join(d.dir, "files", d.conv, name))
	if err != nil {
		d.t.Fatal(err)
	}
	return string(b)
}

const plan = "# Plan\n\nstep one\nstep two\nstep three\n"

// TestEditByExactTextThroughEveryDoor makes the same exact-text edits
// over REST, from a script, with the CLI and over MCP: each answers the
// same diff and leaves the same file, or refuses with the same message
// and leaves the file as it was.
func TestEditByExactTextThroughEveryDoor(t *testing.T) {
	d := newDoors(t, "edits")
	edit, _ := ops.Lookup("edit")
	reset := func() { d.put("plan.md", plan) }
	cases := []struct {
		name   string
		in     map[string]any
		diff   string // "" for a refusal
		after  string
		reason string // a refusal's message holds it
	}{
		{name: "several edits", in: map[string]any{"edits": []any{
			map[string]any{"old": "step one", "new": "step 1"},
			map[string]any{"old": "step three\n", "new": "step 3\nstep 4\n"}}},
			diff:  "--- a/plan.md\n+++ b/plan.md\n@@ -1,5 +1,6 @@\n # Plan\n \n-step one\n+step 1\n step two\n-step three\n+step 3\n+step 4\n",
			after: "# Plan\n\nstep 1\nstep two\nstep 3\nstep 4\n"},
		{name: "dry run", in: map[string]any{"dry_run": true, "edits": []any{map[string]any{"old": "two", "new": "2"}}},
			diff:  "--- a/plan.md\n+++ b/plan.md\n@@ -1,5 +1,5 @@\n # Plan\n \n step one\n-step two\n+step 2\n step three\n",
			after: plan},
		{name: "replace all", in: map[string]any{"edits": []any{map[string]any{"old": "step", "new": "Step", "replace_all": true}}},
			diff:  "--- a/plan.md\n+++ b/plan.md\n@@ -1,5 +1,5 @@\n # Plan\n \n-step one\n-step two\n-step three\n+Step one\n+Step two\n+Step three\n",
			after: "# Plan\n\nStep one\nStep two\nStep three\n"},
		{name: "ambiguous", in: map[string]any{"edits": []any{map[string]any{"old": "step", "new": "Step"}}},
			after: plan, reason: "edit 1: old text matches 3 times (lines 3, 4, 5); quote more of the lines around it so it matches once, or set replace_all"},
		{name: "no match", in: map[string]any{"edits": []any{map[string]any{"old": "step four", "new": "step 4"}}},
			after: plan, reason: "edit 1: old text not found; read the file again and copy the text exactly"},
		{name: "all or none", in: map[string]any{"edits": []any{
			map[string]any{"old": "step one", "new": "step 1"}, map[string]any{"old": "step  two", "new": "step 2"}}},
			after: plan, reason: "edit 2: old text not found after edit 1 was applied; it is there with different spaces"},
		{name: "nothing to change", in: map[string]any{"edits": []any{map[string]any{"old": "two", "new": "two"}}},
			after: plan, reason: "edit 1: old and new are the same text"},
	}
	for _, c := range cases {
		in := map[string]any{"id": "plan.md"}
		for k, v := range c.in {
			in[k] = v
		}
		for _, a := range d.answers(edit, in, reset) {
			switch {
			case c.diff != "" && a.kind != "ok":
				t.Errorf("%s over %s: %s %q", c.name, a.door, a.kind, a.msg)
			case c.diff != "" && (a.result["diff"] != c.diff || a.result["replacements"] == nil):
				t.Errorf("%s over %s answered %s, want the diff\n%s", c.name, a.door, jsonOf(a.result), c.diff)
			case c.diff == "" && (a.kind == "ok" || !strings.Contains(a.msg, c.reason)):
				t.Errorf("%s over %s: %s %q, want a refusal saying %q", c.name, a.door, a.kind, a.msg, c.reason)
			}
			if got := d.content("plan.md"); got != c.after {
				t.Errorf("%s over %s left %q, want %q", c.name, a.door, got, c.after)
			}
		}
	}
}

// TestConcurrentExactTextEditsAllLand sends forty edits of distinct lines
// of one file at once, half from scripts and half over MCP: every one
// lands. Then two writers replace the same text at once: one lands and
// the other is told its text is no longer there.
func TestConcurrentExactTextEditsAllLand(t *testing.T) {
	d := newDoors(t, "edits")
	var lines, done []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("item %02d: todo", i))
		done = append(done, fmt.Sprintf("item %02d: done", i))
	}
	d.put("list.md", strings.Join(lines, "\n")+"\n")
	edit, _ := ops.Lookup("edit")
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := map[string]any{"id": "list.md", "edits": []any{map[string]any{"old": lines[i], "new": done[i]}}}
			var a answer
			if i%2 == 0 {
				a = d.scriptAnswer(edit, in)
			} else {
				a = d.mcpAnswer(edit, in)
			}
			if a.kind != "ok" {
				t.Errorf("edit %d over %s: %s %q", i, a.door, a.kind, a.msg)
			}
		}()
	}
	wg.Wait()
	if got, want := d.content("list.md"), strings.Join(done, "\n")+"\n"; got != want {
		t.Fatalf("after forty concurrent edits the file holds:\n%s", got)
	}

	d.put("status.md", "status: draft\n")
	results := make([]answer, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := map[string]any{"id": "status.md", "edits": []any{map[string]any{"old": "status: draft", "new": fmt.Sprintf("status: final by %d", i)}}}
			results[i] = d.scriptAnswer(edit, in)
		}()
	}
	wg.Wait()
	landed := 0
	for _, a := range results {
		switch {
		case a.kind == "ok":
			landed++
		case !strings.Contains(a.msg, "old text not found"):
			t.Errorf("the losing edit was told %s %q", a.kind, a.msg)
		}
	}
	if got := d.content("status.md"); landed != 1 || !strings.HasPrefix(got, "status: final by ") {
		t.Fatalf("%d edits landed and the file holds %q", landed, got)
	}
}
