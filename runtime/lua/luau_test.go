package lua

import (
	"encoding/json"
	"strings"
	"testing"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// TestLuauRuns: what models write for the seeds in Luau runs, each
// construct giving what Luau gives.
func TestLuauRuns(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	for _, tc := range []struct{ src, want string }{
		{"local n = 1\nn += 1\nn -= 3; n *= -4; n /= 2; n ^= 2; n %= 3\nreturn n", "1"},
		{"local s = \"x\"\ns ..= \"y\"\nreturn s", `"xy"`},
		{"local t = {a = {b = 1}}; local i = 0\nlocal function k() i += 1; return \"b\" end\nt.a[k()] += 10\nreturn {t.a.b, i}", "[11,1]"},
		{"local name = 'a'\nreturn `hi {name}, {1 + 1} {nil} {`in {name}`}` .. `\\{x}`", `"hi a, 2 nil in a{x}"`},
		{"local out = {}\nfor i = 1, 5 do\n  if i % 2 == 0 then continue end\n  local sq = i * i\n  out[#out + 1] = sq\nend\nreturn out", "[1,9,25]"},
		{"local i, n = 0, 0\nwhile i < 5 do i += 1; if i == 3 then continue end; n += i end\nrepeat i -= 1; if i == 1 then continue end until i == 0\nreturn n", "12"},
		{"local x: number = 1\nlocal y: {string}? = nil\nlocal z = (x :: any) :: number\nreturn x + z", "2"},
		{"local function f<T>(a: number, b: number, ...: T): (number, string)\n return a + b, \"s\"\nend\nreturn (f(1, 2))", "3"},
		{"type Point = { x: number, y: number }\nexport type Pair<T> = {first: T, second: T}\nlocal p: Point = {x = 1, y = 2}\nreturn p.x + p.y", "3"},
		{"local v = if false then 1 elseif 1 > 2 then 2 else 3\nlocal w = 7 + if true then 10 else 20\nreturn {v, w}", "[3,17]"},
		{"return {7 // 2, -7 // 2, 7.5 // 2}", "[3,-4,3]"},
		{"local t, keys = {a = 1, b = 2, 3}, 0\nfor k, v in t do keys += 1 end\nreturn keys", "3"},
		{"local s = 0\nfor _, v in {10, 20} do s += v end\nfor k in pairs({x = 1}) do s += 1 end\nreturn s", "31"},
		{"return {0b1010, 1_000_000, 0xFF_FF, \"\\x41\\u{48}\\z\n   I\"}", `[10,1000000,65535,"AHI"]`},
		{"local function f(...) return if select('#', ...) > 1 then select(2, ...) else 'none' end\nreturn {f(1, 'two'), f()}", `["two","none"]`},
		{"local type = type\nlocal continue = 1\ncontinue += 1\nreturn {type(continue), continue}", `["number",2]`},
		{"local p = string.split('a,b,,c', ',')\nreturn {#p, p[4], table.find({5, 6, 7}, 6), #table.create(3, 'x'), math.clamp(12, 0, 10), math.round(2.5), math.sign(-3)}",
			`[4,"c",2,3,10,3,-1]`},
		{"local t = {1, 2, x = 3}\ntable.clear(t)\nreturn {next(t) == nil, table.unpack({1, 2})}", "[true,1,2]"},
		{"return {utf8.char(72, 228, 8364), utf8.len('häx'), utf8.codepoint('ä'), bit32.band(0xFF, 0x0F), bit32.bxor(5, 3), bit32.lshift(1, 4), bit32.bnot(0), bit32.extract(0xF0, 4, 4)}",
			`["Hä€",3,228,15,6,16,4294967295,15]`},
		{"local f = table.freeze({a = 1})\nlocal ok = pcall(function() f.b = 2 end)\nreturn {table.isfrozen(f), ok, f.a, typeof(f)}", `[true,false,1,"table"]`},
	} {
		rep, err := luaRun(e, "luau", tc.src, nil)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		var got, want any
		json.Unmarshal(rep.Result, &got)
		json.Unmarshal([]byte(tc.want), &want)
		if g, w := mustMarshal(got), mustMarshal(want); g != w {
			t.Errorf("%q returned %s, want %s", tc.src, g, w)
		}
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLuauErrorsNameTheUsersLine: an error in a lowered script, at run
// time or in its syntax, names the line the user wrote it on.
func TestLuauErrorsNameTheUsersLine(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	for _, tc := range []struct {
		src  string
		typ  string
		line string
	}{
		{"local x: number = 1\nlocal s = `a {x}`\nx += 1\nlocal v = if x > 1 then 2 else 3\nerror('boom')", runtime.TypeExecution, ":5:"},
		{"type T = {\n  a: number,\n}\nlocal t: T = {a = 1}\nt.a += nil", runtime.TypeExecution, ":5:"},
		{"local a = 1\nlocal b = `unfinished {a}", runtime.TypeSyntax, "line 2"},
		{"local a = 1\nfor i = 1, 2 do end\ncontinue", runtime.TypeSyntax, "line 3"},
		{"local a = 1\nlocal b = if a then 2\nreturn b", runtime.TypeSyntax, "line 3"},
	} {
		rep, err := luaRun(e, "luau", tc.src, nil)
		if err == nil || rep.Error.Type != tc.typ || !strings.Contains(rep.Error.Message, tc.line) {
			t.Errorf("%q: %v; want a %s naming %s", tc.src, err, tc.typ, tc.line)
		}
	}
}

// TestDroppedHandlesAreClosedByCollectGarbage: a handle the script no
// longer holds is closed by collectgarbage(), as Lua's io does when it
// collects one: its slot is free and what it wrote is saved.
func TestDroppedHandlesAreClosedByCollectGarbage(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep, err := luaRun(e, "gc", `
local function leak(i)
  local f = io.open("leak" .. i .. ".txt", "w")
  f:write("n", i)
end
for i = 1, 100 do
  leak(i)
  if i % 50 == 0 then collectgarbage() end
end
collectgarbage("collect")
local kept = io.open("kept.txt", "w")
kept:write("still open")
collectgarbage()
kept:write(", and written")
kept:close()
return {read_file("leak100.txt").text, read_file("kept.txt").text}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(rep.Result) != `["n100","still open, and written"]` {
		t.Errorf("result %s", rep.Result)
	}
}

// TestFlushWritesThrough: after flush, another reader sees what a handle
// wrote so far, and the handle goes on writing.
func TestFlushWritesThrough(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep, err := luaRun(e, "flush", `
local f = io.open("log.txt", "w")
f:write("one\n")
assert(f:flush() == f)
local seen = read_file("log.txt").text
f:write("two\n")
f:close()
return {seen, read_file("log.txt").text}`, nil)
	if err != nil || string(rep.Result) != `["one\n","one\ntwo\n"]` {
		t.Errorf("%v %s", err, rep.Result)
	}
}

// TestAFailedRunReportsOnlyWhatItDid: a write handle never closed in a
// run that fails leaves no file and no entry in files_touched.
func TestAFailedRunReportsOnlyWhatItDid(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	rep, err := luaRun(e, "failed", `
local f = io.open("never.txt", "w")
f:write("lost")
file.save("kept.txt", "saved")
error("boom")`, nil)
	if err == nil || len(rep.FilesTouched) != 1 || rep.FilesTouched[0].Name != "kept.txt" || rep.FilesTouched[0].Op != "write" {
		t.Errorf("%v %+v", err, rep.FilesTouched)
	}
}
