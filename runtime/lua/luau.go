package lua

import (
	"convfiles/runtime"
	"fmt"
	"regexp"
	"strings"
)

// luauConstructs are the Luau additions to Lua 5.1 that code written for
// code-mcp uses, each with how to write it in Lua 5.1. gopher-lua parses
// Lua 5.1, so a script that uses one fails to parse; the error then names
// the construct instead of only the token the parser stopped at.
var luauConstructs = []struct {
	re   *regexp.Regexp
	what string
	fix  string
}{
	{regexp.MustCompile(`[\w\])]\s*(\+|-|\*|/|//|%|\^|\.\.)=`), "a compound assignment (+=, -=, ..= …)", "write x = x + 1"},
	{regexp.MustCompile("`"), "a backtick string interpolation", "write \"a \" .. tostring(x) or string.format(\"a %s\", x)"},
	{regexp.MustCompile(`(^|[^\w.])continue\s*($|[^\w(=])`), "continue", "wrap the loop body in if … then … end, or use goto-free flags"},
	{regexp.MustCompile(`\blocal\s+\w+\s*:\s*[\w{(]`), "a type annotation", "leave the type out: local x = 1"},
	{regexp.MustCompile(`\bfunction\b[^)]*\(\s*\w+\s*:\s*\w`), "a type annotation on a parameter", "leave the types out: function f(a, b)"},
	{regexp.MustCompile(`\)\s*:\s*\w+[\w<>{}?|, ]*$`), "a return type annotation", "leave the type out"},
	{regexp.MustCompile(`^\s*(export\s+)?type\s+\w+`), "a type declaration", "leave it out: Lua 5.1 has no types"},
	{regexp.MustCompile(`=\s*if\b.*\bthen\b.*\belse\b`), "an if … then … else expression", "write (cond and a or b), or an if statement"},
}

// luauHint names the Luau construct that a syntax error most likely comes
// from: first on the error's line, then anywhere in the script.
func luauHint(src string, se *runtime.ScriptError) *runtime.ScriptError {
	lines := strings.Split(src, "\n")
	find := func(from, to int) (string, string, int, bool) {
		for i := from; i < to && i < len(lines); i++ {
			code := stripLuaStringsAndComments(lines[i])
			for _, c := range luauConstructs {
				if c.re.MatchString(code) {
					return c.what, c.fix, i + 1, true
				}
			}
		}
		return "", "", 0, false
	}
	what, fix, line, ok := "", "", 0, false
	if se.Line > 0 {
		what, fix, line, ok = find(se.Line-1, se.Line)
	}
	if !ok {
		what, fix, line, ok = find(0, len(lines))
	}
	if !ok {
		return se
	}
	se.Message = fmt.Sprintf("line %d uses %s, which is Luau, not the Lua 5.1 convfiles runs: %s (%s)", line, what, fix, se.Message)
	se.Line = line
	return se
}

// stripLuaStringsAndComments blanks what a construct's pattern must not
// match: quoted strings and a "--" comment on one line. A backtick string
// is left, since it is itself a construct.
func stripLuaStringsAndComments(line string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			b.WriteByte(' ')
		case c == '"' || c == '\'':
			quote = c
			b.WriteByte(' ')
		case c == '-' && i+1 < len(line) && line[i+1] == '-':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
