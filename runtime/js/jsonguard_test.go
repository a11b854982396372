package js

import (
	"strings"
	"testing"
	"time"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// TestJSONDepthIsBoundedBeforeWork: JSON too deep to parse or stringify is
// refused before the built-in starts (stringify of 300,000 levels ran for
// minutes in Go no interrupt reaches); JSON of sane depth, cycles and the
// run's own result behave as before.
func TestJSONDepthIsBoundedBeforeWork(t *testing.T) {
	// The depth bound is under test: the timeout is out of its reach.
	e := runtimetest.NewEnv(t, runtime.Config{Timeout: 5 * time.Minute, MemoryLimit: noGuard})
	var got []string
	e.OK("c", `
		const out = [];
		const tryIt = (f) => { try { out.push(String(f())) } catch (e) { out.push(e.name + ": " + e.message) } };
		let deep = {}; for (let i = 0; i < 300000; i++) deep = {a: deep};
		tryIt(() => JSON.stringify(deep).length);
		tryIt(() => JSON.parse("[".repeat(1e6) + "]".repeat(1e6)).length);
		let ok = []; for (let i = 0; i < 4000; i++) ok = [ok];
		tryIt(() => JSON.parse(JSON.stringify(ok)).length);
		tryIt(() => JSON.parse('{"s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}').s.length);
		const cyc = {}; cyc.self = {back: cyc};
		tryIt(() => JSON.stringify(cyc));
		out`, &got)
	want := []string{"RangeError: JSON.stringify: the value nests deeper than 5000", "SyntaxError: JSON.parse: the text nests deeper than 5000",
		"1", "37", "TypeError:"}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("%d: %q, want %q…", i, got[i], w)
		}
	}
	if n := e.Runner.Abandoned(); n != 0 {
		t.Fatalf("%d runs were abandoned to Go code past their timeout", n)
	}
	rep, err := e.Run("c", `let o = {}; for (let i = 0; i < 300000; i++) o = {a: o}; o`)
	if err == nil || !strings.Contains(rep.Error.Message, "nests deeper than 5000") {
		t.Fatalf("a deep result: %v", err)
	}
	var res map[string]int
	e.OK("c", `JSON.stringify = () => "replaced"; ({a: 1})`, &res)
	if res["a"] != 1 {
		t.Fatalf("a script's own JSON.stringify made the result: %v", res)
	}
}
