package s3blobs_test

import (
	"context"
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/engine/enginetest"
	"convfiles/files"
	"convfiles/internal/pgserver"
	"convfiles/postgres"
	"convfiles/s3blobs"
)

// TestStoreConformance runs the store conformance suite on the
// distributed configuration: the bytes in S3, the rows in PostgreSQL, and
// two Stores (two replicas) sharing both.
func TestStoreConformance(t *testing.T) {
	enginetest.Run(t, twoReplicas(0))
	enginetest.RunCatalog(t, twoReplicas(0))
	enginetest.RunShared(t, twoReplicas(-1))
}

func twoReplicas(versions int) enginetest.Maker {
	return func(t *testing.T, l files.Limits) enginetest.Setup {
		blobs, url := openBucket(t, "convfiles"), pgserver.Database(t)
		first := openReplica(t, blobs, url, engine.Options{Limits: l, Versions: versions})
		second := openReplica(t, blobs, url, engine.Options{Limits: l, Versions: versions})
		return enginetest.Setup{Open: enginetest.SpaceOf(t, first, "conf"), Other: enginetest.SpaceOf(t, second, "conf"), Stored: func() int { return countObjects(t, blobs, "conf") }}
	}
}

// openReplica opens a Store over blobs and the database at url, as one
// replica of a deployment opens it.
func openReplica(t testing.TB, blobs *s3blobs.Blobs, url string, opts engine.Options) *engine.Store {
	t.Helper()
	ix, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	opts.Index, opts.Objects, opts.Sniff = ix, blobs, content.SniffMIME
	s, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), opts)
	if err != nil {
		ix.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); ix.Close() })
	return s
}

// countObjects counts a conversation's objects in the bucket.
func countObjects(t *testing.T, blobs *s3blobs.Blobs, conv string) int {
	t.Helper()
	n := 0
	err := blobs.List(context.Background(), conv, files.ReservedPrefix+"objects", func(files.BlobInfo) error { n++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return n
}
