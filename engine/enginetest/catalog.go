package enginetest

import (
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
)

// RunCatalog checks what an indexed store adds: renames keep a file's
// ID, copies are independent, and what an overwrite or a delete replaces
// is kept as a version that reads back and restores. Stores with an
// index run it.
func RunCatalog(t *testing.T, mk Maker) {
	t.Run("a conversation holds at most its count of files", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{MaxConversationFiles: 3}).Open)
		for _, name := range []string{"a", "b", "c"} {
			write(t, sp, name, "") // empty files escape every byte quota
		}
		if _, err := sp.WriteBytes(ctx, "d", nil, files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge || !strings.Contains(err.Error(), "at most 3 files") {
			t.Fatalf("a fourth file: %v", err)
		}
		if _, err := sp.Copy(ctx, "a", "e", files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge {
			t.Fatalf("a fourth file by copy: %v", err)
		}
		write(t, sp, "a", "an overwrite adds no file")
		if _, err := sp.Rename(ctx, "b", "f"); err != nil {
			t.Fatalf("a rename adds no file: %v", err)
		}
		if err := sp.Remove(ctx, "c"); err != nil {
			t.Fatal(err)
		}
		write(t, sp, "d", "room again")
		if list, err := sp.List(ctx); err != nil || len(list) != 3 {
			t.Fatalf("the conversation holds %d files (%v), want 3", len(list), err)
		}
	})
	t.Run("a rename keeps the ID and keeps the file it replaces as a version", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		write(t, sp, "a.txt", "from a")
		write(t, sp, "b.txt", "was b")
		before, _ := sp.Record(ctx, "a.txt")
		displaced, _ := sp.Record(ctx, "b.txt")
		info, err := sp.Rename(ctx, "a.txt", "b.txt")
		if err != nil || info.ID != before.ID || info.Replaced != 5 {
			t.Fatalf("rename = %+v, %v; want a.txt's ID %s and 5 replaced bytes", info, err, before.ID)
		}
		if got := Read(t, sp, "b.txt"); got != "from a" {
			t.Fatalf("b.txt reads %q", got)
		}
		if _, err := sp.Stat(ctx, "a.txt"); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("a.txt after the rename: %v", err)
		}
		if got := readVersion(t, sp, displaced.ID, 1); got != "was b" {
			t.Fatalf("the displaced file's version reads %q", got)
		}
		if _, err := sp.RenameNew(ctx, "b.txt", "b.txt"); err != nil {
			t.Fatalf("a rename onto itself: %v", err)
		}
		write(t, sp, "c.txt", "c")
		if _, err := sp.RenameNew(ctx, "c.txt", "b.txt"); files.KindOf(err) != files.KindConflict {
			t.Fatalf("RenameNew onto a taken name: %v", err)
		}
		if _, err := sp.Rename(ctx, "c.txt", "b.txt/inner"); files.KindOf(err) != files.KindConflict {
			t.Fatalf("a rename below a file: %v", err)
		}
	})
	t.Run("a copy is independent and says where it came from", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		write(t, sp, "src.txt", "original")
		src, _ := sp.Record(ctx, "src.txt")
		if _, err := sp.Copy(ctx, "src.txt", "dir/copy.txt", files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		write(t, sp, "src.txt", "changed")
		cp, err := sp.Record(ctx, "dir/copy.txt")
		if err != nil || cp.DerivedFrom != src.ID || cp.SHA256 != src.SHA256 || cp.ID == src.ID {
			t.Fatalf("copy record %+v (%v); want derived from %s with its SHA-256", cp, err, src.ID)
		}
		if got := Read(t, sp, "dir/copy.txt"); got != "original" {
			t.Fatalf("the copy reads %q after its source changed", got)
		}
		if entries, err := sp.ReadDir(ctx, "dir"); err != nil || len(entries) != 1 || entries[0].Name != "copy.txt" {
			t.Fatalf("ReadDir(dir) = %+v, %v", entries, err)
		}
	})
	t.Run("a deleted file's last content restores under its ID", func(t *testing.T) {
		sp := open(t, mk(t, files.Limits{}).Open)
		write(t, sp, "d.txt", "one")
		write(t, sp, "d.txt", "two")
		rec, _ := sp.Record(ctx, "d.txt")
		if err := sp.Remove(ctx, "d.txt"); err != nil {
			t.Fatal(err)
		}
		vs, err := sp.Versions(ctx, rec.ID)
		if err != nil || len(vs) != 2 || vs[0].Version != 2 || vs[1].Version != 1 {
			t.Fatalf("versions after delete: %+v, %v", vs, err)
		}
		if got := readVersion(t, sp, rec.ID, 1); got != "one" {
			t.Fatalf("version 1 reads %q", got)
		}
		info, err := sp.Restore(ctx, rec.ID, 2, files.WriteOptions{})
		if err != nil || info.ID != rec.ID {
			t.Fatalf("restore = %+v, %v", info, err)
		}
		if got := Read(t, sp, "d.txt"); got != "two" {
			t.Fatalf("restored d.txt reads %q", got)
		}
		if after, _ := sp.Record(ctx, "d.txt"); after.Version != 3 || after.Deleted != nil {
			t.Fatalf("restored record %+v: want version 3, live", after)
		}
	})
}

func readVersion(t *testing.T, sp *engine.Space, id string, n int) string {
	t.Helper()
	f, _, err := sp.OpenVersion(ctx, id, n)
	return readAll(t, f, err)
}
