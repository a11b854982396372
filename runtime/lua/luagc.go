package lua

import (
	goruntime "runtime"
	"weak"

	lua "github.com/yuin/gopher-lua"

	"convfiles/runtime"
)

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
