package js

import (
	"container/list"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"convfiles/runtime"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

// compileError is a script that does not compile, with where and why.
type compileError struct{ diags []runtime.Diagnostic }

// Error locates and describes the first problem.
func (e *compileError) Error() string {
	d := e.diags[0]
	return fmt.Sprintf("line %d, column %d: %s", d.Line, d.Column, d.Message)
}

// compiler turns sources into goja programs and keeps the last ones it
// made, keyed by a hash of language, name and source: a script run again
// pays neither the TypeScript step nor the parse. goja programs are
// immutable, so one program serves every VM.
type compiler struct {
	mu         sync.Mutex
	byKey      map[[32]byte]*list.Element
	order      *list.List // most recently used first
	max        int
	transpiles atomic.Int64
}

type cached struct {
	key [32]byte
	prg *goja.Program
}

func newCompiler(max int) *compiler {
	return &compiler{byKey: map[[32]byte]*list.Element{}, order: list.New(), max: max}
}

func (c *compiler) compile(filename, src string, lang runtime.Language) (*goja.Program, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", lang, filename)
	h.Write([]byte(src))
	var key [32]byte
	h.Sum(key[:0])
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*cached).prg, nil
	}
	c.mu.Unlock()

	if err := checkNesting(src, MaxNesting); err != nil {
		return nil, err
	}
	js := src
	if lang == runtime.TypeScript {
		out, diags := transpile(filename, src)
		c.transpiles.Add(1)
		if len(diags) > 0 {
			return nil, &compileError{diags}
		}
		js = out
	}
	prg, err := parseScript(filename, js)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; !ok {
		c.byKey[key] = c.order.PushFront(&cached{key, prg})
		if c.order.Len() > c.max {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.byKey, last.Value.(*cached).key)
		}
	}
	return prg, nil
}

// parseScript compiles JavaScript. A script using a top-level return (its
// result) or a top-level await is compiled inside a function on the same
// lines, so positions in errors still point at the user's code.
func parseScript(filename, js string) (*goja.Program, error) {
	prg, err := parseJS(filename, js)
	if err == nil {
		return prg, nil
	}
	msg := err.Error()
	var wrapper string
	switch {
	case strings.Contains(msg, "Illegal return statement"):
		wrapper = "(function(){"
	case strings.Contains(msg, "await") || usesAwait.MatchString(js):
		wrapper = "(async function(){"
	default:
		return nil, err
	}
	body, mapLine := splitSourceMap(js)
	wrapped := wrapper + body + "\n})()\n"
	if wrapper != "(function(){" {
		wrapped = returnLastExpression(wrapped)
	}
	if p, err2 := parseJS(filename, wrapped+mapLine); err2 == nil {
		return p, nil
	}
	return nil, err
}

// parseJS parses with goja. goja would open any file a script names in a
// "//# sourceMappingURL=" comment, a path on the host; only inline data:
// maps (the ones the TypeScript step makes) are honoured here.
func parseJS(filename, js string) (*goja.Program, error) {
	ast, err := parser.ParseFile(nil, filename, js, 0, parser.WithSourceMapLoader(refuseSourceMapFile))
	if err != nil {
		return nil, syntaxError(err)
	}
	prg, err := goja.CompileAST(ast, false)
	if err != nil {
		return nil, &compileError{[]runtime.Diagnostic{{Line: 1, Column: 1, Message: err.Error(), Severity: "error"}}}
	}
	return prg, nil
}

func refuseSourceMapFile(string) ([]byte, error) {
	return nil, errors.New("source maps are read only from inline data: URLs")
}

// splitSourceMap cuts the trailing sourceMappingURL line off js, so the
// code can be wrapped while the comment stays last.
func splitSourceMap(js string) (body, mapLine string) {
	i := strings.LastIndex(js, "\n//# sourceMappingURL=")
	if i < 0 {
		return js, ""
	}
	return js[:i], js[i+1:]
}

// syntaxError turns goja's parser errors into diagnostics.
func syntaxError(err error) error {
	var list parser.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		diags := make([]runtime.Diagnostic, len(list))
		for i, e := range list {
			diags[i] = runtime.Diagnostic{Line: e.Position.Line, Column: e.Position.Column, Message: e.Message, Severity: "error"}
		}
		return &compileError{diags}
	}
	var one *parser.Error
	if errors.As(err, &one) {
		return &compileError{[]runtime.Diagnostic{{Line: one.Position.Line, Column: one.Position.Column, Message: one.Message, Severity: "error"}}}
	}
	return err
}

// transpile turns TypeScript into JavaScript goja runs, with an inline
// source map so stack traces name the TypeScript lines. Code that uses a
// top-level await is wrapped in an async function first.
func transpile(filename, src string) (string, []runtime.Diagnostic) {
	opts := api.TransformOptions{
		Loader:     api.LoaderTS,
		Format:     api.FormatCommonJS,
		Target:     api.ES2017,
		Sourcemap:  api.SourceMapInline,
		Sourcefile: filename,
	}
	res := api.Transform(src, opts)
	wrapped := false
	if len(res.Errors) > 0 && mentions(res.Errors, "Top-level await") {
		res = api.Transform("(async () => {"+src+"\n})()", opts)
		wrapped = true
	}
	if len(res.Errors) > 0 {
		return "", diagnostics(res.Errors)
	}
	if wrapped {
		body, mapLine := splitSourceMap(string(res.Code))
		return returnLastExpression(body) + "\n" + mapLine, nil
	}
	return string(res.Code), nil
}

func mentions(msgs []api.Message, s string) bool {
	for _, m := range msgs {
		if strings.Contains(m.Text, s) {
			return true
		}
	}
	return false
}

func diagnostics(msgs []api.Message) []runtime.Diagnostic {
	out := make([]runtime.Diagnostic, 0, len(msgs))
	for _, m := range msgs {
		d := runtime.Diagnostic{Message: m.Text, Severity: "error"}
		if m.Location != nil {
			d.Line, d.Column = m.Location.Line, m.Location.Column+1
		}
		out = append(out, d)
	}
	return out
}
