package needs

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recorder is a test whose Skipf and Fatalf are recorded, not obeyed.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Skipf(format string, a ...any)  { r.skipped = fmt.Sprintf(format, a...) }
func (r *recorder) Fatalf(format string, a ...any) { r.failed = fmt.Sprintf(format, a...) }

// TestMissingSkipsUnlessRequired: without CONVFILES_REQUIRE a missing
// thing is a skip naming what to install; listed, or with "all", it is
// a failure saying the same.
func TestMissingSkipsUnlessRequired(t *testing.T) {
	quiet(t)
	for _, c := range []struct {
		require string
		fail    bool
	}{
		{"", false},
		{"s3,chromium", false},
		{"chromium, postgres", true},
		{"all", true},
	} {
		t.Setenv(RequireVariable, c.require)
		r := &recorder{TB: t}
		Missing(r, PostgreSQL, errors.New("no initdb on PATH"))
		got := r.skipped
		if c.fail {
			got = r.failed
		}
		if (r.failed != "") != c.fail || !strings.Contains(got, "apt-get install postgresql") || !strings.Contains(got, "no initdb on PATH") {
			t.Errorf("CONVFILES_REQUIRE=%q: skipped %q, failed %q", c.require, r.skipped, r.failed)
		}
	}
}

// TestProgramFindsWhatIsOnPath: the first name found is returned; none
// found is a skip naming every name tried.
func TestProgramFindsWhatIsOnPath(t *testing.T) {
	quiet(t)
	t.Setenv(RequireVariable, "")
	r := &recorder{TB: t}
	if p := Program(r, Patch, "no-such-program-here", "go"); p == "" || r.skipped != "" {
		t.Fatalf("go is on PATH while the tests run: %q, skipped %q", p, r.skipped)
	}
	Program(r, Patch, "no-such-program-here", "nor-this-one")
	if !strings.Contains(r.skipped, "no no-such-program-here or nor-this-one on PATH") {
		t.Fatalf("skipped %q", r.skipped)
	}
}

// TestEveryThingSaysHowToInstallIt: a skip that names no command leaves
// a newcomer guessing.
func TestEveryThingSaysHowToInstallIt(t *testing.T) {
	seen := map[string]bool{}
	for _, thing := range All {
		if thing.Name == "" || thing.What == "" || thing.Install == "" || seen[thing.Name] || thing.Name == "all" {
			t.Errorf("%+v", thing)
		}
		seen[thing.Name] = true
	}
}

// quiet keeps these tests' own skips off the terminal.
func quiet(t *testing.T) {
	old := terminal
	terminal = ""
	t.Cleanup(func() { terminal = old })
}
