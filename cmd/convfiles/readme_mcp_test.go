package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"convfiles/prompts"
)

// TestReadmeMCPConfigs runs the README's MCP client configurations: the
// process one is started as a client would start it, handshakes and lists
// every tool; the URL one must name the /mcp route (the README's curl
// example exercises it on a live server).
func TestReadmeMCPConfigs(t *testing.T) {
	c := newCLI(t)
	var seen int
	for _, b := range readmeBlocks(t) {
		if b.lang != "json" || !strings.Contains(b.body, "mcpServers") {
			continue
		}
		var cfg struct {
			MCPServers map[string]struct {
				Command string
				Args    []string
				URL     string
			}
		}
		if err := json.Unmarshal([]byte(b.body), &cfg); err != nil {
			t.Fatalf("README MCP config: %v\n%s", err, b.body)
		}
		s := cfg.MCPServers["convfiles"]
		seen++
		if s.URL != "" {
			if s.URL != "http://127.0.0.1:8080/mcp" {
				t.Errorf("the README's MCP URL is %s", s.URL)
			}
			continue
		}
		if s.Command != "convfiles" {
			t.Fatalf("the README starts %q", s.Command)
		}
		out := mcpSession(t, c, s.Args, []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		}, 2)
		for _, tool := range prompts.ToolNames() {
			if !strings.Contains(out, `"name":"`+tool+`"`) {
				t.Errorf("convfiles %v does not list tool %s", s.Args, tool)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("the README shows %d MCP configurations, want the process and the URL", seen)
	}
}

// mcpSession runs convfiles with args as a client runs it: it sends the
// request lines, reads answers until the one with id last, then closes
// stdin, which must end the command with status 0. It returns the answers.
func mcpSession(t *testing.T, c *cli, args, requests []string, last int) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	full := append([]string{args[0], "--config", c.config, "--data-dir", c.dataDir}, args[1:]...)
	code := make(chan int, 1)
	go func() {
		code <- run(full, &env{stdin: inR, stdout: outW, stderr: io.Discard})
		outW.Close()
	}()
	go func() {
		for _, r := range requests {
			io.WriteString(inW, r+"\n")
		}
	}()
	var answers strings.Builder
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	want := fmt.Sprintf(`"id":%d,`, last)
	for sc.Scan() {
		answers.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), want) {
			break
		}
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case n := <-code:
		if n != 0 {
			t.Fatalf("convfiles %v: exit %d", args, n)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("convfiles %v did not end when stdin closed", args)
	}
	return answers.String()
}
