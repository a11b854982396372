package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mountSmallDisk mounts a tmpfs of size bytes at dir, for as long as the
// test runs. It needs root: CI, which runs as root, sets
// CONVFILES_MOUNT_TESTS=1 so that the test fails rather than skips there.
func mountSmallDisk(t *testing.T, dir string, size string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("CONVFILES_MOUNT_TESTS") != "" {
			t.Fatalf("cannot mount a small disk: %v %s", err, out)
		}
		t.Skipf("cannot mount a small disk (mount needs root; CONVFILES_MOUNT_TESTS=1 makes this a failure): %v %s", err, out)
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
	code, out = h.post("/execute", jsonOf(map[string]any{"conversationId": "full", "language": "js",
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
