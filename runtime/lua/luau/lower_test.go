package luau

import (
	"fmt"
	"strings"
	"testing"
)

// TestEveryTokenKeepsItsLine: a name written on line n of the input is on
// line n of the output, through every construct lowered.
func TestEveryTokenKeepsItsLine(t *testing.T) {
	src := strings.Join([]string{
		"local l1: number = 1",
		"l1 += l2",
		"local l3 = `a {l3x} b {",
		"  l4",
		"} c`",
		"for l6 in l6t do",
		"  if l7 then continue end",
		"  l8.f[l8k] ..= l8v",
		"end",
		"local l10 = if l10c then l10a",
		"  elseif l11c then l11a",
		"  else l12",
		"type L13 = {",
		"  a: number,",
		"}",
		"local l16 = l16a // l16b :: number",
		"l17, l17b[l17k] = l17c, l17d",
		"repeat l18() until l18b",
	}, "\n")
	out, err := Lower(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	for n := 1; n <= 18; n++ {
		name := fmt.Sprintf("l%d", n)
		if n == 5 || n == 9 || n == 13 || n == 14 || n == 15 {
			continue // lines with no name of their own, or a dropped type
		}
		found := false
		for _, f := range strings.FieldsFunc(lines[n-1], func(r rune) bool { return !(r == 'l' || r >= '0' && r <= '9') }) {
			if f == name {
				found = true
			}
		}
		if !found {
			t.Errorf("%s is not on line %d of:\n%s", name, n, out)
		}
	}
}

// TestSyntaxErrorsSayWhereAndWhat: errors name the line and column and
// what was expected.
func TestSyntaxErrorsSayWhereAndWhat(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"local x = ", "line 1, column 11: the end of the script where an expression was expected"},
		{"x += ", "line 1"},
		{"local s = `a {b`", "line 1"},
		{"continue", "continue outside a loop"},
		{"local v = if a then b", "needs an else branch"},
		{"local t = {1, 2", "\"}\" expected to close the table of line 1"},
		{"f(1, 2\n\nx = 1", "\")\" expected to close the call's arguments of line 1"},
		{"local function f() return ... end", "\"...\" outside a function"},
		{"for i = 1, 2 do\nx = 1\n", "\"end\" expected to close the loop"},
		{"x = 'unfinished\n'", "line 1, column 5: unfinished string"},
		{"local x = [==[ never closed", "no ]==]"},
		{"local n = 0b102", "malformed binary number"},
		{"type function F() end", "type functions are not supported"},
	} {
		_, err := Lower(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestPlainLuaIsUnchangedInMeaning: Lua 5.1 (and goto) passes through,
// names that are Luau keywords elsewhere included.
func TestPlainLuaIsUnchangedInMeaning(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"local type = type(x)", `local type = type ( x )`},
		{"continue = 1", `continue = 1`},
		{"goto done ::done::", `goto done :: done ::`},
		{"a.b:c 'x' {y = 1}", `a . b : c "x" { y = 1 }`},
		{"return -x ^ 2, not a == b, #t .. '\\0'", `do return - x ^ 2 , not a == b , # t .. "\000" end`},
		{"local s = [[\nlong]]", "local s = [[\nlong]]"},
	} {
		out, err := Lower(tc.src)
		if err != nil || strings.TrimSpace(out) != tc.want {
			t.Errorf("%q lowered to %q (%v), want %q", tc.src, out, err, tc.want)
		}
	}
}

// TestDeepNestingIsRefused: a hostile depth is an error, never a stack
// overflow.
func TestDeepNestingIsRefused(t *testing.T) {
	for _, src := range []string{
		"return " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000),
		strings.Repeat("do ", 100000) + strings.Repeat("end ", 100000),
		"return " + strings.Repeat("{", 100000),
		"return " + strings.Repeat("- ", 100000) + "1",
		"local x: " + strings.Repeat("{", 100000),
	} {
		if _, err := Lower(src); err == nil || !strings.Contains(err.Error(), "levels deep") && !strings.Contains(err.Error(), "expected") {
			t.Errorf("%.20q…: %v", src, err)
		}
	}
}
