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
