package luau

import (
	"fmt"
	"strings"
)

// piece is a bit of output and the line of the input it comes from.
type piece struct {
	text string
	line int
}

// code is output in pieces.
type code []piece

// loop is a loop being lowered: the label its continue statements jump
// to, and whether one does.
type loop struct {
	label string
	used  bool
}

// parser reads Luau by recursive descent and writes the Lua 5.1 that
// means the same into buf.
type parser struct {
	lx    *lexer
	tok   token
	ahead []token
	buf   *code
	loops []*loop // innermost last; nil marks a function boundary
	// vararg says, innermost last, whether each enclosing function takes
	// "...": the main chunk does.
	vararg []bool
	names  int // the count of hidden names made
	depth  int // how deeply the blocks and expressions being read nest
	// lastCall says whether the expression just read ends in a call.
	lastCall bool
}

// Lower returns Lua 5.1 source that does what the Luau source src does,
// each token on the line it had. A syntax error is an *Error.
func Lower(src string) (out string, err error) {
	p := &parser{lx: &lexer{src: src, line: 1, col: 1}, vararg: []bool{true}}
	var c code
	p.buf = &c
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			out, err = "", e
		}
	}()
	p.next()
	p.block()
	if p.tok.kind != tEOF {
		p.fail("%s where a statement or the end of the script was expected", p.describe())
	}
	return render(c), nil
}

// render writes pieces, starting a new line only to put a piece on the
// line it came from.
func render(c code) string {
	var b strings.Builder
	line := 1
	for i, pc := range c {
		if pc.line > line {
			b.WriteString(strings.Repeat("\n", pc.line-line))
			line = pc.line
		} else if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pc.text)
		line += strings.Count(pc.text, "\n")
	}
	b.WriteByte('\n')
	return b.String()
}

func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.tok, p.ahead = p.ahead[0], p.ahead[1:]
		return
	}
	p.tok = p.lx.next()
}

// peek returns the token k places after the current one (1: the next).
func (p *parser) peek(k int) token {
	for len(p.ahead) < k {
		p.ahead = append(p.ahead, p.lx.next())
	}
	return p.ahead[k-1]
}

func (p *parser) is(op string) bool { return p.tok.kind == tOp && p.tok.text == op }

func (p *parser) isName(name string) bool { return p.tok.kind == tName && p.tok.text == name }

func (p *parser) fail(format string, args ...any) {
	panic(&Error{Line: p.tok.line, Column: p.tok.col, Msg: fmt.Sprintf(format, args...)})
}

// describe names the current token for an error.
func (p *parser) describe() string {
	switch p.tok.kind {
	case tEOF:
		return "the end of the script"
	case tString, tLong:
		return "a string"
	case tInterpSimple, tInterpBegin:
		return "an interpolated string"
	case tInterpMid, tInterpEnd:
		return "\"}\""
	}
	return fmt.Sprintf("%q", p.tok.text)
}

// expect passes over the punctuation or keyword want, or fails.
func (p *parser) expect(want, context string) {
	if p.tok.kind == tEOF || p.tok.text != want || p.tok.kind != tOp && p.tok.kind != tName {
		p.fail("%q expected %s, found %s", want, context, p.describe())
	}
	p.put(p.tok.line, want)
	p.next()
}

// expectName passes over a name that is not a keyword and returns it.
func (p *parser) expectName(context string) token {
	if p.tok.kind != tName || keywords[p.tok.text] {
		p.fail("a name expected %s, found %s", context, p.describe())
	}
	t := p.tok
	p.next()
	return t
}

// put writes text from line into the current buffer.
func (p *parser) put(line int, text string) { *p.buf = append(*p.buf, piece{text, line}) }

// add writes code into the current buffer.
func (p *parser) add(c code) { *p.buf = append(*p.buf, c...) }

// capture returns what f writes, instead of writing it.
func (p *parser) capture(f func()) code {
	saved := p.buf
	var c code
	p.buf = &c
	f()
	p.buf = saved
	return c
}

// maxDepth bounds how deeply blocks and expressions nest, as Lua's
// parser bounds it: a hostile script cannot exhaust the stack.
const maxDepth = 200

func (p *parser) enter() {
	if p.depth++; p.depth > maxDepth {
		p.fail("the script nests blocks or expressions more than %d levels deep", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// hidden returns a new name no script uses.
func (p *parser) hidden(what string) string {
	p.names++
	return fmt.Sprintf("__luau_%s%d", what, p.names)
}

// keywords are Lua's reserved words; Luau's continue, type and export
// are keywords only where a statement begins with them.
var keywords = map[string]bool{"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "if": true, "in": true, "local": true, "nil": true, "not": true,
	"or": true, "repeat": true, "return": true, "then": true, "true": true, "until": true, "while": true, "goto": true}
