package lua

import (
	"errors"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"convfiles/ops"
	"convfiles/runtime"
)

// installLuaFiles binds metaclaw's files.* (seed 004) as Lua tables:
// files.readText(id), files.spreadsheet.readRange(id, range), … the same
// operations, names and arguments as in JS, with Lua values: a table for
// an options argument (camelCase or snake_case keys), a table back. The
// functions are made on first use, as most scripts call few of them.
func (s *luaSession) installLuaFiles() {
	L := s.L
	root := L.NewTable()
	groups := opGroups()
	var lazyTable func(t *lua.LTable, group string)
	lazyTable = func(t *lua.LTable, group string) {
		mt := L.NewTable()
		mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
			key := L.CheckString(2)
			var v lua.LValue = lua.LNil
			for _, op := range groups[group] {
				if op.JS == key {
					v = L.NewFunction(s.luaOp(op))
				}
			}
			if _, isGroup := groups[key]; group == "" && key != "" && isGroup {
				sub := L.NewTable()
				lazyTable(sub, key)
				v = sub
			}
			if group == "" && key == "download" {
				v = L.NewFunction(s.luaDownload)
			}
			if v != lua.LNil {
				L.RawSet(t, lua.LString(key), v)
			}
			L.Push(v)
			return 1
		}))
		L.SetMetatable(t, mt)
	}
	lazyTable(root, "")
	L.SetGlobal("files", root)
}

// opGroups are the operations by their group ("" for files.*), made
// once for every run.
var opGroups = sync.OnceValue(func() map[string][]ops.Op {
	groups := map[string][]ops.Op{}
	for _, op := range ops.All() {
		groups[op.Group] = append(groups[op.Group], op)
	}
	return groups
})

// luaOp is the Lua function of one operation: its positional arguments
// fill the input's fields named in op.Params, a "...options" table is
// merged in, and the result comes back as a table (a list, for ops that
// return one, whose other fields are the list's string keys).
func (s *luaSession) luaOp(op ops.Op) lua.LGFunction {
	usage := runtime.UsageOf(op)
	fn := strings.SplitN(usage, "(", 2)[0]
	return func(L *lua.LState) int {
		sp := s.needSpace(fn)
		args := map[string]any{}
		for i, p := range op.Params {
			v := L.Get(i + 1)
			if v == lua.LNil {
				continue
			}
			g, err := luaToGo(v, 0)
			if err != nil {
				L.RaiseError("TypeError: %s: %s", usage, err.Error())
			}
			if opts, ok := strings.CutPrefix(p, "..."); ok {
				m, isObj := runtime.SnakeKeys(g).(map[string]any)
				if !isObj {
					L.RaiseError("TypeError: %s: %s must be a table of options", usage, opts)
				}
				for k, x := range m {
					args[k] = x
				}
				continue
			}
			args[p] = runtime.SnakeKeysUnder(runtime.Camel(p), g)
		}
		v, err := s.CallOp(sp, op, args)
		var bad *runtime.BadArgument
		switch {
		case errors.As(err, &bad):
			L.RaiseError("TypeError: %s: %s", usage, bad.Msg)
		case err != nil:
			s.raiseFiles(err)
		}
		main, extra, isList := runtime.UnwrapResult(op, v)
		out := goToLua(L, main)
		if t, ok := out.(*lua.LTable); ok && isList {
			for k, x := range extra {
				t.RawSetString(k, goToLua(L, x))
			}
		}
		L.Push(out)
		return 1
	}
}

// luaDownload is files.download(url, filename?) → {id, name, size, url,
// mime_type}.
func (s *luaSession) luaDownload(L *lua.LState) int {
	const usage = "files.download(url, filename?)"
	sp := s.needSpace("files.download")
	d, err := s.DownloadAs(sp, L.CheckString(1), L.OptString(2, ""))
	var se *runtime.ScriptFailure
	switch {
	case errors.As(err, &se):
		L.RaiseError("%s: %s: %s", se.Name, usage, se.Msg)
	case err != nil:
		s.raiseFiles(err)
	}
	L.Push(goToLua(L, d))
	return 1
}
