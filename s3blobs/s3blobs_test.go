package s3blobs_test

import (
	"context"
	"io"
	"os"
	"testing"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/files/driver/blobtest"
	"convfiles/internal/pgserver"
	"convfiles/internal/s3server"
	"convfiles/s3blobs"
)

func TestMain(m *testing.M) {
	code := m.Run()
	s3server.StopShared()
	pgserver.StopShared()
	os.Exit(code)
}

// openBucket opens Blobs over a new bucket of the shared test server.
func openBucket(t testing.TB, prefix string) *s3blobs.Blobs {
	t.Helper()
	srv := s3server.Shared(t)
	b, err := s3blobs.Open(context.Background(), s3blobs.Config{Endpoint: srv.Endpoint(), Bucket: s3server.Bucket(t),
		Prefix: prefix, Region: "us-east-1", AccessKey: s3server.AccessKey, SecretKey: s3server.SecretKey,
		SpoolDir: t.TempDir(), PartSize: 5 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConformance runs the blob conformance suite against a real S3
// server (the Versity S3 Gateway), at the top of a bucket and under a
// prefix.
func TestConformance(t *testing.T) {
	for _, prefix := range []string{"", "deploy/convfiles"} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			blobtest.Run(t, func(t *testing.T) driver.Blobs { return openBucket(t, prefix) }, blobtest.Caps{ObjectStore: true})
		})
	}
}

// TestHostileKeysAreRefused: a key that climbs out of its conversation,
// or names no conversation, never reaches the bucket, whatever the call.
func TestHostileKeysAreRefused(t *testing.T) {
	ctx := context.Background()
	b := openBucket(t, "p")
	w, _ := b.Create(ctx, driver.BlobKey{})
	w.Write([]byte("mine"))
	w.Seal(ctx)
	defer w.Close()
	mine := driver.BlobKey{Conversation: "victim", Path: "secret.txt"}
	if err := w.Put(ctx, mine, false); err != nil {
		t.Fatal(err)
	}
	for _, k := range []driver.BlobKey{
		{Conversation: "c1", Path: "../victim/secret.txt"},
		{Conversation: "c1", Path: "/victim/secret.txt"},
		{Conversation: "c1", Path: "a/../../victim/secret.txt"},
		{Conversation: "c1", Path: ""},
		{Conversation: "../victim", Path: "secret.txt"},
		{Conversation: "c1/../victim", Path: "secret.txt"},
	} {
		calls := map[string]error{}
		_, calls["stat"] = b.Stat(ctx, k)
		_, calls["open"] = b.Open(ctx, k)
		calls["delete"] = b.Delete(ctx, k)
		calls["copy"] = b.Copy(ctx, mine, k)
		calls["put"] = w.Put(ctx, k, false)
		for call, err := range calls {
			if files.KindOf(err) != files.KindInvalid {
				t.Errorf("%s %+v: %v, want a refusal", call, k, err)
			}
		}
	}
	if err := b.List(ctx, "c1", "../victim", func(files.BlobInfo) error { return nil }); files.KindOf(err) != files.KindInvalid {
		t.Errorf("list ../victim: %v", err)
	}
	if err := b.RemoveConversation(ctx, "../victim"); files.KindOf(err) != files.KindInvalid {
		t.Errorf("remove ../victim: %v", err)
	}
	f, err := b.Open(ctx, mine)
	if err != nil {
		t.Fatalf("the victim's object after the attempts: %v", err)
	}
	f.Close()
}

// TestOpenWrittenReadsInOneRequest: an object opened as its row
// describes it reads back whole and at an offset; one that is gone fails
// as not found, not as a broken stream.
func TestOpenWrittenReadsInOneRequest(t *testing.T) {
	ctx := context.Background()
	b := openBucket(t, "")
	key := driver.BlobKey{Conversation: "c1", Path: files.ReservedPrefix + "objects/x"}
	w, _ := b.Create(ctx, key)
	w.Write([]byte("written once"))
	w.Seal(ctx)
	if err := w.Put(ctx, key, true); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f, err := b.OpenWritten(ctx, key, files.BlobInfo{Path: "x.txt", Size: 12})
	if err != nil {
		t.Fatal(err)
	}
	tail := make([]byte, 4)
	if n, err := f.ReadAt(tail, 8); n != 4 || string(tail) != "once" || (err != nil && err != io.EOF) {
		t.Fatalf("ReadAt = %d %q %v", n, tail, err)
	}
	if got, err := io.ReadAll(f); string(got) != "written once" || err != nil || f.Info().Path != "x.txt" {
		t.Fatalf("read %q %v, info %+v", got, err, f.Info())
	}
	f.Close()
	if err := b.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if f, err := b.OpenWritten(ctx, key, files.BlobInfo{Path: "x.txt", Size: 12}); files.KindOf(err) != files.KindNotFound {
		if err == nil {
			f.Close()
		}
		t.Fatalf("a deleted object still reads (from a cache?): %v", err)
	}
	for _, size := range []int64{3, 1 << 20} { // small objects are read whole at once (the cache), larger ones when read
		gone, err := b.OpenWritten(ctx, driver.BlobKey{Conversation: "c1", Path: files.ReservedPrefix + "objects/gone"}, files.BlobInfo{Size: size})
		if err == nil {
			_, err = io.ReadAll(gone)
			gone.Close()
		}
		if files.KindOf(err) != files.KindNotFound {
			t.Fatalf("reading a missing object of %d bytes: %v", size, err)
		}
	}
}
