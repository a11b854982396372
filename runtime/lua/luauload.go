package lua

import (
	"errors"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"convfiles/runtime"
	"convfiles/runtime/lua/luau"
)

// load compiles a Lua or Luau script: lowered to Lua 5.1 first, each
// token on its line, so every error names the user's line.
func load(L *lua.LState, filename, src string) (*lua.LFunction, *runtime.ScriptError) {
	lowered, serr := lower(filename, src)
	if serr != nil {
		return nil, serr
	}
	fn, err := L.Load(strings.NewReader(lowered), filename)
	if err != nil {
		return nil, luaSyntaxError(err)
	}
	return fn, nil
}

// lower turns a script into the Lua 5.1 gopher-lua runs. A script the
// lowering refuses that is valid Lua 5.1 as it is (a construct it does
// not know) runs as it is; otherwise its error is the lowering's, which
// knows Luau.
func lower(filename, src string) (string, *runtime.ScriptError) {
	out, err := luau.Lower(src)
	if err == nil {
		return out, nil
	}
	if _, perr := parse.Parse(strings.NewReader(src), filename); perr == nil {
		return src, nil
	}
	se := &runtime.ScriptError{Type: runtime.TypeSyntax, Message: err.Error()}
	var le *luau.Error
	if errors.As(err, &le) {
		se.Line, se.Column = le.Line, le.Column
		se.Message = filename + ":" + le.Error()
	}
	return "", se
}
