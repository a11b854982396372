package luau

// blockEnds are the tokens a block ends at.
var blockEnds = map[string]bool{"end": true, "else": true, "elseif": true, "until": true}

// block lowers statements up to the end of a block.
func (p *parser) block() {
	p.enter()
	defer p.leave()
	for p.tok.kind != tEOF && !(p.tok.kind == tName && blockEnds[p.tok.text]) {
		if p.is("}") || p.tok.kind == tInterpMid || p.tok.kind == tInterpEnd {
			p.fail("%s where a statement was expected", p.describe())
		}
		p.statement()
	}
}

// statement lowers one statement.
func (p *parser) statement() {
	t := p.tok
	switch {
	case p.is(";"):
		p.next()
	case p.is("@"): // an attribute (@native, @checked): a hint only
		p.next()
		p.expectName("after @")
	case p.is("::"): // a label, as Lua 5.2 writes one
		p.expect("::", "")
		p.put(p.tok.line, p.expectName("as a label").text)
		p.expect("::", "to close the label")
	case t.kind != tName:
		p.exprStatement()
	case t.text == "if":
		p.ifStatement()
	case t.text == "while":
		p.put(t.line, "while")
		p.next()
		p.add(p.expr())
		p.expect("do", "after the condition of while")
		p.loopBody("end")
		p.expect("end", "to close while")
	case t.text == "do":
		p.put(t.line, "do")
		p.next()
		p.block()
		p.expect("end", "to close do")
	case t.text == "for":
		p.forStatement()
	case t.text == "repeat":
		p.put(t.line, "repeat")
		p.next()
		p.loopBody("until")
		p.expect("until", "to close repeat")
		p.add(p.expr())
	case t.text == "function":
		p.functionStatement()
	case t.text == "local":
		p.localStatement()
	case t.text == "return":
		p.put(t.line, "do return") // "do … end": a return may then be followed by a continue label
		p.next()
		if !p.is(";") && p.tok.kind != tEOF && !(p.tok.kind == tName && blockEnds[p.tok.text]) {
			p.add(p.exprList())
		}
		if p.is(";") {
			p.next()
		}
		p.put(0, "end")
	case t.text == "break":
		p.put(t.line, "do break end")
		p.next()
	case t.text == "goto":
		p.put(t.line, "goto")
		p.next()
		p.put(p.tok.line, p.expectName("after goto").text)
	case t.text == "continue" && p.continues():
		p.continueStatement()
	case t.text == "export" && p.peek(1).kind == tName && p.peek(1).text == "type":
		p.next()
		p.typeDeclaration()
	case t.text == "type" && p.peek(1).kind == tName && (p.peek(2).text == "=" || p.peek(2).text == "<") && p.peek(2).kind == tOp:
		p.typeDeclaration()
	case t.text == "type" && p.peek(1).kind == tName && p.peek(1).text == "function":
		p.fail("type functions are not supported: convfiles drops Luau's types and does not run them")
	default:
		p.exprStatement()
	}
}

// continues reports whether "continue" here is the statement (and not a
// variable of that name being called, indexed or assigned).
func (p *parser) continues() bool {
	n := p.peek(1)
	if n.kind == tString || n.kind == tLong || n.kind == tInterpSimple || n.kind == tInterpBegin {
		return false
	}
	return n.kind != tOp || !(n.text == "(" || n.text == "=" || n.text == "." || n.text == "[" || n.text == ":" ||
		n.text == "{" || n.text == "," || len(n.text) == 2 && n.text[1] == '=' && n.text != "==" || n.text == "..=" || n.text == "//=")
}

// continueStatement jumps to the end of the innermost loop's body.
func (p *parser) continueStatement() {
	line := p.tok.line
	p.next()
	if len(p.loops) == 0 || p.loops[len(p.loops)-1] == nil {
		p.fail("continue outside a loop")
	}
	l := p.loops[len(p.loops)-1]
	l.used = true
	p.put(line, "goto "+l.label)
}

// loopBody lowers a loop's body, which ends at the keyword end, with the
// label a continue jumps to as its last statement.
func (p *parser) loopBody(end string) {
	l := &loop{label: p.hidden("continue")}
	p.loops = append(p.loops, l)
	p.block()
	p.loops = p.loops[:len(p.loops)-1]
	if l.used {
		p.put(0, "::"+l.label+"::")
	}
	if !p.isName(end) {
		p.fail("%q expected to close the loop, found %s", end, p.describe())
	}
}

func (p *parser) ifStatement() {
	for kw := "if"; p.isName(kw); kw = "elseif" {
		p.put(p.tok.line, kw)
		p.next()
		p.add(p.expr())
		p.expect("then", "after the condition of "+kw)
		p.block()
	}
	if p.isName("else") {
		p.put(p.tok.line, "else")
		p.next()
		p.block()
	}
	p.expect("end", "to close if")
}

// forStatement lowers both for loops; a generic for over one value that
// is not a function call iterates as Luau does (a table's pairs, or its
// __iter), through __luau_iter.
func (p *parser) forStatement() {
	p.put(p.tok.line, "for")
	p.next()
	first := p.typedName("as the loop variable")
	p.add(first)
	if p.is("=") {
		p.expect("=", "")
		p.add(p.forNumber())
		p.expect(",", "after the loop's start")
		p.add(p.forNumber())
		if p.is(",") {
			p.expect(",", "")
			p.add(p.forNumber())
		}
	} else {
		for p.is(",") {
			p.expect(",", "")
			p.add(p.typedName("as a loop variable"))
		}
		p.expect("in", "in a for loop")
		line := p.tok.line
		list, n, lastIsCall := p.exprListCount()
		if n == 1 && !lastIsCall {
			p.put(line, "__luau_iter(")
			p.add(list)
			p.put(0, ")")
		} else {
			p.add(list)
		}
	}
	p.expect("do", "to begin the loop's body")
	p.loopBody("end")
	p.expect("end", "to close for")
}

// forNumber reads a bound of a numeric for, which Luau turns into a
// number as arithmetic does ("10" is 10) through __luau_num; a number
// written as one is left as it is.
func (p *parser) forNumber() code {
	line := p.tok.line
	c := p.expr()
	if len(c) == 1 && c[0].text != "" && (isDigit(c[0].text[0]) || c[0].text[0] == '.') {
		return c
	}
	return call("__luau_num", line, c)
}

// typedName reads a name and drops its type annotation.
func (p *parser) typedName(context string) code {
	t := p.expectName(context)
	if p.is(":") {
		p.next()
		p.skipType()
	}
	return code{{t.text, t.line}}
}

func (p *parser) functionStatement() {
	p.put(p.tok.line, "function")
	p.next()
	name := p.expectName("after function")
	p.put(name.line, name.text)
	for p.is(".") {
		p.expect(".", "")
		p.put(p.tok.line, p.expectName("after .").text)
	}
	method := p.is(":")
	if method {
		p.expect(":", "")
		p.put(p.tok.line, p.expectName("after :").text)
	}
	p.funcBody()
}

func (p *parser) localStatement() {
	p.put(p.tok.line, "local")
	p.next()
	if p.isName("function") {
		p.put(p.tok.line, "function")
		p.next()
		name := p.expectName("after local function")
		p.put(name.line, name.text)
		p.funcBody()
		return
	}
	p.add(p.typedName("after local"))
	for p.is(",") {
		p.expect(",", "")
		p.add(p.typedName("after ,"))
	}
	if p.is("=") {
		p.expect("=", "")
		p.add(p.exprList())
	}
}

// typeDeclaration drops a type alias: [export] type Name<…> = Type.
func (p *parser) typeDeclaration() {
	p.next() // type
	p.expectName("as the type's name")
	if p.is("<") {
		p.skipBalanced("<", ">")
	}
	if !p.is("=") {
		p.fail("\"=\" expected in a type declaration, found %s", p.describe())
	}
	p.next()
	p.skipType()
}
