package luau

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is what a token is.
type tokKind uint8

const (
	tEOF          tokKind = iota
	tName                 // a name or a keyword
	tNumber               // a number, in Lua 5.1's spelling
	tString               // a quoted string; val holds its bytes
	tLong                 // a [[long string]], passed through as written
	tInterpSimple         // `text` without an expression; val holds its bytes
	tInterpBegin          // `text{
	tInterpMid            // }text{
	tInterpEnd            // }text`
	tOp                   // punctuation
)

// token is one token and where it starts.
type token struct {
	kind      tokKind
	text, val string
	line, col int
}

// lexer splits Luau source into tokens, comments dropped.
type lexer struct {
	src       string
	pos       int
	line, col int
	// braces holds, for each "{" open, whether it opened an expression
	// inside an interpolated string.
	braces []bool
}

// Error is a Luau syntax error at a line and column of the source.
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg) }

func (lx *lexer) fail(line, col int, format string, args ...any) {
	panic(&Error{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)})
}

func (lx *lexer) peekByte(off int) byte {
	if lx.pos+off < len(lx.src) {
		return lx.src[lx.pos+off]
	}
	return 0
}

// advance moves past n bytes, counting lines.
func (lx *lexer) advance(n int) {
	for range n {
		if lx.src[lx.pos] == '\n' {
			lx.line++
			lx.col = 0
		}
		lx.pos++
		lx.col++
	}
}

// threeOps, twoOps are the punctuation longer than one byte.
var threeOps = []string{"...", "//=", "..="}
var twoOps = []string{"==", "~=", "<=", ">=", "..", "::", "->", "+=", "-=", "*=", "/=", "%=", "^=", "//"}

// next returns the next token.
func (lx *lexer) next() token {
	lx.skipSpaceAndComments()
	t := token{line: lx.line, col: lx.col}
	if lx.pos >= len(lx.src) {
		t.kind = tEOF
		return t
	}
	c := lx.src[lx.pos]
	switch {
	case isNameStart(c):
		start := lx.pos
		for lx.pos < len(lx.src) && (isNameStart(lx.src[lx.pos]) || isDigit(lx.src[lx.pos])) {
			lx.advance(1)
		}
		t.kind, t.text = tName, lx.src[start:lx.pos]
	case isDigit(c) || c == '.' && isDigit(lx.peekByte(1)):
		t.kind, t.text = tNumber, lx.number(t)
	case c == '"' || c == '\'':
		t.kind, t.val = tString, lx.quoted(c)
	case c == '[' && (lx.peekByte(1) == '[' || lx.peekByte(1) == '='):
		if text, ok := lx.long(); ok {
			t.kind, t.text = tLong, text
			return t
		}
		t.kind, t.text = tOp, "["
		lx.advance(1)
	case c == '`':
		lx.advance(1)
		return lx.interp(t, tInterpSimple, tInterpBegin)
	case c == '{':
		lx.braces = append(lx.braces, false)
		t.kind, t.text = tOp, "{"
		lx.advance(1)
	case c == '}':
		if n := len(lx.braces); n > 0 {
			inInterp := lx.braces[n-1]
			lx.braces = lx.braces[:n-1]
			if inInterp {
				lx.advance(1)
				return lx.interp(t, tInterpEnd, tInterpMid)
			}
		}
		t.kind, t.text = tOp, "}"
		lx.advance(1)
	default:
		t.kind = tOp
		for _, ops := range [][]string{threeOps, twoOps} {
			for _, op := range ops {
				if strings.HasPrefix(lx.src[lx.pos:], op) {
					t.text = op
					lx.advance(len(op))
					return t
				}
			}
		}
		if !strings.ContainsRune("+-*/%^#<>=(){}[];:,.?|&@~!", rune(c)) {
			r, _ := utf8.DecodeRuneInString(lx.src[lx.pos:])
			lx.fail(t.line, t.col, "unexpected character %q", r)
		}
		t.text = string(c)
		lx.advance(1)
	}
	return t
}

func (lx *lexer) skipSpaceAndComments() {
	for lx.pos < len(lx.src) {
		switch c := lx.src[lx.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			lx.advance(1)
		case c == '-' && lx.peekByte(1) == '-':
			lx.advance(2)
			if lx.peekByte(0) == '[' {
				if _, ok := lx.long(); ok {
					continue
				}
			}
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.advance(1)
			}
		case c == '#' && lx.pos == 0 && lx.peekByte(1) == '!': // a shebang line
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.advance(1)
			}
		default:
			return
		}
	}
}

// long reads a [[long bracket]] at pos, returning its text; ok is false
// when "[" does not open one.
func (lx *lexer) long() (string, bool) {
	level := 0
	for lx.peekByte(1+level) == '=' {
		level++
	}
	if lx.peekByte(1+level) != '[' {
		return "", false
	}
	line, col := lx.line, lx.col
	closer := "]" + strings.Repeat("=", level) + "]"
	end := strings.Index(lx.src[lx.pos+level+2:], closer)
	if end < 0 {
		lx.fail(line, col, "unfinished long string or comment: it has no %s", closer)
	}
	start := lx.pos
	lx.advance(level + 2 + end + len(closer))
	return lx.src[start:lx.pos], true
}

// number reads a number, giving it in Lua 5.1's spelling: Luau's digit
// separators dropped, binary literals in decimal.
func (lx *lexer) number(t token) string {
	start := lx.pos
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if isNameStart(c) || isDigit(c) || c == '.' ||
			(c == '+' || c == '-') && lx.pos > start && (lx.src[lx.pos-1] == 'e' || lx.src[lx.pos-1] == 'E') && !strings.HasPrefix(strings.ToLower(lx.src[start:]), "0x") {
			lx.advance(1)
			continue
		}
		break
	}
	text := strings.ReplaceAll(lx.src[start:lx.pos], "_", "")
	if len(text) > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B') {
		n, err := strconv.ParseUint(text[2:], 2, 64)
		if err != nil {
			lx.fail(t.line, t.col, "malformed binary number %s", lx.src[start:lx.pos])
		}
		return strconv.FormatUint(n, 10)
	}
	return text
}

func isNameStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
