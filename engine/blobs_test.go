package engine_test

import (
	"path/filepath"
	"testing"

	"convfiles/engine"
	"convfiles/files/driver"
	"convfiles/files/driver/blobtest"
)

// TestBlobConformance runs the blob conformance suite against the bytes
// half of the shipped store: one folder per conversation on disk.
func TestBlobConformance(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) driver.Blobs {
		s, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s.Blobs()
	})
}
