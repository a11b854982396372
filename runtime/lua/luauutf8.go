package lua

import (
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
)

// luauUTF8 is Luau's utf8 library (Lua 5.3's).
var luauUTF8 = map[string]lua.LGFunction{
	"char":      utf8Char,
	"codepoint": utf8Codepoint,
	"len":       utf8Len,
	"offset":    utf8Offset,
	"codes":     utf8Codes,
}

func utf8Char(L *lua.LState) int {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		c := L.CheckInt64(i)
		if c < 0 || c > 0x10FFFF {
			L.ArgError(i, "value out of range")
		}
		b.WriteRune(rune(c))
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// bytePos turns a Lua position (negative: from the end) into a 1-based
// byte position.
func bytePos(pos, n int) int {
	if pos < 0 {
		return n + pos + 1
	}
	return pos
}

// decodeAt decodes the character at byte i (0-based), refusing invalid
// UTF-8.
func decodeAt(L *lua.LState, s string, i int) (rune, int) {
	if i < 0 || i >= len(s) {
		L.RaiseError("position %d out of range", i+1)
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		L.RaiseError("invalid UTF-8 code")
	}
	return r, size
}

// utf8Codepoint is utf8.codepoint(s, i = 1, j = i): the code points of
// the characters starting between bytes i and j.
func utf8Codepoint(L *lua.LState) int {
	s := L.CheckString(1)
	i := bytePos(L.OptInt(2, 1), len(s))
	j := bytePos(L.OptInt(3, i), len(s))
	if i < 1 {
		L.ArgError(2, "out of range")
	}
	if j > len(s) {
		L.ArgError(3, "out of range")
	}
	n := 0
	for p := i - 1; p < j; {
		r, size := decodeAt(L, s, p)
		L.Push(lua.LNumber(r))
		n++
		p += size
	}
	return n
}

// utf8Len is utf8.len(s, i = 1, j = -1): the count of characters, or
// nil and the position of the first invalid byte.
func utf8Len(L *lua.LState) int {
	s := L.CheckString(1)
	i := bytePos(L.OptInt(2, 1), len(s))
	j := bytePos(L.OptInt(3, -1), len(s))
	if i < 1 || i > len(s)+1 {
		L.ArgError(2, "initial position out of range")
	}
	if j > len(s) {
		L.ArgError(3, "final position out of range")
	}
	n := 0
	for p := i - 1; p < j; n++ {
		r, size := utf8.DecodeRuneInString(s[p:])
		if r == utf8.RuneError && size <= 1 {
			L.Push(lua.LNil)
			L.Push(lua.LNumber(p + 1))
			return 2
		}
		p += size
	}
	L.Push(lua.LNumber(n))
	return 1
}

// utf8Offset is utf8.offset(s, n, i): the byte position where the n-th
// character (counting from position i) starts.
func utf8Offset(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	def := 1
	if n < 0 {
		def = len(s) + 1
	}
	i := bytePos(L.OptInt(3, def), len(s)) - 1
	if i < 0 || i > len(s) {
		L.ArgError(3, "position out of range")
	}
	cont := func(p int) bool { return p < len(s) && s[p]&0xC0 == 0x80 }
	if n == 0 {
		for i > 0 && cont(i) {
			i--
		}
		L.Push(lua.LNumber(i + 1))
		return 1
	}
	if cont(i) {
		L.RaiseError("initial position is a continuation byte")
	}
	for ; n < 0 && i > 0; n++ {
		i--
		for i > 0 && cont(i) {
			i--
		}
	}
	for ; n > 1 && i < len(s); n-- {
		i++
		for cont(i) {
			i++
		}
	}
	if n == 0 || n == 1 {
		L.Push(lua.LNumber(i + 1))
	} else {
		L.Push(lua.LNil)
	}
	return 1
}

// utf8Codes is utf8.codes(s): an iterator of positions and code points.
func utf8Codes(L *lua.LState) int {
	s := L.CheckString(1)
	L.Push(L.NewFunction(func(L *lua.LState) int {
		n, ok := toNumber(L.Get(2))
		p := int(n)
		if !ok || p < 0 || p > len(s) || n != float64(p) {
			return 0
		}
		if p > 0 {
			_, size := decodeAt(L, s, p-1)
			p += size
		} else {
			p = 1
		}
		if p > len(s) {
			return 0
		}
		r, _ := decodeAt(L, s, p-1)
		L.Push(lua.LNumber(p))
		L.Push(lua.LNumber(r))
		return 2
	}))
	L.Push(lua.LString(s))
	L.Push(lua.LNumber(0))
	return 3
}
