package js

import (
	"fmt"

	"github.com/dop251/goja"
)

// MaxJSONDepth bounds how deeply JSON.parse and JSON.stringify nest.
// goja's stringify checks each level against every level above it for
// cycles, in Go that no interrupt stops: 300,000 levels kept a core busy
// for minutes after the run's timeout. 5,000 levels take it 40 ms; no JSON
// a person or a program exchanges nests that deep.
const MaxJSONDepth = 5000

// installJSONGuards wraps JSON.parse and JSON.stringify with depth checks
// made before the built-ins start, and keeps the guarded stringify for
// the run's result, which a script cannot replace.
func (s *session) installJSONGuards() {
	j := s.vm.Get("JSON").ToObject(s.vm)
	parse, _ := goja.AssertFunction(j.Get("parse"))
	stringify, _ := goja.AssertFunction(j.Get("stringify"))
	j.Set("parse", func(call goja.FunctionCall) goja.Value {
		if line, col, deep := jsonTextTooDeep(call.Argument(0).String(), MaxJSONDepth); deep {
			s.throw("SyntaxError", fmt.Sprintf("JSON.parse: the text nests deeper than %d levels (line %d, column %d)", MaxJSONDepth, line, col))
		}
		v, err := parse(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	})
	s.stringify = func(call goja.FunctionCall) goja.Value {
		if s.valueTooDeep(call.Argument(0), MaxJSONDepth) {
			s.throw("RangeError", fmt.Sprintf("JSON.stringify: the value nests deeper than %d levels (or refers to itself that deeply)", MaxJSONDepth))
		}
		v, err := stringify(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}
	j.Set("stringify", s.stringify)
}

// jsonTextTooDeep reports whether JSON text nests deeper than max, and
// where. Brackets inside strings do not count.
func jsonTextTooDeep(text string, max int) (line, col int, deep bool) {
	depth, inString, line, col := 0, false, 1, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		col++
		switch {
		case c == '\n':
			line, col = line+1, 0
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > max {
				return line, col, true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return 0, 0, false
}

// valueTooDeep walks v as JSON.stringify would (arrays by index, other
// objects by their own enumerable keys; functions are skipped) without
// recursion, and reports whether it nests deeper than max. A cycle is no
// depth: past max, the path is searched for one object twice, and then
// stringify is left to report the cycle (a TypeError) at that depth.
func (s *session) valueTooDeep(v goja.Value, max int) bool {
	open := func(v goja.Value) (jsonFrame, bool) {
		o, ok := v.(*goja.Object)
		if !ok {
			return jsonFrame{}, false
		}
		if _, fn := goja.AssertFunction(o); fn {
			return jsonFrame{}, false
		}
		return jsonFrame{o: o, keys: o.Keys()}, true
	}
	root, ok := open(v)
	if !ok {
		return false
	}
	stack := []jsonFrame{root}
	for len(stack) > 0 {
		if len(stack) > max {
			return !cyclic(stack)
		}
		top := &stack[len(stack)-1]
		if top.next >= len(top.keys) {
			stack = stack[:len(stack)-1]
			continue
		}
		key := top.keys[top.next]
		top.next++
		if f, ok := open(top.o.Get(key)); ok {
			stack = append(stack, f)
		}
	}
	return false
}

// jsonFrame is one object on valueTooDeep's path, and its next key.
type jsonFrame struct {
	o    *goja.Object
	keys []string
	next int
}

// cyclic reports whether one object stands twice on a path.
func cyclic(path []jsonFrame) bool {
	seen := make(map[*goja.Object]bool, len(path))
	for _, f := range path {
		if seen[f.o] {
			return true
		}
		seen[f.o] = true
	}
	return false
}
