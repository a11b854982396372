package routes

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"

	"github.com/chromedp/chromedp"
)

// eventRounds is how many writes each latency benchmark times.
const eventRounds = 200

// BenchmarkEventLatency times a file write until its server-sent event
// arrives: in the web page in Chromium (EventSource, the time taken in the
// page), and, as the baseline, in a Go client reading the same stream. It
// reports p50 and p99 in milliseconds over eventRounds writes.
func BenchmarkEventLatency(b *testing.B) {
	e := newAPIEnv(b, engine.Options{})
	sp, err := e.store.Space("lat")
	if err != nil {
		b.Fatal(err)
	}
	defer sp.Close()
	write := func(i int) int64 {
		start := time.Now()
		if _, err := sp.WriteBytes(context.Background(), fmt.Sprintf("f%04d.txt", i), []byte("x"), files.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		return start.UnixMicro()
	}
	b.Run("go-client", func(b *testing.B) {
		for b.Loop() {
			ctx, cancel := context.WithCancel(context.Background())
			stream := openStream(b, ctx, e.srv.URL+"/api/events?conversation=lat", "")
			var lat []float64
			for i := 0; i < eventRounds; i++ {
				start := write(i)
				next(b, stream)
				lat = append(lat, float64(time.Now().UnixMicro()-start)/1000)
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
			reportPercentiles(b, lat)
		}
	})
	b.Run("browser", func(b *testing.B) {
		ctx := newBrowser(b)
		run(b, ctx, chromedp.Navigate(e.srv.URL+"/#c=lat"), chromedp.WaitVisible(chromedp.ID("workspace")))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("live").textContent === "live"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			base := eval[int](b, ctx, `window.convfilesEvents.length`)
			var lat []float64
			for i := 0; i < eventRounds; i++ {
				start := write(10000 + i)
				want := strconv.Itoa(base + i + 1)
				if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.convfilesEvents.length >= `+want, chromedp.WithPollingInterval(2*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
					b.Fatal(err)
				}
				at := eval[int64](b, ctx, `window.convfilesEvents[`+strconv.Itoa(base+i)+`].at`)
				lat = append(lat, float64(at*1000-start)/1000)
				time.Sleep(5 * time.Millisecond)
			}
			reportPercentiles(b, lat)
		}
	})
}

// reportPercentiles reports the p50 and p99 of latencies in milliseconds.
func reportPercentiles(b *testing.B, ms []float64) {
	sort.Float64s(ms)
	b.ReportMetric(ms[len(ms)/2], "p50-ms")
	b.ReportMetric(ms[len(ms)*99/100], "p99-ms")
}
