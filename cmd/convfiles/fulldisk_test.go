package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/internal/needs"
)

// mountSmallDisk mounts a tmpfs of size bytes at dir, for as long as the
// test runs. It needs root: CI, which runs as root, requires root in
// CONVFILES_REQUIRE so that the test fails rather than skips there.
func mountSmallDisk(t *testing.T, dir string, size string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		needs.Missing(t, needs.Root, errors.New("not running as root"))
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		needs.Missing(t, needs.Root, fmt.Errorf("mount -t tmpfs: %v %s", err, bytes.TrimSpace(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
}

// TestFullDiskIsItsOwnError fills a real disk through each door: a full
// disk is neither a conflict nor the caller's quota (413), nothing half
// written is left, and once the failed write is gone, writes work again.
func TestFullDiskIsItsOwnError(t *testing.T) {
	dir := t.TempDir()
	mountSmallDisk(t, filepath.Join(dir, "files"), "1m")
	addr, stop := startServe(t, dir, func(c *Config) { c.RateLimit = RateLimitConfig{} })
	defer stop()
	h := &hostileServer{t: t, base: "http://" + addr}
	big := strings.Repeat("x", 2<<20)

	code, out := h.post("/api/conversations/full/ops/write_text", jsonOf(map[string]any{"id": "big.txt", "content": big}))
	if e, _ := out["error"].(map[string]any); code != 507 || e["type"] != "StorageFullError" {
		t.Errorf("REST write on a full disk: %d %s", code, jsonOf(out))
	}
	// The script's timeout out of reach: the race detector on a busy
	// machine may take seconds over 2 MB of base64.
	code, out = h.post("/execute", jsonOf(map[string]any{"conversationId": "full", "language": "js", "timeout": 120000,
		"code": `try { files.appendBytes("big.bin", "` + base64.StdEncoding.EncodeToString([]byte(big)) + `"); "written" } catch (e) { e.name + " " + e.kind }`}))
	if out["result"] != "StorageFullError no_space" {
		t.Errorf("a script's write on a full disk: %d %s", code, jsonOf(out)[:min(300, len(jsonOf(out)))])
	}
	_, out = h.mcp(jsonOf(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
		"name": "file_write_text", "arguments": map[string]any{"conversation_id": "full", "id": "big.txt", "content": big}}}))
	if text := jsonOf(out); !strings.Contains(text, `"isError":true`) || !strings.Contains(text, "disk is full") {
		t.Errorf("MCP write on a full disk: %.300s", text)
	}
	var stderr bytes.Buffer
	config := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(config, nil, 0o600)
	if run([]string{"call", "--config", config, "--data-dir", dir, "--conversation", "full", "write_text", "id=big.txt", "content=" + big},
		&env{stdout: &bytes.Buffer{}, stderr: &stderr}) != 1 || !strings.Contains(stderr.String(), "no_space: ") {
		t.Errorf("the CLI's write on a full disk: %.300s", stderr.String())
	}

	entries, _ := os.ReadDir(filepath.Join(dir, "files", "full"))
	for _, e := range entries {
		t.Errorf("a failed write left %s behind", e.Name())
	}
	if code, out := h.post("/api/conversations/full/ops/write_text", jsonOf(map[string]any{"id": "small.txt", "content": "fits\n"})); code != 200 {
		t.Errorf("a small write after the failures: %d %s", code, jsonOf(out))
	}
}

// fillDisk writes to a file at path until the disk is full, and returns
// how to free the space again.
func fillDisk(t *testing.T, path string) (free func()) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	block := bytes.Repeat([]byte{'x'}, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			break
		}
	}
	f.Close()
	return func() { os.Remove(path) }
}

// TestFullDiskChangesAreRecordedOrRefused renames, deletes and moves a
// folder with the whole data folder (files and index) on a full disk: an
// answer of success must mean the index recorded it, and a refusal must
// leave the files as they were. After a restart, every file has its ID
// and its versions.
func TestFullDiskChangesAreRecordedOrRefused(t *testing.T) {
	dir := t.TempDir()
	mountSmallDisk(t, dir, "4m")
	addr, stop := startServe(t, dir, func(c *Config) { c.RateLimit = RateLimitConfig{} })
	h := &hostileServer{t: t, base: "http://" + addr}
	op := func(name string, args map[string]any) (int, map[string]any) {
		return h.post("/api/conversations/disk/ops/"+name, jsonOf(args))
	}
	for _, w := range []struct{ name, text string }{{"a.txt", "a one\n"}, {"a.txt", "a two\n"}, {"b.txt", "b one\n"},
		{"b.txt", "b two\n"}, {"dir/c.txt", "c one\n"}, {"x.txt", "x one\n"}, {"y.txt", "y one\n"}} {
		if code, out := op("write_text", map[string]any{"id": w.name, "content": w.text}); code != 200 {
			t.Fatalf("write %s: %d %s", w.name, code, jsonOf(out))
		}
	}
	ids := map[string]string{}
	for _, name := range []string{"a.txt", "b.txt", "dir/c.txt", "x.txt", "y.txt"} {
		_, out := op("info", map[string]any{"id": name})
		ids[name], _ = resultOf(out)["id"].(string)
	}

	// listed reports whether the index lists name: what every listing,
	// the page and the other replicas see.
	listed := func(name string) bool {
		_, out := op("list", map[string]any{})
		files, _ := resultOf(out)["files"].([]any)
		for _, f := range files {
			if f.(map[string]any)["name"] == name {
				return true
			}
		}
		return false
	}
	free := fillDisk(t, filepath.Join(dir, "filler"))
	refused := map[string]bool{}
	for _, c := range []struct {
		op   string
		args map[string]any
		gone string
	}{
		{"rename", map[string]any{"id": "a.txt", "new_name": "renamed.txt"}, "a.txt"},
		{"delete", map[string]any{"id": "b.txt"}, "b.txt"},
		{"move_folder", map[string]any{"path": "dir", "new_path": "moved"}, "dir/c.txt"},
		// A rename over a file: undone, the replaced file comes back too.
		{"rename", map[string]any{"id": "x.txt", "new_name": "y.txt", "replace": true}, "x.txt"},
	} {
		code, out := op(c.op, c.args)
		still := listed(c.gone)
		switch e, _ := out["error"].(map[string]any); {
		case code == 200 && still:
			t.Errorf("%s answered success on a full disk, and %s is still listed: acknowledged, not recorded", c.op, c.gone)
		case code != 200 && (code != 507 || e["type"] != "StorageFullError"):
			t.Errorf("%s on a full disk: %d %s, want 507 StorageFullError", c.op, code, jsonOf(out))
		case code != 200 && !still:
			t.Errorf("%s was refused on a full disk, but %s is gone", c.op, c.gone)
		case code != 200:
			refused[c.gone] = true
		}
	}
	t.Logf("refused on a full disk: %v", refused)
	if len(refused) == 0 {
		t.Error("the full disk refused nothing: the index found room, so this test did not test its refusal")
	}
	for name := range refused {
		if code, out := op("read_text", map[string]any{"id": name}); code != 200 {
			t.Errorf("%s after its refused change: %d %s", name, code, jsonOf(out))
		}
	}
	if refused["x.txt"] {
		for name, want := range map[string]string{"x.txt": "x one\n", "y.txt": "y one\n"} {
			_, out := op("read_text", map[string]any{"id": name})
			if got, _ := resultOf(out)["content"].(string); got != want {
				t.Errorf("%s after the refused rename over y.txt holds %q, want %q", name, got, want)
			}
		}
	}
	free()
	stop()

	addr, stop = startServe(t, dir, func(c *Config) { c.RateLimit = RateLimitConfig{} })
	defer stop()
	h.base = "http://" + addr
	for name := range refused {
		_, out := op("info", map[string]any{"id": name})
		if got, _ := resultOf(out)["id"].(string); got != ids[name] {
			t.Errorf("after a restart %s has the ID %q, was %q", name, got, ids[name])
		}
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		_, out := op("versions", map[string]any{"id": ids[name]})
		vs, _ := resultOf(out)["versions"].([]any)
		if !refused[name] && len(vs) < 1 || refused[name] && len(vs) != 1 {
			t.Errorf("after a restart %s has the versions %s", name, jsonOf(out))
		}
	}
}

// resultOf is an answer's result object, or nil when it has none.
func resultOf(out map[string]any) map[string]any {
	r, _ := out["result"].(map[string]any)
	return r
}
