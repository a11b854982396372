package lua

import (
	"regexp"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"convfiles/files"
	"convfiles/runtime"
)

// luaMaxString bounds one string that string.rep makes, so a single call
// cannot ask for gigabytes at once.
const luaMaxString = 64 << 20

// install opens the libraries a sandboxed script may use and binds
// convfiles' helpers: print to the logs, json, toolscript's io and
// os.remove, code-mcp's file.save, and SABRE's write_file and friends.
// Nothing reaches the host: no dofile, loadfile, require, io.popen or
// os.execute.
func (s *luaSession) install() error {
	L := s.L
	// The base and string libraries are opened now (every string's
	// methods are the string library's); the others when a script first
	// names them (lazylibs.go), as most scripts use few of them.
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.StringLibName, lua.OpenString}} {
		if err := s.open(lib.name, lib.open); err != nil {
			return err
		}
	}
	for _, name := range []string{"dofile", "loadfile", "module", "_printregs", "newproxy"} {
		L.SetGlobal(name, lua.LNil)
	}
	L.SetGlobal("require", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("require(%q): modules are not available in the sandbox; use the built-in helpers", L.OptString(1, ""))
		return 0
	}))
	L.SetGlobal("print", L.NewFunction(s.luaPrint))
	L.SetGlobal("collectgarbage", L.NewFunction(s.luaCollectGarbage))
	str := L.GetGlobal("string").(*lua.LTable)
	rep := str.RawGetString("rep").(*lua.LFunction)
	str.RawSetString("rep", L.NewFunction(func(L *lua.LState) int {
		n := L.OptInt64(2, 0)
		if size := int64(len(L.CheckString(1))) * n; size > luaMaxString {
			L.RaiseError("string.rep: the result would be %s; one string may be at most %s", files.FormatBytes(size), files.FormatBytes(luaMaxString))
		}
		return s.callThrough(L, rep)
	}))
	format := str.RawGetString("format").(*lua.LFunction)
	str.RawSetString("format", L.NewFunction(func(L *lua.LState) int {
		if luaWideFormat.MatchString(L.CheckString(1)) {
			L.RaiseError("string.format: invalid format (width or precision too long: at most 2 digits, as in Lua 5.1)")
		}
		return s.callThrough(L, format)
	}))
	s.installLuauGlobals()
	s.installLazyLibs()
	return nil
}

// open opens one of gopher-lua's libraries as Lua's own loader would.
func (s *luaSession) open(name string, open lua.LGFunction) error {
	return s.L.CallByParam(lua.P{Fn: s.L.NewFunction(open), NRet: 0, Protect: true}, lua.LString(name))
}

// installOS is os: the clock, the run's own environment, and toolscript's
// os.remove.
func (s *luaSession) installOS() {
	L := s.L
	os := L.NewTable()
	L.SetFuncs(os, luaClockFuncs())
	L.SetFuncs(os, map[string]lua.LGFunction{"getenv": s.luaGetenv})
	if s.Files != nil {
		os.RawSetString("remove", L.NewFunction(s.luaOSRemove))
	}
	L.SetGlobal("os", os)
}

// installJSON is code-mcp's json.encode and json.decode.
func (s *luaSession) installJSON() {
	json := s.L.NewTable()
	s.L.SetFuncs(json, map[string]lua.LGFunction{"encode": s.luaJSONEncode, "decode": s.luaJSONDecode})
	s.L.SetGlobal("json", json)
}

// luaWideFormat finds a string.format directive whose width or precision
// has more than two digits.
var luaWideFormat = regexp.MustCompile(`%[-+ #0]*(\d{3,}|\d*\.\d{3,})`)

// callThrough calls the library's own function with this call's
// arguments and passes its results on.
func (s *luaSession) callThrough(L *lua.LState, fn *lua.LFunction) int {
	top := L.GetTop()
	L.Push(fn)
	for i := 1; i <= top; i++ {
		L.Push(L.Get(i))
	}
	L.Call(top, lua.MultRet)
	return L.GetTop() - top
}

// luaClockFuncs are gopher-lua's own os functions that touch nothing
// but the clock, taken once from a state that opened its os library.
var luaClockFuncs = sync.OnceValue(func() map[string]lua.LGFunction {
	probe := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer probe.Close()
	lua.OpenOs(probe)
	os := probe.GetGlobal("os").(*lua.LTable)
	out := map[string]lua.LGFunction{}
	for _, name := range []string{"time", "clock", "date", "difftime"} {
		out[name] = os.RawGetString(name).(*lua.LFunction).GFunction
	}
	return out
})

// luaPrint is print(...): tostring of each argument, separated by tabs,
// into the run's logs.
func (s *luaSession) luaPrint(L *lua.LState) int {
	parts := make([]string, L.GetTop())
	for i := range parts {
		parts[i] = L.ToStringMeta(L.Get(i + 1)).String()
	}
	s.Logs.AddLine(strings.Join(parts, "\t"))
	return 0
}

// luaGetenv is os.getenv(name): the run's own environment, never the
// server's.
func (s *luaSession) luaGetenv(L *lua.LState) int {
	if v, ok := s.env[L.CheckString(1)]; ok {
		L.Push(lua.LString(v))
	} else {
		L.Push(lua.LNil)
	}
	return 1
}

// luaJSONEncode is json.encode(value) → text (code-mcp).
func (s *luaSession) luaJSONEncode(L *lua.LState) int {
	v, err := luaToGo(L.CheckAny(1), 0)
	if err != nil {
		L.RaiseError("json.encode: %s", err.Error())
	}
	out, err := encodeJSON(v, false)
	if err != nil {
		L.RaiseError("json.encode: %s", err.Error())
	}
	L.Push(lua.LString(out))
	return 1
}

// luaJSONDecode is json.decode(text) → value (code-mcp).
func (s *luaSession) luaJSONDecode(L *lua.LState) int {
	v, err := decodeJSON(L.CheckString(1))
	if err != nil {
		L.RaiseError("json.decode: the text is not JSON: %s", err.Error())
	}
	L.Push(goToLua(L, v))
	return 1
}

// raiseFiles raises an error from the files package as a Lua error whose
// text starts with the name a JS script would see (FileNotFoundError:, …).
func (s *luaSession) raiseFiles(err error) {
	kind := files.KindOf(err)
	if kind == files.KindInternal {
		s.Cfg.Logger.Error("file operation failed", "err", err)
	}
	s.L.RaiseError("%s: %s", runtime.ErrorNames[kind], files.MessageOf(err))
}

// needSpace returns the run's files, or raises when it has none.
func (s *luaSession) needSpace(fn string) files.Ops {
	sp, err := s.SpaceFor(fn)
	if err != nil {
		s.raiseFiles(err)
	}
	return sp
}
