package js

import (
	"fmt"

	"convfiles/runtime"
)

// MaxNesting bounds how deeply a script's source may nest before any parser
// sees it. goja's and esbuild's parsers recurse once per level (a bracket,
// a unary operator, a ternary, an arrow, an assignment, an if/else), and a
// Go stack overflow is a fatal error no recover() catches: two megabytes of
// "[" end the process. 2000 levels cost a parser a few megabytes of stack;
// no script a person or an LLM writes comes near it.
const MaxNesting = 2000

// MaxEvalBytes bounds the source one eval or new Function call compiles.
const MaxEvalBytes = 10 << 20

// checkNesting scans src as JavaScript (or TypeScript) tokens closely
// enough to tell code from strings, comments, templates and regular
// expressions, and refuses it when brackets plus chained operators nest
// deeper than max. Where the scan cannot tell (a "/" after ")" or "}"), it
// leans toward counting more, never less: an opener is counted wherever it
// stands, a closer only in code. The worker process that parses behind it
// is the second wall, for what a heuristic scan cannot see.
func checkNesting(src string, max int) error {
	s := nestScan{src: src, line: 1, col: 1, chains: []int{0}, operand: true}
	for s.i < len(src) {
		if err := s.step(max); err != nil {
			return err
		}
	}
	return nil
}

type nestScan struct {
	src       string
	i         int
	line, col int
	// stack holds the open brackets; '$' is a template's ${.
	stack []byte
	// chains counts chained operators at each level since its last ;, ,
	// or line break (so code without semicolons is not taken as one chain).
	chains []int
	// afterHeader is whether the last token was a ")" or "else", after
	// which if, for, while and with nest instead of following.
	afterHeader bool
	// operand is whether the next token starts an operand (a "/" there is
	// a regular expression, a "+" a unary plus).
	operand bool
}

func (s *nestScan) advance(n int) {
	for k := 0; k < n && s.i < len(s.src); k++ {
		if s.src[s.i] == '\n' {
			s.line, s.col = s.line+1, 1
		} else {
			s.col++
		}
		s.i++
	}
}

func (s *nestScan) depth() int { return len(s.stack) + s.chains[len(s.chains)-1] }

func (s *nestScan) tooDeep(max int) error {
	return &compileError{[]runtime.Diagnostic{{Line: s.line, Column: s.col, Severity: "error", Message: fmt.Sprintf(
		"the code nests deeper than %d levels (brackets, chained operators or if/else) here; no parser is run on it: flatten the expression or build deep data with a loop", max)}}}
}

func (s *nestScan) open(c byte, max int) error {
	s.stack = append(s.stack, c)
	s.chains = append(s.chains, 0)
	s.operand = true
	if s.depth() > max {
		return s.tooDeep(max)
	}
	return nil
}

func (s *nestScan) chain(max int) error {
	s.chains[len(s.chains)-1]++
	s.operand = true
	if s.depth() > max {
		return s.tooDeep(max)
	}
	return nil
}

// close pops a bracket; a "}" that ends a ${ returns to the template.
func (s *nestScan) close() (template bool) {
	if n := len(s.stack); n > 0 {
		template = s.stack[n-1] == '$'
		s.stack = s.stack[:n-1]
		s.chains = s.chains[:len(s.chains)-1]
	}
	s.operand = false
	return template
}

func (s *nestScan) step(max int) error {
	c := s.src[s.i]
	header := s.afterHeader
	s.afterHeader = c == ')' || ((c == ' ' || c == '\t') && header)
	switch {
	case c == '/' && s.peek(1) == '/':
		for s.i < len(s.src) && s.src[s.i] != '\n' {
			s.advance(1)
		}
		return nil
	case c == '/' && s.peek(1) == '*':
		s.advance(2)
		var lit literal
		for s.i < len(s.src) && !(s.src[s.i] == '*' && s.peek(1) == '/') {
			if err := lit.see(s, max); err != nil {
				return err
			}
			s.advance(1)
		}
		s.advance(2)
		return nil
	case c == '\'' || c == '"':
		return s.skipString(c, max)
	case c == '`':
		s.advance(1)
		return s.template(max)
	case c == '/' && s.operand:
		return s.skipRegexp(max)
	case c == '(' || c == '[' || c == '{':
		s.advance(1)
		return s.open(c, max)
	case c == ')' || c == ']' || c == '}':
		s.advance(1)
		if s.close() && c == '}' {
			return s.template(max)
		}
		if c != ']' {
			// After ")" (an if header) or "}" (a block) a "/" may start a
			// regular expression: take it as one, which counts more.
			s.operand = true
		}
		return nil
	case c == ';' || c == ',':
		s.chains[len(s.chains)-1] = 0
		s.operand = true
		s.advance(1)
		return nil
	case c == '?' && s.peek(1) != '.' && s.peek(1) != '?':
		s.advance(1)
		return s.chain(max)
	case c == '=' && s.peek(1) == '>':
		s.advance(2)
		return s.chain(max)
	case c == '=' && s.peek(1) != '=':
		s.advance(1)
		return s.chain(max)
	case (c == '!' || c == '~') && s.peek(1) != '=':
		s.advance(1)
		return s.chain(max)
	case (c == '+' || c == '-') && s.operand:
		s.advance(1)
		return s.chain(max)
	case isIdentByte(c):
		return s.word(max, header)
	case c == '\n':
		s.chains[len(s.chains)-1] = 0
		s.advance(1)
		return nil
	case c == ' ' || c == '\t' || c == '\r':
		s.advance(1)
		return nil
	}
	// Any other operator leaves an operand to come.
	s.operand = c != '.' || !isDigit(s.peek(1))
	s.advance(1)
	return nil
}

func (s *nestScan) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

// literal tracks the brackets inside one string, comment or regular
// expression as if they were code, since the scan may have mistaken code
// for one of those; they are forgotten when the literal ends.
type literal struct{ depth int }

func (l *literal) see(s *nestScan, limit int) error {
	switch s.src[s.i] {
	case '(', '[', '{':
		l.depth++
		if s.depth()+l.depth > limit {
			return s.tooDeep(limit)
		}
	case ')', ']', '}':
		l.depth = max(l.depth-1, 0)
	}
	return nil
}

func (s *nestScan) skipString(q byte, max int) error {
	s.advance(1)
	var lit literal
	for s.i < len(s.src) && s.src[s.i] != q && s.src[s.i] != '\n' {
		if s.src[s.i] == '\\' {
			s.advance(1)
		} else if err := lit.see(s, max); err != nil {
			return err
		}
		s.advance(1)
	}
	s.advance(1)
	s.operand = false
	return nil
}

func (s *nestScan) skipRegexp(max int) error {
	s.advance(1)
	inClass := false
	var lit literal
	for s.i < len(s.src) && s.src[s.i] != '\n' && (inClass || s.src[s.i] != '/') {
		switch s.src[s.i] {
		case '\\':
			s.advance(1)
		case '[':
			inClass = true
		case ']':
			inClass = false
		}
		if err := lit.see(s, max); err != nil {
			return err
		}
		s.advance(1)
	}
	s.advance(1)
	s.operand = false
	return nil
}

// template scans a template literal's text up to its end or to a ${.
func (s *nestScan) template(max int) error {
	var lit literal
	for s.i < len(s.src) {
		switch {
		case s.src[s.i] == '\\':
			s.advance(2)
			continue
		case s.src[s.i] == '`':
			s.advance(1)
			s.operand = false
			return nil
		case s.src[s.i] == '$' && s.peek(1) == '{':
			s.advance(2)
			return s.open('$', max)
		}
		if err := lit.see(s, max); err != nil {
			return err
		}
		s.advance(1)
	}
	return nil
}

// unaryWords are the keywords a parser recurses on without a bracket.
var unaryWords = map[string]bool{
	"else": true, "do": true, "typeof": true, "void": true, "delete": true, "await": true, "new": true, "yield": true,
}

// headerWords nest when they follow ")" or "else": if (a) if (b) …
var headerWords = map[string]bool{"if": true, "while": true, "for": true, "with": true}

// operandWords are keywords after which a "/" starts a regular expression.
var operandWords = map[string]bool{"return": true, "case": true, "in": true, "of": true, "instanceof": true, "throw": true}

func (s *nestScan) word(max int, afterHeader bool) error {
	start := s.i
	for s.i < len(s.src) && isIdentByte(s.src[s.i]) {
		s.advance(1)
	}
	w := s.src[start:s.i]
	s.afterHeader = w == "else"
	if unaryWords[w] || (afterHeader && headerWords[w]) {
		return s.chain(max)
	}
	s.operand = operandWords[w]
	return nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
