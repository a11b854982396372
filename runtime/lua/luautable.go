package lua

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// luauFind is table.find(t, value, init = 1): the first index from init
// whose value equals value, or nil.
func luauFind(L *lua.LState) int {
	t, v := L.CheckTable(1), L.CheckAny(2)
	for i := L.OptInt(3, 1); i <= t.Len(); i++ {
		if L.Equal(t.RawGetInt(i), v) {
			L.Push(lua.LNumber(i))
			return 1
		}
	}
	L.Push(lua.LNil)
	return 1
}

// luauCreate is table.create(n, value): an array of n copies of value.
func luauCreate(L *lua.LState) int {
	n := L.CheckInt(1)
	if n < 0 || n > luauMaxCreate {
		L.ArgError(1, "the size must be from 0 to 16777216")
	}
	v := L.Get(2)
	t := L.CreateTable(n, 0)
	if v != lua.LNil {
		for i := 1; i <= n; i++ {
			t.RawSetInt(i, v)
		}
	}
	L.Push(t)
	return 1
}

// luauClear is table.clear(t): every key removed.
func luauClear(L *lua.LState) int {
	t := L.CheckTable(1)
	var keys []lua.LValue
	t.ForEach(func(k, _ lua.LValue) { keys = append(keys, k) })
	for _, k := range keys {
		t.RawSet(k, lua.LNil)
	}
	return 0
}

// luauPack is table.pack(...): the arguments and their count as n.
func luauPack(L *lua.LState) int {
	n := L.GetTop()
	t := L.CreateTable(n, 1)
	for i := 1; i <= n; i++ {
		t.RawSetInt(i, L.Get(i))
	}
	t.RawSetString("n", lua.LNumber(n))
	L.Push(t)
	return 1
}

// luauClone is table.clone(t): a shallow copy with the same metatable.
func luauClone(L *lua.LState) int {
	t := L.CheckTable(1)
	c := L.CreateTable(t.Len(), 0)
	t.ForEach(func(k, v lua.LValue) { c.RawSet(k, v) })
	c.Metatable = t.Metatable
	L.Push(c)
	return 1
}

// luauMove is table.move(a1, f, e, t, a2 = a1): a1[f..e] copied to
// a2[t..], in an order that is right when the ranges overlap.
func luauMove(L *lua.LState) int {
	a1 := L.CheckTable(1)
	f, e, t := L.CheckInt(2), L.CheckInt(3), L.CheckInt(4)
	a2 := a1
	if L.GetTop() >= 5 {
		a2 = L.CheckTable(5)
	}
	if e >= f {
		if e-f >= luauMaxCreate {
			L.ArgError(3, "too many elements to move")
		}
		if t > e || t <= f || a1 != a2 {
			for i := 0; i <= e-f; i++ {
				a2.RawSetInt(t+i, a1.RawGetInt(f+i))
			}
		} else {
			for i := e - f; i >= 0; i-- {
				a2.RawSetInt(t+i, a1.RawGetInt(f+i))
			}
		}
	}
	L.Push(a2)
	return 1
}

// luauFreeze is table.freeze(t): t, from then on refusing new keys
// (its metatable's __newindex raises) and answering true to
// table.isfrozen. A key t already has can still be assigned: gopher-lua's
// tables have no read-only mode. A table with a metatable is refused,
// as Luau refuses one whose metatable is locked.
func (s *luaSession) luauFreeze(L *lua.LState) int {
	t := L.CheckTable(1)
	if s.frozen[t] {
		L.Push(t)
		return 1
	}
	if t.Metatable != lua.LNil {
		L.ArgError(1, "a table with a metatable cannot be frozen here")
	}
	mt := L.NewTable()
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("attempt to modify a readonly table")
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("the metatable is locked"))
	L.SetMetatable(t, mt)
	if s.frozen == nil {
		s.frozen = map[*lua.LTable]bool{}
	}
	s.frozen[t] = true
	L.Push(t)
	return 1
}

func (s *luaSession) luauIsFrozen(L *lua.LState) int {
	L.Push(lua.LBool(s.frozen[L.CheckTable(1)]))
	return 1
}

// luauClamp is math.clamp(x, min, max).
func luauClamp(L *lua.LState) int {
	x, lo, hi := float64(L.CheckNumber(1)), float64(L.CheckNumber(2)), float64(L.CheckNumber(3))
	if lo > hi {
		L.ArgError(3, "max must be greater than or equal to min")
	}
	L.Push(lua.LNumber(math.Min(math.Max(x, lo), hi)))
	return 1
}

// luauRound is math.round(x): to the nearest integer, halves away from 0.
func luauRound(L *lua.LState) int {
	L.Push(lua.LNumber(math.Round(float64(L.CheckNumber(1)))))
	return 1
}

// luauSign is math.sign(x): -1, 0 or 1.
func luauSign(L *lua.LState) int {
	x := float64(L.CheckNumber(1))
	switch {
	case x > 0:
		L.Push(lua.LNumber(1))
	case x < 0:
		L.Push(lua.LNumber(-1))
	default:
		L.Push(lua.LNumber(0))
	}
	return 1
}
