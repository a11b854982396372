package lua

import (
	"convfiles/files"
	"convfiles/runtime"
	"fmt"
	"strings"

	goruntime "runtime"
	"weak"

	lua "github.com/yuin/gopher-lua"
)

// luaRead is file:read(...): each format ("*a", "*l", "*L", "*n" or a
// byte count; the "*" may be left out) gives one result, nil at the end
// of the file ("*a" gives "" there, as in Lua).
func (s *luaSession) luaRead(L *lua.LState) int {
	h := s.checkHandle(L, 1, true)
	if !h.Reading() {
		return luaFail(L, "the file is open for writing; open it with \"r\" to read it", 9)
	}
	formats := L.GetTop() - 1
	if formats == 0 {
		L.Push(lua.LString("*l"))
		formats = 1
	}
	for i := 2; i < 2+formats; i++ {
		if !s.readOne(L, h, L.Get(i)) {
			return i - 1 // the results so far, ending with the nil
		}
	}
	return formats
}

// readOne pushes one read's result; false after pushing nil at the end.
func (s *luaSession) readOne(L *lua.LState, h *runtime.Handle, format lua.LValue) bool {
	if n, ok := format.(lua.LNumber); ok {
		b, more, err := h.ReadCount(int64(n))
		if err != nil {
			s.raiseFiles(err)
		}
		if !more {
			L.Push(lua.LNil)
			return false
		}
		L.Push(lua.LString(b))
		return true
	}
	f, ok := format.(lua.LString)
	if !ok {
		L.RaiseError("bad argument to 'read' (invalid format)")
	}
	switch strings.TrimPrefix(string(f), "*") {
	case "a":
		b, err := h.ReadAll()
		if err != nil {
			s.raiseFiles(err)
		}
		L.Push(lua.LString(b))
	case "l", "L":
		line, more, err := h.ReadLine(strings.HasSuffix(string(f), "L"))
		if err != nil {
			s.raiseFiles(err)
		}
		if !more {
			L.Push(lua.LNil)
			return false
		}
		L.Push(lua.LString(line))
	case "n":
		v, more := h.ReadNumber()
		if !more {
			L.Push(lua.LNil)
			return false
		}
		L.Push(lua.LNumber(v))
	default:
		L.RaiseError("invalid format argument to read: '%s' (use \"*a\", \"*l\", \"*L\", \"*n\" or a number)", string(f))
	}
	return true
}

// luaWrite is file:write(...) → the file, for chaining: strings and
// numbers, each charged to the run's byte budget.
func (s *luaSession) luaWrite(L *lua.LState) int {
	h := s.checkHandle(L, 1, true)
	if h.Reading() {
		return luaFail(L, "the file is open for reading; open it with \"w\" or \"a\" to write", 9)
	}
	for i := 2; i <= L.GetTop(); i++ {
		var data string
		switch v := L.Get(i).(type) {
		case lua.LString:
			data = string(v)
		case lua.LNumber:
			data = v.String()
		default:
			L.ArgError(i, fmt.Sprintf("write expects string or number arguments, not a %s", v.Type()))
		}
		if _, err := h.Writer.Write(runtime.StringBytes(data)); err != nil {
			h.Failed = err
			s.raiseFiles(err)
		}
	}
	L.Push(L.Get(1))
	return 1
}

// luaClose is file:close() → true. A write handle's new content becomes
// the file now, atomically.
func (s *luaSession) luaClose(L *lua.LState) int {
	h := s.checkHandle(L, 1, true)
	_, err := h.Close(false)
	s.Open--
	if err != nil {
		s.raiseFiles(err)
	}
	L.Push(lua.LTrue)
	return 1
}

// luaSeek is file:seek(whence?, offset?) → the new position.
func (s *luaSession) luaSeek(L *lua.LState) int {
	h := s.checkHandle(L, 1, true)
	whence := L.OptString(2, "cur")
	if whence != "set" && whence != "cur" && whence != "end" {
		L.ArgError(2, fmt.Sprintf("invalid whence argument: '%s' (use \"set\", \"cur\" or \"end\")", whence))
	}
	pos, err := h.Seek(whence, L.OptInt64(3, 0))
	if err != nil {
		return luaFail(L, err.Error(), 22)
	}
	L.Push(lua.LNumber(pos))
	return 1
}

// luaFlush is file:flush() → the file, or nil and why: what was written
// so far becomes the file's content, as toolscript's writes through do.
func (s *luaSession) luaFlush(L *lua.LState) int {
	h := s.checkHandle(L, 1, true)
	if err := h.Flush(); err != nil {
		return luaFail(L, files.MessageOf(err), 5)
	}
	L.Push(L.Get(1))
	return 1
}

// heldHandle is an open handle and a weak reference to the Lua value that
// holds it: once the script drops that value, the handle can be closed.
type heldHandle struct {
	h  *runtime.Handle
	ud weak.Pointer[lua.LUserData]
}

// hold remembers the value of an open handle.
func (s *luaSession) hold(h *runtime.Handle, ud *lua.LUserData) {
	live := s.held[:0]
	for _, x := range s.held {
		if !x.h.Closed {
			live = append(live, x)
		}
	}
	s.held = append(live, heldHandle{h, weak.Make(ud)})
}

// luaCollectGarbage is collectgarbage(opt): Lua's, and for "collect" (the
// default) it also closes the handles the script no longer holds, as
// Lua's io closes a file when it is collected: their slots are free again
// and what they wrote is saved.
func (s *luaSession) luaCollectGarbage(L *lua.LState) int {
	opt := L.OptString(1, "collect")
	switch opt {
	case "collect":
		goruntime.GC()
		for _, x := range s.held {
			if !x.h.Closed && x.ud.Value() == nil {
				if _, err := x.h.Close(false); err == nil {
					s.Open--
				}
			}
		}
		L.Push(lua.LNumber(0))
	case "count":
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		L.Push(lua.LNumber(float64(m.HeapAlloc) / 1024))
	case "step", "stop", "restart", "setpause", "setstepmul":
		L.Push(lua.LNumber(0))
	default:
		L.ArgError(1, "invalid option "+opt)
	}
	return 1
}
