package lua

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// luauMaxCreate bounds table.create, as string.rep is bounded.
const luauMaxCreate = 1 << 24

// installLuauGlobals binds what lowered Luau calls (see package luau),
// typeof and string.split; Luau's other additions to Lua 5.1 come with
// their libraries (table, math, utf8, bit32), made on first use.
func (s *luaSession) installLuauGlobals() {
	L := s.L
	L.SetFuncs(L.G.Global, map[string]lua.LGFunction{
		"__luau_idiv": luauIDiv, "__luau_iter": luauIter, "__luau_interp": luauInterp, "__luau_num": luauNum, "typeof": luauTypeof,
	})
	str := L.GetGlobal("string").(*lua.LTable)
	L.SetFuncs(str, map[string]lua.LGFunction{"split": luauSplit})
}

// installTable is Lua's table library with Luau's additions.
func (s *luaSession) installTable() error {
	if err := s.open(lua.TabLibName, lua.OpenTable); err != nil {
		return err
	}
	s.addLuauTable()
	return nil
}

func (s *luaSession) addLuauTable() {
	L := s.L
	tab := L.GetGlobal("table").(*lua.LTable)
	L.SetFuncs(tab, map[string]lua.LGFunction{"find": luauFind, "create": luauCreate, "clear": luauClear,
		"pack": luauPack, "clone": luauClone, "move": luauMove, "freeze": s.luauFreeze, "isfrozen": s.luauIsFrozen})
	tab.RawSetString("unpack", L.GetGlobal("unpack"))
}

// installMath is Lua's math library with Luau's additions.
func (s *luaSession) installMath() error {
	if err := s.open(lua.MathLibName, lua.OpenMath); err != nil {
		return err
	}
	s.addLuauMath()
	return nil
}

func (s *luaSession) addLuauMath() {
	m := s.L.GetGlobal("math").(*lua.LTable)
	s.L.SetFuncs(m, map[string]lua.LGFunction{"clamp": luauClamp, "round": luauRound, "sign": luauSign})
}

// installUTF8 is Luau's utf8 library.
func (s *luaSession) installUTF8() {
	utf := s.L.NewTable()
	s.L.SetFuncs(utf, luauUTF8)
	utf.RawSetString("charpattern", lua.LString("[\x00-\x7F\xC2-\xFD][\x80-\xBF]*"))
	s.L.SetGlobal("utf8", utf)
}

// installBit32 is Luau's bit32 library.
func (s *luaSession) installBit32() {
	bit := s.L.NewTable()
	s.L.SetFuncs(bit, luauBit32)
	s.L.SetGlobal("bit32", bit)
}

// luauIDiv is a // b: the floor of the quotient, or the operands'
// __idiv metamethod.
func luauIDiv(L *lua.LState) int {
	a, b := L.Get(1), L.Get(2)
	x, xok := toNumber(a)
	y, yok := toNumber(b)
	if xok && yok {
		L.Push(lua.LNumber(math.Floor(x / y)))
		return 1
	}
	for _, v := range []lua.LValue{a, b} {
		if mm := L.GetMetaField(v, "__idiv"); mm != lua.LNil {
			L.Push(mm)
			L.Push(a)
			L.Push(b)
			L.Call(2, 1)
			return 1
		}
	}
	bad := a
	if xok {
		bad = b
	}
	L.RaiseError("attempt to perform arithmetic (//) on a %s value", bad.Type())
	return 0
}

func toNumber(v lua.LValue) (float64, bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return float64(v), true
	case lua.LString: // Lua's coercion of a numeric string
		t := strings.TrimSpace(string(v))
		if n, err := strconv.ParseFloat(t, 64); err == nil {
			return n, true
		}
		if n, err := strconv.ParseInt(t, 0, 64); err == nil {
			return float64(n), true
		}
	}
	return 0, false
}

// luauNum is a bound of a numeric for: a number, or a string that
// holds one, as Luau takes either.
func luauNum(L *lua.LState) int {
	n, ok := toNumber(L.Get(1))
	if !ok {
		L.RaiseError("'for' bounds must be numbers, not %s", L.Get(1).Type())
	}
	L.Push(lua.LNumber(n))
	return 1
}

// luauIter is what a generic for loops over, as Luau iterates: a
// function (or a callable) with its state as given; a table with an
// __iter metamethod through it; any other table by next.
func luauIter(L *lua.LState) int {
	v := L.Get(1)
	if v.Type() == lua.LTFunction {
		return L.GetTop()
	}
	if mm := L.GetMetaField(v, "__iter"); mm != lua.LNil {
		L.Push(mm)
		L.Push(v)
		L.Call(1, 3)
		if f := L.Get(-3); f.Type() != lua.LTFunction && L.GetMetaField(f, "__call") == lua.LNil {
			L.RaiseError("attempt to call a %s value: __iter must return the iterator function", f.Type())
		}
		return 3
	}
	if L.GetMetaField(v, "__call") != lua.LNil {
		return L.GetTop()
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("attempt to iterate over a %s value", v.Type())
	}
	L.Push(L.NewFunction(luauNext))
	L.Push(t)
	L.Push(lua.LNil)
	return 3
}

func luauNext(L *lua.LState) int {
	k, v := L.CheckTable(1).Next(L.Get(2))
	if k == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(k)
	L.Push(v)
	return 2
}

// luauInterp joins an interpolated string's texts (odd arguments) and
// values (even ones, spelled as tostring does).
func luauInterp(L *lua.LState) int {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i%2 == 1 {
			b.WriteString(L.CheckString(i))
			continue
		}
		b.WriteString(L.ToStringMeta(L.Get(i)).String())
		if b.Len() > luaMaxString {
			L.RaiseError("an interpolated string may be at most %d bytes", luaMaxString)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

func luauTypeof(L *lua.LState) int {
	L.Push(lua.LString(L.CheckAny(1).Type().String()))
	return 1
}

// luauSplit is string.split(s, sep = ","): the pieces between each
// plain separator; an empty separator splits into bytes.
func luauSplit(L *lua.LState) int {
	s, sep := L.CheckString(1), L.OptString(2, ",")
	var parts []string
	if sep == "" {
		parts = strings.Split(s, "")
	} else {
		parts = strings.Split(s, sep)
	}
	t := L.CreateTable(len(parts), 0)
	for _, p := range parts {
		t.Append(lua.LString(p))
	}
	L.Push(t)
	return 1
}
