package sqltext

import (
	"strings"

	"convfiles/files"
)

// CoarseGlob turns a pattern into an SQLite GLOB expression that matches
// every name MatchGlob matches, and maybe more (SQLite's * crosses "/"), so
// an index can narrow a listing before MatchGlob decides. Escapes become
// one-character classes, since SQLite's GLOB has no escape character, and
// a character class becomes ?, since the two dialects write classes
// differently (an escaped "]" inside one, as in [a\]], has no SQLite
// spelling). A "**" part, any number of folders, becomes * with the "/"
// after it.
func CoarseGlob(pattern string) string {
	var b strings.Builder
	pattern = files.SimpleGlob(pattern)
	if strings.Contains(pattern, "/") {
		pattern = globstarsAsStars(pattern)
	} else {
		b.WriteByte('*') // the base name is a suffix of the name
	}
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\' && i+1 < len(pattern):
			i++
			switch n := pattern[i]; n {
			case '*', '?', '[', ']':
				b.WriteString("[" + string(n) + "]")
			default:
				b.WriteByte(n)
			}
		case c == '[':
			end := classEnd(pattern, i)
			if end < 0 {
				b.WriteByte('*') // ValidateGlob refuses it; stay a superset
				return b.String()
			}
			b.WriteByte('?')
			i = end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// globstarsAsStars writes each "**" part of a pattern as "*" without
// the "/" after it: "src/**/*.go" becomes "src/**.go", which SQLite's
// GLOB matches at any depth below src, none included.
func globstarsAsStars(pattern string) string {
	parts := strings.Split(pattern, "/")
	var b strings.Builder
	for i, p := range parts {
		if p == "**" {
			b.WriteByte('*')
			continue
		}
		b.WriteString(p)
		if i < len(parts)-1 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// classEnd is the index of the "]" that closes the class opened at
// pattern[open], or -1.
func classEnd(pattern string, open int) int {
	i := open + 1
	if i < len(pattern) && pattern[i] == '^' {
		i++
	}
	for ; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return -1
}

// GlobLiteral is a glob that matches s and nothing else: its *, ? and [
// each made a class of one.
func GlobLiteral(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '*' || c == '?' || c == '[' {
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(']')
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ExactGlob reports whether CoarseGlob(pattern) matches exactly the names
// MatchGlob does, so that an index can count and page a listing in SQL
// alone: "*" and then literal text without "/" ("*.csv", "**/*.csv"), which holds of
// a name just when it holds of its base name. Any other wildcard could
// match a "/" in SQL that it cannot in a name.
func ExactGlob(pattern string) bool {
	rest, ok := strings.CutPrefix(files.SimpleGlob(pattern), "*")
	return ok && rest != "" && !strings.ContainsAny(rest, `*?[\/`)
}
