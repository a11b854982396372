package js

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"convfiles/runtime"
	"convfiles/runtime/runtimetest"
)

// nestingBombs are sources that nest past MaxNesting in each way a parser
// recurses. Each used to be able to overflow the Go stack of the parser,
// a fatal error that ends the process.
var nestingBombs = map[string]string{
	"arrays":              "x=" + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6),
	"objects":             "x=" + strings.Repeat("{a:", 1e5) + "1" + strings.Repeat("}", 1e5),
	"parentheses":         strings.Repeat("(", 1e6) + "1" + strings.Repeat(")", 1e6),
	"calls":               "f" + strings.Repeat("(f", 1e5) + strings.Repeat(")", 1e5),
	"negation":            "x=" + strings.Repeat("!", 1e6) + "1",
	"unary minus":         "x=" + strings.Repeat("- ", 1e5) + "1",
	"typeof":              "x=" + strings.Repeat("typeof ", 1e5) + "1",
	"ternaries":           "x=" + strings.Repeat("a?b:", 1e5) + "c",
	"ternaries in braces": "x=" + strings.Repeat("a?{}:", 1e5) + "c",
	"assignments":         strings.Repeat("a=", 1e5) + "1",
	"arrows":              "f=" + strings.Repeat("a=>", 1e5) + "1",
	"nested ifs":          strings.Repeat("if(1)", 1e5) + "x;",
	"else chain":          "if(0){}" + strings.Repeat("else if(0){}", 1e5),
	"templates":           strings.Repeat("`${", 1e5) + "1" + strings.Repeat("}`", 1e5),
	"after a regexp":      `x=/"/;` + strings.Repeat("[", 1e5) + strings.Repeat("]", 1e5),
	"inside a string":     `x="` + strings.Repeat("[", 1e5) + `"`,
}

func TestNestingBombsAreRefusedBeforeParsing(t *testing.T) {
	r := runtime.New(runtime.Config{MemoryLimit: noGuard, Timeout: 5 * time.Minute}) // the nesting bound is under test
	for name, src := range nestingBombs {
		t.Run(name, func(t *testing.T) {
			for _, lang := range []runtime.Language{runtime.JavaScript, runtime.TypeScript} {
				diags := r.Lint(context.Background(), "bomb", src, lang)
				if len(diags) == 0 || !strings.Contains(diags[0].Message, "nests deeper than") {
					t.Fatalf("%s lint: %+v", lang, diags)
				}
				rep, err := r.Run(t.Context(), runtime.Request{Source: src, Language: lang})
				if err == nil || rep.Error.Type != runtime.TypeSyntax || !strings.Contains(rep.Error.Message, "nests deeper than") {
					t.Fatalf("%s run: %v", lang, err)
				}
			}
		})
	}
}

// TestRuntimeCompilersCheckNesting: code a script compiles while it runs
// (eval, Function and the generator and async constructors) meets the
// same caps, as a SyntaxError the script can catch, and the compilers
// still work for ordinary code.
func TestRuntimeCompilersCheckNesting(t *testing.T) {
	for _, contained := range []bool{false, true} {
		t.Run(fmt.Sprintf("contained=%v", contained), func(t *testing.T) { runtimeCompilersCheckNesting(t, contained) })
	}
}

// runtimeCompilersCheckNesting: a contained worker leaves sizes to the
// kernel but still checks code compiled at run time, whose parser would
// otherwise take the worker down for 60 bytes of script.
func runtimeCompilersCheckNesting(t *testing.T, contained bool) {
	e := runtimetest.NewEnv(t, runtime.Config{MemoryLimit: noGuard, Contained: contained, Timeout: 5 * time.Minute})
	var got []string
	e.OK("c", `
		const bomb = "x=" + "[".repeat(1e6) + "]".repeat(1e6);
		const out = [];
		for (const f of [
			() => eval(bomb),
			() => Function(bomb),
			() => new Function("a", bomb),
			() => (function* () {}).constructor(bomb),
			() => (async function () {}).constructor(bomb),
			() => eval("x".repeat(11 << 20)),
		]) {
			try { f(); out.push("ran") } catch (e) { out.push(e.name + ": " + e.message.slice(0, 40)) }
		}
		out`, &got)
	for i, g := range got[:5] {
		if !strings.HasPrefix(g, "SyntaxError: ") {
			t.Errorf("compiler %d: %s", i, g)
		}
	}
	if !strings.HasPrefix(got[5], "RangeError: code to compile is 11") {
		t.Errorf("a huge eval: %s", got[5])
	}
	var ok []any
	e.OK("c", `[
		eval("1 + 1"),
		Function("a", "b", "return a * b")(3, 4),
		new Function("return this === undefined || typeof this === 'object'")(),
		(function () {}).constructor === Function,
		new Function("") instanceof Function,
		(function* () {}).constructor("yield 1; yield 2").call().next().value,
		eval("x = " + "[".repeat(500) + "7" + "]".repeat(500) + "; x" + "[0]".repeat(500)),
	]`, &ok)
	if fmt.Sprint(ok) != "[2 12 true true true 1 7]" {
		t.Fatalf("compilers after wrapping: %v", ok)
	}
	// A script with no generator or async syntax of its own, whose
	// constructors are guarded only once it compiles code at run time.
	var late []string
	lateSrc := `
		const bomb = "x=" + "[".repeat(1e6) + "]".repeat(1e6);
		const gen = eval("(function` + "\\u002a" + ` () {})");
		const out = [];
		for (const f of [() => gen.constructor(bomb), () => Object.getPrototypeOf(eval("(\u0061sync () => 1)")).constructor(bomb)]) {
			try { f(); out.push("ran") } catch (e) { out.push(e.name) }
		}
		out`
	e.OK("c", lateSrc, &late)
	if mayReachGenerators(lateSrc) {
		t.Fatal("the test's script names generator or async syntax itself")
	}
	if fmt.Sprint(late) != "[SyntaxError SyntaxError]" {
		t.Fatalf("constructors reached through eval: %v", late)
	}
}

// TestOrdinaryCodeIsNotRefused: long scripts of the shapes people write
// (no semicolons, thousands of statements and if blocks, a long else-if
// chain, a long concatenation, deep but sane data) compile and run.
func TestOrdinaryCodeIsNotRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("let total = 0\nconst s = ")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%q + ", fmt.Sprintf("part %d (of many) ", i))
	}
	b.WriteString("''\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "total = total + %d\nif (total > %d) { total = total - 1 }\n", i, i*i)
	}
	b.WriteString("function grade(n) {\n  if (n < 0) { return -1 }\n")
	for i := 0; i < 800; i++ {
		fmt.Fprintf(&b, "  else if (n < %d) { return %d }\n", i, i)
	}
	b.WriteString("  return 999\n}\n")
	b.WriteString("const deep = " + strings.Repeat("[", 1500) + "1" + strings.Repeat("]", 1500) + "\n")
	b.WriteString("const re = /[(]{2}\\/[[]/.test('((/[')\n")
	b.WriteString("const tpl = `a ${ `b ${ 'c' }` } (`\n")
	b.WriteString(";[total > 0, grade(5), s.length > 0, re, tpl]\n")
	src := b.String()
	if err := checkNesting(src, MaxNesting); err != nil {
		t.Fatal(err)
	}
	e := runtimetest.NewEnv(t, runtime.Config{Timeout: 30 * time.Second, MemoryLimit: noGuard})
	var got []any
	e.OK("c", src, &got)
	if fmt.Sprint(got) != "[true 6 true true a b c (]" {
		t.Fatalf("ran to %v", got)
	}
}

// TestEvalNeverOpensSourceMapFiles: a sourceMappingURL naming a FIFO made
// the parser open it and wait forever for a writer; with source maps off
// for every program, eval returns at once.
func TestEvalNeverOpensSourceMapFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "map.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	e := runtimetest.NewEnv(t, runtime.Config{MemoryLimit: noGuard})
	for _, src := range []string{
		`eval("1 + 1\n//# sourceMappingURL=` + fifo + `")`,
		`Function("return 2\n//# sourceMappingURL=` + fifo + `")()`,
		`eval("3\n//# sourceMappingURL=/dev/zero")`,
	} {
		rep, err := e.RunWithTimeout("c", src, 3*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if s := string(rep.Result); s != "2" && s != "3" {
			t.Fatalf("%s: %s", src, s)
		}
	}
	if _, err := os.Stat(fifo); err != nil {
		t.Fatal(err)
	}
}

// noGuard is a memory limit the tests of parsing and JSON set out of
// reach: the in-process guard is process-wide, and the runaway tests of
// this package may leave the heap near the default limit as these run.
const noGuard = 64 << 30
