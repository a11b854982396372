package routes

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/samples"
)

// testServer is a real HTTP server on a loopback port over a real Store.
func testServer(t *testing.T) (*httptest.Server, *engine.Store) {
	t.Helper()
	store, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := httptest.NewServer(New(Config{Store: store}))
	t.Cleanup(srv.Close)
	return srv, store
}

func put(t *testing.T, store *engine.Store, conv, name string, data []byte) {
	t.Helper()
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if _, err := sp.WriteBytes(context.Background(), name, data, files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestLinkServesSafeTypesInlineAndActiveTypesAsAttachments(t *testing.T) {
	srv, store := testServer(t)
	put(t, store, "c1", "chart.png", samples.Read(t, "sample.png"))
	put(t, store, "c1", "page.html", samples.Read(t, "sample.html"))
	put(t, store, "c1", "logo.svg", samples.Read(t, "sample.svg"))
	put(t, store, "c1", "report.pdf", samples.Read(t, "sample.pdf"))
	put(t, store, "c1", "notes.txt", []byte("hello"))
	tests := []struct {
		name, ctype, disp string
	}{
		{"chart.png", "image/png", `inline; filename="chart.png"`},
		{"report.pdf", "application/pdf", "inline;"},
		{"notes.txt", "text/plain; charset=utf-8", "inline;"},
		{"page.html", "text/html; charset=utf-8", "attachment;"},
		{"logo.svg", "image/svg+xml", "attachment;"},
	}
	for _, tt := range tests {
		resp, body := get(t, srv.URL+"/files/c1/"+tt.name, nil)
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Content-Type") != tt.ctype || !strings.HasPrefix(h.Get("Content-Disposition"), tt.disp) {
			t.Errorf("%s: %d %q %q", tt.name, resp.StatusCode, h.Get("Content-Type"), h.Get("Content-Disposition"))
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "sandbox" {
			t.Errorf("%s: missing nosniff or sandbox CSP: %v", tt.name, h)
		}
		if body == "" {
			t.Errorf("%s: empty body", tt.name)
		}
	}
	resp, _ := get(t, srv.URL+"/files/c1/chart.png?download=1", nil)
	if !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;") {
		t.Errorf("download=1 gave %q", resp.Header.Get("Content-Disposition"))
	}
}

func TestLinkRangeAndConditionalRequests(t *testing.T) {
	srv, store := testServer(t)
	put(t, store, "c1", "data.csv", []byte("0123456789abcdef"))
	url := srv.URL + "/files/c1/data.csv"

	resp, body := get(t, url, map[string]string{"Range": "bytes=4-7"})
	if resp.StatusCode != http.StatusPartialContent || body != "4567" || resp.Header.Get("Content-Range") != "bytes 4-7/16" {
		t.Errorf("range: %d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Range"))
	}
	resp, _ = get(t, url, nil)
	etag := resp.Header.Get("ETag")
	if etag == "" || resp.Header.Get("Accept-Ranges") != "bytes" || resp.Header.Get("Last-Modified") == "" {
		t.Fatalf("headers %v", resp.Header)
	}
	resp, body = get(t, url, map[string]string{"If-None-Match": etag})
	if resp.StatusCode != http.StatusNotModified || body != "" {
		t.Errorf("If-None-Match: %d %q", resp.StatusCode, body)
	}
	put(t, store, "c1", "data.csv", []byte("changed, and longer"))
	resp, body = get(t, url, map[string]string{"If-None-Match": etag})
	if resp.StatusCode != 200 || body != "changed, and longer" {
		t.Errorf("after a change: %d %q", resp.StatusCode, body)
	}
	head, err := http.Head(url)
	if err != nil || head.StatusCode != 200 || head.ContentLength != 19 {
		t.Errorf("HEAD: %v %+v", err, head)
	}
}

func TestLinkNamesDecodeOnce(t *testing.T) {
	srv, store := testServer(t)
	put(t, store, "c1", "%2e%2e", []byte("literal percent name"))
	put(t, store, "c1", "résumé final;v2.txt", []byte("utf-8 name"))
	put(t, store, "c1", "sub dir/a b.txt", []byte("spaces"))

	links := Links{Base: srv.URL}
	resp, body := get(t, links.URL("c1", "%2e%2e"), nil)
	if resp.StatusCode != 200 || body != "literal percent name" {
		t.Errorf("literal %%2e%%2e via %s: %d %q", links.URL("c1", "%2e%2e"), resp.StatusCode, body)
	}
	resp, body = get(t, links.URL("c1", "résumé final;v2.txt"), nil)
	if resp.StatusCode != 200 || body != "utf-8 name" {
		t.Errorf("utf-8 name: %d %q", resp.StatusCode, body)
	}
	if d := resp.Header.Get("Content-Disposition"); d != `inline; filename="r_sum_ final;v2.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20final%3Bv2.txt` {
		t.Errorf("disposition %q", d)
	}
	resp, body = get(t, links.URL("c1", "sub dir/a b.txt"), nil)
	if resp.StatusCode != 200 || body != "spaces" {
		t.Errorf("nested name: %d %q", resp.StatusCode, body)
	}
}

func TestErrorsAreJSONEnvelopes(t *testing.T) {
	srv, _ := testServer(t)
	tests := []struct {
		path   string
		status int
		typ    string
		frag   string
	}{
		{"/files/c1/missing.txt", 404, "FileNotFoundError", "no such file"},
		{"/files/c1/%2e%2e/%2e%2e/etc/passwd", 400, "ValidationError", `".." components`},
		{"/files/bad%20id/a.txt", 400, "ValidationError", "conversation ID"},
		{"/files/c1/a%00b", 400, "ValidationError", "NUL"},
		{"/nowhere", 404, "FileNotFoundError", "Route not found"},
	}
	for _, tt := range tests {
		resp, body := get(t, srv.URL+tt.path, nil)
		var env struct {
			Success bool
			Error   struct{ Type, Message string }
		}
		if err := json.Unmarshal([]byte(body), &env); err != nil {
			t.Errorf("%s: not JSON: %q", tt.path, body)
			continue
		}
		if resp.StatusCode != tt.status || env.Success || env.Error.Type != tt.typ || !strings.Contains(env.Error.Message, tt.frag) {
			t.Errorf("%s: %d %+v", tt.path, resp.StatusCode, env)
		}
	}
	resp, body := get(t, srv.URL+"/healthz", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"status":"ok"`) {
		t.Errorf("healthz: %d %s", resp.StatusCode, body)
	}
}

func TestLinkRefusesOtherMethods(t *testing.T) {
	srv, store := testServer(t)
	put(t, store, "c1", "a.txt", []byte("keep me"))
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		req, _ := http.NewRequest(m, srv.URL+"/files/c1/a.txt", strings.NewReader("overwrite"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d allow=%q", m, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
	if _, body := get(t, srv.URL+"/files/c1/a.txt", nil); body != "keep me" {
		t.Errorf("file changed to %q", body)
	}
}
