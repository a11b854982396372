package lua

import (
	"math"
	"math/bits"

	lua "github.com/yuin/gopher-lua"
)

// u32 is argument i as bit32 sees a number: truncated, modulo 2^32.
func u32(L *lua.LState, i int) uint32 {
	n, ok := toNumber(L.Get(i))
	if !ok {
		L.TypeError(i, lua.LTNumber)
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return 0
	}
	return uint32(int64(math.Mod(math.Trunc(n), 1<<32)))
}

func pushU32(L *lua.LState, v uint32) int {
	L.Push(lua.LNumber(v))
	return 1
}

// fold combines every argument with op, starting from start.
func fold(start uint32, op func(a, b uint32) uint32) lua.LGFunction {
	return func(L *lua.LState) int {
		acc := start
		for i := 1; i <= L.GetTop(); i++ {
			acc = op(acc, u32(L, i))
		}
		return pushU32(L, acc)
	}
}

// shift is a logical shift by n (negative: the other way).
func shift(v uint32, n int) uint32 {
	switch {
	case n <= -32 || n >= 32:
		return 0
	case n >= 0:
		return v << n
	}
	return v >> -n
}

// fieldArgs checks bit32.extract's and replace's field and width.
func fieldArgs(L *lua.LState, fi, wi int) (int, int) {
	f, w := int(u32(L, fi)), 1
	if L.Get(wi) != lua.LNil {
		w = int(int32(u32(L, wi)))
	}
	if f < 0 || f > 31 {
		L.ArgError(fi, "field cannot be negative or past bit 31")
	}
	if w < 1 || f+w > 32 {
		L.ArgError(wi, "width must be positive and the field must end by bit 31")
	}
	return f, w
}

// luauBit32 is Luau's bit32 library (Lua 5.2's, with countlz, countrz
// and byteswap).
var luauBit32 = map[string]lua.LGFunction{
	"band": fold(math.MaxUint32, func(a, b uint32) uint32 { return a & b }),
	"bor":  fold(0, func(a, b uint32) uint32 { return a | b }),
	"bxor": fold(0, func(a, b uint32) uint32 { return a ^ b }),
	"btest": func(L *lua.LState) int {
		acc := uint32(math.MaxUint32)
		for i := 1; i <= L.GetTop(); i++ {
			acc &= u32(L, i)
		}
		L.Push(lua.LBool(acc != 0))
		return 1
	},
	"bnot":   func(L *lua.LState) int { return pushU32(L, ^u32(L, 1)) },
	"lshift": func(L *lua.LState) int { return pushU32(L, shift(u32(L, 1), L.CheckInt(2))) },
	"rshift": func(L *lua.LState) int { return pushU32(L, shift(u32(L, 1), -L.CheckInt(2))) },
	"arshift": func(L *lua.LState) int {
		v, n := u32(L, 1), L.CheckInt(2)
		if n < 0 || v&0x80000000 == 0 {
			return pushU32(L, shift(v, -n))
		}
		if n >= 32 {
			return pushU32(L, math.MaxUint32)
		}
		return pushU32(L, uint32(int32(v)>>n))
	},
	"lrotate": func(L *lua.LState) int { return pushU32(L, bits.RotateLeft32(u32(L, 1), L.CheckInt(2)%32)) },
	"rrotate": func(L *lua.LState) int { return pushU32(L, bits.RotateLeft32(u32(L, 1), -(L.CheckInt(2)%32))) },
	"extract": func(L *lua.LState) int {
		f, w := fieldArgs(L, 2, 3)
		return pushU32(L, u32(L, 1)>>f&(math.MaxUint32>>(32-w)))
	},
	"replace": func(L *lua.LState) int {
		f, w := fieldArgs(L, 3, 4)
		mask := uint32(math.MaxUint32>>(32-w)) << f
		return pushU32(L, u32(L, 1)&^mask|u32(L, 2)<<f&mask)
	},
	"countlz":  func(L *lua.LState) int { return pushU32(L, uint32(bits.LeadingZeros32(u32(L, 1)))) },
	"countrz":  func(L *lua.LState) int { return pushU32(L, uint32(bits.TrailingZeros32(u32(L, 1)))) },
	"byteswap": func(L *lua.LState) int { return pushU32(L, bits.ReverseBytes32(u32(L, 1))) },
}
