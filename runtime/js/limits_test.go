package js

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// runaway is a script that must be stopped, and how it must end. An empty
// typ accepts either a TimeoutError or a memory LimitError: which one comes
// first depends on the machine's speed.
type runaway struct {
	name, src string
	timeout   time.Duration
	typ       string
	limit     string
	msg       string
}

// outOfReach is the timeout of a case that checks another limit: far
// beyond it, so a slow machine never has the timeout fire first.
const outOfReach = time.Minute

var runaways = []runaway{
	{"infinite loop", `for(;;){}`, time.Second, runtime.TypeTimeout, "timeout", "timeout of 1s"},
	{"catastrophic regex", `/^(?=(a+)+)(a+)+\1b$/.test("a".repeat(40) + "c")`, time.Second, runtime.TypeTimeout, "timeout", "timeout of 1s"},
	{"unbounded recursion", `function f(n) { return f(n + 1) + 1 } f(0)`, outOfReach, runtime.TypeLimit, "call_stack", "call stack"},
	{"string doubling to gigabytes", `let s = "x"; for (;;) s += s;`, runtime.DefaultTimeout, "", "", ""},
	{"one huge repeat", `"abc".repeat(1e10)`, outOfReach, runtime.TypeExecution, "", "Invalid string length"},
	{"huge padStart", `"a".padStart(2**40)`, outOfReach, runtime.TypeExecution, "", "Invalid string length"},
	{"huge ArrayBuffer", `new ArrayBuffer(1e11)`, outOfReach, runtime.TypeExecution, "", "over the sandbox limit"},
	{"huge typed array", `new Float64Array(1e10)`, outOfReach, runtime.TypeExecution, "", "over the sandbox limit"},
	// The typed-array constructors are wrapped on first use; one reached
	// without naming it (a buffer a helper made, a name reassigned first)
	// is wrapped all the same.
	{"huge buffer through a helper's bytes", `write_file("b.bin", "abc"); const u = io.open("b.bin", "rb").read(3); new u.buffer.constructor(1e11)`, outOfReach, runtime.TypeExecution, "", "over the sandbox limit"},
	{"huge typed array after a reassignment", `Uint8Array = null; new Float64Array(1e10)`, outOfReach, runtime.TypeExecution, "", "over the sandbox limit"},
	{"huge typed array through its descriptor", `Object.getOwnPropertyDescriptor(globalThis, "Int32Array").get(); new (Object.getOwnPropertyDescriptor(globalThis, "Int32Array").value)(1e10)`, outOfReach, runtime.TypeExecution, "", "over the sandbox limit"},
	{"huge sparse array filled", `new Array(5e7).fill(0)`, outOfReach, runtime.TypeExecution, "", "Array length"},
	{"object growth", `const a = []; for (;;) a.push({x: a.length, y: "padding".repeat(4)});`, 2 * time.Second, "", "", ""},
}

// TestRunawayScriptsEndWithClearErrors checks each runaway script ends with
// an error naming its limit, and that a normal script runs right after it.
// How long past the timeout each one took is measured by
// BenchmarkRunawayOvershoot, not asserted here (shared machines are noisy);
// the bound below only catches a run that was never stopped. It is wide:
// one goja string concatenation past 256 MiB runs for seconds and cannot
// be interrupted, and on a loaded CI machine the doubling's step that
// straddles the timeout has ended 5.7 s after it.
func TestRunawayScriptsEndWithClearErrors(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	for _, tt := range runaways {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			rep, err := e.RunWithTimeout("limits", tt.src, tt.timeout)
			took := time.Since(start)
			t.Logf("ended after %v (timeout %v): %v", took, tt.timeout, err)
			if took > tt.timeout+20*time.Second {
				t.Errorf("took %v: the run was not stopped", took)
			}
			if err == nil {
				t.Fatal("the runaway script succeeded")
			}
			switch {
			case tt.typ == "":
				if !(rep.Error.Type == runtime.TypeTimeout || rep.Error.Type == runtime.TypeLimit && rep.Error.Limit == "memory") {
					t.Fatalf("got %+v, want a timeout or memory limit", rep.Error)
				}
			case rep.Error.Type != tt.typ || rep.Error.Limit != tt.limit || !strings.Contains(rep.Error.Message, tt.msg):
				t.Fatalf("got %+v, want %s/%s mentioning %q", rep.Error, tt.typ, tt.limit, tt.msg)
			}
			e.Runner.Wait() // an abandoned goroutine must not slow the next case
			var n int
			e.OK("limits", `1 + 1`, &n)
			if n != 2 {
				t.Fatalf("the next script returned %d", n)
			}
		})
	}
}

// TestLinearRegexIsNotALimit: a pattern that backtracks catastrophically in
// engines like V8 runs in linear time here (Go's RE2 engine), so it succeeds.
func TestLinearRegexIsNotALimit(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{Timeout: outOfReach})
	var matched bool
	e.OK("re", `/^(a+)+$/.test("a".repeat(100000) + "!")`, &matched)
	if matched {
		t.Fatal("matched")
	}
}

func TestMillionLogLinesAreCappedWithANote(t *testing.T) {
	// The log cap is under test: the timeout is out of its reach.
	e := runtimetest.NewEnv(t, runtime.Config{Timeout: 5 * time.Minute})
	rep := e.OK("logs", `for (let i = 0; i < 1e6; i++) console.log("line", i); "done"`, nil)
	if len(rep.Logs) != runtime.DefaultMaxLogLines+1 {
		t.Fatalf("%d log entries, want %d and a note", len(rep.Logs), runtime.DefaultMaxLogLines)
	}
	note := rep.Logs[len(rep.Logs)-1]
	if !strings.Contains(note, "999000 more log lines dropped") || rep.Logs[0] != "line 0" {
		t.Fatalf("first %q, note %q", rep.Logs[0], note)
	}
}

func TestResultSizeLimit(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{MaxResultBytes: 1000})
	rep, err := e.Run("r", `"x".repeat(2000)`)
	if err == nil || rep.Error.Limit != "result_size" || !strings.Contains(rep.Error.Message, "write large output to a file") {
		t.Fatalf("got %v", err)
	}
}

// TestGuardedConstructorsBehaveAsBuiltins: the size guards must not change
// what scripts can observe of Array, ArrayBuffer and the typed arrays.
func TestGuardedConstructorsBehaveAsBuiltins(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got []bool
	e.OK("g", `
class Stack extends Array { top() { return this[this.length - 1] } }
const s = new Stack(); s.push(1, 2);
const u = new Uint8Array([1, 2, 3]);
[
  [] instanceof Array, new Array(3) instanceof Array, Array(2).length === 2, Array.isArray(new Array(1)),
  [].constructor === Array, Array.from("ab").length === 2, Array.of(7)[0] === 7, Array.name === "Array",
  s instanceof Stack, s instanceof Array, s.top() === 2,
  u instanceof Uint8Array, Uint8Array.from([1]).length === 1, u.constructor === Uint8Array,
  new ArrayBuffer(8) instanceof ArrayBuffer, u.buffer instanceof ArrayBuffer, Uint8Array.BYTES_PER_ELEMENT === 1,
  new Float64Array(2).length === 2, Object.prototype.toString.call(u) === "[object Uint8Array]",
]`, &got)
	for i, ok := range got {
		if !ok {
			t.Errorf("check %d failed", i)
		}
	}
	if len(got) != 19 {
		t.Fatalf("%d checks ran", len(got))
	}
}

func TestReadFileSizeCapAndLogByteCap(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{MaxReadBytes: 100, MaxLogBytes: 50})
	var got struct{ Name, Message string }
	rep := e.OK("caps", `
write_file("big.txt", "x".repeat(101));
write_file("ok.txt", "x".repeat(100));
read_file("ok.txt");
for (let i = 0; i < 10; i++) console.log("0123456789");
let r = {}; try { read_file("big.txt") } catch (e) { r = {name: e.name, message: e.message} }
r`, &got)
	if got.Name != "LimitError" || !strings.Contains(got.Message, "at most 100 B") || !strings.Contains(got.Message, "101 B") {
		t.Errorf("read_file over the cap: %+v", got)
	}
	bytes := 0
	for _, l := range rep.Logs[:len(rep.Logs)-1] {
		bytes += len(l)
	}
	if bytes > 50 || !strings.Contains(rep.Logs[len(rep.Logs)-1], "more log lines dropped") {
		t.Errorf("logs of %d bytes under a 50-byte cap: %q", bytes, rep.Logs)
	}
}

// TestLazyDialectGlobals: io, os, file and files are built on first use,
// behave as ordinary globals, and can be replaced.
func TestLazyDialectGlobals(t *testing.T) {
	e := runtimetest.NewEnv(t, runtime.Config{})
	var got []any
	e.OK("lazy", `
const first = io, again = io;
const kinds = [typeof io.open, typeof os.remove, typeof file.save, typeof files.readText, first === again,
  Object.keys(globalThis).includes("files")];
files = 42;
kinds.concat([files, typeof io.type])`, &got)
	want := `["function","function","function","function",true,true,42,"function"]`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
}

// TestStringRepeatKeepsItsMeaning: repeat's fast path (ASCII, whole
// counts) and goja's own (the rest) agree with the language, in a process
// that guards sizes and in a contained one.
func TestStringRepeatKeepsItsMeaning(t *testing.T) {
	for _, contained := range []bool{false, true} {
		r := runtime.New(runtime.Config{Contained: contained})
		rep, err := r.Run(t.Context(), runtime.Request{Source: `
const out = ["ab".repeat(3), "é".repeat(2), "x".repeat(2.7), "x".repeat(0), String.prototype.repeat.call(5, 2),
  new String("ab").repeat(2), "🚀".repeat(2).length, "x".repeat(1 << 20).length];
try { "x".repeat(-1) } catch (e) { out.push(e.name) }
try { "x".repeat(Infinity) } catch (e) { out.push(e.name) }
out`})
		want := `["ababab","éé","xx","","55","abab",4,1048576,"RangeError","RangeError"]`
		if err != nil || string(rep.Result) != want {
			t.Errorf("contained=%v: %v %s, want %s", contained, err, rep.Result, want)
		}
	}
}
