package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// linkOf runs a script that writes a file with convfiles run and returns
// the file's link and what run said on stderr.
func linkOf(t *testing.T, c *cli, args ...string) (link, stderr string) {
	t.Helper()
	code, out, errOut := c.run(`write_file("report.md", "# Hi")`, append([]string{"run", "--conversation", "links"}, args...)...)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	var rep struct {
		FilesTouched []struct{ URL string } `json:"files_touched"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.FilesTouched) != 1 {
		t.Fatalf("report %s: %v", out, err)
	}
	return rep.FilesTouched[0].URL, errOut
}

// TestRunLinksToTheRunningServer checks where convfiles run's links
// point: to the server running on the same data (on whatever port it
// listens), to --public-url when given, and, with no server, to serve's
// default address, saying so.
func TestRunLinksToTheRunningServer(t *testing.T) {
	c := newCLI(t)
	link, stderr := linkOf(t, c)
	if link != "http://127.0.0.1:8080/files/links/report.md" || !strings.Contains(stderr, "no convfiles serve is running on "+c.dataDir) {
		t.Fatalf("with no server: %s, told %q", link, stderr)
	}

	addr, stop := startServe(t, c.dataDir)
	link, stderr = linkOf(t, c)
	if link != "http://"+addr+"/files/links/report.md" || stderr != "" {
		t.Fatalf("with a server on %s: %s, told %q", addr, link, stderr)
	}
	if link, _ = linkOf(t, c, "--public-url", "https://files.example.com/cf/"); link != "https://files.example.com/cf/files/links/report.md" {
		t.Fatalf("with --public-url: %s", link)
	}
	stop()
	if _, err := os.Stat(filepath.Join(c.dataDir, serverRecordName)); !os.IsNotExist(err) {
		t.Fatalf("a stopped server left its record: %v", err)
	}
	if link, _ = linkOf(t, c); link != "http://127.0.0.1:8080/files/links/report.md" {
		t.Fatalf("after the server stopped: %s", link)
	}

	// A record that a killed server left, naming a process that is gone
	// or a port where nothing answers, is not believed.
	for _, rec := range []string{`{"url": "http://` + addr + `", "pid": 999999999}`, `{"url": "http://127.0.0.1:9", "pid": ` + strconv.Itoa(os.Getpid()) + `}`, `not json`} {
		os.WriteFile(filepath.Join(c.dataDir, serverRecordName), []byte(rec), 0o600)
		if link, stderr = linkOf(t, c); link != "http://127.0.0.1:8080/files/links/report.md" || !strings.Contains(stderr, "no convfiles serve") {
			t.Errorf("with the record %s: %s, told %q", rec, link, stderr)
		}
	}
}

// TestMCPLinksToTheRunningServer checks the same for convfiles mcp: a
// tool's answer links to the server running on the same data.
func TestMCPLinksToTheRunningServer(t *testing.T) {
	c := newCLI(t)
	addr, stop := startServe(t, c.dataDir)
	defer stop()
	out := mcpSession(t, c, []string{"mcp", "--conversation", "links"}, []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"execute_script","arguments":{"code":"write_file('a.txt', 'x')"}}}`,
	}, 2)
	if !strings.Contains(out, `http://`+addr+`/files/links/a.txt`) {
		t.Fatalf("the script's link does not point to the server on %s:\n%s", addr, out)
	}
}
