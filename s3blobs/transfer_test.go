package s3blobs_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
	"convfiles/internal/pgserver"
	"convfiles/sqlite"
)

// openDiskStore opens the embedded store (a folder and a SQLite file)
// in dir, closed when the test ends.
func openDiskStore(t *testing.T, dir string) *engine.Store {
	t.Helper()
	ix, err := sqlite.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.OpenStore(filepath.Join(dir, "files"), engine.Options{Index: ix, Sniff: content.SniffMIME})
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); ix.Close() })
	return s
}

// fillHistory gives conversation c1 of s files with a history: versions,
// a rename, a deleted file whose versions are kept, a binary file in a
// folder bigger than one S3 part.
func fillHistory(t *testing.T, s *engine.Store) {
	ctx := context.Background()
	sp, err := s.Space("c1")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	for _, body := range []string{"one", "two", "three"} {
		if _, err := sp.WriteBytes(ctx, "notes.txt", []byte(body), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sp.Rename(ctx, "notes.txt", "kept/notes.txt"); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 6<<20+123)
	rand.Read(big)
	if _, err := sp.WriteBytes(ctx, "data/big.bin", big, files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sp.WriteBytes(ctx, "gone.txt", []byte("deleted, kept as a version"), files.WriteOptions{})
	if err := sp.Remove(ctx, "gone.txt"); err != nil {
		t.Fatal(err)
	}
}

// TestTransferRoundTrip moves a conversation from the embedded store into
// PostgreSQL and S3 and back into another embedded store: IDs, versions,
// times and bytes arrive unchanged, a second run skips everything, and
// the conversation's quota is counted the same.
func TestTransferRoundTrip(t *testing.T) {
	ctx := context.Background()
	disk := openDiskStore(t, t.TempDir())
	fillHistory(t, disk)
	want := enginetest.StateOf(t, disk, "c1")
	if len(want.Rows) != 3 || len(want.Versions[want.Rows[0].ID])+len(want.Versions[want.Rows[1].ID])+len(want.Versions[want.Rows[2].ID]) != 3 {
		t.Fatalf("the history is not what the test means: %+v", want)
	}

	blobs, url := openBucket(t, "transfer"), pgserver.Database(t)
	shared := openReplica(t, blobs, url, engine.Options{})
	var progressed int64
	rep, err := engine.Transfer(ctx, disk, shared, "c1", func(n int64) { progressed += n })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 3 || rep.Versions != 3 || rep.Skipped != 0 || progressed != rep.Bytes {
		t.Fatalf("report %+v, %d bytes of progress; want 3 files, 3 versions, progress = bytes", rep, progressed)
	}
	if got := enginetest.StateOf(t, shared, "c1"); !reflect.DeepEqual(got, want) {
		t.Fatalf("in PostgreSQL and S3 the conversation is\n%+v\nwant\n%+v", got, want)
	}
	du, _ := disk.Index().Usage(ctx, "c1")
	if su, _ := shared.Index().Usage(ctx, "c1"); su != du {
		t.Fatalf("usage %+v after the transfer, %+v before", su, du)
	}

	again, err := engine.Transfer(ctx, disk, shared, "c1", nil)
	if err != nil || again.Files != 0 || again.Skipped != 3 || again.Bytes != 0 {
		t.Fatalf("a second run: %+v, %v; want every file skipped", again, err)
	}

	back := openDiskStore(t, t.TempDir())
	if _, err := engine.Transfer(ctx, shared, back, "c1", nil); err != nil {
		t.Fatal(err)
	}
	if got := enginetest.StateOf(t, back, "c1"); !reflect.DeepEqual(got, want) {
		t.Fatalf("back on disk the conversation is\n%+v\nwant\n%+v", got, want)
	}
	if n := countObjects(t, blobs, "c1"); n != 5 {
		t.Fatalf("%d objects in the bucket, want 5 (two live contents, three versions)", n)
	}
}

// TestTransferResumesAfterAnInterruption: a transfer stopped in the
// middle of a file leaves no row for it, and the next run completes it.
func TestTransferResumesAfterAnInterruption(t *testing.T) {
	disk := openDiskStore(t, t.TempDir())
	fillHistory(t, disk)
	blobs, url := openBucket(t, "resume"), pgserver.Database(t)
	shared := openReplica(t, blobs, url, engine.Options{})

	ctx, cancel := context.WithCancel(context.Background())
	var copied int64
	_, err := engine.Transfer(ctx, disk, shared, "c1", func(n int64) {
		if copied += n; copied > 1<<20 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("a transfer cancelled in the middle of a 6 MiB file succeeded")
	}
	rep, err := engine.Transfer(context.Background(), disk, shared, "c1", nil)
	if err != nil || rep.Files+rep.Skipped != 3 || rep.Files == 0 {
		t.Fatalf("the resumed run: %+v, %v; want the rest of the 3 files copied", rep, err)
	}
	if got, want := enginetest.StateOf(t, shared, "c1"), enginetest.StateOf(t, disk, "c1"); !reflect.DeepEqual(got, want) {
		t.Fatalf("after resuming the conversation is\n%+v\nwant\n%+v", got, want)
	}
	if gc, err := shared.CollectGarbage(context.Background(), 0); err != nil || gc.Referenced != 5 {
		t.Fatalf("after resuming, the collector finds %+v (%v); want the 5 named objects and nothing else kept", gc, err)
	}
}

// TestTransferRefusesDamageAndConflicts: bytes that do not match their
// recorded SHA-256 stop the transfer before any row names them, and a
// destination that holds another file at a name is not overwritten.
func TestTransferRefusesDamageAndConflicts(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	disk := openDiskStore(t, dir)
	sp, _ := disk.Space("c1")
	defer sp.Close()
	sp.WriteBytes(ctx, "a.txt", []byte("first"), files.WriteOptions{})
	sp.WriteBytes(ctx, "a.txt", []byte("second"), files.WriteOptions{})
	rec, _ := sp.Record(ctx, "a.txt")
	versionFile := filepath.Join(dir, "files", "c1", files.ReservedPrefix+"versions", rec.ID, "1")
	if err := os.WriteFile(versionFile, []byte("FIRST"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := openDiskStore(t, t.TempDir())
	_, err := engine.Transfer(ctx, disk, other, "c1", nil)
	var fe *files.Error
	if !errors.As(err, &fe) || fe.Kind != files.KindConflict || !bytes.Contains([]byte(fe.Error()), []byte("damaged")) {
		t.Fatalf("damaged source bytes: %v; want a conflict that says the source is damaged", err)
	}
	if _, err := other.Index().ByID(ctx, rec.ID); files.KindOf(err) != files.KindNotFound {
		t.Fatalf("a row was committed for damaged bytes: %v", err)
	}

	os.WriteFile(versionFile, []byte("first"), 0o644)
	osp, _ := other.Space("c1")
	defer osp.Close()
	osp.WriteBytes(ctx, "a.txt", []byte("someone else's"), files.WriteOptions{})
	if _, err := engine.Transfer(ctx, disk, other, "c1", nil); files.KindOf(err) != files.KindConflict {
		t.Fatalf("a destination with another a.txt: %v, want a conflict", err)
	}
	if got := enginetest.Read(t, osp, "a.txt"); got != "someone else's" {
		t.Fatalf("the destination's a.txt became %q", got)
	}
}
