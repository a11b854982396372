package js

import (
	"regexp"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// usesAwait finds an await that may be a top-level one: goja, reading a
// script, takes it for a name and fails on what follows.
var usesAwait = regexp.MustCompile(`\bawait\b`)

// returnLastExpression makes the async function a script was wrapped in
// (its own or the TypeScript step's) return the value of its last
// statement when that is an expression: a script that awaits at the top
// level then has its last expression as its result, as any other does.
// js is returned as it was when that does not apply or would not parse.
func returnLastExpression(js string) string {
	prg, err := parser.ParseFile(nil, "", js, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return js
	}
	for _, st := range prg.Body {
		es, ok := st.(*ast.ExpressionStatement)
		if !ok {
			continue
		}
		call, ok := es.Expression.(*ast.CallExpression)
		if !ok {
			continue
		}
		var list []ast.Statement
		switch f := call.Callee.(type) {
		case *ast.FunctionLiteral:
			if f.Async {
				list = f.Body.List
			}
		case *ast.ArrowFunctionLiteral:
			if b, isBlock := f.Body.(*ast.BlockStatement); isBlock && f.Async {
				list = b.List
			}
		}
		if len(list) == 0 {
			continue
		}
		last, ok := list[len(list)-1].(*ast.ExpressionStatement)
		if !ok {
			return js
		}
		at := int(last.Expression.Idx0()) - 1
		if at < 0 || at > len(js) {
			return js
		}
		// A statement like ({…}) starts at its parentheses, before its
		// expression does.
		for k := at; k > 0; k-- {
			c := js[k-1]
			if c == '(' {
				at = k - 1
			} else if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				break
			}
		}
		out := js[:at] + "return " + js[at:]
		if _, err := parser.ParseFile(nil, "", out, 0, parser.WithDisableSourceMaps); err != nil {
			return js
		}
		return out
	}
	return js
}
