package files

import (
	"path"
	"strings"
)

// ValidateGlob checks a listing pattern: path.Match syntax (*, ?, [a-z],
// [^a-z], \ to escape). A pattern without "/" matches base names at any
// depth ("*.csv"); one with "/" matches whole names ("data/*.csv").
func ValidateGlob(pattern string) error {
	if _, err := path.Match(pattern, ""); err != nil {
		return E("list", KindInvalid, pattern, `the pattern is malformed; use *, ? and [a-z] as in "*.csv" or "data/*.json"`, nil)
	}
	return nil
}

// MatchGlob reports whether name matches a pattern checked by ValidateGlob.
// The empty pattern matches every name.
func MatchGlob(pattern, name string) bool {
	if pattern == "" {
		return true
	}
	target := name
	if !strings.Contains(pattern, "/") {
		target = path.Base(name)
	}
	ok, _ := path.Match(pattern, target)
	return ok
}

// CoarseGlob turns a pattern into an SQLite GLOB expression that matches
// every name MatchGlob matches, and maybe more (SQLite's * crosses "/"), so
// an index can narrow a listing before MatchGlob decides. Escapes become
// one-character classes, since SQLite's GLOB has no escape character, and
// a character class becomes ?, since the two dialects write classes
// differently (an escaped "]" inside one, as in [a\]], has no SQLite
// spelling).
func CoarseGlob(pattern string) string {
	var b strings.Builder
	if !strings.Contains(pattern, "/") {
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

// GlobPage is one page of the names that match a listing's pattern,
// chosen from candidate rows offered in listing order (an index narrows
// them with CoarseGlob, MatchGlob decides): the IDs of the page q asks
// for, and how many match in all.
type GlobPage struct {
	q     ListQuery
	IDs   []string
	Total int
}

// NewGlobPage starts the page q asks for.
func NewGlobPage(q ListQuery) *GlobPage { return &GlobPage{q: q} }

// Offer considers the next candidate row.
func (p *GlobPage) Offer(id, name string) {
	if !MatchGlob(p.q.Pattern, name) {
		return
	}
	if p.Total >= p.q.Offset && (p.q.Limit <= 0 || len(p.IDs) < p.q.Limit) {
		p.IDs = append(p.IDs, id)
	}
	p.Total++
}
