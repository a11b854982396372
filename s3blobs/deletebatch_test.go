package s3blobs_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/s3server"
	"convfiles/s3blobs"
)

// TestDeleteBatchRemovesManyKeysInOneRequest: the objects of a batch go
// in one multi-object delete, a key that holds nothing is no error, and a
// key that climbs out of its conversation is refused without keeping the
// others from going.
func TestDeleteBatchRemovesManyKeysInOneRequest(t *testing.T) {
	srv := s3server.Shared(t)
	target, err := url.Parse(srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var requests []string
	relay := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.Method+" "+r.URL.RawQuery)
		mu.Unlock()
		relay.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	blobs, err := s3blobs.Open(context.Background(), s3blobs.Config{Endpoint: proxy.URL, Bucket: s3server.Bucket(t),
		Region: "us-east-1", AccessKey: s3server.AccessKey, SecretKey: s3server.SecretKey, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var keys []driver.BlobKey
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		key := driver.BlobKey{Conversation: "c1", Path: name}
		put(t, blobs, key, []byte("bytes of "+name))
		keys = append(keys, key)
	}
	keys = append(keys, driver.BlobKey{Conversation: "c1", Path: "never-written.txt"})
	mu.Lock()
	requests = nil
	mu.Unlock()
	if err := blobs.DeleteBatch(ctx, keys); err != nil {
		t.Fatalf("a batch with a missing key: %v, want no error", err)
	}
	mu.Lock()
	sent := requests
	mu.Unlock()
	if len(sent) != 1 || !strings.HasPrefix(sent[0], "POST delete") {
		t.Fatalf("the batch sent %q, want one multi-object delete (POST ?delete)", sent)
	}
	for _, key := range keys {
		if _, err := blobs.Stat(ctx, key); files.KindOf(err) != files.KindNotFound {
			t.Errorf("%s after the batch: %v, want not found", key.Path, err)
		}
	}

	kept := driver.BlobKey{Conversation: "c2", Path: "d.txt"}
	put(t, blobs, kept, []byte("d"))
	err = blobs.DeleteBatch(ctx, []driver.BlobKey{{Conversation: "c1", Path: "../c2/d.txt"}, kept})
	if files.KindOf(err) == files.KindInternal || err == nil {
		t.Errorf("a batch with a key outside its conversation: %v, want it refused by name", err)
	}
	if _, err := blobs.Stat(ctx, kept); files.KindOf(err) != files.KindNotFound {
		t.Errorf("the valid key of a batch with a refused one: %v, want it removed", err)
	}
}

// put writes data at key, as a write does: spooled, sealed, then one PUT.
func put(t testing.TB, blobs *s3blobs.Blobs, key driver.BlobKey, data []byte) {
	t.Helper()
	ctx := context.Background()
	w, err := blobs.Create(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Seal(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.Put(ctx, key, false); err != nil {
		t.Fatal(err)
	}
}
