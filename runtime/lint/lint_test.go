package lint

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// issues is the Workspace API's lint sample (seed 002's restexec
// example/workspace/lint-test-issues.ts), as JavaScript.
const issues = `// This file intentionally has lint issues for testing

const unusedVariable = 123;

function test() {
  var oldStyleVar = "should use const or let";
  console.log("test");
}

const x = 1

console.log(JSON.stringify({ result: "This file has lint issues" }));
`

func rulesOf(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return strings.Join(out, ",")
}

func TestChecksTheRulesThatMatter(t *testing.T) {
	ctx := context.Background()
	ps, err := Check(ctx, issues, []string{"console"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(ps); got != "no-unused-vars,no-unused-vars,no-var,no-unused-vars,no-unused-vars" {
		t.Fatalf("rules %s: %+v", got, ps)
	}
	if p := ps[2]; p.Line != 6 || p.Column != 3 || !strings.Contains(p.Message, "Unexpected var") {
		t.Errorf("no-var at %d:%d %q", p.Line, p.Column, p.Message)
	}
	ps, err = Check(ctx, "function f() {\n  return 1;\n  g();\n}\nlet n = f();\nconsole.log(n, missing);\n", []string{"console"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(ps); got != "no-unreachable,no-undef,prefer-const,no-undef" {
		t.Fatalf("rules %s: %+v", got, ps)
	}
	// Top-level await is a module's; a top-level return, CommonJS's.
	for _, src := range []string{"const r = await Promise.resolve(1);\nconsole.log(r);\n", "const r = 1;\nreturn r;\n"} {
		if ps, err := Check(ctx, src, []string{"console"}); err != nil || len(ps) != 0 {
			t.Errorf("%q: %v %+v", src, err, ps)
		}
	}
	ps, _ = Check(ctx, "const = ;", nil)
	if len(ps) != 1 || ps[0].Rule != "" || ps[0].Line != 1 {
		t.Errorf("a parsing error: %+v", ps)
	}
}

// TestEveryRuleExists: a rule ESLint does not know would fail every
// check with a configuration error.
func TestEveryRuleExists(t *testing.T) {
	if _, err := Check(context.Background(), "1;", nil); err != nil {
		t.Fatal(err)
	}
}

func TestACheckStopsAtItsDeadline(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, "let a%d = %d; a%d += 1;\n", i, i, i)
	}
	big := b.String()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Check(ctx, big, nil)
	if err == nil {
		t.Fatalf("a 3 MB script was checked within 50 ms (%v)", time.Since(start))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("stopped after %v", took)
	}
	if _, err := Check(context.Background(), "1;", nil); err != nil {
		t.Fatalf("the next check: %v", err)
	}
}
