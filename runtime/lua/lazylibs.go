package lua

import (
	lua "github.com/yuin/gopher-lua"
)

// lazyLib is a library made when a script first names it.
type lazyLib struct {
	build func() error
	made  bool
}

// installLazyLibs makes table, math, coroutine, os, json, utf8, bit32,
// io, file, files and SABRE's write_file and friends on first use: opening them all cost half of a
// hello world. The globals table's metatable makes a library when its
// name is looked up and not found; a script that looks at the globals
// table itself (setmetatable, getmetatable, rawget, next or pairs of it)
// first gets every library made and the metatable gone, so it sees the
// globals as if all had been opened at the start.
func (s *luaSession) installLazyLibs() {
	L := s.L
	lib := func(build func() error) *lazyLib { return &lazyLib{build: build} }
	plain := func(build func()) *lazyLib { return lib(func() error { build(); return nil }) }
	io, sabre := plain(s.installLuaIO), plain(s.installLuaSABRE)
	s.lazy = map[string]*lazyLib{
		"write_file": sabre, "read_file": sabre, "list_files": sabre, "delete_file": sabre, "file_info": sabre,
		"table":     lib(s.installTable),
		"math":      lib(s.installMath),
		"coroutine": lib(func() error { return s.open(lua.CoroutineLibName, lua.OpenCoroutine) }),
		"os":        plain(s.installOS),
		"json":      plain(s.installJSON),
		"utf8":      plain(s.installUTF8),
		"bit32":     plain(s.installBit32),
		"io":        io,
		"file":      io,
		"files":     plain(s.installLuaFiles),
	}
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		name, ok := L.Get(2).(lua.LString)
		if l := s.lazy[string(name)]; ok && l != nil && !l.made {
			l.made = true
			if err := l.build(); err != nil {
				L.RaiseError("%s could not be made: %v", name, err)
			}
		}
		L.Push(L.RawGet(L.G.Global, L.Get(2)))
		return 1
	}))
	L.SetMetatable(L.G.Global, mt)
	for _, name := range []string{"setmetatable", "getmetatable", "rawget", "next", "pairs"} {
		own := L.GetGlobal(name).(*lua.LFunction)
		L.SetGlobal(name, L.NewFunction(func(L *lua.LState) int {
			if L.Get(1) == L.G.Global {
				s.makeAllLibs()
			}
			return s.callThrough(L, own)
		}))
	}
}

// makeAllLibs makes every library not yet made and takes the globals
// table's metatable away.
func (s *luaSession) makeAllLibs() {
	if s.lazy == nil {
		return
	}
	for name, l := range s.lazy {
		if !l.made {
			l.made = true
			if err := l.build(); err != nil {
				s.L.RaiseError("%s could not be made: %v", name, err)
			}
		}
	}
	s.lazy = nil
	s.L.SetMetatable(s.L.G.Global, lua.LNil)
}
