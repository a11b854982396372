package lua

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"convfiles/internal/docs"
)

// conformance is what one of Luau's conformance files did: the assertions
// that held and failed, and the error that stopped it before its end.
type conformance struct {
	passed, failed int
	stopped        string
	firstFail      string // where the first failed assertion is
}

// runConformance runs one of Luau's conformance files (kept verbatim in
// testdata/luau, from luau-lang/luau's tests/conformance) lowered, in a
// state with Lua's libraries and Luau's additions. assert counts instead
// of stopping, so one failed assertion does not hide the rest.
func runConformance(t *testing.T, path string) conformance {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	L := lua.NewState()
	defer L.Close()
	(&luaSession{L: L}).installLuau()
	var c conformance
	L.SetGlobal("print", L.NewFunction(func(*lua.LState) int { return 0 }))
	L.SetGlobal("assert", L.NewFunction(func(L *lua.LState) int {
		if lua.LVAsBool(L.Get(1)) {
			c.passed++
		} else {
			c.failed++
			if c.firstFail == "" {
				c.firstFail = L.Where(1)
			}
		}
		return L.GetTop()
	}))
	fn, serr := load(L, filepath.Base(path), string(src))
	if serr != nil {
		c.stopped = serr.Error()
		return c
	}
	L.Push(fn)
	if err := L.PCall(0, lua.MultRet, nil); err != nil {
		c.stopped = strings.SplitN(err.Error(), "\n", 2)[0]
	}
	return c
}

// TestLuauConformance runs the share of Luau's conformance tests for the
// syntax convfiles lowers and its library additions, and checks that the
// compatibility page reports each file's count as it is.
func TestLuauConformance(t *testing.T) {
	paths, _ := filepath.Glob("testdata/luau/*.luau")
	if len(paths) < 10 {
		t.Fatalf("%d conformance files", len(paths))
	}
	page := docs.Text(t)
	whole := 0
	for _, path := range paths {
		c := runConformance(t, path)
		name := strings.TrimSuffix(filepath.Base(path), ".luau")
		row := fmt.Sprintf("| `%s` | %d of %d |", name, c.passed, c.passed+c.failed)
		if c.stopped == "" && c.failed == 0 {
			whole++
		}
		t.Logf("%s failed=%d (first at %s) stopped=%q", row, c.failed, c.firstFail, c.stopped)
		if !strings.Contains(page, row) {
			t.Errorf("the compatibility page does not say %s", row)
		}
	}
	if want := fmt.Sprintf("%d of the %d files pass whole", whole, len(paths)); !strings.Contains(page, want) {
		t.Errorf("the compatibility page does not say %q", want)
	}
}

// installLuau adds every one of Luau's additions at once to a state
// whose Lua libraries are all open (as the conformance tests run).
func (s *luaSession) installLuau() {
	s.installLuauGlobals()
	s.addLuauTable()
	s.addLuauMath()
	s.installUTF8()
	s.installBit32()
}
