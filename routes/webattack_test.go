package routes

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/runtime"

	"github.com/chromedp/chromedp"
)

// TestForeignPagesCannotUseTheServerInChromium opens a hostile page in real
// Chromium, from another site (localhost against 127.0.0.1) and from the
// same site on another port, and lets it try everything it can without
// credentials: fetch with and without CORS, form posts of text and of a
// file. Then a rebinding-style name that resolves to the server. Nothing it
// tries changes a file or reads one through the API; the convfiles page
// itself, opened right after, still works.
func TestForeignPagesCannotUseTheServerInChromium(t *testing.T) {
	store, _ := storetest.Open(t, t.TempDir(), engine.Options{Bus: files.NewBus()})
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	h := New(Config{Store: store, API: true, Links: Links{Base: base}, Runner: runtime.New(runtime.Config{}), ScriptFiles: true,
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Errorf("/mcp reached by %s", r.Header.Get("Origin")) })})
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() { h.Shutdown(); srv.Close() })
	write(t, store, "victim", "secret.txt", "v1")
	secret := write(t, store, "victim", "secret.txt", "s3cret")

	page, err := os.ReadFile("testdata/attack.html")
	if err != nil {
		t.Fatal(err)
	}
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(attacker.Close)
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	_, attackPort, _ := strings.Cut(strings.TrimPrefix(attacker.URL, "http://"), ":")

	ctx := newBrowser(t, chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"))
	for _, from := range []string{"http://localhost:" + attackPort, "http://127.0.0.1:" + attackPort} {
		q := url.Values{"target": {base}, "id": {secret.ID}}
		run(t, ctx, chromedp.Navigate(from+"/attack?"+q.Encode()))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window.results && window.results.done === true", chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			t.Fatalf("the page from %s did not finish: %v", from, err)
		}
		results := eval[map[string]string](t, ctx, "window.results.done = undefined, window.results")
		for name, got := range results {
			if strings.Contains(got, "s3cret") || strings.Contains(got, "secret.txt") || strings.Contains(got, `"success":true`) {
				t.Errorf("from %s, %s read something: %s", from, name, got)
			}
		}
		if got := results["read listing"]; !strings.HasPrefix(got, "blocked") {
			t.Errorf("from %s the listing was readable: %s", from, got)
		}
	}

	// A rebinding page: its name resolves to the server, so its requests
	// are same-origin to the browser and only Host tells them apart.
	rebound := "http://rebind.test:" + port
	run(t, ctx, chromedp.Navigate(rebound+"/"))
	if body := eval[string](t, ctx, "document.body.innerText"); !strings.Contains(body, "HostError") {
		t.Errorf("the page under a rebound name: %q", body)
	}
	for _, js := range []string{
		`fetch("/api/conversations").then(r => r.status + " " + r.statusText)`,
		`fetch("/files/victim/secret.txt").then(r => r.status + " " + r.statusText)`,
		`fetch("/execute", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({code: "write_file('pwned-rebind.txt', 'x')", conversationId: "victim", language: "js"})}).then(r => r.status + " " + r.statusText)`,
	} {
		if got := eval[string](t, ctx, js); !strings.HasPrefix(got, "403") {
			t.Errorf("under a rebound name, %s → %s", js, got)
		}
	}

	convs, _ := store.Conversations(ctx)
	if len(convs) != 1 || convs[0].ID != "victim" {
		t.Fatalf("conversations after the attack: %+v", convs)
	}
	sp, _ := store.Space("victim")
	defer sp.Close()
	list, _ := sp.List(ctx)
	if len(list) != 1 || list[0].Name != "secret.txt" {
		t.Fatalf("files after the attack: %+v", list)
	}
	if b, _, err := sp.ReadFile(ctx, "secret.txt", 100); err != nil || string(b) != "s3cret" {
		t.Fatalf("secret.txt after the attack: %q %v", b, err)
	}
	if vs, _ := sp.Versions(ctx, secret.ID); len(vs) != 1 {
		t.Fatalf("versions after the attack: %+v", vs)
	}

	// The convfiles page itself still works: it lists the file, and its
	// own requests rename it.
	run(t, ctx, chromedp.Navigate(base+"/#c=victim"), chromedp.WaitVisible(chromedp.ID("workspace")))
	waitCard(t, ctx, "secret.txt")
	got := eval[string](t, ctx, `fetch("/api/files/`+secret.ID+`/rename", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"name": "kept.txt"}'}).then(r => r.status + " " + r.statusText)`)
	if !strings.HasPrefix(got, "200") {
		t.Fatalf("the page's own rename: %s", got)
	}
	waitCard(t, ctx, "kept.txt")
}
