package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
)

func TestCleanup(t *testing.T) {
	c := newCLI(t)
	for _, id := range []string{"old-1", "old-2", "fresh"} {
		c.run(`write_file("f.txt", "x")`, "run", "--conversation", id)
	}
	past := time.Now().Add(-10 * 24 * time.Hour)
	for _, id := range []string{"old-1", "old-2"} {
		dir := filepath.Join(c.dataDir, "files", id)
		os.Chtimes(filepath.Join(dir, "f.txt"), past, past)
		os.Chtimes(dir, past, past)
	}
	_, out, _ := c.run("", "cleanup", "--older-than", "7d", "--dry-run")
	if !strings.Contains(out, "would delete 2 conversations") {
		t.Fatalf("dry run: %s", out)
	}
	if _, err := os.Stat(filepath.Join(c.dataDir, "files", "old-1")); err != nil {
		t.Fatal("dry run deleted something")
	}
	_, out, _ = c.run("", "cleanup", "--older-than", "7d")
	if !strings.Contains(out, "deleted old-1") || !strings.Contains(out, "deleted old-2") || strings.Contains(out, "fresh") {
		t.Fatalf("cleanup: %s", out)
	}
	_, out, _ = c.run("", "cleanup", "--conversation", "fresh")
	if !strings.Contains(out, "deleted 1 conversations") {
		t.Fatalf("cleanup --conversation: %s", out)
	}
	entries, _ := os.ReadDir(filepath.Join(c.dataDir, "files"))
	for _, en := range entries {
		// The Store's lock files and its clean mark stay.
		if en.IsDir() || !strings.HasSuffix(en.Name(), ".lock") && en.Name() != engine.CleanMarkName {
			t.Fatalf("left %v", en.Name())
		}
	}
	for _, bad := range [][]string{{"cleanup"}, {"cleanup", "--older-than", "soon"}, {"cleanup", "--conversation", "a", "--older-than", "1h"}} {
		if code, _, _ := c.run("", bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// TestCleanupRefusesAgesThatOverflow: an age past a century (200000d
// overflowed to a negative duration and matched every conversation), a
// negative or zero age, are usage errors, and nothing is deleted.
func TestCleanupRefusesAgesThatOverflow(t *testing.T) {
	c := newCLI(t)
	c.run(`write_file("keep.txt", "x")`, "run", "--conversation", "kept")
	for _, age := range []string{"200000d", "9223372036854775807d", "-1d", "0d", "0s", "-5h", "3000000h", "1e9d"} {
		code, _, errs := c.run("", "cleanup", "--older-than", age)
		if code != 2 || !strings.Contains(errs, "from 1s to 36500d") {
			t.Errorf("--older-than %s: exit %d: %s", age, code, errs)
		}
	}
	if _, out, _ := c.run("", "ls"); !strings.Contains(out, "kept") {
		t.Fatalf("a refused cleanup deleted: %s", out)
	}
	if code, _, _ := c.run("", "cleanup", "--older-than", "36500d", "--dry-run"); code != 0 {
		t.Fatalf("a century: exit %d", code)
	}
}

// TestVersionsAndRestoreCLI: rm and overwrites keep versions the CLI lists,
// prints and restores.
func TestVersionsAndRestoreCLI(t *testing.T) {
	c := newCLI(t)
	c.run(`write_file("a.txt", "one")`, "run", "--conversation", "v", "-")
	c.run(`write_file("a.txt", "two")`, "run", "--conversation", "v", "-")
	if _, out, _ := c.run("", "versions", "--conversation", "v", "a.txt"); !strings.Contains(out, "1 kept") || !strings.Contains(out, "overwrite") {
		t.Fatalf("versions: %s", out)
	}
	if _, out, _ := c.run("", "cat", "--conversation", "v", "--version", "1", "a.txt"); out != "one" {
		t.Fatalf("cat --version 1: %q", out)
	}
	if code, out, errs := c.run("", "restore", "--conversation", "v", "a.txt", "1"); code != 0 || !strings.Contains(out, "restored a.txt to version 1") {
		t.Fatalf("restore: %d %s %s", code, out, errs)
	}
	if _, out, _ := c.run("", "cat", "--conversation", "v", "a.txt"); out != "one" {
		t.Fatalf("after restore: %q", out)
	}
	if code, _, _ := c.run("", "restore", "--conversation", "v", "a.txt", "nine"); code != 2 {
		t.Fatalf("a bad version number: exit %d", code)
	}
	if code, _, errs := c.run("", "restore", "--conversation", "v", "a.txt", "99"); code != 1 || !strings.Contains(errs, "no such version") {
		t.Fatalf("a missing version: exit %d %s", code, errs)
	}
}
