package runtime

import (
	"fmt"
	"path"
	"strings"
)

// The languages scripts may be written in.
const (
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
	// Lua is Lua 5.1 (gopher-lua), the language of seeds 000 and 001;
	// Luau-only syntax is refused with a message that names it.
	Lua Language = "lua"
)

// Language is the language a script is written in.
type Language string

// Ext is the file extension of the language's scripts (".js", ".ts",
// ".lua"), "" for no language.
func (l Language) Ext() string {
	return map[Language]string{JavaScript: ".js", TypeScript: ".ts", Lua: ".lua"}[l]
}

// ParseLanguage reads a language name: "js" or "javascript", "ts" or
// "typescript", "lua" or "luau", in any letter case. "" means unspecified.
func ParseLanguage(s string) (Language, error) {
	switch strings.ToLower(s) {
	case "":
		return "", nil
	case "js", "javascript":
		return JavaScript, nil
	case "ts", "typescript":
		return TypeScript, nil
	case "lua", "luau":
		return Lua, nil
	}
	return "", fmt.Errorf("unknown language %q: use \"typescript\" (\"ts\"), \"javascript\" (\"js\") or \"lua\" (\"luau\")", s)
}

// LanguageOf infers a script's language from its file name: .ts, .mts,
// .cts and .tsx are TypeScript, .lua and .luau Lua, everything else
// JavaScript.
func LanguageOf(name string) Language {
	switch strings.ToLower(path.Ext(name)) {
	case ".ts", ".mts", ".cts", ".tsx":
		return TypeScript
	case ".lua", ".luau":
		return Lua
	}
	return JavaScript
}

// Diagnostic is one problem found in a script's source.
type Diagnostic struct {
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	Severity string `json:"severity"` // "error" (it does not compile) or "warning"
	// Code names the lint rule of a warning ("no-unused-vars").
	Code string `json:"code,omitempty"`
	// EndLine and EndColumn end the range a warning covers.
	EndLine   int `json:"endLine,omitempty"`
	EndColumn int `json:"endColumn,omitempty"`
}
