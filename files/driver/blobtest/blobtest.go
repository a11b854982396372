// Package blobtest is the conformance suite of the blob half of the
// storage seam (driver.Blobs), in the style of perkeep's storagetest: every
// implementation, the disk one today and an object store's next, runs
// Run and must pass all of it.
//
// It sees only the driver interfaces: it must never import an
// implementation, the engine or os.
package blobtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"convfiles/files"
	"convfiles/files/driver"
)

// Maker returns an empty Blobs for one test; the test cleans up after
// itself through t.Cleanup.
type Maker func(t *testing.T) driver.Blobs

var ctx = context.Background()

// conv is the conversation a test writes in.
const conv = "blobtest"

func key(p string) driver.BlobKey { return driver.BlobKey{Conversation: conv, Path: p} }

// Caps says what kind of store a Blobs is, where the contract allows two
// behaviours.
type Caps struct {
	// ObjectStore is set for a driver.ObjectStore: a blob open while its
	// key is replaced reads what it opened or fails with a conflict (an
	// object store cannot keep the old bytes for it), never a mix.
	ObjectStore bool
}

// Run runs every case against blobs from mk.
func Run(t *testing.T, mk Maker, caps ...Caps) {
	var c Caps
	if len(caps) > 0 {
		c = caps[0]
	}
	t.Run("put then open reads the exact bytes, in order and at any offset", func(t *testing.T) {
		b := mk(t)
		data := randomBytes(t, 3<<20+17)
		put(t, b, key("big.bin"), data, false)
		f, err := b.Open(ctx, key("big.bin"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Info().Size != int64(len(data)) {
			t.Fatalf("Info().Size = %d, want %d", f.Info().Size, len(data))
		}
		got, err := io.ReadAll(f)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back %d bytes (err %v), want the %d written", len(got), err, len(data))
		}
		tail := make([]byte, 100)
		if _, err := f.ReadAt(tail, int64(len(data)-100)); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if !bytes.Equal(tail, data[len(data)-100:]) {
			t.Fatal("ReadAt of the last 100 bytes differs")
		}
		if _, err := f.Seek(1<<20, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		mid := make([]byte, 10)
		if _, err := io.ReadFull(f, mid); err != nil || !bytes.Equal(mid, data[1<<20:1<<20+10]) {
			t.Fatalf("read after Seek: %q, %v", mid, err)
		}
	})

	t.Run("bytes are invisible until put, and gone when closed without a put", func(t *testing.T) {
		b := mk(t)
		w, err := b.Create(ctx, key("draft.txt"))
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("half"))
		if _, err := b.Open(ctx, key("draft.txt")); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("open before put: %v, want not found", err)
		}
		if _, err := w.Seal(ctx); err != nil {
			t.Fatal(err)
		}
		if names := list(t, b, ""); len(names) != 0 {
			t.Fatalf("sealed bytes listed before put: %v", names)
		}
		w.Close()
		if names := list(t, b, ""); len(names) != 0 {
			t.Fatalf("abandoned bytes left behind: %v", names)
		}
	})

	t.Run("a writer reads back what it wrote, and writes out of order", func(t *testing.T) {
		b := mk(t)
		w, err := b.Create(ctx, key("patch.txt"))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		io.WriteString(w, "hello world")
		w.Seek(0, io.SeekStart)
		io.WriteString(w, "J")
		got := make([]byte, 11)
		if n, err := w.ReadAt(got, 0); n != 11 || (err != nil && err != io.EOF) || string(got) != "Jello world" {
			t.Fatalf("ReadAt = %q, %d, %v", got, n, err)
		}
		info, err := w.Seal(ctx)
		if err != nil || info.Size != 11 {
			t.Fatalf("Seal = %+v, %v", info, err)
		}
		if err := w.Put(ctx, key("patch.txt"), false); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if got := read(t, b, key("patch.txt")); got != "Jello world" {
			t.Fatalf("stored %q", got)
		}
	})

	t.Run("a put replaces atomically; an open blob keeps reading what it opened", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("a.txt"), []byte("old content"), false)
		old, err := b.Open(ctx, key("a.txt"))
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		put(t, b, key("a.txt"), []byte("new"), false)
		got, err := io.ReadAll(old)
		if c.ObjectStore && files.KindOf(err) == files.KindConflict {
			got = []byte("old content") // refused, not mixed
		}
		if string(got) != "old content" {
			t.Fatalf("the blob opened before the put reads %q (%v)", got, err)
		}
		if got := read(t, b, key("a.txt")); got != "new" {
			t.Fatalf("after the put: %q", got)
		}
	})

	t.Run("the tag changes when equal bytes replace equal bytes", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("same.txt"), []byte("same"), false)
		first, err := b.Stat(ctx, key("same.txt"))
		if err != nil {
			t.Fatal(err)
		}
		put(t, b, key("same.txt"), []byte("same"), false)
		second, err := b.Stat(ctx, key("same.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if first.Tag == "" || first.Tag == second.Tag {
			t.Fatalf("tags %q then %q: a compare-and-commit could not tell the two apart", first.Tag, second.Tag)
		}
	})

	t.Run("put without replace refuses a taken key and keeps its bytes", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("taken.txt"), []byte("first"), true)
		w := sealed(t, b, key("taken.txt"), []byte("second"))
		defer w.Close()
		if err := w.Put(ctx, key("taken.txt"), true); files.KindOf(err) != files.KindConflict {
			t.Fatalf("put onto a taken key: %v, want a conflict", err)
		}
		if got := read(t, b, key("taken.txt")); got != "first" {
			t.Fatalf("the taken key now holds %q", got)
		}
	})

	t.Run("stat tells a missing key and a folder apart", func(t *testing.T) {
		b := mk(t)
		put(t, b, key("dir/inner.txt"), []byte("x"), false)
		if _, err := b.Stat(ctx, key("nothing.txt")); files.KindOf(err) != files.KindNotFound {
			t.Fatalf("stat of a missing key: %v", err)
		}
		if _, err := b.Stat(ctx, key("dir")); !errors.Is(err, files.ErrIsFolder) {
			t.Fatalf("stat of a folder: %v, want ErrIsFolder", err)
		}
		info, err := b.Stat(ctx, key("dir/inner.txt"))
		if err != nil || info.Size != 1 {
			t.Fatalf("stat = %+v, %v", info, err)
		}
	})

	runMoves(t, mk)
	runListing(t, mk)
}

// versions is the reserved folder a Space keeps versions in.
const versions = files.ReservedPrefix + "versions"
