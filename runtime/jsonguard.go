package runtime

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
// recursion, and reports whether it nests deeper than max.
func (s *session) valueTooDeep(v goja.Value, max int) bool {
	type frame struct {
		o    *goja.Object
		keys []string
		next int
	}
	open := func(v goja.Value) *frame {
		o, ok := v.(*goja.Object)
		if !ok {
			return nil
		}
		if _, fn := goja.AssertFunction(o); fn {
			return nil
		}
		return &frame{o: o, keys: o.Keys()}
	}
	root := open(v)
	if root == nil {
		return false
	}
	stack := []*frame{root}
	onPath := map[*goja.Object]bool{root.o: true}
	for len(stack) > 0 {
		if len(stack) > max {
			return true
		}
		top := stack[len(stack)-1]
		if top.next >= len(top.keys) {
			delete(onPath, top.o)
			stack = stack[:len(stack)-1]
			continue
		}
		key := top.keys[top.next]
		top.next++
		f := open(top.o.Get(key))
		if f == nil {
			continue
		}
		if onPath[f.o] {
			return false // a cycle: stringify reports it, at this depth
		}
		onPath[f.o] = true
		stack = append(stack, f)
	}
	return false
}
