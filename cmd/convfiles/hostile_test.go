package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"convfiles/internal/hostile"
)

// TestHostileInputsThroughTheCLI runs cat and rm on every hostile name,
// every command that takes --conversation on every hostile ID, and a
// script that writes every name through run: nothing outside the
// conversation may be read, written or deleted, and each refusal says why.
func TestHostileInputsThroughTheCLI(t *testing.T) {
	c := newCLI(t)
	fx := hostile.NewFixture(t, filepath.Join(c.dataDir, "files"))
	for _, hc := range hostile.Names() {
		if strings.ContainsRune(hc.Name, 0) {
			continue // an argv string cannot hold NUL; the JS and HTTP tests cover it
		}
		code, out, errs := c.run("", "cat", "--conversation", hostile.Conversation, hc.Name)
		if strings.Contains(out, hostile.Secret) {
			t.Fatalf("cat %q printed the canary", hc.Name)
		}
		if hc.Outcome != hostile.Contain && (code != 1 || len(errs) < 20) {
			t.Errorf("cat %q: exit %d, stderr %q; want 1 with a reason", hc.Name, code, errs)
		}
		if hc.Outcome == hostile.Refuse {
			for _, cmd := range [][]string{{"rm"}, {"versions"}, {"cat", "--version", "1"}, {"restore"}} {
				args := append(append(cmd[:1:1], "--conversation", hostile.Conversation), cmd[1:]...)
				args = append(args, hc.Name)
				if cmd[0] == "restore" {
					args = append(args, "1")
				}
				if code, _, errs := c.run("", args...); code != 1 || len(errs) < 20 {
					t.Errorf("%s %q: exit %d, stderr %q", cmd[0], hc.Name, code, errs)
				}
			}
		}
	}
	for _, id := range hostile.ConversationIDs() {
		for _, args := range [][]string{
			{"cat", "--conversation", id, "canary.txt"},
			{"rm", "--conversation", id, "canary.txt"},
			{"ls", "--conversation", id},
			{"cleanup", "--conversation", id},
			{"run", "--conversation", id},
			{"mcp", "--conversation", id},
			{"prompt", "--conversation", id},
		} {
			if id == "" {
				continue // an empty --conversation means "none"; covered by usage tests
			}
			code, out, errs := c.run(`write_file("x.txt", "x")`, args...)
			if strings.Contains(out, hostile.Secret) {
				t.Fatalf("%v printed the canary", args)
			}
			if code == 0 || !strings.Contains(errs, "conversation ID") {
				t.Errorf("%v: exit %d, stderr %q; want a refusal naming the conversation ID rules", args, code, errs)
			}
		}
	}
	var names []string
	for _, hc := range hostile.Names() {
		if utf8.ValidString(hc.Name) {
			names = append(names, hc.Name)
		}
	}
	list, _ := json.Marshal(names)
	code, out, _ := c.run(`const out = {};
for (const n of `+string(list)+`) { try { write_file(n, "x"); out[n] = "ok" } catch (e) { out[n] = e.name } }
out`, "run", "--conversation", hostile.Conversation)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, out)
	}
	var rep struct{ Result map[string]string }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Result) != len(names) {
		t.Fatalf("run answered for %d of %d names (%v): %s", len(rep.Result), len(names), err, out)
	}
	for _, hc := range hostile.Names() {
		got, ok := rep.Result[hc.Name]
		if !ok {
			continue
		}
		if (hc.Outcome == hostile.Refuse) == (got == "ok") {
			t.Errorf("run write_file(%q): %s", hc.Name, got)
		}
	}
	fx.CheckUntouched(t)
}
