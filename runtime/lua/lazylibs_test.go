package lua

import (
	"testing"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// TestLibrariesMadeOnFirstUseLookOpenedFromTheStart: the libraries made
// when first named are there for every way a script reaches them: by
// name, by iterating or raw-reading the globals, under a script's own
// metatable on the globals (a "strict mode"), and a global of the same
// name the script sets first is the script's.
func TestLibrariesMadeOnFirstUseLookOpenedFromTheStart(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	for name, c := range map[string]struct{ src, want string }{
		"by name": {`return math.floor(2.5) + #table.concat({"a", "b"}) + bit32.band(6, 3) + utf8.len("é")`, `7`},
		"iterated": {`local seen = {}
for k in pairs(_G) do seen[k] = true end
return {seen.math, seen.table, seen.os, seen.json, seen.io, seen.files, seen.coroutine, seen.utf8, seen.bit32, getmetatable(_G) == nil}`,
			`[true,true,true,true,true,true,true,true,true,true]`},
		"raw":          {`return {rawget(_G, "os") ~= nil, type(rawget(_G, "table"))}`, `[true,"table"]`},
		"strict":       {`setmetatable(_G, {__index = function(_, k) error("undefined global " .. k) end}); return math.max(1, 2)`, `2`},
		"next":         {`local n = 0; local k = next(_G); while k do n = n + 1; k = next(_G, k) end; return n > 30 and type(math) == "table"`, `true`},
		"shadowed":     {`table = 5; return table`, `5`},
		"string first": {`return ("ab"):rep(2) .. string.format("%d", 3)`, `"abab3"`},
		"json":         {`return json.decode(json.encode({a = 1})).a`, `1`},
	} {
		rep, err := luaRun(e, "lazy", c.src, nil)
		if err != nil || string(rep.Result) != c.want {
			t.Errorf("%s: %s (%+v), %v; want %s", name, rep.Result, rep.Error, err, c.want)
		}
	}
}
