package routes

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"convfiles/files"
)

// linkBench serves one conversation's folder twice over loopback: through
// convfiles' link route and through a plain http.FileServer, the baseline.
type linkBench struct {
	convfiles, fileServer *httptest.Server
	client                *http.Client
}

func newLinkBench(b *testing.B) *linkBench {
	dir := filepath.Join(b.TempDir(), "files")
	store, err := files.OpenStore(dir, files.Options{Limits: files.Limits{MaxFileBytes: 128 << 20}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	sp, _ := store.Space("bench")
	defer sp.Close()
	for name, size := range map[string]int{"small.bin": 4 << 10, "big.bin": 64 << 20} {
		if _, err := sp.WriteBytes(context.Background(), name, bytes.Repeat([]byte{'z'}, size), files.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	lb := &linkBench{
		convfiles:  httptest.NewServer(New(Config{Store: store})),
		fileServer: httptest.NewServer(http.StripPrefix("/files/bench/", http.FileServer(http.Dir(filepath.Join(dir, "bench"))))),
		client:     &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
	}
	b.Cleanup(func() { lb.convfiles.Close(); lb.fileServer.Close() })
	return lb
}

func (lb *linkBench) fetch(b *testing.B, url string, size int64) {
	resp, err := lb.client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || n != size {
		b.Fatalf("GET %s: %d, %d bytes", url, resp.StatusCode, n)
	}
}

// BenchmarkLink measures link-route throughput for a 4 KiB and a 64 MiB
// file, each against http.FileServer over the same file in the same run.
func BenchmarkLink(b *testing.B) {
	lb := newLinkBench(b)
	for _, file := range []struct {
		name string
		size int64
	}{{"small.bin", 4 << 10}, {"big.bin", 64 << 20}} {
		for _, srv := range []struct {
			label string
			base  string
		}{{"convfiles", lb.convfiles.URL}, {"fileserver", lb.fileServer.URL}} {
			url := srv.base + "/files/bench/" + file.name
			b.Run(file.name+"/"+srv.label, func(b *testing.B) {
				b.SetBytes(file.size)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						lb.fetch(b, url, file.size)
					}
				})
			})
		}
	}
}
