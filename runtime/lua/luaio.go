package lua

import (
	"fmt"

	"convfiles/files"
	"convfiles/runtime"

	lua "github.com/yuin/gopher-lua"
)

// luaFileType names the metatable of io handles.
const luaFileType = "convfiles.file"

// installLuaIO binds toolscript's io library (seed 001) with Lua's own
// manners: io.open returns nil, message, code when the file cannot be
// opened, handles are userdata with methods, reads return nil at the end.
// A name that is not allowed, a mode that does not exist, the 65th open
// handle and a write past the budget raise errors, as toolscript does.
//
// A run without files (no conversation, or file access off, as in hosted
// mode by default) has no io and no file table at all, as seeds 000 and
// 001 specify: a script that uses them gets Lua's own nil error.
func (s *luaSession) installLuaIO() {
	if s.Files == nil {
		return
	}
	L := s.L
	mt := L.NewTypeMetatable(luaFileType)
	methods := L.NewTable()
	L.SetFuncs(methods, map[string]lua.LGFunction{"read": s.luaRead, "write": s.luaWrite, "lines": s.luaHandleLines,
		"close": s.luaClose, "seek": s.luaSeek, "flush": s.luaFlush, "setvbuf": s.luaFlush})
	mt.RawSetString("__index", methods)
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		h := s.checkHandle(L, 1, false)
		if h.Closed {
			L.Push(lua.LString("file (closed)"))
		} else {
			L.Push(lua.LString(fmt.Sprintf("file (%p)", h)))
		}
		return 1
	}))
	io := L.NewTable()
	L.SetFuncs(io, map[string]lua.LGFunction{"open": s.luaOpen, "lines": s.luaLines, "type": s.luaType, "list": s.luaList})
	L.SetGlobal("io", io)
	file := L.NewTable()
	L.SetFuncs(file, map[string]lua.LGFunction{"save": s.luaFileSave})
	L.SetGlobal("file", file)
}

// openHandle opens name with a Lua mode. A file that does not exist (for
// reading) is reported, not raised: (nil, err).
func (s *luaSession) openHandle(L *lua.LState, fn, name, mode string) (*runtime.Handle, error) {
	sp := s.needSpace(fn)
	base, binary := mode, false
	if len(mode) == 2 && mode[1] == 'b' {
		base, binary = mode[:1], true
	}
	if base != "r" && base != "w" && base != "a" {
		L.RaiseError("%s: invalid mode %q: use r, w, a, rb, wb or ab", fn, mode)
	}
	if _, err := files.ValidateName(name); err != nil {
		s.raiseFiles(err)
	}
	if s.Open >= runtime.MaxOpenFiles {
		L.RaiseError("%s: too many open files (max %d); close some first", fn, runtime.MaxOpenFiles)
	}
	h, err := s.OpenHandle(sp, name, base, binary)
	if err != nil {
		return nil, err
	}
	s.Track(h)
	return h, nil
}

// luaOpen is io.open(name, mode?) → handle, or nil, message, code.
func (s *luaSession) luaOpen(L *lua.LState) int {
	name, mode := L.CheckString(1), L.OptString(2, "r")
	h, err := s.openHandle(L, "io.open", name, mode)
	if err != nil {
		switch files.KindOf(err) {
		case files.KindNotFound:
			return luaFail(L, name+": No such file or directory", 2)
		case files.KindConflict:
			return luaFail(L, name+": Is a directory", 21)
		}
		s.raiseFiles(err)
	}
	L.Push(s.handleValue(h))
	return 1
}

// luaFail returns Lua's failure triple: nil, message, code.
func luaFail(L *lua.LState, msg string, code int) int {
	L.Push(lua.LNil)
	L.Push(lua.LString(msg))
	L.Push(lua.LNumber(code))
	return 3
}

func (s *luaSession) handleValue(h *runtime.Handle) *lua.LUserData {
	ud := s.L.NewUserData()
	ud.Value = h
	s.L.SetMetatable(ud, s.L.GetTypeMetatable(luaFileType))
	s.hold(h, ud)
	return ud
}

// checkHandle returns the handle argument n; open requires it open.
func (s *luaSession) checkHandle(L *lua.LState, n int, open bool) *runtime.Handle {
	ud := L.CheckUserData(n)
	h, ok := ud.Value.(*runtime.Handle)
	if !ok {
		L.ArgError(n, "file expected")
	}
	if open && h.Closed {
		L.RaiseError("attempt to use a closed file")
	}
	return h
}

// luaLines is io.lines(name): an iterator over the file's lines that
// closes the file at the end. A missing file raises, as in Lua.
func (s *luaSession) luaLines(L *lua.LState) int {
	name := L.CheckString(1)
	h, err := s.openHandle(L, "io.lines", name, "r")
	if err != nil {
		s.raiseFiles(err)
	}
	L.Push(s.lineIterator(h, true))
	return 1
}

// luaHandleLines is file:lines().
func (s *luaSession) luaHandleLines(L *lua.LState) int {
	h := s.checkHandle(L, 1, true)
	L.Push(s.lineIterator(h, false))
	return 1
}

func (s *luaSession) lineIterator(h *runtime.Handle, closeAtEnd bool) *lua.LFunction {
	return s.L.NewFunction(func(L *lua.LState) int {
		if h.Closed {
			if closeAtEnd {
				L.Push(lua.LNil)
				return 1
			}
			L.RaiseError("file is already closed")
		}
		if !h.Reading() {
			L.RaiseError("the file is open for writing; open it with \"r\" to read its lines")
		}
		line, ok, err := h.ReadLine(false)
		if err != nil {
			s.raiseFiles(err)
		}
		if !ok {
			if closeAtEnd {
				h.Close(false)
				s.Open--
			}
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LString(line))
		return 1
	})
}

// luaType is io.type(x): "file", "closed file" or nil.
func (s *luaSession) luaType(L *lua.LState) int {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if h, ok := ud.Value.(*runtime.Handle); ok {
			if h.Closed {
				L.Push(lua.LString("closed file"))
			} else {
				L.Push(lua.LString("file"))
			}
			return 1
		}
	}
	L.Push(lua.LNil)
	return 1
}

// luaList is io.list(path?): the names in a folder, without recursion.
func (s *luaSession) luaList(L *lua.LState) int {
	sp := s.needSpace("io.list")
	entries, err := sp.ReadDir(s.Ctx, L.OptString(1, ""))
	if err != nil {
		s.raiseFiles(err)
	}
	t := L.CreateTable(len(entries), 0)
	for i, e := range entries {
		t.RawSetInt(i+1, lua.LString(e.Name))
	}
	L.Push(t)
	return 1
}

// luaOSRemove is os.remove(name) → true: a file, never a folder. A
// missing file is Lua's failure triple.
func (s *luaSession) luaOSRemove(L *lua.LState) int {
	sp := s.needSpace("os.remove")
	name, err := s.RemoveFile("os.remove", L.CheckString(1))
	if err == nil {
		L.Push(lua.LTrue)
		return 1
	}
	if name != "" {
		if _, derr := sp.ReadDir(s.Ctx, name); derr == nil {
			L.RaiseError("os.remove: cannot remove directory %q: only files are removed", name)
		}
	}
	if files.KindOf(err) == files.KindNotFound {
		return luaFail(L, name+": No such file or directory", 2)
	}
	s.raiseFiles(err)
	return 0
}

// luaFileSave is file.save(name, content) → the file's absolute path
// (seed 000).
func (s *luaSession) luaFileSave(L *lua.LState) int {
	info := s.saveString(L, "file.save")
	L.Push(lua.LString(s.Files.HostPath(info.Name)))
	return 1
}

// saveString writes argument 2, a string or a number, as argument 1.
func (s *luaSession) saveString(L *lua.LState, fn string) files.Info {
	s.needSpace(fn)
	name := L.CheckString(1)
	var data string
	switch v := L.Get(2).(type) {
	case lua.LString:
		data = string(v)
	case lua.LNumber:
		data = v.String()
	default:
		L.ArgError(2, fn+" saves a string; make one with json.encode, string.format or table.concat")
	}
	info, err := s.SaveBytes(fn, name, runtime.StringBytes(data))
	if err != nil {
		s.raiseFiles(err)
	}
	return info
}
