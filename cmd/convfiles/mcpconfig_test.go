package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// clientFormats is each client's documented format: the file's top key,
// and the fields of a stdio and of an HTTP server (nil: given another
// way, as a command).
var clientFormats = map[string]struct {
	format, top string
	stdio, http []string
}{
	"claude-desktop": {"json", "mcpServers", []string{"command", "args"}, []string{"command", "args"}},
	"claude-code":    {"command", "", nil, nil},
	"vscode":         {"json", "servers", []string{"type", "command", "args"}, []string{"type", "url"}},
	"cursor":         {"json", "mcpServers", []string{"command", "args"}, []string{"url"}},
	"windsurf":       {"json", "mcpServers", []string{"command", "args"}, []string{"serverUrl"}},
	"zed":            {"json", "context_servers", []string{"source", "command", "args", "env"}, []string{"url"}},
	"codex":          {"toml", "mcp_servers", []string{"command", "args"}, []string{"url"}},
	"gemini":         {"json", "mcpServers", []string{"command", "args"}, []string{"httpUrl"}},
	"cline":          {"json", "mcpServers", []string{"type", "command", "args", "disabled"}, []string{"type", "url", "disabled"}},
	"goose":          {"yaml", "extensions", []string{"name", "type", "enabled", "cmd", "args", "timeout"}, []string{"name", "type", "enabled", "uri", "timeout"}},
}

// TestMCPConfigForEveryClient prints each client's setup, reads it back
// in that client's format (its key names, a type where it needs one,
// TOML for Codex, YAML for goose), and starts the stdio server exactly
// as the snippet says, through an MCP handshake; the HTTP form names the
// URL as that client expects it.
func TestMCPConfigForEveryClient(t *testing.T) {
	c := newCLI(t)
	c.run(`write_file("a.txt", "x")`, "run", "--conversation", "demo")
	exe, _ := os.Executable()
	if len(mcpClients) != len(clientFormats) {
		t.Fatalf("%d clients, %d formats checked", len(mcpClients), len(clientFormats))
	}
	for _, client := range mcpClients {
		want, ok := clientFormats[client.name]
		if !ok {
			t.Fatalf("no documented format for %s", client.name)
		}
		t.Run(client.name, func(t *testing.T) {
			code, out, errs := c.run("", "mcp-config", client.name, "--conversation", "demo")
			if code != 0 || !strings.Contains(errs, client.title) {
				t.Fatalf("exit %d: %s", code, errs)
			}
			server := readServer(t, want.format, want.top, out)
			command, args := commandOf(t, client.name, server, want.stdio)
			if command != exe {
				t.Fatalf("the snippet starts %q, not this binary's absolute path %q", command, exe)
			}
			if !slices.Equal(args[:3], []string{"mcp", "--conversation", "demo"}) {
				t.Fatalf("args %q", args)
			}
			answers := mcpSession(t, c, args, []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"` + client.name + `","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			}, 2)
			if !strings.Contains(answers, `"name":"file_read_text"`) {
				t.Fatalf("the server the snippet starts lists no file_read_text: %.300s", answers)
			}

			const url = "http://127.0.0.1:8080/mcp"
			code, out, _ = c.run("", "mcp-config", client.name, "--http", url)
			if code != 0 {
				t.Fatalf("--http: exit %d", code)
			}
			if want.format == "command" {
				if out != "claude mcp add --transport http convfiles "+url+"\n" {
					t.Fatalf("--http: %q", out)
				}
				return
			}
			server = readServer(t, want.format, want.top, out)
			checkFields(t, server, want.http)
			got := []string{}
			for _, k := range []string{"url", "serverUrl", "httpUrl", "uri"} {
				if s, ok := server[k].(string); ok {
					got = append(got, s)
				}
			}
			if client.name == "claude-desktop" { // a process: the mcp-remote bridge
				var bridge []string
				json.Unmarshal([]byte(jsonOf(server["args"])), &bridge)
				if server["command"] != "npx" || !slices.Equal(bridge[:2], []string{"-y", "mcp-remote"}) {
					t.Fatalf("--http: %v", server)
				}
				got = bridge[2:]
			}
			if len(got) != 1 || got[0] != url {
				t.Fatalf("--http names %q, want %q: %v", got, url, server)
			}
			if typ, ok := server["type"]; ok && typ != map[string]string{"vscode": "http", "cline": "streamableHttp", "goose": "streamable_http"}[client.name] {
				t.Fatalf("--http type %v", typ)
			}
		})
	}
	if code, _, errs := c.run("", "mcp-config", "claude-dekstop"); code != 2 || !strings.Contains(errs, "the clients are claude-desktop") {
		t.Fatalf("an unknown client: exit %d, %s", code, errs)
	}
}

// readServer reads the convfiles entry of a snippet in its format.
func readServer(t *testing.T, format, top, text string) map[string]any {
	t.Helper()
	var doc map[string]map[string]map[string]any
	var err error
	switch format {
	case "json":
		err = json.Unmarshal([]byte(text), &doc)
	case "toml":
		_, err = toml.Decode(text, &doc)
	case "yaml":
		err = yaml.Unmarshal([]byte(text), &doc)
	case "command":
		return map[string]any{"line": text}
	}
	if err != nil || len(doc) != 1 || doc[top]["convfiles"] == nil {
		t.Fatalf("not %s with %s.convfiles: %v\n%s", format, top, err, text)
	}
	return doc[top]["convfiles"]
}

// commandOf checks a stdio entry's fields and returns what it starts.
func commandOf(t *testing.T, client string, server map[string]any, fields []string) (string, []string) {
	t.Helper()
	if client == "claude-code" {
		line, ok := strings.CutPrefix(server["line"].(string), "claude mcp add convfiles -- ")
		if !ok {
			t.Fatalf("not a claude mcp add command: %q", server["line"])
		}
		words := strings.Fields(line)
		return words[0], words[1:]
	}
	checkFields(t, server, fields)
	command, _ := server["command"].(string)
	if client == "goose" {
		command, _ = server["cmd"].(string)
	}
	var args []string
	if err := json.Unmarshal([]byte(jsonOf(server["args"])), &args); err != nil || len(args) < 3 {
		t.Fatalf("args %v: %v", server["args"], err)
	}
	if typ, ok := server["type"]; ok && typ != "stdio" {
		t.Fatalf("type %v, want stdio", typ)
	}
	return command, args
}

// checkFields: the entry has exactly the fields the client's format has.
func checkFields(t *testing.T, server map[string]any, fields []string) {
	t.Helper()
	got := make([]string, 0, len(server))
	for k := range server {
		got = append(got, k)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(fields))
	if !slices.Equal(got, want) {
		t.Fatalf("fields %v, want %v", got, want)
	}
}
