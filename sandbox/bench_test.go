package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/ops"
	"convfiles/routes"
	"convfiles/runtime"
)

// executeBench serves /execute twice over loopback on one store: with
// scripts run in this process (the runner convfiles had before workers)
// and with scripts run in worker processes.
type executeBench struct {
	inProcess, workers string
	client             *http.Client
}

func newExecuteBench(b *testing.B) *executeBench {
	store, _ := storetest.Open(b, b.TempDir(), engine.Options{Bus: files.NewBus()})
	links := routes.Links{Base: "http://127.0.0.1:8080"}
	pool := newPool(b, Config{LinkBase: links.Base})
	serve := func(exec runtime.Executor) string {
		h := routes.New(routes.Config{Store: store, Links: links, Runner: exec, ScriptFiles: true, Formats: pool})
		srv := httptest.NewServer(h)
		b.Cleanup(func() { h.Shutdown(); srv.Close() })
		return srv.URL
	}
	return &executeBench{
		inProcess: serve(runtime.New(runtime.Config{Link: links.URL})),
		workers:   serve(pool),
		client:    &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
	}
}

func (e *executeBench) execute(b *testing.B, base string, body []byte) {
	req, _ := http.NewRequest("POST", base+"/execute", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("%d %s", resp.StatusCode, out)
	}
}

// load sends n requests from clients goroutines and returns the requests
// a second and the latencies.
func (e *executeBench) load(b *testing.B, base string, body []byte, clients, n int) (float64, []time.Duration) {
	lat := make([]time.Duration, n)
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= n {
					return
				}
				t0 := time.Now()
				e.execute(b, base, body)
				lat[k] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds(), lat
}

func percentile(lat []time.Duration, p float64) float64 {
	s := slices.Clone(lat)
	slices.Sort(s)
	return float64(s[int(float64(len(s)-1)*p)]) / float64(time.Millisecond)
}

// BenchmarkExecute measures /execute with scripts in this process and in
// worker processes, at 1, 8 and 32 clients: a hello world (seed 002's
// TypeScript) and a run that writes 1 KiB. The two servers take turns in
// rounds of b.N requests each, so drift on a shared machine touches both;
// it reports each side's requests a second, their ratio, and p50 and p99.
func BenchmarkExecute(b *testing.B) {
	e := newExecuteBench(b)
	bodies := map[string]string{
		"hello":     `{"code": "const message: string = \"Hello, World!\";\nconsole.log(JSON.stringify({ message }));", "language": "typescript"}`,
		"write1KiB": `{"code": "write_file(\"out.txt\", \"x\".repeat(1024))", "language": "javascript", "conversationId": "bench"}`,
		"hello-js":  `{"code": "console.log(\"hello, world\")", "language": "javascript"}`,
		"hello-lua": `{"code": "print(\"hello, world\")", "language": "lua"}`,
	}
	for _, name := range []string{"hello", "write1KiB", "hello-js", "hello-lua"} {
		body := []byte(bodies[name])
		for _, clients := range []int{1, 8, 32} {
			b.Run(fmt.Sprintf("%s/clients=%d", name, clients), func(b *testing.B) {
				n := max(b.N, 4*clients)
				e.load(b, e.inProcess, body, clients, 2*clients) // warm both
				e.load(b, e.workers, body, clients, 2*clients)
				var inRate, wRate []float64
				var inLat, wLat []time.Duration
				for round := 0; round < 3; round++ {
					r, l := e.load(b, e.inProcess, body, clients, n)
					inRate, inLat = append(inRate, r), append(inLat, l...)
					r, l = e.load(b, e.workers, body, clients, n)
					wRate, wLat = append(wRate, r), append(wLat, l...)
				}
				slices.Sort(inRate)
				slices.Sort(wRate)
				b.ReportMetric(inRate[1], "inproc-req/s")
				b.ReportMetric(wRate[1], "worker-req/s")
				b.ReportMetric(wRate[1]/inRate[1], "throughput-ratio")
				b.ReportMetric(percentile(inLat, 0.5), "inproc-p50-ms")
				b.ReportMetric(percentile(inLat, 0.99), "inproc-p99-ms")
				b.ReportMetric(percentile(wLat, 0.5), "worker-p50-ms")
				b.ReportMetric(percentile(wLat, 0.99), "worker-p99-ms")
			})
		}
	}
}

// BenchmarkHelperCall measures one file helper call (files.lineCount, a
// round trip across the worker's socket to the server's Space and back)
// against the same call in this process: a script makes 2000 of them.
func BenchmarkHelperCall(b *testing.B) {
	store, _ := storetest.Open(b, b.TempDir(), engine.Options{Bus: files.NewBus()})
	sp, _ := store.Space("bench")
	defer sp.Close()
	sp.WriteBytes(context.Background(), "a.txt", []byte("one\ntwo\n"), files.WriteOptions{})
	pool := newPool(b, Config{Warm: 1})
	inProcess := runtime.New(runtime.Config{})
	const calls = 2000
	src := fmt.Sprintf(`let n = 0; for (let i = 0; i < %d; i++) n += files.lineCount("a.txt"); n`, calls)
	run := func(exec runtime.Executor) time.Duration {
		t0 := time.Now()
		rep, err := exec.Run(context.Background(), runtime.Request{Source: src, Space: sp})
		if err != nil || string(rep.Result) != fmt.Sprint(2*calls) {
			b.Fatalf("%v %+v", err, rep)
		}
		return time.Since(t0)
	}
	run(pool)
	run(inProcess)
	var inNS, wNS time.Duration
	for i := 0; i < b.N; i++ {
		inNS += run(inProcess)
		wNS += run(pool)
	}
	per := float64(b.N * calls)
	b.ReportMetric(float64(inNS.Microseconds())/per, "inproc-µs/call")
	b.ReportMetric(float64(wNS.Microseconds())/per, "worker-µs/call")
}

// BenchmarkScriptSearch is files.search over 5,000 files of 2 KiB, from a
// script in a worker, from a script in the server's process, and called
// directly: what a search costs a script, against the same search with
// no script around it.
//
//	go test ./sandbox -run '^$' -bench ScriptSearch -benchtime 20x -count 4
func BenchmarkScriptSearch(b *testing.B) {
	store, _ := storetest.Open(b, b.TempDir(), engine.Options{Bus: files.NewBus()})
	sp, _ := store.Space("bench")
	defer sp.Close()
	ctx := context.Background()
	const n = 5000
	filler := strings.Repeat("an ordinary line of notes, nothing to find in it\n", 40)
	for i := range n {
		text := filler
		if i%50 == 0 {
			text += "the needle\n"
		}
		if _, err := sp.WriteBytes(ctx, fmt.Sprintf("d%d/f%04d.txt", i%10, i), []byte(text), files.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	src := `files.search("needle", {maxResults: 1000}).filesMatched`
	pool := newPool(b, Config{Warm: 1})
	inProcess := runtime.New(runtime.Config{})
	for _, c := range []struct {
		name string
		exec runtime.Executor
	}{{"worker", pool}, {"in-process", inProcess}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rep, err := c.exec.Run(ctx, runtime.Request{Source: src, Space: sp, Timeout: time.Minute})
				if err != nil || string(rep.Result) != fmt.Sprint(n/50) {
					b.Fatalf("%v %+v", err, rep)
				}
			}
		})
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			out, err := ops.SearchFiles(ctx, ops.Env{Space: sp}, ops.SearchFilesIn{Pattern: "needle", MaxResults: 1000})
			if err != nil || out.FilesMatched != n/50 {
				b.Fatalf("%v %+v", err, out)
			}
		}
	})
}
