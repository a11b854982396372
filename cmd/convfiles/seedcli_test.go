package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mcpHello starts an MCP session (initialize, initialized) before reqs.
func mcpHello(reqs ...string) []string {
	return append([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, reqs...)
}

// TestMCPIODirTakesScriptsWithoutAConversation: convfiles mcp --io-dir, as
// toolscript's clients start it, runs a script that names no
// conversation in that folder and reports the files it wrote there.
func TestMCPIODirTakesScriptsWithoutAConversation(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(t.TempDir(), "io")
	out := mcpSession(t, c, []string{"mcp", "--io-dir", dir}, mcpHello(
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"execute_script","arguments":{"script":"local f = io.open('out.txt', 'w'); f:write('hi'); f:close(); return 1","timeout_ms":5000}}}`,
	), 2)
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "hi" {
		t.Fatalf("out.txt: %q %v\n%s", b, err, out)
	}
	if !strings.Contains(out, `"path":"`+filepath.Join(dir, "out.txt")+`"`) {
		t.Errorf("files_written does not give the host path:\n%s", out)
	}
}

// TestRunUsesTheConfiguredIOFolder: convfiles run with code-mcp's
// [output] dir writes there and reports files_written; with enabled =
// false the script gets no files; Lua from stdin is named stdin.lua.
func TestRunUsesTheConfiguredIOFolder(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(t.TempDir(), "out")
	os.WriteFile(c.config, []byte("[output]\ndir = \""+dir+"\"\n"), 0o600)
	code, stdout, stderr := c.run(`file.save("pets.csv", "id,name\n1,Fido\n")`, "run", "--language", "lua", "-")
	var rep struct {
		FilesWritten []struct {
			Name, Path string
			Bytes      int
		} `json:"files_written"`
	}
	json.Unmarshal([]byte(stdout), &rep)
	if code != 0 || len(rep.FilesWritten) != 1 || rep.FilesWritten[0].Path != filepath.Join(dir, "pets.csv") || rep.FilesWritten[0].Bytes != 15 {
		t.Fatalf("exit %d %s %s", code, stdout, stderr)
	}
	os.WriteFile(c.config, []byte("[output]\ndir = \""+dir+"\"\nenabled = false\n"), 0o600)
	code, stdout, _ = c.run(`file.save("more.csv", "x")`, "run", "--language", "lua", "-")
	if _, err := os.Stat(filepath.Join(dir, "more.csv")); code == 0 || err == nil {
		t.Errorf("enabled = false: exit %d, more.csv written: %v\n%s", code, err == nil, stdout)
	}
	code, stdout, _ = c.run("error('boom')", "run", "--language", "lua", "-")
	if code == 0 || !strings.Contains(stdout, "stdin.lua:1:") {
		t.Errorf("Lua from stdin: exit %d %s", code, stdout)
	}
}

// TestHostedIODirTurnsIOOn: naming the io folder on the command line
// turns io on in hosted mode too, as toolscript's --io-dir does; the
// configuration's enabled = false still wins.
func TestHostedIODirTurnsIOOn(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(t.TempDir(), "io")
	os.WriteFile(c.config, []byte("mode = \"hosted\"\n"), 0o600)
	cfg, err := serveConfig(&env{stdout: os.Stdout, stderr: os.Stderr}, []string{"--config", c.config, "--data-dir", c.dataDir, "--io-dir", dir})
	if err != nil || !cfg.scriptFiles() {
		t.Errorf("hosted with --io-dir: io on %v, %v", cfg.scriptFiles(), err)
	}
	os.WriteFile(c.config, []byte("mode = \"hosted\"\n[io]\nenabled = false\n"), 0o600)
	cfg, err = serveConfig(&env{stdout: os.Stdout, stderr: os.Stderr}, []string{"--config", c.config, "--data-dir", c.dataDir, "--io-dir", dir})
	if err != nil || cfg.scriptFiles() {
		t.Errorf("enabled = false with --io-dir: io on %v, %v", cfg.scriptFiles(), err)
	}
}
