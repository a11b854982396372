package s3blobs_test

import (
	"context"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/pgserver"
)

// TestGarbageCollection: an object uploaded by a write that crashed
// before its commit is named by no row; the collector leaves it while it
// is younger than the grace period and removes it after, and never
// touches an object a live file or a kept version names.
func TestGarbageCollection(t *testing.T) {
	ctx := context.Background()
	blobs, url := openBucket(t, "gc"), pgserver.Database(t)
	store := openReplica(t, blobs, url, engine.Options{})
	sp, _ := store.Space("c1")
	defer sp.Close()
	for _, body := range []string{"one", "two", "three"} {
		if _, err := sp.WriteBytes(ctx, "kept.txt", []byte(body), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	sp.WriteBytes(ctx, "gone.txt", []byte("deleted, kept as a version"), files.WriteOptions{})
	gone, _ := sp.Record(ctx, "gone.txt")
	if err := sp.Remove(ctx, "gone.txt"); err != nil {
		t.Fatal(err)
	}
	// The crash: an object put under the objects folder, no row after it.
	w, _ := blobs.Create(ctx, driver.BlobKey{})
	w.Write([]byte("orphan"))
	w.Seal(ctx)
	orphan := driver.BlobKey{Conversation: "c1", Path: files.ReservedPrefix + "objects/crashed-write"}
	if err := w.Put(ctx, orphan, true); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := countObjects(t, blobs, "c1"); n != 5 {
		t.Fatalf("%d objects before collecting, want 5 (3 contents of kept.txt, gone.txt, the orphan)", n)
	}

	rep, err := store.CollectGarbage(ctx, time.Hour)
	if err != nil || rep.Removed != 0 || rep.Young != 1 || rep.Referenced != 4 {
		t.Fatalf("with an hour's grace: %+v, %v; want the young orphan left alone", rep, err)
	}
	rep, err = store.CollectGarbage(ctx, 0)
	if err != nil || rep.Removed != 1 || rep.RemovedBytes != 6 || rep.Referenced != 4 {
		t.Fatalf("without grace: %+v, %v; want only the orphan removed", rep, err)
	}
	if _, err := blobs.Stat(ctx, orphan); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("the orphan survived: %v", err)
	}
	if got := enginetest.Read(t, sp, "kept.txt"); got != "three" {
		t.Fatalf("kept.txt reads %q", got)
	}
	if _, err := sp.Restore(ctx, gone.ID, 1, files.WriteOptions{}); err != nil {
		t.Fatalf("the deleted file's version after collecting: %v", err)
	}

	// Removing the conversation removes its rows, then every object.
	if err := store.RemoveConversation(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if n := countObjects(t, blobs, "c1"); n != 0 {
		t.Fatalf("%d objects left after removing the conversation", n)
	}
	if _, err := sp.Stat(ctx, "kept.txt"); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("a removed conversation's file: %v", err)
	}
}
