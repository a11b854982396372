package s3blobs_test

import (
	"context"
	"path/filepath"
	"testing"

	"convfiles/content"
	"convfiles/files"
	"convfiles/files/filestest"
	"convfiles/files/postgres"
	"convfiles/files/s3blobs"
	"convfiles/internal/pgserver"
)

// TestStoreConformance runs the store conformance suite on the
// distributed configuration: the bytes in S3, the rows in PostgreSQL, and
// two Stores (two replicas) sharing both.
func TestStoreConformance(t *testing.T) {
	filestest.Run(t, twoReplicas(0))
	filestest.RunCatalog(t, twoReplicas(0))
	filestest.RunShared(t, twoReplicas(-1))
}

func twoReplicas(versions int) filestest.Maker {
	return func(t *testing.T, l files.Limits) filestest.Setup {
		blobs, url := openBucket(t, "convfiles"), pgserver.Database(t)
		first := openReplica(t, blobs, url, files.Options{Limits: l, Versions: versions})
		second := openReplica(t, blobs, url, files.Options{Limits: l, Versions: versions})
		return filestest.Setup{Open: filestest.SpaceOf(t, first, "conf"), Other: filestest.SpaceOf(t, second, "conf"), Stored: func() int { return countObjects(t, blobs, "conf") }}
	}
}

// openReplica opens a Store over blobs and the database at url, as one
// replica of a deployment opens it.
func openReplica(t *testing.T, blobs *s3blobs.Blobs, url string, opts files.Options) *files.Store {
	t.Helper()
	ix, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	opts.Index, opts.Objects, opts.Sniff = ix, blobs, content.SniffMIME
	s, err := files.OpenStore(filepath.Join(t.TempDir(), "files"), opts)
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
