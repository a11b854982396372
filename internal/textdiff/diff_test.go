package textdiff

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/internal/needs"
)

func TestUnifiedMatchesDiffOnAnEdit(t *testing.T) {
	before := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	after := strings.Replace(before, "five\n", "FIVE\n", 1)
	got, truncated := Unified("notes.txt", before, after, 0)
	want := "--- a/notes.txt\n+++ b/notes.txt\n@@ -2,7 +2,7 @@\n two\n three\n four\n-five\n+FIVE\n six\n seven\n eight\n"
	if got != want || truncated {
		t.Fatalf("diff:\n%s\nwant:\n%s", got, want)
	}
}

func TestUnifiedMarksAMissingLastNewline(t *testing.T) {
	got, _ := Unified("a", "x\ny", "x\nz", 0)
	want := "--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n"
	if got != want {
		t.Fatalf("diff:\n%q\nwant:\n%q", got, want)
	}
}

func TestUnifiedOfEqualTextsIsEmpty(t *testing.T) {
	if d, _ := Unified("a", "same\n", "same\n", 0); d != "" {
		t.Fatalf("diff of equal texts: %q", d)
	}
}

func TestUnifiedIsCutAtAHunk(t *testing.T) {
	var a, b strings.Builder
	for i := range 200 {
		line := strings.Repeat("x", i%7) + "\n"
		a.WriteString(line)
		if i%20 == 0 {
			b.WriteString("changed\n")
		} else {
			b.WriteString(line)
		}
	}
	d, truncated := Unified("big", a.String(), b.String(), 300)
	if !truncated || len(d) > 300 || !strings.HasSuffix(d, "\n") {
		t.Fatalf("truncated=%v len=%d", truncated, len(d))
	}
}

// TestUnifiedAppliesWithPatch checks random edits against GNU patch: the
// diff turns the old text into the new one, and changes no more lines
// than GNU diff does.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	patch := needs.Program(t, needs.Patch, "patch")
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	words := []string{"a\n", "b\n", "c\n", "d\n", "e\n", "f\n"}
	for i := range 200 {
		var before, after []string
		for range rng.IntN(40) {
			before = append(before, words[rng.IntN(len(words))])
		}
		for _, l := range before {
			switch rng.IntN(6) {
			case 0: // dropped
			case 1:
				after = append(after, words[rng.IntN(len(words))], l)
			default:
				after = append(after, l)
			}
		}
		if rng.IntN(4) == 0 {
			after = append(after, "tail")
		}
		a, b := strings.Join(before, ""), strings.Join(after, "")
		d, _ := Unified("f.txt", a, b, 0)
		file := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(file, []byte(a), 0o600); err != nil {
			t.Fatal(err)
		}
		if d == "" {
			if a != b {
				t.Fatalf("case %d: empty diff of different texts", i)
			}
			continue
		}
		cmd := exec.Command(patch, "-s", "-p1", "-d", dir)
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v %s\n%s", i, err, out, d)
		}
		got, _ := os.ReadFile(file)
		if string(got) != b {
			t.Fatalf("case %d: patched %q, want %q\n%s", i, got, b, d)
		}
		if gnu := gnuChanges(t, a, b, dir); gnu >= 0 && changes(d) > gnu {
			t.Fatalf("case %d: %d changed lines, GNU diff %d\n%s", i, changes(d), gnu, d)
		}
	}
}

func changes(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n")[2:] {
		if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
			n++
		}
	}
	return n
}

// gnuChanges is how many lines GNU diff changes, or -1 without it.
func gnuChanges(t *testing.T, a, b, dir string) int {
	diff, err := exec.LookPath("diff")
	if err != nil {
		return -1
	}
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(pa, []byte(a), 0o600)
	os.WriteFile(pb, []byte(b), 0o600)
	out, _ := exec.Command(diff, "-u", pa, pb).Output()
	return changes(string(out))
}

func TestALargeRewriteIsOneHunk(t *testing.T) {
	var a, b strings.Builder
	for i := range 5000 {
		a.WriteString("old line " + strings.Repeat("a", i%13) + "\n")
		b.WriteString("new line " + strings.Repeat("b", i%11) + "\n")
	}
	d, _ := Unified("f", a.String(), b.String(), 0)
	if strings.Count(d, "@@ -") != 1 || strings.Count(d, "\n-") != 5000 || strings.Count(d, "\n+") != 5000+1 {
		t.Fatalf("hunks %d, removed %d, added %d", strings.Count(d, "@@ -"), strings.Count(d, "\n-"), strings.Count(d, "\n+"))
	}
}
