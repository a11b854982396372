package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/sqlite"
)

// TestRestartReconcilesIndexWithDisk: changes the index missed (another
// tool, or a crash between disk and index) are healed at start-up, with
// events for them; version bytes without a row are removed and version
// rows without bytes are dropped.
func TestRestartReconcilesIndexWithDisk(t *testing.T) {
	e := newEnv(t, engine.Options{})
	sp := e.space(t, "c1")
	a := write(t, sp, "a.txt", "a1")
	write(t, sp, "a.txt", "a2")
	write(t, sp, "a.txt", "a3") // versions 1 and 2 kept
	b := write(t, sp, "b.txt", "b")
	write(t, sp, "c.txt", "c")
	gone := e.space(t, "gone")
	write(t, gone, "x.txt", "x")
	_, last, _ := e.index.EventRange(ctx0)
	e.close()

	conv := filepath.Join(e.dir, "files", "c1")
	must(t, os.WriteFile(filepath.Join(conv, "b.txt"), []byte("changed"), 0o644))
	must(t, os.Remove(filepath.Join(conv, "c.txt")))
	must(t, os.WriteFile(filepath.Join(conv, "d.txt"), []byte("new"), 0o644))
	versions := filepath.Join(conv, ".convfiles-versions")
	must(t, os.Remove(filepath.Join(versions, a.ID, "1")))
	orphan := filepath.Join(versions, "00000000-0000-4000-8000-000000000000")
	must(t, os.MkdirAll(orphan, 0o700))
	must(t, os.WriteFile(filepath.Join(orphan, "3"), []byte("orphan"), 0o644))
	must(t, os.RemoveAll(filepath.Join(e.dir, "files", "gone")))

	e.open(t)
	sp = e.space(t, "c1")
	if rec, err := sp.Record(context.Background(), "b.txt"); err != nil || rec.ID != b.ID || rec.SHA256 != sum("changed") || rec.Size != 7 || rec.Version != 2 {
		t.Errorf("changed file: %+v %v", rec, err)
	}
	if _, err := sp.Record(context.Background(), "c.txt"); files.KindOf(err) != files.KindNotFound {
		t.Errorf("vanished file still indexed: %v", err)
	}
	if rec, err := sp.Record(context.Background(), "d.txt"); err != nil || len(rec.ID) != 36 || rec.SHA256 != sum("new") {
		t.Errorf("appeared file: %+v %v", rec, err)
	}
	if vs, _ := sp.Versions(context.Background(), a.ID); len(vs) != 1 || vs[0].Version != 2 {
		t.Errorf("versions of a.txt: %+v", vs)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("orphan version bytes survived: %v", err)
	}
	if recs, total, _ := sp.Find(context.Background(), files.ListQuery{}); total != 3 || recs[0].Name != "a.txt" || recs[2].Name != "d.txt" {
		t.Errorf("listing after restart: %+v", recs)
	}
	convs, _ := e.store.Conversations(context.Background())
	if len(convs) != 1 || convs[0].ID != "c1" || convs[0].Files != 3 || convs[0].Bytes != 2+7+3 || convs[0].VersionBytes != 2 {
		t.Errorf("conversations: %+v", convs)
	}
	evs, _ := e.index.Events(ctx0, "", last, 100)
	got := map[string]files.EventType{}
	for _, ev := range evs {
		got[ev.Conversation+"/"+ev.Name] = ev.Type
	}
	want := map[string]files.EventType{"c1/b.txt": files.FileModified, "c1/c.txt": files.FileDeleted,
		"c1/d.txt": files.FileCreated, "gone/x.txt": files.FileDeleted}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("event for %s: %q, want %q (all: %+v)", k, got[k], v, evs)
		}
	}
	// A second restart finds nothing to do.
	_, last, _ = e.index.EventRange(ctx0)
	e.restart(t)
	if evs, _ := e.index.Events(ctx0, "", last, 10); len(evs) != 0 {
		t.Errorf("a clean restart changed things: %+v", evs)
	}
}

// TestRemoveConversationDropsRowsAndVersions: deleting a conversation
// leaves no file, no version and no row behind, and says so in one event.
func TestRemoveConversationDropsRowsAndVersions(t *testing.T) {
	e := newEnv(t, engine.Options{})
	sp := e.space(t, "c1")
	id := write(t, sp, "a.txt", "1").ID
	write(t, sp, "a.txt", "2")
	must(t, sp.Remove(context.Background(), "a.txt"))
	write(t, e.space(t, "keep"), "k.txt", "k")
	must(t, e.store.RemoveConversation(context.Background(), "c1"))
	if _, err := e.store.FileByID(context.Background(), id); files.KindOf(err) != files.KindNotFound {
		t.Errorf("row survived: %v", err)
	}
	if convs, _ := e.store.Conversations(context.Background()); len(convs) != 1 || convs[0].ID != "keep" {
		t.Errorf("conversations: %+v", convs)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "files", "c1")); !os.IsNotExist(err) {
		t.Errorf("folder survived: %v", err)
	}
	_, last, _ := e.index.EventRange(ctx0)
	evs, _ := e.index.Events(ctx0, "c1", last-1, 10)
	if len(evs) != 1 || evs[0].Type != files.ConversationDeleted {
		t.Errorf("events: %+v", evs)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestOnlyALoneStoreReconciles: a Store opened while another is open (the
// CLI while the server runs) must not reconcile, since the other one's
// writes in flight look like changes behind the index's back: it would
// index them twice and delete the bytes of versions just kept. The next
// Store to open alone does reconcile.
func TestOnlyALoneStoreReconciles(t *testing.T) {
	e := newEnv(t, engine.Options{})
	write(t, e.space(t, "c1"), "a.txt", "a")
	conv := filepath.Join(e.dir, "files", "c1")
	must(t, os.WriteFile(filepath.Join(conv, "external.txt"), []byte("x"), 0o644))
	inFlight := filepath.Join(conv, ".convfiles-versions", "00000000-0000-4000-8000-000000000001")
	must(t, os.MkdirAll(inFlight, 0o700))
	must(t, os.WriteFile(filepath.Join(inFlight, "1"), []byte("kept a moment ago"), 0o644))

	ix, err := sqlite.Open(filepath.Join(e.dir, "index.db"))
	must(t, err)
	second, err := engine.OpenStore(filepath.Join(e.dir, "files"), engine.Options{Index: ix})
	must(t, err)
	sp, _ := second.Space("c1")
	if _, err := sp.Record(context.Background(), "external.txt"); files.KindOf(err) != files.KindNotFound {
		t.Errorf("a second Store reconciled: %v", err)
	}
	if _, err := os.Stat(filepath.Join(inFlight, "1")); err != nil {
		t.Errorf("a second Store removed version bytes: %v", err)
	}
	sp.Close()
	second.Close()
	ix.Close()

	e.restart(t) // alone now
	if _, err := e.space(t, "c1").Record(context.Background(), "external.txt"); err != nil {
		t.Errorf("the Store that opened alone did not reconcile: %v", err)
	}
	if _, err := os.Stat(inFlight); !os.IsNotExist(err) {
		t.Errorf("orphan version bytes survived a lone start: %v", err)
	}
}

// TestRestartTakesInNoLinksItDidNotMake: files someone placed beside a
// conversation's own, a hard link to another conversation's file and a
// symbolic link to another conversation's folder (or inside its own), are
// not taken into the index at start-up, so no credential of this
// conversation reads them; a copy convfiles made (a hard link it knows)
// stays.
func TestRestartTakesInNoLinksItDidNotMake(t *testing.T) {
	e := newEnv(t, engine.Options{})
	mine, theirs := e.space(t, "mine"), e.space(t, "theirs")
	write(t, mine, "own.txt", "mine")
	if _, err := mine.Copy(ctx0, "own.txt", "copy.txt", files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, theirs, "secret.txt", "theirs only")
	must(t, os.MkdirAll(filepath.Join(e.dir, "files", "mine", "real"), 0o700))
	must(t, os.WriteFile(filepath.Join(e.dir, "files", "mine", "real", "inner.txt"), []byte("inner"), 0o600))
	e.close()

	conv := filepath.Join(e.dir, "files", "mine")
	must(t, os.Link(filepath.Join(e.dir, "files", "theirs", "secret.txt"), filepath.Join(conv, "linked.txt")))
	must(t, os.Symlink(filepath.Join(e.dir, "files", "theirs"), filepath.Join(conv, "theirs-folder")))
	must(t, os.Symlink("real", filepath.Join(conv, "mirror")))

	e.open(t)
	mine = e.space(t, "mine")
	recs, _, err := mine.Find(context.Background(), files.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	if len(names) != 3 || names[0] != "copy.txt" || names[1] != "own.txt" || names[2] != "real/inner.txt" {
		t.Fatalf("after restart the conversation lists %v, want its own copy.txt, own.txt and real/inner.txt", names)
	}
	for _, name := range []string{"linked.txt", "theirs-folder/secret.txt", "mirror/inner.txt"} {
		if b, _, err := mine.Open(context.Background(), name); err == nil {
			b.Close()
			t.Errorf("%s opened", name)
		}
	}
	for _, name := range []string{"copy.txt", "own.txt", "real/inner.txt"} {
		b, _, err := mine.Open(context.Background(), name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b.Close()
	}
}
