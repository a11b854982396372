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
	"sync/atomic"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/keyrows"
	"convfiles/internal/links"
	"convfiles/internal/metrics"
	"convfiles/internal/signing"
	"convfiles/internal/storetest"
	"convfiles/runtime"
)

// BenchmarkHostedVsLocal measures what authentication and signed links
// cost: the same store served twice, as a local server (plain links, no
// credential) and as a hosted one (a signed link; /execute with an API
// key looked up in the SQLite index), both with the access log and the
// metrics on. Each worker alternates a request to one with the same
// request to the other, so drift on a shared machine touches both alike;
// "ratio" is hosted throughput over local (1.0: no cost).
// CONVFILES_BENCH_AA=1 serves local on both sides: the ratio it gives is
// the benchmark's own bias (the hosted side's longer link, its header).
func BenchmarkHostedVsLocal(b *testing.B) {
	store, _ := storetest.Open(b, filepath.Join(b.TempDir(), "files"), engine.Options{Bus: files.NewBus()})
	sp, _ := store.Space("acme-bench")
	if _, err := sp.WriteBytes(context.Background(), "small.bin", bytes.Repeat([]byte{'z'}, 4<<10), files.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	sp.Close()
	k, _ := signing.Generate("k1")
	// As serve builds it: key records cached for a second.
	authn := &auth.Authenticator{Keys: auth.NewKeyCache(auth.StoredKeys(store.Index().(keyrows.Store)), 0), Ring: signing.Keyring{k}}
	secret, key, _ := auth.NewKey("bench", auth.Read|auth.Execute, "acme-", nil)
	if err := authn.Keys.CreateKey(context.Background(), key); err != nil {
		b.Fatal(err)
	}
	runner := runtime.New(runtime.Config{})
	b.Cleanup(runner.Wait)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	serve := func(cfg Config) *httptest.Server {
		cfg.Store, cfg.API, cfg.Runner, cfg.ScriptFiles, cfg.Logger = store, true, runner, true, quiet
		cfg.AccessLog, cfg.Metrics = true, metrics.New(nil)
		cfg.RateLimits = RateLimits{}
		srv := httptest.NewUnstartedServer(nil)
		cfg.Links.Base = "http://" + srv.Listener.Addr().String()
		srv.Config.Handler = New(cfg)
		srv.Start()
		b.Cleanup(srv.Close)
		return srv
	}
	signer := &links.Signer{Keys: authn.Ring}
	local := serve(Config{})
	hosted := serve(Config{Auth: authn, Links: Links{Sign: signer}})
	if os.Getenv("CONVFILES_BENCH_AA") != "" {
		hosted = serve(Config{})
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	do := func(method, url, cred, body string) {
		req, _ := http.NewRequest(method, url, bytes.NewReader([]byte(body)))
		if cred != "" {
			req.Header.Set("Authorization", "Bearer "+cred)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s %s: %d", method, url, resp.StatusCode)
		}
	}
	const execBody = `{"code": "1 + 1", "conversationId": "acme-bench"}`
	// A link stays the same for a minute (its expiry is rounded up), as
	// links a page or an agent holds do.
	signed := hosted.URL + "/files/acme-bench/small.bin?" + signer.Query("acme-bench", "small.bin")
	for _, c := range []struct {
		name                string
		localReq, hostedReq func()
	}{
		{"link-4KiB", func() { do("GET", local.URL+"/files/acme-bench/small.bin", "", "") },
			func() {
				do("GET", signed, "", "")
			}},
		{"execute", func() { do("POST", local.URL+"/execute", "", execBody) },
			func() { do("POST", hosted.URL+"/execute", secret, execBody) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < 100; i++ {
				c.localReq()
				c.hostedReq()
			}
			var localNS, hostedNS atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				odd := false
				for pb.Next() {
					// Alternate which goes first, so neither always meets
					// a connection the other just warmed.
					first, second, firstNS, secondNS := c.localReq, c.hostedReq, &localNS, &hostedNS
					if odd {
						first, second, firstNS, secondNS = c.hostedReq, c.localReq, &hostedNS, &localNS
					}
					odd = !odd
					t0 := time.Now()
					first()
					t1 := time.Now()
					second()
					firstNS.Add(int64(t1.Sub(t0)))
					secondNS.Add(int64(time.Since(t1)))
				}
			})
			n := float64(b.N)
			b.ReportMetric(float64(localNS.Load())/n, "local-ns/req")
			b.ReportMetric(float64(hostedNS.Load())/n, "hosted-ns/req")
			b.ReportMetric(float64(localNS.Load())/float64(hostedNS.Load()), "ratio")
		})
	}
}
