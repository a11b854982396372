package main

import (
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/ops"
)

// folderFixture is the conversation every folder test starts from: text
// in folders, and an image whose bytes hold the word a search looks for.
func (d *doors) folderFixture() {
	d.t.Helper()
	code, out := d.h.post("/api/conversations/"+d.conv+"/ops/list", "{}")
	if code != 200 {
		d.t.Fatalf("list: %d %s", code, jsonOf(out))
	}
	for _, f := range out["result"].(map[string]any)["files"].([]any) {
		d.h.post("/api/conversations/"+d.conv+"/ops/delete", jsonOf(map[string]any{"id": f.(map[string]any)["name"]}))
	}
	d.put("reports/q1.md", "revenue: 10\nTODO: check\n")
	d.put("reports/2024/q2.md", "revenue: 20\n")
	d.put("notes.txt", "todo later\n")
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00TODO"
	d.h.post("/api/conversations/"+d.conv+"/ops/append_bytes", jsonOf(map[string]any{"id": "pic.png", "data": base64.StdEncoding.EncodeToString([]byte(png))}))
}

// call runs op over REST and fails the test unless it succeeds.
func (d *doors) call(op string, in map[string]any) map[string]any {
	d.t.Helper()
	code, out := d.h.post("/api/conversations/"+d.conv+"/ops/"+op, jsonOf(in))
	if code != 200 {
		d.t.Fatalf("%s %s: %d %s", op, jsonOf(in), code, jsonOf(out))
	}
	return out["result"].(map[string]any)
}

// sameEverywhere calls op through every door from the fixture and checks
// each answers want (the JSON of the fields it names) and leaves the
// names listed in after (nil: not checked).
func (d *doors) sameEverywhere(name string, in map[string]any, want map[string]any, after []string) {
	d.t.Helper()
	op, _ := ops.Lookup(name)
	for _, a := range d.answers(op, in, d.folderFixture) {
		if a.kind != "ok" {
			d.t.Errorf("%s %s over %s: %s %q", name, jsonOf(in), a.door, a.kind, a.msg)
			continue
		}
		for k, v := range want {
			if jsonOf(a.result[k]) != jsonOf(v) {
				d.t.Errorf("%s %s over %s: %s = %s, want %s", name, jsonOf(in), a.door, k, jsonOf(a.result[k]), jsonOf(v))
			}
		}
		if after != nil {
			if got := d.names(); strings.Join(got, " ") != strings.Join(after, " ") {
				d.t.Errorf("%s %s over %s left %v, want %v", name, jsonOf(in), a.door, got, after)
			}
		}
	}
}

// names lists the conversation's files.
func (d *doors) names() []string {
	var out []string
	for _, f := range d.call("list", map[string]any{})["files"].([]any) {
		out = append(out, f.(map[string]any)["name"].(string))
	}
	return out
}

// TestFoldersAndSearchThroughEveryDoor makes, moves, deletes, lists and
// searches folders over REST, from scripts, with the CLI and over MCP,
// each from the same files, and checks every door answers the same.
func TestFoldersAndSearchThroughEveryDoor(t *testing.T) {
	d := newDoors(t, "folders")
	d.sameEverywhere("tree", map[string]any{}, map[string]any{"path": ".", "files": 4, "entries": []map[string]any{
		{"path": "reports", "type": "folder", "size": 36, "files": 2},
		{"path": "reports/2024", "type": "folder", "size": 12, "files": 1},
		{"path": "reports/2024/q2.md", "type": "file", "size": 12},
		{"path": "reports/q1.md", "type": "file", "size": 24},
		{"path": "notes.txt", "type": "file", "size": 11},
		{"path": "pic.png", "type": "file", "size": 33},
	}}, nil)
	d.sameEverywhere("tree", map[string]any{"path": "reports", "depth": 1}, map[string]any{"path": "reports", "size": 36, "entries": []map[string]any{
		{"path": "2024", "type": "folder", "size": 12, "files": 1}, {"path": "q1.md", "type": "file", "size": 24},
	}}, nil)
	d.sameEverywhere("exists", map[string]any{"path": "reports"}, map[string]any{"exists": true, "kind": "folder"}, nil)
	d.sameEverywhere("exists", map[string]any{"path": "notes.txt"}, map[string]any{"exists": true, "kind": "file", "size": 11}, nil)
	d.sameEverywhere("exists", map[string]any{"path": "reports/q3.md"}, map[string]any{"exists": false}, nil)
	d.sameEverywhere("search", map[string]any{"pattern": "todo", "ignore_case": true}, map[string]any{
		"matches":       []map[string]any{{"name": "notes.txt", "line": 1, "content": "todo later"}, {"name": "reports/q1.md", "line": 2, "content": "TODO: check"}},
		"files_matched": 2, "files_searched": 3, "skipped_binary": 1}, nil)
	d.sameEverywhere("search", map[string]any{"pattern": "revenue", "path": "reports/2024"}, map[string]any{
		"matches": []map[string]any{{"name": "reports/2024/q2.md", "line": 1, "content": "revenue: 20"}}}, nil)
	d.sameEverywhere("search", map[string]any{"name": "*.md"}, map[string]any{
		"matches": []map[string]any{{"name": "reports/2024/q2.md", "size": 12}, {"name": "reports/q1.md", "size": 24}}}, nil)
	d.sameEverywhere("search", map[string]any{"pattern": "revenue", "max_results": 1}, map[string]any{"truncated": true,
		"matches": []map[string]any{{"name": "reports/2024/q2.md", "line": 1, "content": "revenue: 20"}}}, nil)

	all := []string{"notes.txt", "pic.png", "reports/2024/q2.md", "reports/q1.md"}
	d.sameEverywhere("make_folder", map[string]any{"path": "drafts/2025"}, map[string]any{"path": "drafts/2025", "created": true},
		append([]string{"drafts/2025/.keep"}, all...))
	d.sameEverywhere("move_folder", map[string]any{"path": "reports", "new_path": "archive/reports"}, map[string]any{"path": "archive/reports", "moved": 2},
		[]string{"archive/reports/2024/q2.md", "archive/reports/q1.md", "notes.txt", "pic.png"})
	d.sameEverywhere("delete_folder", map[string]any{"path": "reports/"}, map[string]any{"path": "reports", "deleted": 2},
		[]string{"notes.txt", "pic.png"})

	// A moved file keeps its ID; a deleted folder's files restore by ID.
	d.folderFixture()
	id := d.call("info", map[string]any{"id": "reports/q1.md"})["id"]
	d.call("move_folder", map[string]any{"path": "reports", "new_path": "old"})
	if got := d.call("info", map[string]any{"id": "old/q1.md"})["id"]; got != id {
		t.Fatalf("the moved file's ID is %v, was %v", got, id)
	}
	d.call("delete_folder", map[string]any{"path": "old"})
	d.call("restore", map[string]any{"id": id, "version": 1})
	if got := d.content("old/q1.md"); got != "revenue: 10\nTODO: check\n" {
		t.Fatalf("restored %q", got)
	}
}

// TestFolderRefusals checks what folder operations refuse, through every
// door: a move over a taken name (nothing moves), into itself, a file
// where a folder is meant, and hostile paths, none of which reach
// outside the conversation.
func TestFolderRefusals(t *testing.T) {
	d := newDoors(t, "refusals")
	refuse := func(name string, in map[string]any, kind, says string) {
		t.Helper()
		op, _ := ops.Lookup(name)
		for _, a := range d.answers(op, in, d.folderFixture) {
			wantKind := kind
			if a.door == "MCP" {
				wantKind = "error"
			}
			if a.kind != wantKind || !strings.Contains(a.msg, says) {
				t.Errorf("%s %s over %s: %s %q, want %s saying %q", name, jsonOf(in), a.door, a.kind, a.msg, kind, says)
			}
			if got := strings.Join(d.names(), " "); got != "notes.txt pic.png reports/2024/q2.md reports/q1.md" {
				t.Errorf("%s %s over %s changed the files: %s", name, jsonOf(in), a.door, got)
			}
		}
	}
	d.folderFixture()
	d.put("archive/reports/q1.md", "taken\n")
	op, _ := ops.Lookup("move_folder")
	for _, a := range d.answers(op, map[string]any{"path": "reports", "new_path": "archive/reports"}, func() {
		d.folderFixture()
		d.put("archive/reports/q1.md", "taken\n")
	}) {
		if a.kind == "ok" || !strings.Contains(a.msg, "archive/reports/q1.md") || !strings.Contains(a.msg, "nothing was moved") {
			t.Errorf("a move over a taken name over %s: %s %q", a.door, a.kind, a.msg)
		}
		if got := strings.Join(d.names(), " "); got != "archive/reports/q1.md notes.txt pic.png reports/2024/q2.md reports/q1.md" {
			t.Errorf("a refused move over %s left %s", a.door, got)
		}
	}
	refuse("move_folder", map[string]any{"path": "reports", "new_path": "reports/inner"}, "invalid", "cannot move into itself")
	refuse("move_folder", map[string]any{"path": "notes.txt", "new_path": "n"}, "conflict", "is a file, not a folder")
	refuse("delete_folder", map[string]any{"path": "nothing"}, "not_found", "no such folder")
	refuse("make_folder", map[string]any{"path": "notes.txt"}, "conflict", "is a file")
	for _, hostile := range []string{"../outside", "/etc", "a/../../b", `a\b`, ".convfiles-versions", "x\x00y", "reports/./x", strings.Repeat("a/", 20) + "z"} {
		refuse("make_folder", map[string]any{"path": hostile}, "invalid", "")
		refuse("move_folder", map[string]any{"path": "reports", "new_path": hostile}, "invalid", "")
		refuse("move_folder", map[string]any{"path": hostile, "new_path": "elsewhere"}, "invalid", "")
		refuse("delete_folder", map[string]any{"path": hostile}, "invalid", "")
		refuse("tree", map[string]any{"path": hostile}, "invalid", "")
		refuse("exists", map[string]any{"path": hostile}, "invalid", "")
		refuse("search", map[string]any{"name": "*", "path": hostile}, "invalid", "")
	}
	entries, _ := os.ReadDir(filepath.Dir(filepath.Join(d.dir, "files", d.conv)))
	for _, e := range entries {
		if e.Name() != d.conv && !strings.HasPrefix(e.Name(), ".convfiles-") {
			t.Errorf("something was made beside the conversation: %s", e.Name())
		}
	}
}

// TestDeletedFilesAreFoundByName lists deleted files through every door,
// all of them and by a glob, each with the version that restores it, and
// a folder's own files without those of its subfolders.
func TestDeletedFilesAreFoundByName(t *testing.T) {
	d := newDoors(t, "deleted")
	fixture := func() { // a new conversation each time: no deletes of earlier runs
		req, _ := http.NewRequest(http.MethodDelete, d.h.base+"/api/conversations/"+d.conv, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		d.folderFixture()
		d.call("delete", map[string]any{"id": "reports/q1.md"})
		d.call("delete", map[string]any{"id": "notes.txt"})
	}
	deleted := func(in map[string]any, want ...string) {
		t.Helper()
		op, _ := ops.Lookup("list_deleted")
		for _, a := range d.answers(op, in, fixture) {
			if a.kind != "ok" {
				t.Errorf("list_deleted %s over %s: %s %q", jsonOf(in), a.door, a.kind, a.msg)
				continue
			}
			var got []string
			list, _ := a.result["files"].([]any)
			for _, f := range list {
				f := f.(map[string]any)
				got = append(got, f["name"].(string))
				if v, _ := f["last_version"].(float64); v < 1 || f["deleted_on"] == "" {
					t.Errorf("list_deleted over %s: %s has no version to restore", a.door, jsonOf(f))
				}
			}
			if strings.Join(got, " ") != strings.Join(want, " ") || a.result["total"] != float64(len(want)) {
				t.Errorf("list_deleted %s over %s: %v of %v, want %v", jsonOf(in), a.door, got, a.result["total"], want)
			}
		}
	}
	deleted(map[string]any{"pattern": "q1*"}, "reports/q1.md")
	deleted(map[string]any{"pattern": "reports/*"}, "reports/q1.md")
	deleted(map[string]any{"pattern": "*.png"})
	op, _ := ops.Lookup("list_deleted")
	for _, a := range d.answers(op, map[string]any{"pattern": "[x"}, fixture) {
		if a.kind == "ok" || !strings.Contains(a.msg, "malformed") {
			t.Errorf("a malformed pattern over %s: %s %q", a.door, a.kind, a.msg)
		}
	}

	d.folderFixture()
	list, _ := ops.Lookup("list")
	for _, a := range d.answers(list, map[string]any{"folder": "reports"}, func() {}) {
		var got []string
		files, _ := a.result["files"].([]any)
		for _, f := range files {
			got = append(got, f.(map[string]any)["name"].(string))
		}
		if a.kind != "ok" || strings.Join(got, " ") != "reports/q1.md" {
			t.Errorf("list in the folder reports over %s: %s %q %v", a.door, a.kind, a.msg, got)
		}
	}
}
