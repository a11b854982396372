// Package filestest is the conformance suite every way of storing a
// conversation's files must pass, in the manner of perkeep's storagetest:
// a Store over disk with the SQLite index (what the binary ships), a Store
// without an index, and a standalone folder (convfiles run --dir) each
// run the same Run, so whatever one promises the others keep too.
//
// It sees a store only through package engine's API: it must never import
// a storage implementation or a door.
package enginetest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
)

// Setup is one fresh conversation of the store under test.
type Setup struct {
	// Open returns a Space of the conversation. Spaces opened by separate
	// calls share whatever one process shares (locks, quota counters);
	// tests close them.
	Open func() *engine.Space
	// Dir is the conversation's folder on the host; "" for a store that
	// keeps no folder (an object store), which sets Stored instead.
	Dir string
	// Stored counts what the store holds for the conversation beyond
	// its rows (an object store's objects, versions included).
	Stored func() int
	// Other, when set, opens the same conversation as a second process
	// would: through another Store over the same folder and index, which
	// shares nothing in memory with the first.
	Other func() *engine.Space
}

// Maker makes a fresh conversation with the given limits.
type Maker func(t *testing.T, l files.Limits) Setup

var ctx = context.Background()

// Run runs the whole suite against mk.
func Run(t *testing.T, mk Maker) {
	t.Run("basics", func(t *testing.T) { runBasics(t, mk) })
	t.Run("edits", func(t *testing.T) { runEdits(t, mk) })
	t.Run("text edits", func(t *testing.T) { runTextEdits(t, mk) })
}

// SpaceOf returns an opener of the conversation conv of s, for a Setup.
func SpaceOf(t *testing.T, s *engine.Store, conv string) func() *engine.Space {
	return func() *engine.Space {
		sp, err := s.Space(conv)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
}

// open opens a Space of s that the test closes.
func open(t *testing.T, f func() *engine.Space) *engine.Space {
	t.Helper()
	sp := f()
	t.Cleanup(func() { sp.Close() })
	return sp
}

// Read returns the content of the file name of sp, failing the test when
// it cannot be read.
func Read(t testing.TB, sp *engine.Space, name string) string {
	t.Helper()
	f, _, err := sp.Open(ctx, name)
	return readAll(t, f, err)
}

// readAll reads what an open (f, err) gives, failing the test on an error.
func readAll(t testing.TB, f io.ReadCloser, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func write(t *testing.T, sp *engine.Space, name, body string) {
	t.Helper()
	if _, err := sp.WriteBytes(ctx, name, []byte(body), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func runBasics(t *testing.T, mk Maker) {
	t.Run("created on first write, not on read", func(t *testing.T) {
		s := mk(t, files.Limits{})
		sp := open(t, s.Open)
		if _, _, err := sp.Open(ctx, "a.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("read before any write: %v", err)
		}
		if s.Dir == "" {
			if n := s.Stored(); n != 0 {
				t.Fatalf("a read stored %d objects", n)
			}
			write(t, sp, "x/y/a.txt", "1")
			if got := Read(t, sp, "x/y/a.txt"); got != "1" || s.Stored() != 1 {
				t.Fatalf("read back %q with %d objects stored", got, s.Stored())
			}
			return
		}
		if _, err := os.Stat(s.Dir); !os.IsNotExist(err) {
			t.Fatal("a read created the folder")
		}
		write(t, sp, "x/y/a.txt", "1")
		if b, _ := os.ReadFile(filepath.Join(s.Dir, "x", "y", "a.txt")); string(b) != "1" {
			t.Fatalf("on disk: %q", b)
		}
	})
	t.Run("overwrite, list, remove", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		write(t, sp, "b.txt", "old")
		if _, err := sp.Write(ctx, "b.txt", strings.NewReader("newer"), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		write(t, sp, "a/c.txt", "c")
		list, err := sp.List(ctx)
		if err != nil || len(list) != 2 || list[0].Name != "a/c.txt" || list[1].Name != "b.txt" || list[1].Size != 5 {
			t.Fatalf("list %+v %v", list, err)
		}
		if err := sp.Remove(ctx, "b.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := sp.Stat(ctx, "b.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("after remove: %v", err)
		}
	})
	t.Run("limits leave the old file", func(t *testing.T) {
		s := mk(t, files.Limits{MaxFileBytes: 10, MaxConversationBytes: 15})
		sp := open(t, s.Open)
		write(t, sp, "k.txt", "keep")
		if _, err := sp.Write(ctx, "k.txt", bytes.NewReader(make([]byte, 11)), files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge {
			t.Fatalf("file limit: %v", err)
		}
		if _, err := sp.WriteBytes(ctx, "other.txt", make([]byte, 10), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := sp.WriteBytes(ctx, "third.txt", make([]byte, 5), files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge {
			t.Fatalf("quota: %v", err)
		}
		if got := Read(t, sp, "k.txt"); got != "keep" {
			t.Fatalf("after refused writes: %q", got)
		}
		if n := stored(t, s); n != 2 {
			t.Fatalf("after refused writes the store holds %d files, want 2", n)
		}
	})
	t.Run("names are validated", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		for _, n := range []string{"../x", "/abs", "a\x00b", ".convfiles-tmp-x", "a//b"} {
			if _, err := sp.WriteBytes(ctx, n, []byte("x"), files.WriteOptions{}); files.KindOf(err) != files.KindInvalid {
				t.Errorf("write %q: %v", n, err)
			}
			if _, _, err := sp.Open(ctx, n); files.KindOf(err) != files.KindInvalid {
				t.Errorf("open %q: %v", n, err)
			}
		}
	})
	t.Run("links are not followed", func(t *testing.T) {
		s := mk(t, files.Limits{})
		if s.Dir == "" {
			return // an object store has no links to plant
		}
		sp := open(t, s.Open)
		write(t, sp, "real.txt", "r")
		outside := filepath.Join(t.TempDir(), "secret")
		os.WriteFile(outside, []byte("secret"), 0o600)
		os.Symlink(outside, filepath.Join(s.Dir, "link"))
		if _, _, err := sp.Open(ctx, "link"); files.KindOf(err) != files.KindForbidden {
			t.Fatalf("open through a link: %v", err)
		}
		if list, _ := sp.List(ctx); len(list) != 1 {
			t.Fatalf("links listed: %+v", list)
		}
	})
	t.Run("a cancelled write is cancelled, not a conflict", func(t *testing.T) {
		s := mk(t, files.Limits{})
		sp := open(t, s.Open)
		write(t, sp, "c.txt", "before")
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		_, err := sp.Write(cancelled, "c.txt", strings.NewReader("after"), files.WriteOptions{})
		if files.KindOf(err) != files.KindCancelled {
			t.Fatalf("a write with a cancelled context: %v (kind %v)", err, files.KindOf(err))
		}
		if got := Read(t, sp, "c.txt"); got != "before" {
			t.Fatalf("after a cancelled write: %q", got)
		}
	})
	t.Run("patterns match the same names with an index or without", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		for _, n := range []string{"a", "]", "b", "x.csv", "d/y.csv", "d/z.txt", "[", "*"} {
			write(t, sp, n, n)
		}
		for pattern, want := range map[string]string{
			`[a\]]`: "] a", `*.csv`: "d/y.csv x.csv", `d/*`: "d/y.csv d/z.txt", `[^a]`: "* [ ] b",
			`\*`: "*", `\[`: "[", `?`: "* [ ] a b", `d/?.*`: "d/y.csv d/z.txt", `[x-z].*`: "d/y.csv d/z.txt x.csv",
		} {
			recs, total, err := sp.Find(ctx, files.ListQuery{Pattern: pattern})
			var got []string
			for _, r := range recs {
				got = append(got, r.Name)
			}
			if err != nil || strings.Join(got, " ") != want || total != len(got) {
				t.Errorf("pattern %s: %q (total %d, %v), want %q", pattern, got, total, err, want)
			}
		}
	})
	t.Run("a final newline survives a round trip", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		write(t, sp, "n.txt", "a\nb\n")
		b, _, err := sp.ReadFile(ctx, "n.txt", 1<<20)
		if err != nil || string(b) != "a\nb\n" {
			t.Fatalf("read %q %v", b, err)
		}
	})
}

// RunShared checks what two processes on one store share: the quota, in
// both directions. mk's setups must set Other.
func RunShared(t *testing.T, mk Maker) {
	t.Run("a second process's writes and deletions count", func(t *testing.T) {
		s := mk(t, files.Limits{MaxConversationBytes: 300})
		first, second := open(t, s.Open), open(t, s.Other)
		write(t, second, "b", strings.Repeat("b", 100))
		write(t, second, "c", strings.Repeat("c", 100)) // the second counts 200
		write(t, first, "a", strings.Repeat("a", 100))  // the first counts 300
		// The second still counts 200, but the index holds 300: refused.
		if _, err := second.WriteBytes(ctx, "e", make([]byte, 100), files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge {
			t.Fatalf("a write past the quota the other process filled: %v", err)
		}
		if err := second.Remove(ctx, "b"); err != nil {
			t.Fatal(err)
		}
		// The first still counts 300, but the index holds 200: it fits.
		if _, err := first.WriteBytes(ctx, "d", make([]byte, 100), files.WriteOptions{}); err != nil {
			t.Fatalf("a write into space the other process freed: %v", err)
		}
	})
}

// stored counts the files a store holds for the conversation: regular
// files in its folder, or what Stored counts.
func stored(t *testing.T, s Setup) int {
	if s.Dir == "" {
		return s.Stored()
	}
	return regularFiles(t, s.Dir)
}

// regularFiles counts the regular files under dir, reserved ones (kept
// versions) left out.
func regularFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), files.ReservedPrefix) {
			return filepath.SkipDir
		}
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}
