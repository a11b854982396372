package files_test

import (
	"path/filepath"
	"testing"

	"convfiles/files"
	"convfiles/files/blobtest"
)

// TestBlobConformance runs the blob conformance suite against the bytes
// half of the shipped store: one folder per conversation on disk.
func TestBlobConformance(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) files.Blobs {
		s, err := files.OpenStore(filepath.Join(t.TempDir(), "files"), files.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s.Blobs()
	})
}
