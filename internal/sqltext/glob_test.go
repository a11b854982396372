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

// TestCoarseGlobKeepsEveryMatch: for patterns with ** the SQL form keeps
// every name MatchGlob matches.
func TestCoarseGlobKeepsEveryMatch(t *testing.T) {
	names := []string{"a/b", "a/x/b", "a/x/y/b", "b", "x/a/b", "docs/d.md", "docs/x/e.md", "src/b.go", "src/x/c.go"}
	for _, pattern := range []string{"a/**/b", "a/**/**/b", "**/a/b", "docs/**", "src/**/*.go", "**/x/*", "**/*.go"} {
		coarse := CoarseGlob(pattern)
		for _, name := range names {
			if files.MatchGlob(pattern, name) && !sqliteGlob(coarse, name) {
				t.Errorf("%q matches %q, but its SQL form %q does not", pattern, name, coarse)
			}
		}
	}
	if got := CoarseGlob("**/*.go"); got != "**.go" {
		t.Errorf(`"**/*.go" is narrowed by %q, want the base-name form "**.go"`, got)
	}
}

// sqliteGlob is SQLite's GLOB for patterns of literals and *: every *
// matches any text, "/" included.
func sqliteGlob(pattern, name string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		return pattern == name
	}
	if !strings.HasPrefix(name, pattern[:star]) {
		return false
	}
	for i := star; i <= len(name); i++ {
		if sqliteGlob(pattern[star+1:], name[i:]) {
			return true
		}
	}
	return false
}
