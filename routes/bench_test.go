package routes

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/metrics"
)

// linkBench serves one conversation's folder twice over loopback: through
// convfiles' link route and through a plain http.FileServer, the baseline.
type linkBench struct {
	convfiles, fileServer *httptest.Server
	client                *http.Client
}

// benchStore opens a store of unindexed files up to 128 MiB in a folder of
// the benchmark's, which it returns too, and its conversation "bench".
func benchStore(b *testing.B) (*engine.Store, string, *engine.Space) {
	dir := filepath.Join(b.TempDir(), "files")
	store, err := engine.OpenStore(dir, engine.Options{Limits: files.Limits{MaxFileBytes: 128 << 20}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	sp, err := store.Space("bench")
	if err != nil {
		b.Fatal(err)
	}
	return store, dir, sp
}

func newLinkBench(b *testing.B) *linkBench {
	store, dir, sp := benchStore(b)
	defer sp.Close()
	for name, size := range map[string]int{"small.bin": 4 << 10, "big.bin": 64 << 20} {
		if _, err := sp.WriteBytes(context.Background(), name, bytes.Repeat([]byte{'z'}, size), files.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	lb := &linkBench{
		// As serve runs it in local mode: every request counted.
		convfiles: httptest.NewServer(New(Config{Store: store, AccessLog: os.Getenv("CONVFILES_BENCH_ACCESS_LOG") == "1",
			Metrics: benchMetrics(), Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})),
		fileServer: httptest.NewServer(http.StripPrefix("/files/bench/", http.FileServer(http.Dir(filepath.Join(dir, "bench"))))),
		client:     &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
	}
	b.Cleanup(func() { lb.convfiles.Close(); lb.fileServer.Close() })
	// Warm both servers alike and drop the setup's garbage (a 64 MiB
	// buffer), so neither pays for it in its first measured run.
	for _, base := range []string{lb.convfiles.URL, lb.fileServer.URL} {
		for i := 0; i < 200; i++ {
			lb.fetch(b, base+"/files/bench/small.bin", 4<<10)
		}
		lb.fetch(b, base+"/files/bench/big.bin", 64<<20)
	}
	runtime.GC()
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
// file against http.FileServer over the same file. Each worker alternates a
// request to convfiles with one to the baseline, so drift on a shared
// machine touches both alike; it reports each side's time per request and
// the throughput ratio (baseline time / convfiles time).
func BenchmarkLink(b *testing.B) {
	lb := newLinkBench(b)
	for _, file := range []struct {
		name string
		size int64
	}{{"small.bin", 4 << 10}, {"big.bin", 64 << 20}} {
		b.Run(file.name, func(b *testing.B) {
			conv := lb.convfiles.URL + "/files/bench/" + file.name
			base := lb.fileServer.URL + "/files/bench/" + file.name
			var convNS, baseNS atomic.Int64
			b.SetBytes(2 * file.size)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					t0 := time.Now()
					lb.fetch(b, conv, file.size)
					t1 := time.Now()
					lb.fetch(b, base, file.size)
					convNS.Add(int64(t1.Sub(t0)))
					baseNS.Add(int64(time.Since(t1)))
				}
			})
			n := float64(b.N)
			b.ReportMetric(float64(convNS.Load())/n, "convfiles-ns/req")
			b.ReportMetric(float64(baseNS.Load())/n, "fileserver-ns/req")
			b.ReportMetric(float64(baseNS.Load())/float64(convNS.Load()), "ratio")
		})
	}
}

// benchMetrics counts as serve does, unless CONVFILES_BENCH_METRICS=0.
func benchMetrics() *metrics.Metrics {
	if os.Getenv("CONVFILES_BENCH_METRICS") == "0" {
		return nil
	}
	return metrics.New(nil)
}
