package routes

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/files"
)

// zipBenchFiles are the files of the zip benchmark: 16 CSV files of 4 MiB.
const zipBenchFiles, zipBenchSize = 16, 4 << 20

// BenchmarkZipDownload downloads 64 MiB of CSV in 16 files as one zip
// from the server, against the same files downloaded one by one over
// their links (the bytes alone), and against the standard library's
// archive/zip writing the same files from disk to nowhere (the cost of
// deflate itself). B/op shows the server's zip streams: its allocations
// do not grow with the 64 MiB it sends.
func BenchmarkZipDownload(b *testing.B) {
	store, dir, sp := benchStore(b)
	q := url.Values{}
	for i := range zipBenchFiles {
		var sb strings.Builder
		for row := 0; sb.Len() < zipBenchSize; row++ {
			fmt.Fprintf(&sb, "%d,region-%d,%d.%02d,%s\n", row, row%17, row*37%10000, row%100, "2026-11-27T10:00:00Z")
		}
		name := fmt.Sprintf("data/part-%02d.csv", i)
		if _, err := sp.WriteBytes(context.Background(), name, []byte(sb.String()[:zipBenchSize]), files.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		q.Add("path", name)
	}
	sp.Close()
	srv := httptest.NewServer(New(Config{Store: store, API: true}))
	b.Cleanup(srv.Close)
	get := func(b *testing.B, u string) int64 {
		resp, err := http.Get(u)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %v %v", u, resp, err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return n
	}
	b.Run("zip", func(b *testing.B) {
		b.SetBytes(zipBenchFiles * zipBenchSize)
		b.ReportAllocs()
		var sent int64
		for b.Loop() {
			sent = get(b, srv.URL+"/api/conversations/bench/zip?"+q.Encode())
		}
		b.ReportMetric(float64(sent)/float64(zipBenchFiles*zipBenchSize), "zip/raw")
	})
	b.Run("files-one-by-one", func(b *testing.B) {
		b.SetBytes(zipBenchFiles * zipBenchSize)
		b.ReportAllocs()
		for b.Loop() {
			for _, name := range q["path"] {
				get(b, srv.URL+"/files/bench/"+name)
			}
		}
	})
	b.Run("archive-zip-alone", func(b *testing.B) {
		b.SetBytes(zipBenchFiles * zipBenchSize)
		b.ReportAllocs()
		for b.Loop() {
			zw := zip.NewWriter(io.Discard)
			for _, name := range q["path"] {
				f, err := os.Open(filepath.Join(dir, "bench", name))
				if err != nil {
					b.Fatal(err)
				}
				w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
				io.Copy(w, f)
				f.Close()
			}
			zw.Close()
		}
	})
}
