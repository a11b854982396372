package sqlite_test

import (
	"context"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
)

// TestRecordsDescribeEveryWrite: a write is recorded with a UUID, the
// sniffed MIME type, the size, the SHA-256 of its bytes, its source and a
// version that grows; the ID survives an overwrite and a rename.
func TestRecordsDescribeEveryWrite(t *testing.T) {
	e := newEnv(t, engine.Options{})
	sp := e.space(t, "c1")
	ctx := context.Background()
	first, err := sp.WriteBytes(ctx, "notes.txt", []byte("one"), files.WriteOptions{Source: files.SourceUpload, Session: "s-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.ID) != 36 {
		t.Fatalf("write returned ID %q, want a UUID", first.ID)
	}
	rec, err := sp.Record(ctx, "notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID != first.ID || rec.MIME != "text/plain" || rec.Size != 3 || rec.SHA256 != sum("one") ||
		rec.Version != 1 || rec.Source != files.SourceUpload || rec.Session != "s-1" || rec.Conversation != "c1" {
		t.Fatalf("record %+v", rec)
	}
	second := write(t, sp, "notes.txt", "two!")
	if second.ID != first.ID {
		t.Fatalf("an overwrite changed the ID: %s -> %s", first.ID, second.ID)
	}
	renamed, err := sp.Rename(ctx, "notes.txt", "dir/ünïcode.txt")
	if err != nil || renamed.ID != first.ID {
		t.Fatalf("rename: %+v %v", renamed, err)
	}
	rec, err = sp.Record(ctx, first.ID)
	if err != nil || rec.Name != "dir/ünïcode.txt" || rec.Version != 2 || rec.SHA256 != sum("two!") || rec.Source != files.SourceUpload {
		t.Fatalf("after rename: %+v %v", rec, err)
	}
	if name, err := sp.Resolve(ctx, first.ID); err != nil || name != "dir/ünïcode.txt" {
		t.Fatalf("resolve by ID: %q %v", name, err)
	}
	other := e.space(t, "c2")
	// There the ID is only a (valid) name, of a file that does not exist.
	if name, err := other.Resolve(ctx, first.ID); err != nil || name != first.ID {
		t.Fatalf("another conversation resolved the ID to %q (%v)", name, err)
	}
	if _, err := other.Record(ctx, first.ID); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("another conversation sees the file: %v", err)
	}
}

// TestVersionsKeepOverwrittenAndDeletedContent: overwrites and deletes keep
// the previous bytes, restore brings them back (itself undoable), the keep
// count prunes the oldest bytes from disk, and versions count toward the
// conversation's quota.
func TestVersionsKeepOverwrittenAndDeletedContent(t *testing.T) {
	e := newEnv(t, engine.Options{Versions: 2, Limits: files.Limits{MaxConversationBytes: 40}})
	sp := e.space(t, "c1")
	ctx := context.Background()
	id := write(t, sp, "a.txt", "v1").ID
	write(t, sp, "a.txt", "v2")
	write(t, sp, "a.txt", "v3")
	vs, err := sp.Versions(ctx, id)
	if err != nil || len(vs) != 2 || vs[0].Version != 2 || vs[1].Version != 1 || vs[0].SHA256 != sum("v2") || vs[0].Reason != "overwrite" {
		t.Fatalf("versions after 3 writes: %+v %v", vs, err)
	}
	write(t, sp, "a.txt", "v4") // prunes version 1
	vs, _ = sp.Versions(ctx, id)
	if len(vs) != 2 || vs[1].Version != 2 {
		t.Fatalf("keep=2 kept %+v", vs)
	}
	if _, _, err := sp.OpenVersion(ctx, id, 1); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("pruned version still readable: %v", err)
	}
	if _, err := sp.Restore(ctx, id, 2, files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, sp, "a.txt"); got != "v2" {
		t.Fatalf("restored %q", got)
	}
	vs, _ = sp.Versions(ctx, id)
	if vs[0].Version != 4 || vs[0].SHA256 != sum("v4") {
		t.Fatalf("the restore did not keep the replaced content: %+v", vs)
	}
	if err := sp.Remove(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	rec, err := sp.Record(ctx, id)
	if err != nil || rec.Deleted == nil {
		t.Fatalf("deleted file's record: %+v %v", rec, err)
	}
	if _, err := sp.Resolve(ctx, id); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("a deleted file resolves: %v", err)
	}
	if _, err := sp.Restore(ctx, id, 5, files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if rec, _ := sp.Record(ctx, "a.txt"); rec.ID != id || read(t, sp, "a.txt") != "v2" || rec.Version != 6 {
		t.Fatalf("undelete: %+v %q", rec, read(t, sp, "a.txt"))
	}
	// 2 live bytes + versions (2 bytes each, at most 2 kept) are charged.
	big := strings.Repeat("x", 40-2-4+1)
	if _, err := sp.WriteBytes(ctx, "big.bin", []byte(big), files.WriteOptions{}); files.KindOf(err) != files.KindTooLarge {
		t.Fatalf("versions were not counted in the quota: %v", err)
	}
}

// TestListGlobSortAndPage: listings come from the index with the glob
// semantics of list_files, in the order and page asked for.
func TestListGlobSortAndPage(t *testing.T) {
	e := newEnv(t, engine.Options{})
	sp := e.space(t, "c1")
	for _, f := range []struct{ name, body string }{
		{"b.csv", "22"}, {"a.csv", "1"}, {"data/c.csv", "333"}, {"data/x.json", "{}"}, {"acsv", "z"},
	} {
		write(t, sp, f.name, f.body)
	}
	names := func(q files.ListQuery) (string, int) {
		recs, total, err := sp.Find(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.Name)
		}
		return strings.Join(out, ","), total
	}
	cases := []struct {
		q     files.ListQuery
		want  string
		total int
	}{
		{files.ListQuery{}, "a.csv,acsv,b.csv,data/c.csv,data/x.json", 5},
		{files.ListQuery{Pattern: "*.csv"}, "a.csv,b.csv,data/c.csv", 3},
		{files.ListQuery{Pattern: "data/*"}, "data/c.csv,data/x.json", 2},
		{files.ListQuery{Pattern: "a*"}, "a.csv,acsv", 2},
		{files.ListQuery{Pattern: "*.csv", Sort: files.SortSize, Desc: true}, "data/c.csv,b.csv,a.csv", 3},
		{files.ListQuery{Pattern: "*.csv", Limit: 1, Offset: 1}, "b.csv", 3},
		{files.ListQuery{Limit: 2, Offset: 4}, "data/x.json", 5},
		{files.ListQuery{Pattern: `\*`}, "", 0},
	}
	for _, c := range cases {
		if got, total := names(c.q); got != c.want || total != c.total {
			t.Errorf("%+v: got %q (%d), want %q (%d)", c.q, got, total, c.want, c.total)
		}
	}
	if _, _, err := sp.Find(context.Background(), files.ListQuery{Pattern: "[a-"}); files.KindOf(err) != files.KindInvalid {
		t.Errorf("malformed pattern: %v", err)
	}
}

// TestEventHistoryIsBounded: the history keeps about as many events as
// asked, oldest pruned first, and says where it now starts.
func TestEventHistoryIsBounded(t *testing.T) {
	e := newEnv(t, engine.Options{})
	e.index.KeepEvents(10)
	sp := e.space(t, "c1")
	for i := 0; i < 30; i++ {
		write(t, sp, "f.txt", strings.Repeat("x", i))
	}
	first, last, _ := e.index.EventRange(ctx0)
	evs, _ := e.index.Events(ctx0, "", 0, 100)
	if last != 30 || first != 21 || len(evs) != 10 || evs[0].Seq != 21 {
		t.Fatalf("history from %d to %d, %d events", first, last, len(evs))
	}
}
