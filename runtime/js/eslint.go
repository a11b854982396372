package js

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"

	"convfiles/files"
	"convfiles/runtime"
	"convfiles/runtime/lint"
)

// lintTimeout bounds ESLint's pass over one script: less than what a
// sandbox gives a whole lint (15 s), so a slow pass ends with the syntax
// check's answer rather than a stopped worker.
const lintTimeout = 10 * time.Second

// MaxLintWarnings bounds the warnings one lint lists; a last one says how
// many more there were.
const MaxLintWarnings = 1000

// ruleDiagnostics runs ESLint's rules (package lint) over a script that
// compiles: JavaScript as it is, TypeScript with its types removed and
// every position mapped back to the TypeScript. Each finding is a
// warning named by its rule. A script ESLint cannot parse, or a check
// that fails, adds nothing: the script compiled, which is what counts.
func ruleDiagnostics(filename, src string, lang runtime.Language) []runtime.Diagnostic {
	js, back := src, func(line, col int) (int, int, bool) { return line, col, true }
	if lang == runtime.TypeScript {
		var ok bool
		if js, back, ok = typesRemoved(filename, src); !ok {
			return nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), lintTimeout)
	defer cancel()
	problems, err := lint.Check(ctx, js, scriptGlobals())
	if err != nil {
		return nil
	}
	lines := strings.Split(src, "\n")
	out := []runtime.Diagnostic{}
	for _, p := range problems {
		if p.Rule == "" {
			return nil
		}
		line, col, ok := back(p.Line, p.Column)
		if !ok || lang == runtime.TypeScript && p.Rule == "no-var" && !startsWithAt(lines, line, col, "var") {
			continue // code the TypeScript step wrote (an enum's var), not the user
		}
		d := runtime.Diagnostic{Line: line, Column: col, Message: p.Message, Severity: "warning", Code: p.Rule}
		switch {
		case p.EndLine == p.Line: // a source map locates starts of tokens, not ends
			d.EndLine, d.EndColumn = line, col+p.EndColumn-p.Column
		case p.EndLine > 0:
			if el, ec, ok := back(p.EndLine, p.EndColumn); ok {
				d.EndLine, d.EndColumn = el, ec
			}
		}
		out = append(out, d)
	}
	return capWarnings(out, MaxLintWarnings)
}

// capWarnings keeps the first max warnings and, when there were more,
// one that says how many.
func capWarnings(out []runtime.Diagnostic, max int) []runtime.Diagnostic {
	n := len(out)
	if n <= max {
		return out
	}
	return append(out[:max], runtime.Diagnostic{Line: out[max].Line, Column: out[max].Column, Severity: "warning",
		Code: "too-many-warnings", Message: fmt.Sprintf("%d more warnings are not listed: fix these first", n-max)})
}

// typesRemoved is TypeScript as JavaScript for ESLint, nothing lowered,
// with back mapping a 1-based position in it to the TypeScript's.
func typesRemoved(filename, src string) (string, func(line, col int) (int, int, bool), bool) {
	res := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext, Sourcemap: api.SourceMapExternal, Sourcefile: filename})
	if len(res.Errors) > 0 {
		return "", nil, false
	}
	sm, err := sourcemap.Parse("", res.Map)
	if err != nil {
		return "", nil, false
	}
	back := func(line, col int) (int, int, bool) {
		_, _, l, c, ok := sm.Source(line, col-1)
		return l, c + 1, ok
	}
	return string(res.Code), back, true
}

// startsWithAt reports whether the 1-based line and column of lines
// start with word.
func startsWithAt(lines []string, line, col int, word string) bool {
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) {
		return false
	}
	return strings.HasPrefix(lines[line-1][col-1:], word)
}

// namesOnly stands for a conversation's files while the globals are
// listed: none of its methods is called.
type namesOnly struct{ files.Ops }

var (
	globalsOnce sync.Once
	globalNames []string
)

// scriptGlobals are the names a script finds defined: JavaScript's own
// and convfiles' helpers, read from a session made for the purpose (with
// files, so io and file are there too), so that no-undef knows exactly
// what a script may use.
func scriptGlobals() []string {
	globalsOnce.Do(func() {
		s := newSession(runtime.NewRun(context.Background(), runtime.Config{}.WithDefaults(), namesOnly{}, ""))
		s.compiler, s.lang = newCompiler(1), runtime.JavaScript
		s.install()
		v, err := s.vm.RunString(`Object.getOwnPropertyNames(globalThis)`)
		if err != nil {
			return
		}
		for _, n := range v.Export().([]any) {
			globalNames = append(globalNames, n.(string))
		}
		globalNames = append(globalNames, s.lazy.names()...)
		globalNames = append(globalNames, "module", "exports")
		sort.Strings(globalNames)
	})
	return globalNames
}
