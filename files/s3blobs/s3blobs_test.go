package s3blobs_test

import (
	"context"
	"os"
	"testing"

	"convfiles/files"
	"convfiles/files/blobtest"
	"convfiles/files/s3blobs"
	"convfiles/internal/pgserver"
	"convfiles/internal/s3server"
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
			blobtest.Run(t, func(t *testing.T) files.Blobs { return openBucket(t, prefix) }, blobtest.Caps{ObjectStore: true})
		})
	}
}
