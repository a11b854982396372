// Package benchrun measures whole runs for benchmarks: the median and the
// 99th percentile of one run, which is what a caller waits for, and the
// folder a benchmark writes in. It must never import another convfiles
// package.
package benchrun

import (
	"os"
	"sort"
	"testing"
	"time"
)

// ReportMedian runs f b.N times and reports the median and p99 of one
// run, next to go test's mean.
func ReportMedian(b *testing.B, f func()) {
	d := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		f()
		d = append(d, time.Since(start))
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// Dir is a folder for a benchmark's files: below CONVFILES_BENCH_DIR when
// it is set (a disk to measure), else the test's temporary folder. It is
// removed when the benchmark ends.
func Dir(b *testing.B) string {
	if d := os.Getenv("CONVFILES_BENCH_DIR"); d != "" {
		dir, err := os.MkdirTemp(d, "convfiles-bench-")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	return b.TempDir()
}
