// Package prompts holds the texts convfiles gives to language models: the
// system-prompt section that teaches the file helpers, embedded in the
// binary so that the server, the CLI (convfiles prompt) and the MCP server
// all hand out the same words. It also holds the descriptions of
// the MCP tools (tools.md), so every text an LLM reads lives in one place.
//
// It must never import another convfiles package.
package prompts

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed system.md
var system string

// System returns the system-prompt section that teaches an LLM the file
// helpers: what each one takes and returns, with examples.
func System() string { return system }

var (
	fence    = regexp.MustCompile("(?s)```js\n(.*?)```")
	luaFence = regexp.MustCompile("(?s)```lua\n(.*?)```")
)

// Examples returns the source of every ```js example in the system prompt,
// in order. Tests run them, so the prompt never teaches code that fails.
func Examples() []string { return examples(fence) }

// LuaExamples returns the Lua examples of the system prompt, in order.
func LuaExamples() []string { return examples(luaFence) }

func examples(re *regexp.Regexp) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(system, -1) {
		out = append(out, m[1])
	}
	return out
}

// File is one file of a conversation as the prompt lists it.
type File struct {
	ID   string
	Name string
	Size int64
	MIME string
	URL  string
}

// ForConversation returns the system prompt followed by the conversation's
// files, so an LLM starts knowing what it can work with. list holds the
// files shown; total counts them all, and the prompt says how to see the
// rest when list is shorter.
func ForConversation(conversation string, list []File, total int) string {
	var b strings.Builder
	b.WriteString(system)
	fmt.Fprintf(&b, "\n## Files of this conversation\n\nConversation `%s`", conversation)
	if total == 0 {
		b.WriteString(" has no files yet.\n")
		return b.String()
	}
	fmt.Fprintf(&b, " has %d file(s):\n\n", total)
	for _, f := range list {
		fmt.Fprintf(&b, "- `%s` (id %s, %s, %d bytes)", f.Name, f.ID, f.MIME, f.Size)
		if f.URL != "" {
			fmt.Fprintf(&b, ": %s", f.URL)
		}
		b.WriteString("\n")
	}
	if len(list) < total {
		fmt.Fprintf(&b, "- … and %d more: list them with `files.list()` or the `file_list` tool.\n", total-len(list))
	}
	return b.String()
}
