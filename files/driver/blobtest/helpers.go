package blobtest

import (
	"crypto/rand"
	"io"
	"slices"
	"testing"

	"convfiles/files"
	"convfiles/files/driver"
)

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	out := make([]byte, n)
	rand.Read(out)
	return out
}

// sealed writes data into new bytes meant for k and seals them.
func sealed(t *testing.T, b driver.Blobs, k driver.BlobKey, data []byte) driver.BlobWriter {
	t.Helper()
	w, err := b.Create(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		t.Fatal(err)
	}
	if _, err := w.Seal(ctx); err != nil {
		w.Close()
		t.Fatal(err)
	}
	return w
}

// put stores data at k.
func put(t *testing.T, b driver.Blobs, k driver.BlobKey, data []byte, noReplace bool) {
	t.Helper()
	w := sealed(t, b, k, data)
	defer w.Close()
	if err := w.Put(ctx, k, noReplace); err != nil {
		t.Fatal(err)
	}
}

// read returns what k holds.
func read(t *testing.T, b driver.Blobs, k driver.BlobKey) string {
	t.Helper()
	f, err := b.Open(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// list returns the sorted paths of the conversation's blobs below dir.
func list(t *testing.T, b driver.Blobs, dir string) []string {
	t.Helper()
	var out []string
	if err := b.List(ctx, conv, dir, func(i files.BlobInfo) error { out = append(out, i.Path); return nil }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
