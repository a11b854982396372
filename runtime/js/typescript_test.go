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
)

func runTS(t *testing.T, r *runtime.Runner, src string) (*runtime.Report, error) {
	t.Helper()
	return r.Run(context.Background(), runtime.Request{Source: src, Filename: "main.ts"})
}

func TestTypeScriptFeatures(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := runTS(t, r, `
interface Point { x: number; y: number }
enum Color { Red = "red", Green = "green" }
function first<T>(xs: T[]): T | undefined { return xs[0] }
class Box<T> {
  private items: T[] = [];
  constructor(public label: string) {}
  add(item: T): this { this.items.push(item); return this }
  get size(): number { return this.items.length }
}
abstract class Shape { abstract area(): number }
class Square extends Shape { constructor(private s: number) { super() } area() { return this.s ** 2 } }
const wait = (ms: number): Promise<number> => Promise.resolve(ms);
async function total(ps: Point[]): Promise<number> {
  let sum = 0;
  for (const p of ps) sum += await wait(p.x + p.y);
  return sum;
}
const ps: Point[] = [{x: 1, y: 2}, {x: 3, y: 4}];
const t = await total(ps);
const box = new Box<string>("b").add("a").add("c");
let maybe: {deep?: {v?: number}} = {};
return {t, color: Color.Green, first: first(["z"]), size: box.size, area: new Square(3).area(), opt: maybe.deep?.v ?? "none"};
`)
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.Error.Stack)
	}
	if string(rep.Result) != `{"t":10,"color":"green","first":"z","size":2,"area":9,"opt":"none"}` {
		t.Fatalf("result %s", rep.Result)
	}
}

func TestTypeScriptErrorsPointAtTypeScriptLines(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := runTS(t, r, "interface A { a: number }\ntype B = A & { b: string };\nconst x: B = { a: 1, b: \"s\" };\n\nfunction fail(n: number): never {\n  throw new Error(\"bad \" + n);\n}\nfail(x.a);\n")
	if err == nil || rep.Error.Type != runtime.TypeExecution || !strings.Contains(rep.Error.Stack, "main.ts:6:") || !strings.Contains(rep.Error.Stack, "main.ts:8:") {
		t.Fatalf("stack does not name the TypeScript lines 6 and 8: %+v", rep.Error)
	}
	rep, err = runTS(t, r, "const ok = 1;\nconst bad: number = ;\n")
	if err == nil || rep.Error.Type != runtime.TypeSyntax || rep.Error.Line != 2 || !strings.Contains(rep.Error.Message, "line 2") {
		t.Fatalf("syntax error: %+v", rep.Error)
	}
}

func TestTypeScriptIsTranspiledOncePerSource(t *testing.T) {
	r := runtime.New(runtime.Config{})
	src := "const greeting: string = 'hi'; greeting"
	for i := 0; i < 5; i++ {
		if rep, err := runTS(t, r, src); err != nil || string(rep.Result) != `"hi"` {
			t.Fatalf("run %d: %v %s", i, err, rep.Result)
		}
	}
	if n := transpiles(r); n != 1 {
		t.Fatalf("5 runs of one source transpiled %d times", n)
	}
	runTS(t, r, src+" + '!'")
	if n := transpiles(r); n != 2 {
		t.Fatalf("a changed source was not transpiled: %d", n)
	}
}

func TestLint(t *testing.T) {
	r := runtime.New(runtime.Config{})
	if d := r.Lint(context.Background(), "ok.ts", "const a: number = 1;\nconsole.log(a);", ""); len(d) != 0 {
		t.Fatalf("clean code: %+v", d)
	}
	// ESLint's rules, at the TypeScript's own positions: an enum (which
	// the TypeScript step turns into a var) is not a var of the user's.
	d := r.Lint(context.Background(), "warn.ts", "enum Color { Red }\n\ninterface P { n: number }\nvar p: P = { n: Color.Red };\nlet unused: string = 'x';\nconsole.log(p);\n", "")
	want := []runtime.Diagnostic{
		{Line: 4, Column: 1, Severity: "warning", Code: "no-var", EndLine: 4, EndColumn: 28},
		{Line: 5, Column: 5, Severity: "warning", Code: "no-unused-vars", EndLine: 5, EndColumn: 11},
		{Line: 5, Column: 5, Severity: "warning", Code: "prefer-const", EndLine: 5, EndColumn: 11},
	}
	if len(d) != len(want) {
		t.Fatalf("ts warnings %+v", d)
	}
	for i, w := range want {
		w.Message = d[i].Message
		if d[i] != w || w.Message == "" {
			t.Errorf("warning %d: %+v, want %+v", i, d[i], w)
		}
	}
	// A lint's answer is bounded: past the cap, one warning says how many
	// more there were (capWarnings is ESLint's list's last step).
	many := r.Lint(context.Background(), "many.js", strings.Repeat("var x = 1;\n", 5), "")
	if len(many) < 5 {
		t.Fatalf("5 vars: %+v", many)
	}
	capped := capWarnings(many, 3)
	if len(capped) != 4 || capped[3].Code != "too-many-warnings" || !strings.Contains(capped[3].Message, fmt.Sprintf("%d more warnings", len(many)-3)) {
		t.Fatalf("capped: %+v", capped)
	}
	if len(capWarnings(many, len(many))) != len(many) {
		t.Fatal("a list within the cap was cut")
	}
	d = r.Lint(context.Background(), "bad.ts", "const a = 1;\nconst = 2;\n", "")
	if len(d) == 0 || d[0].Line != 2 || d[0].Severity != "error" {
		t.Fatalf("ts diagnostics %+v", d)
	}
	d = r.Lint(context.Background(), "bad.js", "let ok = 1;\n\nfunction (", "")
	if len(d) == 0 || d[0].Line != 3 {
		t.Fatalf("js diagnostics %+v", d)
	}
}

func TestProcessEnvAndRequire(t *testing.T) {
	r := runtime.New(runtime.Config{})
	rep, err := r.Run(context.Background(), runtime.Request{Source: `
let req = "";
try { require("fs") } catch (e) { req = e.message }
[process.env.API_BASE, process.env.MISSING === undefined, req]`, Env: map[string]string{"API_BASE": "https://example.test"}})
	if err != nil || !strings.Contains(string(rep.Result), `"https://example.test",true,"require(fs): modules are not available`) {
		t.Fatalf("%v %s", err, rep.Result)
	}
}

// TestSourceMapCommentsNeverOpenHostFiles: goja on its own opens any path
// a "//# sourceMappingURL=" comment names; a FIFO would block the run.
func TestSourceMapCommentsNeverOpenHostFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "trap")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runtime.New(runtime.Config{Timeout: 2 * time.Second})
	for src, name := range map[string]string{
		"throw new Error('x')\n//# sourceMappingURL=" + fifo:                      "/tmp/x.js",
		"throw new Error('x')\n//# sourceMappingURL=file://" + fifo + "\n":        "/tmp/x.js",
		"const a: number = 1; throw new Error('x')\n//# sourceMappingURL=" + fifo: "/tmp/x.ts",
	} {
		// A FIFO opened would block the run into a TimeoutError.
		rep, err := r.Run(context.Background(), runtime.Request{Source: src, Filename: name})
		if err == nil || rep.Error.Type != runtime.TypeExecution {
			t.Errorf("%q: %v", src, err)
		}
	}
	os.Remove(fifo)
}
