package files

import (
	"path"
	"strings"
)

// ValidateGlob checks a listing pattern: path.Match syntax (*, ?, [a-z],
// [^a-z], \ to escape), plus ** as a whole part of the pattern for any
// number of folders. A pattern without "/" matches base names at any
// depth ("*.csv"), as does "**/" and one without ("**/*.csv"); any other
// with "/" matches whole names ("data/*.csv", "src/**/*.go", "docs/**").
func ValidateGlob(pattern string) error {
	if _, err := path.Match(pattern, ""); err != nil {
		return E("list", KindInvalid, pattern, `the pattern is malformed; use *, ?, [a-z] and ** as in "*.csv", "data/*.json" or "src/**/*.go"`, nil)
	}
	return nil
}

// SimpleGlob is pattern with a leading "**/" dropped when the rest has
// no "/": the two match the same names, and the shorter form is the one
// an index can narrow by.
func SimpleGlob(pattern string) string {
	for {
		rest, ok := strings.CutPrefix(pattern, "**/")
		if !ok || strings.Contains(rest, "/") && !strings.HasPrefix(rest, "**/") {
			return pattern
		}
		pattern = rest
	}
}

// MatchGlob reports whether name matches a pattern checked by ValidateGlob.
// The empty pattern matches every name.
func MatchGlob(pattern, name string) bool {
	if pattern == "" {
		return true
	}
	pattern = SimpleGlob(pattern)
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(name))
		return ok
	}
	if !hasGlobstar(pattern) {
		ok, _ := path.Match(pattern, name)
		return ok
	}
	return matchParts(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

// hasGlobstar reports whether a pattern has ** as a whole part.
func hasGlobstar(pattern string) bool {
	return pattern == "**" || strings.HasPrefix(pattern, "**/") || strings.HasSuffix(pattern, "/**") || strings.Contains(pattern, "/**/")
}

// matchParts matches a name's parts against a pattern's, where a "**"
// part matches any number of the name's parts (at the end, at least
// one: "docs/**" is what is inside docs). It backtracks only to the last
// "**", so it takes at most parts × parts steps, whatever the pattern.
func matchParts(pat, name []string) bool {
	if n := len(pat); n > 1 && pat[n-1] == "**" {
		pat = append(pat[:n-1:n-1], "*", "**")
	}
	pi, ni := 0, 0
	star, from := -1, 0
	for ni < len(name) {
		switch {
		case pi < len(pat) && pat[pi] == "**":
			star, from = pi, ni
			pi++
		case pi < len(pat) && matchPart(pat[pi], name[ni]):
			pi++
			ni++
		case star >= 0:
			from++
			pi, ni = star+1, from
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == "**" {
		pi++
	}
	return pi == len(pat)
}

func matchPart(pattern, part string) bool {
	ok, _ := path.Match(pattern, part)
	return ok
}
