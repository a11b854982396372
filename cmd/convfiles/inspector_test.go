package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"convfiles/internal/needs"
	"convfiles/ops"
)

// typeMistakes are the words of an answer to arguments of the wrong type
// or shape: what a client that fills arguments from the schema gets when
// the schema misleads it.
var typeMistakes = []string{"must be an array", "must be a number", "must be a whole number", "must be true or false",
	"must be an object", "must be a string", "takes no parameter", "is missing", "not valid JSON"}

// TestEveryToolFromTheInspectorCLI calls every tool the way the MCP
// Inspector's command line does (key=value arguments, converted by the
// tool's input schema) on a real server: each call reaches its tool with
// its arguments typed, whatever the tool then answers about the file.
func TestEveryToolFromTheInspectorCLI(t *testing.T) {
	dir := interopDir(t)
	cli := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector-cli", "build")
	if _, err := os.Stat(filepath.Join(cli, "index.js")); err != nil {
		needs.Missing(t, needs.Node, err)
	}
	data := t.TempDir()
	srv := startServerProcessWith(t, data, "[server]\nmcp_tools = [\"all\"]\n")
	defer srv.cmd.Process.Kill()
	call := func(tool string, args map[string]any) (string, error) {
		argv := []string{"index.js", srv.base + "/mcp", "--transport", "http", "--method", "tools/call", "--tool-name", tool,
			"--tool-arg", "conversation_id=inspector"}
		for k, v := range args {
			s, ok := v.(string)
			if !ok {
				b, _ := json.Marshal(v)
				s = string(b)
			}
			argv = append(argv, "--tool-arg", k+"="+s)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", argv...)
		cmd.Dir = cli // the command line finds its package.json from its working folder
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := call("file_write_text", map[string]any{"id": "doc.txt", "content": "doc\n"}); err != nil || strings.Contains(out, `"isError": true`) {
		t.Fatalf("file_write_text: %v %s", err, out)
	}
	calls := map[string]map[string]any{
		"execute_script":  {"code": "1 + 1", "timeout": 2, "language": "js"},
		"file_read_media": {"id": "doc.txt"},
		"file_download":   {"url": "http://127.0.0.1:1/x", "filename": "x.txt"},
	}
	for _, op := range ops.All() {
		switch {
		case op.Tool == "":
		case strings.HasPrefix(op.Params[0], "..."): // it names no file (list_deleted)
			args := with(op, nil)
			delete(args, op.Params[0])
			calls[op.Tool] = args
		default:
			calls[op.Tool] = with(op, "doc.txt")
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	var mu sync.Mutex
	for tool, args := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out, err := call(tool, args)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || !strings.Contains(out, `"content"`) {
				t.Errorf("%s %v: %v %s", tool, args, err, out)
				return
			}
			for _, m := range typeMistakes {
				if strings.Contains(out, m) {
					t.Errorf("%s %v: the arguments did not reach it typed: %s", tool, args, out)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d tools called from the MCP Inspector's command line", len(calls))
}
