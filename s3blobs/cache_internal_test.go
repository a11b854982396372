package s3blobs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"convfiles/files/driver"
	"convfiles/internal/s3server"

	"github.com/minio/minio-go/v7"
)

// TestObjectCacheStaysWithinItsBound: the least recently used objects go
// first, the bytes held never pass the bound, and a dropped object is
// gone.
func TestObjectCacheStaysWithinItsBound(t *testing.T) {
	c := newObjectCache(10 << 10)
	for i := range 20 {
		c.put(fmt.Sprint(i), make([]byte, 1<<10))
		c.get("0") // kept in use
		if used := c.bytes.Used(); used > c.max {
			t.Fatalf("after %d puts the cache holds %d bytes, past its bound %d", i+1, used, c.max)
		}
	}
	if _, ok := c.get("0"); !ok {
		t.Fatal("the object used all along was evicted")
	}
	if _, ok := c.get("1"); ok {
		t.Fatal("the least recently used object is still held")
	}
	if _, ok := c.get("19"); !ok {
		t.Fatal("the newest object is not held")
	}
	c.drop("19")
	if _, ok := c.get("19"); ok || c.bytes.Used() != 9<<10 {
		t.Fatal("a dropped object is still held")
	}
	if c.holds(cachedObjectMax+1) || !c.holds(4<<10) || (*objectCache)(nil).holds(1) || newObjectCache(-1).holds(1) {
		t.Fatal("holds says the wrong thing about sizes, a nil cache or a disabled one")
	}
}

// TestSmallObjectsAreKeptAsTheyAreWritten: a small object is read back
// from memory right after it is stored, with no request to the store
// (it is read back even once gone from the bucket); a large one is not
// kept.
func TestSmallObjectsAreKeptAsTheyAreWritten(t *testing.T) {
	ctx := context.Background()
	srv := s3server.Shared(t)
	b, err := Open(ctx, Config{Endpoint: srv.Endpoint(), Bucket: s3server.Bucket(t), Region: "us-east-1",
		AccessKey: s3server.AccessKey, SecretKey: s3server.SecretKey, SpoolDir: t.TempDir(), PartSize: 5 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1 << 10, cachedObjectMax + 1} {
		key := driver.BlobKey{Conversation: "c1", Path: fmt.Sprintf("object-%d", size)}
		w, err := b.Create(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		data := bytes.Repeat([]byte("k"), size)
		w.Write(data)
		info, err := w.Seal(ctx)
		if err == nil {
			err = w.Put(ctx, key, false)
		}
		w.Close()
		if err != nil {
			t.Fatal(err)
		}
		name, _ := b.object("read", key)
		if err := b.c.RemoveObject(ctx, b.cfg.Bucket, name, minio.RemoveObjectOptions{}); err != nil {
			t.Fatal(err)
		}
		blob, err := b.OpenWritten(ctx, key, info)
		var got []byte
		if err == nil {
			got, err = io.ReadAll(blob)
			blob.Close()
		}
		kept := err == nil && bytes.Equal(got, data)
		if want := size <= cachedObjectMax; kept != want {
			t.Errorf("%d bytes: read back from memory %v, want %v (%v)", size, kept, want, err)
		}
	}
}
