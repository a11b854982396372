package luau

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// quoted reads a string in quote marks and returns its bytes, Luau's
// escapes (\x, \u{…}, \z) decoded with Lua 5.1's.
func (lx *lexer) quoted(quote byte) string {
	line, col := lx.line, lx.col
	lx.advance(1)
	var b strings.Builder
	for {
		if lx.pos >= len(lx.src) || lx.src[lx.pos] == '\n' {
			lx.fail(line, col, "unfinished string")
		}
		c := lx.src[lx.pos]
		switch {
		case c == quote:
			lx.advance(1)
			return b.String()
		case c == '\\':
			lx.escape(&b)
		default:
			b.WriteByte(c)
			lx.advance(1)
		}
	}
}

// interp reads the text of an interpolated string up to its closing
// backtick (a token of kind end) or the "{" of an expression (kind open).
func (lx *lexer) interp(t token, end, open tokKind) token {
	var b strings.Builder
	for {
		if lx.pos >= len(lx.src) || lx.src[lx.pos] == '\n' {
			lx.fail(t.line, t.col, "unfinished interpolated string")
		}
		switch c := lx.src[lx.pos]; c {
		case '`':
			lx.advance(1)
			t.kind, t.val = end, b.String()
			return t
		case '{':
			if lx.peekByte(1) == '{' {
				lx.fail(lx.line, lx.col, "a double brace {{ in an interpolated string: escape a brace as \\{")
			}
			lx.advance(1)
			lx.braces = append(lx.braces, true)
			t.kind, t.val = open, b.String()
			return t
		case '\\':
			lx.escape(&b)
		default:
			b.WriteByte(c)
			lx.advance(1)
		}
	}
}

// escape decodes the escape sequence at pos (a backslash) into b.
func (lx *lexer) escape(b *strings.Builder) {
	line, col := lx.line, lx.col
	lx.advance(1)
	if lx.pos >= len(lx.src) {
		lx.fail(line, col, "unfinished escape sequence")
	}
	c := lx.src[lx.pos]
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		lx.advance(1)
		return
	}
	switch {
	case c == '\n' || c == '\r':
		b.WriteByte('\n')
		lx.advance(1)
	case isDigit(c):
		n := 0
		for i := 0; i < 3 && isDigit(lx.peekByte(0)); i++ {
			n = n*10 + int(lx.src[lx.pos]-'0')
			lx.advance(1)
		}
		if n > 255 {
			lx.fail(line, col, "decimal escape \\%d is too large: at most \\255", n)
		}
		b.WriteByte(byte(n))
	case c == 'x':
		lx.advance(1)
		if lx.pos+2 > len(lx.src) {
			lx.fail(line, col, "\\x takes two hexadecimal digits")
		}
		n, err := strconv.ParseUint(lx.src[lx.pos:lx.pos+2], 16, 8)
		if err != nil {
			lx.fail(line, col, "\\x takes two hexadecimal digits")
		}
		b.WriteByte(byte(n))
		lx.advance(2)
	case c == 'z':
		lx.advance(1)
		for lx.pos < len(lx.src) && strings.IndexByte(" \t\r\n\f\v", lx.src[lx.pos]) >= 0 {
			lx.advance(1)
		}
	case c == 'u' && lx.peekByte(1) == '{':
		end := strings.IndexByte(lx.src[lx.pos:], '}')
		if end < 0 {
			lx.fail(line, col, "\\u{ has no closing }")
		}
		n, err := strconv.ParseUint(lx.src[lx.pos+2:lx.pos+end], 16, 32)
		if err != nil || n > 0x10FFFF {
			lx.fail(line, col, "\\u{…} takes a Unicode code point in hexadecimal, at most 10FFFF")
		}
		b.WriteString(string(utf8.AppendRune(nil, rune(n))))
		lx.advance(end + 1)
	default: // as Lua 5.1 does: the character itself
		b.WriteByte(c)
		lx.advance(1)
	}
}

var simpleEscapes = map[byte]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
	'\\': '\\', '"': '"', '\'': '\'', '`': '`', '{': '{', '}': '}'}

// luaString spells s as a Lua 5.1 string literal: printable ASCII as it
// is, every other byte as a three-digit decimal escape, so the literal
// stays on one line and means the same bytes to any Lua lexer.
func luaString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteByte('\\')
			b.WriteString(strconv.Itoa(int(c) + 1000)[1:])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
