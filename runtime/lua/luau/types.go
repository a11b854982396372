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
