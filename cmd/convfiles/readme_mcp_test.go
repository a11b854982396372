package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"convfiles/prompts"
	"convfiles/routes/mcp"
)

// TestReadmeMCPConfigs runs the README's MCP client configurations: the
// process one is started as a client would start it, handshakes and lists
// every tool; the URL one is dialled by the Go SDK's client on a live
// convfiles serve, which must list every tool too.
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
			checkMCPURL(t, c, s.URL)
			continue
		}
		if !filepath.IsAbs(s.Command) || filepath.Base(s.Command) != "convfiles" {
			t.Fatalf("the documentation starts %q, not convfiles by its absolute path (a desktop app's PATH rarely holds it)", s.Command)
		}
		out := mcpSession(t, c, s.Args, []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		}, 2)
		for _, tool := range prompts.ToolNames() {
			if listed, core := strings.Contains(out, `"name":"`+tool+`"`), slices.Contains(mcp.CoreToolNames(), tool); listed != core {
				t.Errorf("convfiles %v lists tool %s: %v; it is in the default (core) profile: %v", s.Args, tool, listed, core)
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

// checkMCPURL connects to the README's MCP URL, with the port of a live
// server, and lists the tools.
func checkMCPURL(t *testing.T, c *cli, url string) {
	t.Helper()
	addr, stop := startServe(t, c.dataDir, func(cfg *Config) { cfg.Server.MCPTools = nil }) // as configured by default
	defer stop()
	url = strings.Replace(url, "127.0.0.1:8080", addr, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "readme", Version: "1"}, nil)
	session, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	defer session.Close()
	res, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = true
	}
	for _, tool := range prompts.ToolNames() {
		if core := slices.Contains(mcp.CoreToolNames(), tool); listed[tool] != core {
			t.Errorf("%s lists tool %s: %v; it is in the default (core) profile: %v", url, tool, listed[tool], core)
		}
	}
}
