package routes

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
)

// TestSmallFilesFromMemoryAreAlwaysTheCurrentBytes: a small file served
// once is served from memory, but never after its bytes changed: an
// overwrite, a delete, a link planted in its place, a hard link made to
// it; ranges, conditional requests and HEAD answer as for a file read
// from disk.
func TestSmallFilesFromMemoryAreAlwaysTheCurrentBytes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	store, err := engine.OpenStore(dir, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := httptest.NewServer(New(Config{Store: store}))
	t.Cleanup(srv.Close)
	url := srv.URL + "/files/c1/notes/a.txt"
	put(t, store, "c1", "notes/a.txt", []byte("first version"))
	for range 2 { // read from disk, then from memory
		if resp, body := get(t, url, nil); resp.StatusCode != 200 || body != "first version" || resp.Header.Get("Content-Length") != "13" {
			t.Fatalf("GET: %d %q %v", resp.StatusCode, body, resp.Header)
		}
	}
	resp, body := get(t, url, map[string]string{"Range": "bytes=6-12"})
	if resp.StatusCode != http.StatusPartialContent || body != "version" {
		t.Errorf("a range: %d %q", resp.StatusCode, body)
	}
	etag := resp.Header.Get("Etag")
	if resp, _ := get(t, url, map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match its ETag: %d", resp.StatusCode)
	}
	head, err := http.Head(url)
	if err != nil || head.StatusCode != 200 || head.ContentLength != 13 {
		t.Errorf("HEAD: %v %v", head, err)
	}

	put(t, store, "c1", "notes/a.txt", []byte("second version")) // same name, new bytes
	if _, body := get(t, url, nil); body != "second version" {
		t.Fatalf("after an overwrite: %q", body)
	}
	get(t, url, nil)
	conv := filepath.Join(dir, "c1")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("outside secret"), 0o644)
	os.Remove(filepath.Join(conv, "notes", "a.txt"))
	if err := os.Symlink(outside, filepath.Join(conv, "notes", "a.txt")); err != nil {
		t.Fatal(err)
	}
	if resp, body := get(t, url, nil); resp.StatusCode == 200 || strings.Contains(body, "version") || strings.Contains(body, "secret") {
		t.Fatalf("a link planted in place of a file served from memory: %d %q", resp.StatusCode, body)
	}
	os.Remove(filepath.Join(conv, "notes", "a.txt"))
	if resp, _ := get(t, url, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("after the file is gone: %d", resp.StatusCode)
	}

	// The file replaced by a hard link to another file: new bytes.
	put(t, store, "c2", "b.txt", []byte("c2's own"))
	put(t, store, "c1", "b.txt", []byte("c1's own"))
	get(t, srv.URL+"/files/c1/b.txt", nil)
	os.Remove(filepath.Join(conv, "b.txt"))
	if err := os.Link(filepath.Join(dir, "c2", "b.txt"), filepath.Join(conv, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if _, body := get(t, srv.URL+"/files/c1/b.txt", nil); body == "c1's own" {
		t.Fatalf("served the old bytes from memory after they were replaced")
	}
}
