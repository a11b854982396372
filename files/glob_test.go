package files

import (
	"strings"
	"testing"
)

// TestMatchGlob: base-name patterns at any depth, whole-name patterns,
// and ** as any number of folders, as agents write globs.
func TestMatchGlob(t *testing.T) {
	names := []string{"a.py", "src/b.py", "src/x/c.py", "docs", "docs/d.md", "docs/x/e.md", "src/x/y/test_f.py", "srcx/g.py"}
	for pattern, want := range map[string]string{
		"*.py":           "a.py src/b.py src/x/c.py src/x/y/test_f.py srcx/g.py",
		"**/*.py":        "a.py src/b.py src/x/c.py src/x/y/test_f.py srcx/g.py",
		"**/**/*.py":     "a.py src/b.py src/x/c.py src/x/y/test_f.py srcx/g.py",
		"src/*.py":       "src/b.py",
		"src/**/*.py":    "src/b.py src/x/c.py src/x/y/test_f.py",
		"src/**":         "src/b.py src/x/c.py src/x/y/test_f.py",
		"docs/**":        "docs/d.md docs/x/e.md",
		"**/x/*":         "src/x/c.py docs/x/e.md",
		"src/**/y/*.py":  "src/x/y/test_f.py",
		"**/test_*.py":   "src/x/y/test_f.py",
		"src/**/**/c.py": "src/x/c.py",
		"**":             "a.py src/b.py src/x/c.py docs docs/d.md docs/x/e.md src/x/y/test_f.py srcx/g.py",
		"a**.py":         "a.py",
		"":               "a.py src/b.py src/x/c.py docs docs/d.md docs/x/e.md src/x/y/test_f.py srcx/g.py",
	} {
		var got []string
		for _, n := range names {
			if MatchGlob(pattern, n) {
				got = append(got, n)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q matches %q, want %q", pattern, strings.Join(got, " "), want)
		}
	}
}

// TestGlobstarIsNotExponential: a pattern of many ** against a deep name
// that it does not match answers at once (the match backtracks only to
// the last **).
func TestGlobstarIsNotExponential(t *testing.T) {
	pattern := strings.Repeat("**/a/", 30) + "b"
	name := strings.Repeat("a/", 200) + "c"
	if MatchGlob(pattern, name) {
		t.Fatal("matched a name whose last part is not b")
	}
	if !MatchGlob(pattern, strings.Repeat("a/", 40)+"b") {
		t.Fatal("did not match 40 a's then b")
	}
}
