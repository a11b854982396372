package js

import (
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/internal/storetest"
	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// newIndexedEnv is newEnv over a Store with a metadata index, as the
// server runs it: files have IDs and versions.
func newIndexedEnv(t *testing.T, cfg runtime.Config) *runtimetest.Env {
	t.Helper()
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{})
	return runtimetest.With(t, store, cfg)
}

// TestFilesByIDWithAnIndex: with an index, files.* hand out UUIDs that
// address the file through renames, and names keep working.
func TestFilesByIDWithAnIndex(t *testing.T) {
	e := newIndexedEnv(t, runtime.Config{})
	var got struct {
		Created, Renamed, Info map[string]any
		Listed                 []map[string]any
		Text                   map[string]any
		Other                  string
	}
	e.OK("c1", `
const created = files.create("notes.md");
files.writeText(created.id, "# one\ntwo\n");
const renamed = files.rename(created.id, "archive/notes.md");
({created, renamed, info: files.info(created.id), listed: files.list("*.md"),
  text: files.readText(renamed.id, {startLine: 2}), other: ""})`, &got)
	id, _ := got.Created["id"].(string)
	if len(id) != 36 || got.Renamed["id"] != id || got.Info["name"] != "archive/notes.md" || got.Info["version"] != float64(2) {
		t.Fatalf("ids: created %v renamed %v info %v", got.Created, got.Renamed, got.Info)
	}
	if got.Info["mime_type"] != "text/markdown" || got.Info["source"] != "created" || len(got.Info["sha256"].(string)) != 64 {
		t.Fatalf("info %v", got.Info)
	}
	if len(got.Listed) != 1 || got.Listed[0]["id"] != id || got.Text["content"] != "two\n" || got.Text["totalLines"] != float64(2) {
		t.Fatalf("list %v text %v", got.Listed, got.Text)
	}
	// Another conversation cannot reach the file by its ID.
	rep, err := e.Run("c2", `files.readText("`+id+`")`)
	if err == nil {
		t.Fatalf("another conversation read the file by ID: %s", rep.Result)
	}
}

// TestVersionsFromScripts: overwrites and deletes keep earlier versions;
// a script lists and restores them, and a deleted file comes back.
func TestVersionsFromScripts(t *testing.T) {
	e := newIndexedEnv(t, runtime.Config{})
	var got struct {
		Versions []map[string]any
		Restored map[string]any
		Text     string
		Back     string
		Bad      string
	}
	e.OK("c1", `
const {id} = files.create("draft.txt");
files.writeText(id, "first");
files.writeText(id, "second");
const versions = files.versions(id);
const restored = files.restore(id, versions[0].version);
const text = files.readText(id).content;
files.delete(id);
files.restore(id, files.versions(id)[0].version);
let bad = ""; try { files.restore(id, 99) } catch (e) { bad = e.name + ": " + e.message }
({versions, restored, text, back: files.readText("draft.txt").content, bad})`, &got)
	if len(got.Versions) != 2 || got.Versions[0]["version"] != float64(2) || got.Versions[0]["reason"] != "overwrite" || got.Versions[0]["size"] != float64(5) {
		t.Fatalf("versions %v", got.Versions)
	}
	if got.Text != "first" || got.Restored["version"] != float64(4) || got.Back != "first" {
		t.Fatalf("restore: %v text %q back %q", got.Restored, got.Text, got.Back)
	}
	if got.Bad == "" || !strings.HasPrefix(got.Bad, "FileNotFoundError") {
		t.Fatalf("restoring a missing version: %q", got.Bad)
	}
}
