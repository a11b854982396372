package main

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentEditsThroughEveryDoor sends concurrent appends, line
// inserts and edits of distinct lines through the doors of a real server
// whose scripts run in workers: files.appendBytes, io.open(name, "a"),
// files.insertLines and files.replaceLines over /execute, and
// file_insert_lines and file_replace_lines over MCP. Every change must
// land, checked byte by byte.
func TestConcurrentEditsThroughEveryDoor(t *testing.T) {
	dir := t.TempDir()
	addr, stop := startServe(t, dir, func(c *Config) { c.RateLimit = RateLimitConfig{} })
	defer stop()
	h := &hostileServer{t: t, base: "http://" + addr}
	const conv = "edits"
	script := func(code string) string {
		return jsonOf(map[string]any{"code": code, "language": "js", "conversationId": conv, "timeout": 30000})
	}
	tool := func(name string, args map[string]any) string {
		args["conversation_id"] = conv
		return jsonOf(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	}
	at := func(n int, send func(i int) (int, map[string]any)) {
		t.Helper()
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, out := send(i)
				if code != http.StatusOK || out["success"] == false || out["error"] != nil || strings.Contains(jsonOf(out), `"isError":true`) {
					t.Errorf("writer %d: %d %s", i, code, jsonOf(out))
				}
			}()
		}
		wg.Wait()
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "files", conv, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	lines := func(name string, want ...string) {
		t.Helper()
		got := strings.Split(strings.TrimSuffix(read(name), "\n"), "\n")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %d lines, want %d:\n%s", name, len(got), len(want), read(name))
		}
	}
	numbered := func(format string, n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf(format, i))
		}
		return out
	}
	at(1, func(int) (int, map[string]any) {
		return h.post("/execute", script(`files.writeText("bytes.log", ""); files.writeText("io.log", "");
		files.writeText("js.txt", ""); files.writeText("mcp.txt", "");
		files.writeText("js-r.txt", "`+strings.Repeat(`x\n`, 20)+`"); files.writeText("mcp-r.txt", "`+strings.Repeat(`x\n`, 20)+`")`))
	})

	at(50, func(i int) (int, map[string]any) {
		data := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "bytes %02d\n", i))
		return h.post("/execute", script(`files.appendBytes("bytes.log", "`+data+`")`))
	})
	lines("bytes.log", numbered("bytes %02d", 50)...)
	at(50, func(i int) (int, map[string]any) {
		return h.post("/execute", script(fmt.Sprintf(`const f = io.open("io.log", "a"); f.write("io %02d\n"); f.close()`, i)))
	})
	lines("io.log", numbered("io %02d", 50)...)
	at(50, func(i int) (int, map[string]any) {
		return h.post("/execute", script(fmt.Sprintf(`files.insertLines("js.txt", 0, "js %02d")`, i)))
	})
	lines("js.txt", numbered("js %02d", 50)...)
	at(20, func(i int) (int, map[string]any) {
		return h.post("/execute", script(fmt.Sprintf(`files.replaceLines("js-r.txt", %d, %d, "js %02d")`, i+1, i+1, i)))
	})
	if want := strings.Join(numbered("js %02d", 20), "\n") + "\n"; read("js-r.txt") != want {
		t.Errorf("js-r.txt after 20 edits of distinct lines:\n%s", read("js-r.txt"))
	}
	at(50, func(i int) (int, map[string]any) {
		return h.mcp(tool("file_insert_lines", map[string]any{"id": "mcp.txt", "after_line": 0, "content": fmt.Sprintf("mcp %02d", i)}))
	})
	lines("mcp.txt", numbered("mcp %02d", 50)...)
	at(20, func(i int) (int, map[string]any) {
		return h.mcp(tool("file_replace_lines", map[string]any{"id": "mcp-r.txt", "start_line": i + 1, "end_line": i + 1, "content": fmt.Sprintf("mcp %02d", i)}))
	})
	if want := strings.Join(numbered("mcp %02d", 20), "\n") + "\n"; read("mcp-r.txt") != want {
		t.Errorf("mcp-r.txt after 20 edits of distinct lines:\n%s", read("mcp-r.txt"))
	}
}

// TestTwoProcessesShareOneQuota runs a server and a convfiles run process
// on one data folder with a 1,000-byte conversation quota. The run learns
// the conversation's usage with its first write, then waits while the
// server fills the quota, then writes again: the quota lives in the index,
// so its writes are refused, with a message that says why, and together
// the two processes store exactly 1,000 bytes.
func TestTwoProcessesShareOneQuota(t *testing.T) {
	dir := t.TempDir()
	srv := startServerProcessWith(t, dir, "[limits]\nmax_conversation_bytes = 1000\n")
	defer func() { srv.cmd.Process.Kill(); srv.cmd.Wait() }()
	h := &hostileServer{t: t, base: srv.base}
	folder := filepath.Join(dir, "convfiles", "files", "q")
	src := filepath.Join(t.TempDir(), "w.js")
	os.WriteFile(src, []byte(`write_file("cli-0.txt", "c".repeat(100));
const until = Date.now() + 20000;
while (list_files("srv-done").length == 0 && Date.now() < until) {}
const refused = [];
for (let k = 1; k < 10; k++) {
  try { write_file("cli-" + k + ".txt", "c".repeat(100)) } catch (e) { refused.push(e.name + ": " + e.message) }
}
refused`), 0o600)
	cmd := exec.Command(os.Args[0], "run", "--conversation", "q", "--timeout", "30s", src)
	cmd.Env = append(os.Environ(), "CONVFILES_RUN_MAIN=1", "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(folder, "cli-0.txt")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never wrote its first file:\n%s", out.String())
		}
	}
	code, answer := h.post("/execute", jsonOf(map[string]any{"language": "js", "conversationId": "q", "timeout": 30000,
		"code": `for (let k = 0; k < 9; k++) write_file("srv-" + k + ".txt", "s".repeat(100)); write_file("srv-done", "")`}))
	if code != http.StatusOK {
		t.Fatalf("the server's writes: %d %v", code, answer)
	}
	cmd.Wait()
	var total int64
	var names []string
	entries, _ := os.ReadDir(folder)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
			names = append(names, e.Name())
		}
	}
	if total != 1000 {
		t.Fatalf("the conversation holds %d bytes under a 1,000-byte quota: %v\n%s", total, names, out.String())
	}
	if n := strings.Count(out.String(), "may hold at most 1000 B"); n != 9 {
		t.Fatalf("%d of the run's 9 late writes were refused for the quota:\n%s", n, out.String())
	}
}
