// Package lint checks JavaScript with ESLint's rules: its recommended set
// plus no-var and prefer-const, the rules Deno's linter (which the
// Workspace API ran, seed 002) reports by default. ESLint itself runs in
// goja, from the bundle of its Linter vendored here (eslint.js.gz, MIT,
// see LICENSE.eslint; rebuilt by genbundle). The code checked is only
// parsed and walked, never run. It knows no files and no doors.
//
// lint must never import files, os or a door.
package lint

//go:generate go run ./genbundle

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

//go:embed eslint.js.gz
var bundleGz []byte

// Problem is one thing ESLint found, located in the code it was given.
type Problem struct {
	// Rule is the ESLint rule's name ("no-unused-vars"); "" for a
	// parsing error.
	Rule    string
	Message string
	// Line is 1-based; Column 1-based, in UTF-16 code units (ESLint's).
	Line, Column       int
	EndLine, EndColumn int
}

// Rules are the rules checked, all reported as warnings: ESLint's
// recommended set (v10) and no-var and prefer-const.
var Rules = []string{
	"constructor-super", "for-direction", "getter-return", "no-async-promise-executor", "no-case-declarations",
	"no-class-assign", "no-compare-neg-zero", "no-cond-assign", "no-const-assign", "no-constant-binary-expression",
	"no-constant-condition", "no-control-regex", "no-debugger", "no-delete-var", "no-dupe-args",
	"no-dupe-class-members", "no-dupe-else-if", "no-dupe-keys", "no-duplicate-case", "no-empty",
	"no-empty-character-class", "no-empty-pattern", "no-empty-static-block", "no-ex-assign", "no-extra-boolean-cast",
	"no-fallthrough", "no-func-assign", "no-global-assign", "no-import-assign", "no-invalid-regexp",
	"no-irregular-whitespace", "no-loss-of-precision", "no-misleading-character-class", "no-new-native-nonconstructor",
	"no-nonoctal-decimal-escape", "no-obj-calls", "no-octal", "no-prototype-builtins", "no-redeclare",
	"no-regex-spaces", "no-self-assign", "no-setter-return", "no-shadow-restricted-names", "no-sparse-arrays",
	"no-this-before-super", "no-undef", "no-unexpected-multiline", "no-unreachable", "no-unsafe-finally",
	"no-unsafe-negation", "no-unsafe-optional-chaining", "no-unused-labels", "no-unused-private-class-members",
	"no-unused-vars", "no-useless-backreference", "no-useless-catch", "no-useless-escape", "no-with",
	"require-yield", "use-isnan", "valid-typeof",
	"no-var", "prefer-const",
}

// setup runs once per VM after the bundle: it makes the Linter and
// returns check(code, sourceType, globals, rules) → JSON of its messages.
// ESLint tests `instanceof URL` and clones rule options with
// structuredClone; the VM has neither, and needs only these stand-ins.
const setup = `(function () {
  var g = globalThis;
  g.self = g.window = g;
  g.URL = function URL() {};
  g.structuredClone = function (v) { return v === undefined ? v : JSON.parse(JSON.stringify(v)) };
  var noop = function () {};
  g.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop };
})()`

const check = `(function (L) {
  var linter = new L.Linter();
  return function (code, sourceType, config) {
    var c = JSON.parse(config);
    c.languageOptions.sourceType = sourceType;
    return JSON.stringify(linter.verify(code, [c]));
  };
})(eslint)`

var (
	compileOnce sync.Once
	programs    [3]*goja.Program
	compileErr  error
)

func compilePrograms() {
	zr, err := gzip.NewReader(bytes.NewReader(bundleGz))
	if err != nil {
		compileErr = err
		return
	}
	src, err := io.ReadAll(zr)
	if err != nil {
		compileErr = err
		return
	}
	for i, part := range []struct{ name, src string }{{"eslint-setup.js", setup}, {"eslint.js", string(src)}, {"eslint-check.js", check}} {
		if programs[i], err = goja.Compile(part.name, part.src, false); err != nil {
			compileErr = fmt.Errorf("lint: compiling %s: %w", part.name, err)
			return
		}
	}
}

// linter is one VM with ESLint loaded. A VM is used by one check at a
// time and kept for the next; one that was interrupted is dropped.
type linter struct {
	vm    *goja.Runtime
	check goja.Callable
}

func newLinter() (*linter, error) {
	compileOnce.Do(compilePrograms)
	if compileErr != nil {
		return nil, compileErr
	}
	vm := goja.New()
	vm.SetMaxCallStackSize(4000)
	var last goja.Value
	for _, p := range programs {
		v, err := vm.RunProgram(p)
		if err != nil {
			return nil, fmt.Errorf("lint: loading ESLint: %w", err)
		}
		last = v
	}
	fn, ok := goja.AssertFunction(last)
	if !ok {
		return nil, errors.New("lint: ESLint's check is not a function")
	}
	return &linter{vm: vm, check: fn}, nil
}

// idle keeps a few loaded VMs: loading one takes ~15 ms, a check of a
// short script ~2 ms.
var idle = make(chan *linter, 4)

// Check lints js, an ECMAScript module or, when it returns at the top
// level, a CommonJS script. globals are the names it may use besides
// JavaScript's own. A script ESLint cannot parse yields one Problem with
// no Rule: the caller's own parser has the better message. Check stops
// with ctx's error when ctx ends first.
func Check(ctx context.Context, js string, globals []string) ([]Problem, error) {
	var l *linter
	select {
	case l = <-idle:
	default:
		var err error
		if l, err = newLinter(); err != nil {
			return nil, err
		}
	}
	config, err := configJSON(globals)
	if err != nil {
		return nil, err
	}
	if d, ok := ctx.Deadline(); ok {
		t := time.AfterFunc(time.Until(d), func() { l.vm.Interrupt(context.DeadlineExceeded) })
		defer t.Stop()
	}
	stop := context.AfterFunc(ctx, func() { l.vm.Interrupt(ctx.Err()) })
	defer stop()
	problems, err := l.verify(js, "module", config)
	if err == nil && len(problems) == 1 && problems[0].Rule == "" && strings.Contains(problems[0].Message, "'return' outside of function") {
		problems, err = l.verify(js, "commonjs", config)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	select {
	case idle <- l:
	default:
	}
	return problems, nil
}

// message is one of ESLint's LintMessages.
type message struct {
	RuleID    *string `json:"ruleId"`
	Message   string  `json:"message"`
	Line      int     `json:"line"`
	Column    int     `json:"column"`
	EndLine   int     `json:"endLine"`
	EndColumn int     `json:"endColumn"`
}

func (l *linter) verify(js, sourceType, config string) ([]Problem, error) {
	v, err := l.check(goja.Undefined(), l.vm.ToValue(js), l.vm.ToValue(sourceType), l.vm.ToValue(config))
	if err != nil {
		return nil, err
	}
	var msgs []message
	if err := json.Unmarshal([]byte(v.String()), &msgs); err != nil {
		return nil, err
	}
	out := make([]Problem, 0, len(msgs))
	for _, m := range msgs {
		p := Problem{Message: m.Message, Line: m.Line, Column: m.Column, EndLine: m.EndLine, EndColumn: m.EndColumn}
		if m.RuleID != nil {
			p.Rule = *m.RuleID
		}
		out = append(out, p)
	}
	return out, nil
}

// configJSON is ESLint's flat config of the checks, as JSON.
func configJSON(globals []string) (string, error) {
	g := make(map[string]string, len(globals))
	for _, name := range globals {
		g[name] = "readonly"
	}
	rules := make(map[string]string, len(Rules))
	for _, r := range Rules {
		rules[r] = "warn"
	}
	b, err := json.Marshal(map[string]any{
		"languageOptions": map[string]any{"ecmaVersion": "latest", "globals": g},
		"rules":           rules,
	})
	return string(b), err
}
