package js

import (
	"fmt"
	"testing"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// TestGuardedCompilersBehaveAsTheLanguageSays: the wrapped eval and
// Function keep their meaning: indirect eval in the global scope,
// Function called with or without new, subclassed, and reached through a
// function's constructor.
func TestGuardedCompilersBehaveAsTheLanguageSays(t *testing.T) {
	for _, contained := range []bool{false, true} {
		e := runtimetest.NewEnv(t, runtime.Config{Contained: contained})
		var got []any
		e.OK("c", `
var g = "global";
function local() { var g = "local"; return eval("g"); }
class Sub extends Function {}
const sub = new Sub("return 7");
[local(), eval.name, Function.name, Function("return 1")(), new Function("a", "return a + 1")(1),
 sub instanceof Sub, sub instanceof Function, sub(), (() => {}).constructor === Function,
 Object.getPrototypeOf(Function) === Object.getPrototypeOf(() => {}).constructor.__proto__,
 typeof eval(1), Function.prototype.constructor === Function]`, &got)
		if want := "[global eval Function 1 2 true true 7 true true number true]"; fmt.Sprint(got) != want {
			t.Errorf("contained=%v: %v, want %s", contained, got, want)
		}
	}
}
