package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/internal/needs"
	"convfiles/internal/samples"
)

// interopDir is the folder of the TypeScript MCP client (its package.json
// and lockfile). Without its node_modules the test is skipped, unless
// CONVFILES_REQUIRE (set by .ci/run, which runs npm ci) demands it.
func interopDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../routes/mcp/testdata/interop")
	if err != nil {
		t.Fatal(err)
	}
	needs.Program(t, needs.Node, "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		needs.Missing(t, needs.Node, err)
	}
	return dir
}

// seedPixel puts a real PNG into a conversation before the server starts
// (which indexes it) and returns its SHA-256.
func seedPixel(t *testing.T, data, conv string) string {
	t.Helper()
	png := samples.Read(t, "sample.png")
	dir := filepath.Join(data, "convfiles", "files", conv)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pixel.png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(png)
	return hex.EncodeToString(sum[:])
}

// runInterop runs interop.mjs with args and fails the test with its output
// when it reports a failure.
func runInterop(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"interop.mjs"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the TypeScript MCP client failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestMCPTypeScriptClient drives both transports with the official
// TypeScript SDK client: tools and their schemas, writes and reads, a
// line-range read, replace lines, a PNG as image content, a script and its
// files_touched, a resource subscription updated by that script, resource
// listing and reading, the prompt, and a hostile name.
func TestMCPTypeScriptClient(t *testing.T) {
	dir := interopDir(t)
	const conv = "interop-1"
	t.Run("stdio", func(t *testing.T) {
		data := t.TempDir()
		sum := seedPixel(t, data, conv)
		runInterop(t, dir, []string{"CONVFILES_RUN_MAIN=1", "XDG_DATA_HOME=" + data, "XDG_CONFIG_HOME=" + filepath.Join(data, "config"), "PIXEL_SHA256=" + sum},
			"stdio", conv, os.Args[0], "mcp", "--conversation", conv, "--tools", "all")
	})
	t.Run("streamable-http", func(t *testing.T) {
		data := t.TempDir()
		sum := seedPixel(t, data, conv)
		srv := startServerProcessWith(t, data, "[server]\nmcp_tools = [\"all\"]\n")
		defer srv.cmd.Process.Kill()
		runInterop(t, dir, []string{"PIXEL_SHA256=" + sum}, "http", conv, srv.base+"/mcp")
	})
	// Hosted: refused without a token; with a key's bearer token, the
	// same session as above works, and its links come signed.
	t.Run("streamable-http-hosted", func(t *testing.T) {
		data := t.TempDir()
		sum := seedPixel(t, data, conv)
		var keyOut bytes.Buffer
		os.WriteFile(filepath.Join(data, "empty.toml"), nil, 0o600)
		code := run([]string{"keys", "create", "--data-dir", filepath.Join(data, "convfiles"), "--config", filepath.Join(data, "empty.toml"),
			"--name", "interop", "--scopes", "read,write,execute", "--tenant", "interop-"}, &env{stdout: &keyOut, stderr: io.Discard})
		if code != 0 {
			t.Fatal("keys create failed")
		}
		srv := startServerProcessWith(t, data, "mode = \"hosted\"\n[server]\nmcp_tools = [\"all\"]\n")
		defer srv.cmd.Process.Kill()
		runInterop(t, dir, nil, "http-refused", conv, srv.base+"/mcp")
		runInterop(t, dir, []string{"PIXEL_SHA256=" + sum, "CONVFILES_TOKEN=" + strings.TrimSpace(keyOut.String())}, "http", conv, srv.base+"/mcp")
	})
}
