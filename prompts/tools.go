package prompts

import (
	_ "embed"
	"slices"
	"strings"
)

//go:embed tools.md
var toolsText string

// ToolText is what an LLM reads about one MCP tool.
type ToolText struct {
	// Description says what the tool does and returns.
	Description string
	// Params describes each parameter by its JSON name.
	Params map[string]string
}

// SharedTool names the section of tools.md whose parameters every tool
// takes.
const SharedTool = "every tool"

var tools, toolOrder = parseTools(toolsText)

// Tool returns the texts of the MCP tool name, or false when tools.md has
// no section for it.
func Tool(name string) (ToolText, bool) {
	t, ok := tools[name]
	return t, ok
}

// ToolNames lists the tools tools.md describes, in its order, the shared
// section aside.
func ToolNames() []string { return slices.Clone(toolOrder) }

// parseTools reads tools.md: "## name" starts a tool, its first paragraph
// is the description, and "- `param`: text" items describe parameters.
func parseTools(src string) (map[string]ToolText, []string) {
	out := map[string]ToolText{}
	var order []string
	var cur string
	var desc []string
	for _, line := range strings.Split(src, "\n") {
		if name, ok := strings.CutPrefix(line, "## "); ok {
			cur, desc = name, nil
			out[cur] = ToolText{Params: map[string]string{}}
			if name != SharedTool {
				order = append(order, name)
			}
			continue
		}
		if cur == "" {
			continue
		}
		t := out[cur]
		if item, ok := strings.CutPrefix(line, "- `"); ok {
			if param, text, ok := strings.Cut(item, "`: "); ok {
				t.Params[param] = text
			}
			continue
		}
		if line != "" && len(t.Params) == 0 {
			desc = append(desc, line)
			t.Description = strings.Join(desc, " ")
			out[cur] = t
		}
	}
	return out, order
}
