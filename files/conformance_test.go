package files

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spaceMaker makes a fresh Space with the given limits and returns it with
// the host folder it lives in.
type spaceMaker func(t *testing.T, l Limits) (*Space, string)

// TestSpaceConformance runs one suite against both kinds of Space: a
// conversation of a Store and a standalone folder (convfiles run --dir).
// Whatever one promises, the other must keep too.
func TestSpaceConformance(t *testing.T) {
	makers := map[string]spaceMaker{
		"store": func(t *testing.T, l Limits) (*Space, string) {
			s, _ := newStore(t, l)
			return space(t, s, "conf"), filepath.Join(s.Dir(), "conf")
		},
		"standalone": func(t *testing.T, l Limits) (*Space, string) {
			dir := filepath.Join(t.TempDir(), "out")
			sp, err := OpenDir(dir, Options{Limits: l})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { sp.Close() })
			return sp, dir
		},
	}
	for name, mk := range makers {
		t.Run(name, func(t *testing.T) { runConformance(t, mk) })
	}
}

func runConformance(t *testing.T, mk spaceMaker) {
	ctx := context.Background()
	t.Run("created on first write, not on read", func(t *testing.T) {
		sp, dir := mk(t, Limits{})
		if _, _, err := sp.Open("a.txt"); KindOf(err) != KindNotFound {
			t.Fatalf("read before any write: %v", err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatal("a read created the folder")
		}
		if _, err := sp.WriteBytes(ctx, "x/y/a.txt", []byte("1"), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "x", "y", "a.txt")); string(b) != "1" {
			t.Fatalf("on disk: %q", b)
		}
	})
	t.Run("overwrite, list, remove", func(t *testing.T) {
		sp, _ := mk(t, Limits{})
		sp.WriteBytes(ctx, "b.txt", []byte("old"), WriteOptions{})
		sp.Write(ctx, "b.txt", strings.NewReader("newer"), WriteOptions{})
		sp.WriteBytes(ctx, "a/c.txt", []byte("c"), WriteOptions{})
		list, err := sp.List()
		if err != nil || len(list) != 2 || list[0].Name != "a/c.txt" || list[1].Name != "b.txt" || list[1].Size != 5 {
			t.Fatalf("list %+v %v", list, err)
		}
		if err := sp.Remove("b.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := sp.Stat("b.txt"); KindOf(err) != KindNotFound {
			t.Fatalf("after remove: %v", err)
		}
	})
	t.Run("limits leave the old file", func(t *testing.T) {
		sp, dir := mk(t, Limits{MaxFileBytes: 10, MaxConversationBytes: 15})
		sp.WriteBytes(ctx, "k.txt", []byte("keep"), WriteOptions{})
		if _, err := sp.Write(ctx, "k.txt", bytes.NewReader(make([]byte, 11)), WriteOptions{}); KindOf(err) != KindTooLarge {
			t.Fatalf("file limit: %v", err)
		}
		if _, err := sp.WriteBytes(ctx, "other.txt", make([]byte, 10), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := sp.WriteBytes(ctx, "third.txt", make([]byte, 5), WriteOptions{}); KindOf(err) != KindTooLarge {
			t.Fatalf("quota: %v", err)
		}
		f, _, _ := sp.Open("k.txt")
		b, _ := io.ReadAll(f)
		f.Close()
		entries, _ := os.ReadDir(dir)
		if string(b) != "keep" || len(entries) != 2 {
			t.Fatalf("after refused writes: %q, %d entries", b, len(entries))
		}
	})
	t.Run("names are validated", func(t *testing.T) {
		sp, _ := mk(t, Limits{})
		for _, n := range []string{"../x", "/abs", "a\x00b", ".convfiles-tmp-x", "a//b"} {
			if _, err := sp.WriteBytes(ctx, n, []byte("x"), WriteOptions{}); KindOf(err) != KindInvalid {
				t.Errorf("write %q: %v", n, err)
			}
			if _, _, err := sp.Open(n); KindOf(err) != KindInvalid {
				t.Errorf("open %q: %v", n, err)
			}
		}
	})
	t.Run("links are not followed", func(t *testing.T) {
		sp, dir := mk(t, Limits{})
		sp.WriteBytes(ctx, "real.txt", []byte("r"), WriteOptions{})
		outside := filepath.Join(t.TempDir(), "secret")
		os.WriteFile(outside, []byte("secret"), 0o600)
		os.Symlink(outside, filepath.Join(dir, "link"))
		if _, _, err := sp.Open("link"); KindOf(err) != KindForbidden {
			t.Fatalf("open through a link: %v", err)
		}
		if list, _ := sp.List(); len(list) != 1 {
			t.Fatalf("links listed: %+v", list)
		}
	})
}
