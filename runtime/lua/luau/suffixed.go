package luau

// suffixKind is how a suffixed expression ends.
type suffixKind int

const (
	suffixNone  suffixKind = iota // a name or a parenthesized expression
	suffixField                   // .name
	suffixIndex                   // [key]
	suffixCall                    // (args), {table}, "string" or :method(args)
)

// suffix is the last suffix of an expression: what it indexes (base) and
// with which key, for a compound assignment to evaluate each once.
type suffix struct {
	kind      suffixKind
	base, key code
}

// suffixed reads a name or a parenthesized expression followed by any
// fields, indexes, calls and method calls.
func (p *parser) suffixed() (code, suffix) {
	var c code
	t := p.tok
	switch {
	case p.is("("):
		p.next()
		c = append(code{{"(", t.line}}, p.expr()...)
		if !p.is(")") {
			p.fail("\")\" expected to close the parenthesis of line %d, found %s", t.line, p.describe())
		}
		c = append(c, piece{")", p.tok.line})
		p.next()
	case t.kind == tName && !keywords[t.text]:
		c = code{{t.text, t.line}}
		p.next()
	default:
		p.fail("%s where an expression was expected", p.describe())
	}
	last := suffix{}
	for {
		t := p.tok
		switch {
		case p.is("."):
			p.next()
			name := p.expectName("after .")
			last = suffix{suffixField, c, code{{luaString(name.text), 0}}}
			c = append(append(c, piece{".", t.line}), piece{name.text, name.line})
		case p.is("["):
			p.next()
			key := p.expr()
			last = suffix{suffixIndex, c, key}
			c = append(append(c, piece{"[", t.line}), key...)
			if !p.is("]") {
				p.fail("\"]\" expected to close the index, found %s", p.describe())
			}
			c = append(c, piece{"]", p.tok.line})
			p.next()
		case p.is(":") && p.peek(1).kind == tName:
			p.next()
			name := p.expectName("after :")
			c = append(append(c, piece{":", t.line}), piece{name.text, name.line})
			c = append(c, p.args()...)
			last = suffix{kind: suffixCall}
		case p.is("(") || p.is("{") || t.kind == tString || t.kind == tLong || t.kind == tInterpSimple || t.kind == tInterpBegin:
			c = append(c, p.args()...)
			last = suffix{kind: suffixCall}
		default:
			p.lastCall = last.kind == suffixCall
			return c, last
		}
	}
}

// args reads a call's arguments: (list), a table or a string.
func (p *parser) args() code {
	t := p.tok
	switch {
	case t.kind == tString:
		p.next()
		return code{{luaString(t.val), t.line}}
	case t.kind == tLong:
		p.next()
		return code{{t.text, t.line}}
	case t.kind == tInterpSimple || t.kind == tInterpBegin:
		return append(append(code{{"(", t.line}}, p.interpolation()...), piece{")", 0})
	case p.is("{"):
		return p.table()
	}
	p.next() // (
	c := code{{"(", t.line}}
	if !p.is(")") {
		c = append(c, p.exprList()...)
	}
	if !p.is(")") {
		p.fail("\")\" expected to close the call's arguments of line %d, found %s", t.line, p.describe())
	}
	c = append(c, piece{")", p.tok.line})
	p.next()
	return c
}

// table reads a table constructor.
func (p *parser) table() code {
	return p.capture(func() {
		open := p.tok.line
		p.expect("{", "")
		for !p.is("}") {
			switch {
			case p.is("["):
				p.expect("[", "")
				p.add(p.expr())
				p.expect("]", "to close the key")
				p.expect("=", "after a table key")
				p.add(p.expr())
			case p.tok.kind == tName && !keywords[p.tok.text] && p.peek(1).kind == tOp && p.peek(1).text == "=":
				p.put(p.tok.line, p.tok.text)
				p.next()
				p.expect("=", "")
				p.add(p.expr())
			default:
				p.add(p.expr())
			}
			if !p.is(",") && !p.is(";") {
				break
			}
			p.put(p.tok.line, ",")
			p.next()
		}
		if !p.is("}") {
			p.fail("\"}\" expected to close the table of line %d, found %s", open, p.describe())
		}
		p.expect("}", "")
	})
}

// funcBody reads generics, parameters (types dropped), a return type and
// the body of a function, up to its end.
func (p *parser) funcBody() {
	if p.is("<") {
		p.skipBalanced("<", ">")
	}
	p.expect("(", "to begin the function's parameters")
	vararg := false
	for !p.is(")") {
		if p.is("...") {
			p.put(p.tok.line, "...")
			p.next()
			vararg = true
			if p.is(":") {
				p.next()
				p.skipType()
			}
			break
		}
		p.add(p.typedName("as a parameter"))
		if !p.is(",") {
			break
		}
		p.expect(",", "")
	}
	p.expect(")", "to close the function's parameters")
	if p.is(":") {
		p.next()
		p.skipType()
	}
	p.vararg = append(p.vararg, vararg)
	p.loops = append(p.loops, nil)
	p.block()
	p.loops = p.loops[:len(p.loops)-1]
	p.vararg = p.vararg[:len(p.vararg)-1]
	p.expect("end", "to close the function")
}
