package luau

import "strings"

// exprStatement lowers a call, an assignment or a compound assignment.
func (p *parser) exprStatement() {
	target, last := p.suffixed()
	switch {
	case p.is("="):
		p.add(target)
		p.expect("=", "")
		p.add(p.exprList())
	case p.is(","):
		p.multipleAssignment(target, last)
	case p.tok.kind == tOp && compound[p.tok.text] != "":
		p.compoundAssignment(target, last)
	case last.kind != suffixCall:
		p.fail("%s where \"=\" or a call was expected: a statement is a call or an assignment", p.describe())
	default:
		p.add(target)
	}
}

// multipleAssignment lowers "a, t[k] = x, y" so that every target's
// table and key and every value are evaluated before any is assigned, as
// Luau does (gopher-lua's own order loses a swap such as "a, b = b, a"
// when a is local and b global).
func (p *parser) multipleAssignment(first code, firstLast suffix) {
	targets, lasts := []code{first}, []suffix{firstLast}
	for p.is(",") {
		p.next()
		t, l := p.suffixed()
		targets, lasts = append(targets, t), append(append([]suffix{}, lasts...), l)
	}
	line := p.tok.line
	if !p.is("=") {
		p.fail("\"=\" expected in an assignment, found %s", p.describe())
	}
	p.next()
	values := p.exprList()
	p.put(targets[0][0].line, "do")
	places := make([]code, len(targets))
	for i, l := range lasts {
		switch l.kind {
		case suffixField, suffixIndex:
			obj, key := p.hidden("t"), p.hidden("k")
			p.put(0, "local "+obj+", "+key+" =")
			p.add(l.base)
			p.put(0, ",")
			p.add(l.key)
			p.put(0, ";")
			places[i] = code{{obj + "[" + key + "]", 0}}
		case suffixNone:
			places[i] = targets[i]
		default:
			p.fail("cannot assign to a call")
		}
	}
	vals := make([]string, len(targets))
	for i := range vals {
		vals[i] = p.hidden("v")
	}
	p.put(line, "local "+strings.Join(vals, ", ")+" =")
	p.add(values)
	for i, place := range places {
		p.put(0, ";")
		p.add(place)
		p.put(0, "= "+vals[i])
	}
	p.put(0, "end")
}

// compound maps each compound assignment to its operator.
var compound = map[string]string{"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "^=": "^", "..=": "..", "//=": "//"}

// compoundAssignment lowers "target op= value", evaluating the parts of
// the target once, as Luau does.
func (p *parser) compoundAssignment(target code, last suffix) {
	line, op := p.tok.line, compound[p.tok.text]
	p.next()
	value := p.expr()
	combine := func(read code) code {
		if op == "//" {
			return call("__luau_idiv", line, read, value)
		}
		c := append(code{}, read...)
		c = append(c, piece{op, line}, piece{"(", 0})
		c = append(c, value...)
		return append(c, piece{")", 0})
	}
	switch last.kind {
	case suffixNone: // a plain name
		p.add(target)
		p.put(line, "=")
		p.add(combine(flat(target)))
	case suffixField, suffixIndex:
		obj, key := p.hidden("t"), p.hidden("k")
		p.put(target[0].line, "do local "+obj+", "+key+" =")
		p.add(last.base)
		p.put(0, ",")
		p.add(last.key)
		place := code{{obj + "[" + key + "]", 0}}
		p.put(0, ";")
		p.add(place)
		p.put(line, "=")
		p.add(combine(place))
		p.put(0, "end")
	default:
		p.fail("a compound assignment needs a variable or a field to assign, not a call")
	}
}

// flat is a copy of c that starts no new line: the second use of code.
func flat(c code) code {
	out := make(code, len(c))
	for i, pc := range c {
		out[i] = piece{pc.text, 0}
	}
	return out
}

// call is code calling the hidden helper fn with args.
func call(fn string, line int, args ...code) code {
	c := code{{fn + "(", line}}
	for i, a := range args {
		if i > 0 {
			c = append(c, piece{",", 0})
		}
		c = append(c, a...)
	}
	return append(c, piece{")", 0})
}

// exprList reads expressions separated by commas.
func (p *parser) exprList() code {
	c, _, _ := p.exprListCount()
	return c
}

// exprListCount reads a list of expressions, and says how many there are
// and whether the last is a call.
func (p *parser) exprListCount() (c code, n int, lastIsCall bool) {
	for {
		start := p.tok
		e := p.expr()
		n++
		lastIsCall = p.lastCall && start.text != "("
		c = append(c, e...)
		if !p.is(",") {
			return c, n, lastIsCall
		}
		c = append(c, piece{",", p.tok.line})
		p.next()
	}
}

// priority of the binary operators: left and right binding power.
var priority = map[string][2]int{
	"or": {1, 1}, "and": {2, 2},
	"<": {3, 3}, ">": {3, 3}, "<=": {3, 3}, ">=": {3, 3}, "~=": {3, 3}, "==": {3, 3},
	"..": {5, 4}, "+": {6, 6}, "-": {6, 6}, "*": {7, 7}, "/": {7, 7}, "//": {7, 7}, "%": {7, 7}, "^": {10, 9},
}

const unaryPriority = 8

// expr reads an expression.
func (p *parser) expr() code { return p.subexpr(0) }

// subexpr reads an expression whose binary operators bind tighter than
// limit; floor division becomes a call of __luau_idiv.
func (p *parser) subexpr(limit int) code {
	p.enter()
	defer p.leave()
	var left code
	if op := p.tok.text; p.tok.kind == tOp && (op == "-" || op == "#") || p.isName("not") {
		line := p.tok.line
		p.next()
		left = append(code{{op, line}}, p.subexpr(unaryPriority)...)
		p.lastCall = false
	} else {
		left = p.simple()
	}
	for {
		op := p.tok.text
		prio, ok := priority[op]
		if !ok || p.tok.kind != tOp && p.tok.kind != tName || prio[0] <= limit {
			return left
		}
		line := p.tok.line
		p.next()
		right := p.subexpr(prio[1])
		if op == "//" {
			left = call("__luau_idiv", line, left, right)
		} else {
			left = append(append(left, piece{op, line}), right...)
		}
		p.lastCall = false
	}
}

// simple reads a simple expression, and drops a type cast after it.
func (p *parser) simple() code {
	t := p.tok
	p.lastCall = false
	var c code
	switch {
	case t.kind == tNumber || t.kind == tLong:
		c = code{{t.text, t.line}}
		p.next()
	case t.kind == tString:
		c = code{{luaString(t.val), t.line}}
		p.next()
	case t.kind == tInterpSimple || t.kind == tInterpBegin:
		c = p.interpolation()
	case t.kind == tName && (t.text == "nil" || t.text == "true" || t.text == "false"):
		c = code{{t.text, t.line}}
		p.next()
	case p.is("..."):
		if !p.vararg[len(p.vararg)-1] {
			p.fail("\"...\" outside a function that takes \"...\"")
		}
		c = code{{"...", t.line}}
		p.next()
	case p.is("{"):
		c = p.table()
	case p.isName("function"):
		c = p.capture(func() {
			p.put(t.line, "function")
			p.next()
			p.funcBody()
		})
	case p.isName("if"):
		c = p.ifExpression()
	default:
		c, _ = p.suffixed()
	}
	if p.is("::") {
		p.next()
		p.skipType()
		p.lastCall = false
	}
	return c
}
