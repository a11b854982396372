package luau

// skipType passes over a type: unions and intersections of simple types,
// optional marks, function types and type packs.
func (p *parser) skipType() {
	if p.is("|") || p.is("&") {
		p.next()
	}
	p.skipTypeAtom()
	for {
		switch {
		case p.is("?"):
			p.next()
		case p.is("|") || p.is("&"):
			p.next()
			p.skipTypeAtom()
		default:
			return
		}
	}
}

// skipTypeAtom passes over one type without its union or intersection.
func (p *parser) skipTypeAtom() {
	t := p.tok
	switch {
	case p.is("<"): // the generics of a function type
		p.skipBalanced("<", ">")
		p.skipTypeAtom()
	case p.is("("): // a function type, a type pack, or a type in parentheses
		p.skipBalanced("(", ")")
		if p.is("->") {
			p.next()
			p.skipType()
		}
	case p.is("{"):
		p.skipBalanced("{", "}")
	case p.is("..."):
		p.next()
		p.skipType()
	case t.kind == tString || t.kind == tLong:
		p.next()
	case t.kind == tName && t.text == "typeof" && p.peek(1).kind == tOp && p.peek(1).text == "(":
		p.next()
		p.skipBalanced("(", ")")
	case t.kind == tName && (t.text == "nil" || t.text == "true" || t.text == "false" || !keywords[t.text]):
		p.next()
		for p.is(".") && p.peek(1).kind == tName {
			p.next()
			p.next()
		}
		if p.is("<") {
			p.skipBalanced("<", ">")
		}
		if p.is("...") { // a generic type pack, T...
			p.next()
		}
	default:
		p.fail("%s where a type was expected", p.describe())
	}
}

// skipBalanced passes over tokens from open to its matching close.
func (p *parser) skipBalanced(open, close string) {
	line := p.tok.line
	depth := 0
	for {
		switch {
		case p.tok.kind == tEOF:
			p.fail("%q expected to close the %q of line %d", close, open, line)
		case p.is(open):
			depth++
		case p.is(close):
			depth--
		}
		p.next()
		if depth == 0 {
			return
		}
	}
}

// ifExpression lowers "if c then a elseif d then b else e" to a function
// called at once, so only the branch taken is evaluated; the function
// passes "..." on where the enclosing one has it.
func (p *parser) ifExpression() code {
	line := p.tok.line
	vararg := p.vararg[len(p.vararg)-1]
	head := "(function() if"
	if vararg {
		head = "(function(...) if"
	}
	c := code{{head, line}}
	p.next()
	p.vararg = append(p.vararg, vararg)
	defer func() { p.vararg = p.vararg[:len(p.vararg)-1] }()
	c = append(c, p.expr()...)
	c = append(c, p.keyword("then", "after the condition of an if-expression"), piece{"return (", 0})
	c = append(c, p.expr()...)
	c = append(c, piece{")", 0})
	for p.isName("elseif") {
		c = append(c, p.keyword("elseif", ""))
		c = append(c, p.expr()...)
		c = append(c, p.keyword("then", "after the condition of elseif"), piece{"return (", 0})
		c = append(c, p.expr()...)
		c = append(c, piece{")", 0})
	}
	if !p.isName("else") {
		p.fail("an if-expression needs an else branch: \"else\" expected, found %s", p.describe())
	}
	c = append(c, p.keyword("else", ""), piece{"return (", 0})
	c = append(c, p.expr()...)
	tail := "end end)()"
	if vararg {
		tail = "end end)(...)"
	}
	return append(c, piece{")", 0}, piece{tail, 0})
}

// keyword passes over the keyword want and returns it as a piece.
func (p *parser) keyword(want, context string) piece {
	if !p.isName(want) {
		p.fail("%q expected %s, found %s", want, context, p.describe())
	}
	pc := piece{want, p.tok.line}
	p.next()
	return pc
}

// interpolation lowers `text {expr} text` to a call of __luau_interp
// with the texts and the values in turn, which joins them with
// tostring's spelling of each value.
func (p *parser) interpolation() code {
	t := p.tok
	if t.kind == tInterpSimple {
		p.next()
		return code{{luaString(t.val), t.line}}
	}
	c := code{{"__luau_interp(", t.line}, {luaString(t.val), 0}}
	p.next()
	for {
		c = append(c, piece{",", 0})
		c = append(c, p.expr()...)
		t := p.tok
		switch t.kind {
		case tInterpMid:
			c = append(c, piece{",", 0}, piece{luaString(t.val), t.line})
			p.next()
		case tInterpEnd:
			c = append(c, piece{",", 0}, piece{luaString(t.val), t.line}, piece{")", 0})
			p.next()
			p.lastCall = false
			return c
		default:
			p.fail("\"}\" expected to close an expression in an interpolated string, found %s", p.describe())
		}
	}
}
