package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"convfiles/files"
)

// mcpClient is an MCP client convfiles prints a setup for: where its
// configuration lives and how a stdio and an HTTP server are written in
// it, as that client's documentation says.
type mcpClient struct {
	name, title string
	// where says which file (or command) takes the snippet.
	where string
	// stdio and http render the snippet for a server started as command
	// args, or reached at url ("" when the client cannot).
	stdio func(command string, args []string) string
	http  func(url string) string
}

// mcpClients are the clients of `convfiles mcp-config`, by name.
var mcpClients = []mcpClient{
	{"claude-desktop", "Claude Desktop", "claude_desktop_config.json (Settings → Developer → Edit Config); restart Claude Desktop",
		func(c string, a []string) string { return jsonSnippet("mcpServers", "command", c, "args", a) },
		// Its file starts processes only: a URL goes through the mcp-remote bridge.
		func(u string) string {
			return jsonSnippet("mcpServers", "command", "npx", "args", []string{"-y", "mcp-remote", u})
		}},
	{"claude-code", "Claude Code", "run in a terminal (--scope user for every project)",
		func(c string, a []string) string {
			return "claude mcp add convfiles -- " + shellJoin(append([]string{c}, a...)) + "\n"
		},
		func(u string) string { return "claude mcp add --transport http convfiles " + shellQuote(u) + "\n" }},
	{"vscode", "VS Code", ".vscode/mcp.json in the workspace (or MCP: Open User Configuration)",
		func(c string, a []string) string {
			return jsonSnippet("servers", "type", "stdio", "command", c, "args", a)
		},
		func(u string) string { return jsonSnippet("servers", "type", "http", "url", u) }},
	{"cursor", "Cursor", "~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
		func(c string, a []string) string { return jsonSnippet("mcpServers", "command", c, "args", a) },
		func(u string) string { return jsonSnippet("mcpServers", "url", u) }},
	{"windsurf", "Windsurf", "~/.codeium/windsurf/mcp_config.json",
		func(c string, a []string) string { return jsonSnippet("mcpServers", "command", c, "args", a) },
		func(u string) string { return jsonSnippet("mcpServers", "serverUrl", u) }},
	{"zed", "Zed", "settings.json (zed: open settings), merged into it",
		func(c string, a []string) string {
			return jsonSnippet("context_servers", "source", "custom", "command", c, "args", a, "env", map[string]string{})
		},
		func(u string) string { return jsonSnippet("context_servers", "url", u) }},
	{"codex", "Codex CLI", "~/.codex/config.toml",
		func(c string, a []string) string {
			return "[mcp_servers.convfiles]\ncommand = " + strconv.Quote(c) + "\nargs = " + tomlArray(a) + "\n"
		},
		func(u string) string { return "[mcp_servers.convfiles]\nurl = " + strconv.Quote(u) + "\n" }},
	{"gemini", "Gemini CLI", "~/.gemini/settings.json (or .gemini/settings.json in a project)",
		func(c string, a []string) string { return jsonSnippet("mcpServers", "command", c, "args", a) },
		func(u string) string { return jsonSnippet("mcpServers", "httpUrl", u) }},
	{"cline", "Cline", "cline_mcp_settings.json (MCP Servers → Configure)",
		func(c string, a []string) string {
			return jsonSnippet("mcpServers", "type", "stdio", "command", c, "args", a, "disabled", false)
		},
		func(u string) string {
			return jsonSnippet("mcpServers", "type", "streamableHttp", "url", u, "disabled", false)
		}},
	{"goose", "goose", "~/.config/goose/config.yaml, under extensions:",
		func(c string, a []string) string {
			return "extensions:\n  convfiles:\n    name: convfiles\n    type: stdio\n    enabled: true\n    cmd: " + strconv.Quote(c) +
				"\n    args: " + tomlArray(a) + "\n    timeout: 300\n"
		},
		func(u string) string {
			return "extensions:\n  convfiles:\n    name: convfiles\n    type: streamable_http\n    enabled: true\n    uri: " + strconv.Quote(u) + "\n    timeout: 300\n"
		}},
}

// cmdMCPConfig prints the setup of convfiles for one MCP client: the
// snippet for the file that client reads, or the command that adds it.
func cmdMCPConfig(e *env, args []string) error {
	f := newFlags(e, "mcp-config", "CLIENT")
	conv := f.String("conversation", "", "serve this conversation only (convfiles mcp --conversation)")
	tools := f.String("tools", "", "tool groups (convfiles mcp --tools)")
	url := f.String("http", "", "reach a running convfiles serve at this URL (http://127.0.0.1:8080/mcp) instead of starting a process")
	npx := f.Bool("npx", false, "start convfiles with npx -y convfiles (Node alone) instead of this binary's path")
	if err := f.Parse(args); err != nil {
		return usagef("%v", err)
	}
	names := make([]string, len(mcpClients))
	for i, c := range mcpClients {
		names[i] = c.name
	}
	if f.NArg() == 0 {
		return usagef("name one client: %s", strings.Join(names, ", "))
	}
	name := f.Arg(0)
	if err := f.Parse(f.Args()[1:]); err != nil { // flags after the client's name
		return usagef("%v", err)
	}
	if f.NArg() > 0 {
		return usagef("name one client, not %q too", f.Args())
	}
	i := slices.IndexFunc(mcpClients, func(c mcpClient) bool { return c.name == strings.ToLower(name) })
	if i < 0 {
		return usagef("there is no client %q: the clients are %s", name, strings.Join(names, ", "))
	}
	client := mcpClients[i]
	if *url != "" {
		if !strings.HasPrefix(*url, "http://") && !strings.HasPrefix(*url, "https://") {
			return usagef("--http takes the URL of a convfiles serve's /mcp, such as http://127.0.0.1:8080/mcp")
		}
		fmt.Fprintf(e.stderr, "# %s: %s\n", client.title, client.where)
		_, err := fmt.Fprint(e.stdout, client.http(*url))
		return err
	}
	serverArgs := []string{"mcp"}
	if *conv != "" {
		if err := files.ValidateConversationID(*conv); err != nil {
			return usagef("--conversation: %v", files.MessageOf(err))
		}
		serverArgs = append(serverArgs, "--conversation", *conv)
	}
	if *tools != "" {
		serverArgs = append(serverArgs, "--tools", *tools)
	}
	for _, flag := range []struct{ name, value string }{{"config", *f.config}, {"data-dir", *f.dataDir}} {
		if flag.value != "" {
			abs, err := filepath.Abs(flag.value)
			if err != nil {
				return err
			}
			serverArgs = append(serverArgs, "--"+flag.name, abs)
		}
	}
	command := "npx"
	if *npx {
		serverArgs = append([]string{"-y", "convfiles"}, serverArgs...)
	} else {
		// The absolute path: a GUI app starts servers with a PATH of its
		// own, which rarely holds the folder convfiles was installed in.
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("cannot find this binary's path (%v): use --npx", err)
		}
		command = exe
	}
	return printStdio(e, client, command, serverArgs)
}

// printStdio prints the stdio snippet; a binary go run built in a
// temporary folder is no path to give a client, and the note says so.
func printStdio(e *env, client mcpClient, command string, args []string) error {
	fmt.Fprintf(e.stderr, "# %s: %s\n", client.title, client.where)
	if strings.Contains(command, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(e.stderr, "# %s is a temporary build of go run: install convfiles (go install ./cmd/convfiles) and run this again, or pass --npx\n", command)
	}
	_, err := fmt.Fprint(e.stdout, client.stdio(command, args))
	return err
}

// jsonSnippet is {"key": {"convfiles": {fields…}}}, the fields given
// as name, value pairs and kept in that order, indented as people paste
// it.
func jsonSnippet(key string, fields ...any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  %q: {\n    \"convfiles\": {\n", key)
	for i := 0; i+1 < len(fields); i += 2 {
		v, _ := json.Marshal(fields[i+1])
		sep := ","
		if i+2 >= len(fields) {
			sep = ""
		}
		fmt.Fprintf(&b, "      %q: %s%s\n", fields[i], v, sep)
	}
	b.WriteString("    }\n  }\n}\n")
	return b.String()
}

// tomlArray writes strings as a TOML (and YAML flow) array.
func tomlArray(a []string) string {
	q := make([]string, len(a))
	for i, s := range a {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// shellJoin quotes each word for a POSIX shell.
func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// shellQuote leaves a plain word as it is and single-quotes anything
// else.
func shellQuote(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
