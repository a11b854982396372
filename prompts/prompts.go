// Package prompts holds the texts convfiles gives to language models: the
// system-prompt section that teaches the file helpers, embedded in the
// binary so that the server, the CLI (convfiles prompt) and later the MCP
// server all hand out the same words.
package prompts

import (
	_ "embed"
	"regexp"
)

//go:embed system.md
var system string

// System returns the system-prompt section that teaches an LLM the file
// helpers: what each one takes and returns, with examples.
func System() string { return system }

var fence = regexp.MustCompile("(?s)```js\n(.*?)```")

// Examples returns the source of every ```js example in the system prompt,
// in order. Tests run them, so the prompt never teaches code that fails.
func Examples() []string {
	var out []string
	for _, m := range fence.FindAllStringSubmatch(system, -1) {
		out = append(out, m[1])
	}
	return out
}
