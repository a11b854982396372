package sqltext

import (
	"strings"
	"testing"

	"convfiles/files"
)

// TestExactGlobAgreesWithMatchGlob checks every pattern ExactGlob calls
// exact against names that tell the two dialects apart, with SQLite's
// GLOB semantics written out (every wildcard crosses "/").
func TestExactGlobAgreesWithMatchGlob(t *testing.T) {
	names := []string{"a.txt", "dir/a.txt", "a.txt/b", "dir/a.txt/b.md", "x.txtx", ".txt", "dir/.txt", "b.md", "dir/sub/c.txt"}
	for _, tc := range []struct {
		pattern string
		exact   bool
	}{
		{"*.txt", true}, {"*.md", true}, {"*txt", true},
		{"*", false}, {"a.txt", false}, {"*.t?t", false}, {"*.[tm]d", false},
		{"*/a.txt", false}, {"dir/*.txt", false}, {`*\*`, false}, {"*a*", false}, {"a*", false},
	} {
		if got := ExactGlob(tc.pattern); got != tc.exact {
			t.Errorf("ExactGlob(%q) = %v, want %v", tc.pattern, got, tc.exact)
		}
		if !tc.exact {
			continue
		}
		suffix := strings.TrimLeft(CoarseGlob(tc.pattern), "*") // stars, then a literal: a suffix test
		for _, name := range names {
			sql := len(name) >= len(suffix) && name[len(name)-len(suffix):] == suffix
			if want := files.MatchGlob(tc.pattern, name); sql != want {
				t.Errorf("%q on %q: SQL says %v, MatchGlob %v", tc.pattern, name, sql, want)
			}
		}
	}
}
