package engine_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/sqlite"
)

// TestFolderHeldOpenKeepsEveryRuleOfOpen: a folder held open for a
// search reads its own files, and refuses what Space.Open refuses: a
// name outside it, a planted link to a file or a folder, a FIFO, a hard
// link to another conversation's file; a folder swapped for a link after
// it was opened is not followed.
func TestFolderHeldOpenKeepsEveryRuleOfOpen(t *testing.T) {
	ctx := context.Background()
	ix, err := sqlite.Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	top := filepath.Join(t.TempDir(), "files")
	store, err := engine.OpenStore(top, engine.Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	c1, c2 := openSpace(t, store, "c1"), openSpace(t, store, "c2")
	for name, text := range map[string]string{"a/b.txt": "hello folder", "top.txt": "top", "a/sub/c.txt": "deeper"} {
		if _, err := c1.WriteBytes(ctx, name, []byte(text), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c2.WriteBytes(ctx, "secret.txt", []byte("c2's secret"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "b.txt"), []byte("outside secret"), 0o644)
	conv := filepath.Join(top, "c1")
	must(t, os.Link(filepath.Join(top, "c2", "secret.txt"), filepath.Join(conv, "a", "stolen.txt")))
	must(t, os.Symlink(filepath.Join(outside, "b.txt"), filepath.Join(conv, "a", "link.txt")))
	must(t, syscall.Mkfifo(filepath.Join(conv, "a", "fifo"), 0o644))
	must(t, os.Symlink(filepath.Join(conv, "a"), filepath.Join(conv, "linked")))

	folder, err := c1.OpenFolder(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	b, info, err := folder.Open(ctx, "a/b.txt")
	if err != nil || info.Size != int64(len("hello folder")) {
		t.Fatalf("a/b.txt: %+v, %v", info, err)
	}
	got, _ := io.ReadAll(b)
	part := make([]byte, 6)
	n, aterr := b.ReadAt(part, 6)
	end, _ := b.Seek(-3, io.SeekEnd)
	if string(got) != "hello folder" || n != 6 || aterr != nil || string(part) != "folder" || end != 9 {
		t.Errorf("read %q; at 6: %q (%d, %v); seek to 3 before the end: %d", got, part[:n], n, aterr, end)
	}
	if b.Close() != nil || b.Close() == nil {
		t.Error("a second Close did not say the file was closed")
	}
	for name, kind := range map[string]files.Kind{
		"top.txt":       files.KindInvalid,   // not in the folder
		"a/../top.txt":  files.KindInvalid,   // not a name
		"a/stolen.txt":  files.KindNotFound,  // another conversation's bytes
		"a/link.txt":    files.KindForbidden, // a planted link
		"a/fifo":        files.KindForbidden, // not a regular file, and no wait for a writer
		"a/sub":         files.KindConflict,  // a folder
		"a/missing.txt": files.KindNotFound,
	} {
		if b, _, err := folder.Open(ctx, name); files.KindOf(err) != kind {
			if b != nil {
				b.Close()
			}
			t.Errorf("%s: %v, want %s", name, err, kind)
		}
	}
	for dir, kind := range map[string]files.Kind{"linked": files.KindForbidden, "a/b.txt": files.KindForbidden,
		"nope": files.KindNotFound, "../c2": files.KindInvalid} {
		if f, err := c1.OpenFolder(ctx, dir); files.KindOf(err) != kind {
			if f != nil {
				f.Close()
			}
			t.Errorf("folder %s: %v, want %s", dir, err, kind)
		}
	}

	// The folder is swapped for a link to the outside: the one held is read.
	must(t, os.Rename(filepath.Join(conv, "a"), filepath.Join(conv, "a-moved")))
	must(t, os.Symlink(outside, filepath.Join(conv, "a")))
	if b, _, err := folder.Open(ctx, "a/b.txt"); err != nil {
		t.Errorf("the held folder after a swap: %v", err)
	} else {
		got, _ := io.ReadAll(b)
		b.Close()
		if string(got) != "hello folder" {
			t.Fatalf("a held folder followed a link planted after it was opened: %q", got)
		}
	}
	root, err := c1.OpenFolder(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if b, _, err := root.Open(ctx, "top.txt"); err != nil {
		t.Errorf("top.txt from the top folder: %v", err)
	} else {
		b.Close()
	}
}

func openSpace(t *testing.T, s *engine.Store, id string) *engine.Space {
	t.Helper()
	sp, err := s.Space(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return sp
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
