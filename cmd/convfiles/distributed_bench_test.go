package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"convfiles/internal/s3server"
	"convfiles/postgres"
)

// benchClient is one HTTP client for both sides of a comparison, with
// enough idle connections that parallel requests reuse theirs.
var benchClient = &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}

// get fetches url to the end and returns how long it took.
func get(b testing.TB, url string, size int) time.Duration {
	start := time.Now()
	resp, err := benchClient.Get(url)
	if err != nil {
		b.Error(err)
		return 0
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || n != int64(size) {
		b.Errorf("GET %s: %d, %d bytes, %v", url, resp.StatusCode, n, err)
	}
	return time.Since(start)
}

// BenchmarkS3Links fetches a file by its link from a replica whose bytes
// live in S3, and, alternated with it in the same iteration (taking turns
// at going first), the same object straight from the S3 server by a
// presigned URL. It reports the mean time of each side and their
// throughput ratio (S3's time over convfiles'; 1 is parity). The 4 KiB
// file is fetched from a replica with the small-object cache (the
// default) and from one without it (cache_bytes = -1); the 64 MiB file
// is relayed by one replica and, by another with redirect_over = 16 MiB,
// sent to the store by a 307 that the client follows.
//
//	go test ./cmd/convfiles -run '^$' -bench S3Links -benchtime 3s -count 6
func BenchmarkS3Links(b *testing.B) {
	storage, dbURL, bucket := distributedConfig(b, "")
	limits := "[limits]\nmax_file_bytes = 104857600\n"
	cached := startServerProcessWith(b, b.TempDir(), limits+storage)
	defer func() { cached.cmd.Process.Signal(syscall.SIGTERM); cached.cmd.Wait() }()
	uncached := startServerProcessWith(b, b.TempDir(), limits+storage+"cache_bytes = -1\n")
	defer func() { uncached.cmd.Process.Signal(syscall.SIGTERM); uncached.cmd.Wait() }()
	redirecting := startServerProcessWith(b, b.TempDir(), limits+storage+"redirect_over = 16777216\n")
	defer func() { redirecting.cmd.Process.Signal(syscall.SIGTERM); redirecting.cmd.Wait() }()
	ix, err := postgres.Open(context.Background(), dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	s3, err := s3server.Shared(b).Client()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int
		srv  *serverProcess
	}{{"4KiB", 4 << 10, cached}, {"4KiB-uncached", 4 << 10, uncached}, {"64MiB", 64 << 20, cached}, {"64MiB-redirect", 64 << 20, redirecting}} {
		body := make([]byte, tc.size)
		rand.Read(body)
		link := uploadBytes(b, tc.srv.base, "links", tc.name+".bin", body)
		rec, err := ix.Lookup(context.Background(), "links", tc.name+".bin")
		if err != nil {
			b.Fatal(err)
		}
		presigned, err := s3.PresignedGetObject(context.Background(), bucket, "convfiles/links/"+rec.Blob, time.Hour, nil)
		if err != nil {
			b.Fatal(err)
		}
		direct := presigned.String()
		b.Run(tc.name, func(b *testing.B) {
			var ours, theirs, turn atomic.Int64
			one := func() {
				if turn.Add(1)%2 == 0 {
					ours.Add(int64(get(b, link, tc.size)))
					theirs.Add(int64(get(b, direct, tc.size)))
				} else {
					theirs.Add(int64(get(b, direct, tc.size)))
					ours.Add(int64(get(b, link, tc.size)))
				}
			}
			b.SetBytes(int64(tc.size))
			if tc.size > 1<<20 {
				for range b.N {
					one()
				}
			} else {
				b.SetParallelism(2)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						one()
					}
				})
			}
			b.ReportMetric(float64(ours.Load())/float64(b.N)/1e3, "convfiles-µs/get")
			b.ReportMetric(float64(theirs.Load())/float64(b.N)/1e3, "s3-µs/get")
			b.ReportMetric(float64(theirs.Load())/float64(ours.Load()), "ratio")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// uploadBytes uploads body as name into conv of a local-mode server and
// returns its link. A failure fails b; it may be called from any
// goroutine.
func uploadBytes(b testing.TB, base, conv, name string, body []byte) string {
	b.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(body)
	mw.Close()
	resp, err := benchClient.Post(base+"/api/files/upload?conversation="+conv, mw.FormDataContentType(), &buf)
	if err != nil {
		b.Error(err)
		return ""
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b.Errorf("upload %s: %d %s", name, resp.StatusCode, raw)
	}
	return base + "/files/" + conv + "/" + name
}

// BenchmarkReplicaWrites uploads 4 KiB files through 1, 2 and 3
// replicas on one PostgreSQL database and one bucket: 12 clients, each
// writing new files into a conversation of its own, spread evenly over
// the replicas. It reports writes per second and where the machine's CPU
// went, in milliseconds per write: PostgreSQL, the S3 server, the
// replicas, the clients.
//
//	go test ./cmd/convfiles -run '^$' -bench ReplicaWrites -benchtime 3000x -count 3
func BenchmarkReplicaWrites(b *testing.B) {
	storage, _, _ := distributedConfig(b, "")
	var replicas []*serverProcess
	var pids []int
	for range 3 {
		p := startServerProcessWith(b, b.TempDir(), storage)
		defer func() { p.cmd.Process.Signal(syscall.SIGTERM); p.cmd.Wait() }()
		replicas = append(replicas, p)
		pids = append(pids, p.cmd.Process.Pid)
	}
	body := bytes.Repeat([]byte("convfiles replica write benchmark\n"), 4096/34)
	const clients = 12
	round := 0
	for n := 1; n <= 3; n++ {
		b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
			round++
			var next atomic.Int64
			var wg sync.WaitGroup
			before := cpuByGroup(pids)
			start := time.Now()
			for c := range clients {
				wg.Go(func() {
					base := replicas[c%n].base
					conv := fmt.Sprintf("w%d-%d-%d", n, round, c)
					for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
						uploadBytes(b, base, conv, fmt.Sprintf("f%d.txt", i), body)
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			cpu := cpuSince(before, cpuByGroup(pids))
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "writes/s")
			groups := make([]string, 0, len(cpu))
			for g := range cpu {
				groups = append(groups, g)
			}
			sort.Strings(groups)
			for _, g := range groups {
				if cpu[g] > 0 {
					b.ReportMetric(cpu[g]*1e3/float64(b.N), "cpu-ms/write-"+strings.ReplaceAll(g, " ", "-"))
				}
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}
