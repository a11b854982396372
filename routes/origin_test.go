package routes

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/storetest"
	"convfiles/runtime"
)

// newGuardedServer serves the API, the code routes and a stand-in /mcp on a
// loopback port, and reports whether a request reached the /mcp handler.
func newGuardedServer(t *testing.T, access Access) (base string, store *engine.Store, mcpHits *int) {
	t.Helper()
	store, _ = storetest.Open(t, t.TempDir(), engine.Options{Bus: files.NewBus()})
	hits := 0
	h := New(Config{Store: store, API: true, Links: Links{Base: "http://127.0.0.1:8080"},
		Runner: runtime.New(runtime.Config{}), ScriptFiles: true, Access: access,
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ })})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Shutdown(); srv.Close() })
	return srv.URL, store, &hits
}

// send makes a request as a browser or a client would: headers["Host"]
// replaces the Host header.
func send(t *testing.T, base, method, path, ctype, body string, headers map[string]string) *http.Response {
	t.Helper()
	r, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	for k, v := range headers {
		if k == "Host" {
			r.Host = v
		} else {
			r.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestForeignPagesAreRefused sends what a browser sends for another site's
// page (its Origin, Sec-Fetch-Site, a "simple" Content-Type needing no
// preflight) and what a DNS-rebinding page sends (its own name in Host):
// each is refused before a handler runs, and nothing is written.
func TestForeignPagesAreRefused(t *testing.T) {
	base, store, mcpHits := newGuardedServer(t, Access{})
	conv := "victim"
	write(t, store, conv, "secret.txt", "v1")
	info := write(t, store, conv, "secret.txt", "s3cret")
	if info.ID == "" {
		t.Fatal("the store has no index")
	}
	type req struct {
		name, method, path, ctype, body string
		headers                         map[string]string
		status                          int
		typ                             string
	}
	cross := map[string]string{"Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"}
	sameSite := map[string]string{"Origin": "http://127.0.0.1:3000", "Sec-Fetch-Site": "same-site"}
	oldBrowser := map[string]string{"Origin": "http://evil.test"}
	rebound := map[string]string{"Host": "evil.test:8080", "Origin": "http://evil.test:8080", "Sec-Fetch-Site": "same-origin"}
	script := `{"code": "write_file('pwned.txt', 'x')", "conversationId": "victim", "language": "js"}`
	for _, c := range []req{
		{"execute as text/plain", "POST", "/execute", "text/plain", script, cross, 403, "OriginError"},
		{"execute from another port", "POST", "/execute", "application/json", script, sameSite, 403, "OriginError"},
		{"execute from a browser without Sec-Fetch-Site", "POST", "/execute", "text/plain", script, oldBrowser, 403, "OriginError"},
		{"lint", "POST", "/lint", "text/plain", `{"code": "1"}`, cross, 403, "OriginError"},
		{"workspace save", "PUT", "/workspace", "application/json", `{"codeId": "x", "code": "1"}`, cross, 403, "OriginError"},
		{"upload form", "POST", "/api/files/upload?conversation=victim", "multipart/form-data; boundary=x",
			"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"pwned.txt\"\r\n\r\nx\r\n--x--\r\n", cross, 403, "OriginError"},
		{"rename", "POST", "/api/files/" + info.ID + "/rename", "text/plain", `{"name": "moved.txt"}`, cross, 403, "OriginError"},
		{"restore", "POST", "/api/files/" + info.ID + "/versions/1/restore", "", "", cross, 403, "OriginError"},
		{"delete", "DELETE", "/api/files/" + info.ID, "", "", cross, 403, "OriginError"},
		{"delete conversation", "DELETE", "/api/conversations/victim", "", "", cross, 403, "OriginError"},
		{"read the listing", "GET", "/api/conversations/victim/files", "", "", cross, 403, "OriginError"},
		{"read the event stream", "GET", "/api/events", "", "", cross, 403, "OriginError"},
		{"mcp post", "POST", "/mcp", "application/json", `{}`, cross, 403, "OriginError"},
		{"mcp stream", "GET", "/mcp", "", "", oldBrowser, 403, "OriginError"},
		{"preflight", "OPTIONS", "/execute", "", "", map[string]string{"Origin": "http://evil.test", "Access-Control-Request-Method": "POST"}, 403, "OriginError"},
		{"rebinding: the page", "GET", "/", "", "", rebound, 403, "HostError"},
		{"rebinding: the listing", "GET", "/api/conversations", "", "", rebound, 403, "HostError"},
		{"rebinding: a link", "GET", "/files/victim/secret.txt", "", "", rebound, 403, "HostError"},
		{"rebinding: execute", "POST", "/execute", "application/json", script, rebound, 403, "HostError"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := send(t, base, c.method, c.path, c.ctype, c.body, c.headers)
			var env envelopeOf[any]
			decode(t, resp, &env)
			if resp.StatusCode != c.status || env.Error.Type != c.typ || env.Error.Message == "" {
				t.Fatalf("%d %+v, want %d %s", resp.StatusCode, env.Error, c.status, c.typ)
			}
			if resp.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Fatalf("a CORS header with no allow-list: %v", resp.Header)
			}
		})
	}
	if *mcpHits != 0 {
		t.Fatalf("/mcp handler ran %d times for foreign requests", *mcpHits)
	}
	sp, _ := store.Space(conv)
	defer sp.Close()
	list, _ := sp.List(context.Background())
	if len(list) != 1 || list[0].Name != "secret.txt" {
		t.Fatalf("the conversation changed: %+v", list)
	}
}

// TestOwnPageAndNonBrowserClientsAreServed: the page's own requests (same
// origin), clients that are not browsers (no Origin), links embedded by
// other sites, and origins on the CORS allow-list all get through.
func TestOwnPageAndNonBrowserClientsAreServed(t *testing.T) {
	base, store, mcpHits := newGuardedServer(t, Access{Hosts: []string{"files.example"}, CORSOrigins: []string{"https://chat.example"}})
	write(t, store, "c", "chart.txt", "hello")
	own := strings.TrimPrefix(base, "http://")
	for _, c := range []struct {
		name, method, path, ctype, body string
		headers                         map[string]string
		status                          int
	}{
		{"curl execute", "POST", "/execute", "application/json", `{"code": "1+1", "language": "js"}`, nil, 200},
		{"own page execute", "POST", "/execute", "application/json", `{"code": "1+1", "language": "js"}`,
			map[string]string{"Origin": base, "Sec-Fetch-Site": "same-origin"}, 200},
		{"own page under localhost", "GET", "/api/conversations", "", "",
			map[string]string{"Host": strings.Replace(own, "127.0.0.1", "localhost", 1), "Sec-Fetch-Site": "same-origin"}, 200},
		{"configured host", "GET", "/healthz", "", "", map[string]string{"Host": "files.example"}, 200},
		{"a link embedded by another site", "GET", "/files/c/chart.txt", "", "",
			map[string]string{"Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"}, 200},
		{"allowed origin", "POST", "/execute", "application/json", `{"code": "2", "language": "js"}`,
			map[string]string{"Origin": "https://chat.example", "Sec-Fetch-Site": "cross-site"}, 200},
		{"allowed origin's preflight", "OPTIONS", "/execute", "", "",
			map[string]string{"Origin": "https://chat.example", "Access-Control-Request-Method": "POST"}, 204},
		{"mcp from a client", "POST", "/mcp", "application/json", `{}`, nil, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := send(t, base, c.method, c.path, c.ctype, c.body, c.headers)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Fatalf("%d, want %d", resp.StatusCode, c.status)
			}
			if o := c.headers["Origin"]; o == "https://chat.example" && resp.Header.Get("Access-Control-Allow-Origin") != o {
				t.Fatalf("no CORS header for an allowed origin: %v", resp.Header)
			}
		})
	}
	if *mcpHits != 1 {
		t.Fatalf("/mcp handler ran %d times, want 1", *mcpHits)
	}
}

// TestJSONEndpointsTakeOnlyJSON: a body a page can send without a
// preflight (text/plain, a form) is refused with 415 on every JSON route.
func TestJSONEndpointsTakeOnlyJSON(t *testing.T) {
	e := newCodeEnv(t, nil)
	api := newAPIEnv(t, engine.Options{})
	info := write(t, api.store, "c", "a.txt", "a")
	for _, path := range []string{"/execute", "/lint", "/workspace", "/api/files/" + info.ID + "/rename", "/api/files/" + info.ID + "/copy"} {
		base := e.srv.URL
		if strings.HasPrefix(path, "/api/") {
			base = api.srv.URL
		}
		for _, ctype := range []string{"text/plain", "application/x-www-form-urlencoded", ""} {
			method := "POST"
			if path == "/workspace" {
				method = "PUT"
			}
			r, _ := http.NewRequest(method, base+path, strings.NewReader(`{"code": "1", "codeId": "x", "name": "b.txt"}`))
			if ctype != "" {
				r.Header.Set("Content-Type", ctype)
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			var env envelopeOf[any]
			decode(t, resp, &env)
			want := http.StatusUnsupportedMediaType
			if strings.HasPrefix(path, "/api/") {
				want = http.StatusBadRequest
			}
			if resp.StatusCode != want || !strings.Contains(env.Error.Message, "application/json") {
				t.Errorf("%s %s as %q: %d %+v", method, path, ctype, resp.StatusCode, env.Error)
			}
		}
	}
	sp, _ := api.store.Space("c")
	defer sp.Close()
	if list, _ := sp.List(context.Background()); len(list) != 1 {
		t.Fatalf("a refused request changed files: %+v", list)
	}
}
