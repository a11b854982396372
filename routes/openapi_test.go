package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/internal/keyrows"
	"convfiles/internal/metrics"
	"convfiles/internal/signing"
	"convfiles/internal/storetest"
	"convfiles/runtime"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/mux"
)

// loadOpenAPI loads routes/openapi.json and checks it is a valid OpenAPI
// 3.1 document.
func loadOpenAPI(t testing.TB) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPI)
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi.json is OpenAPI %s, not 3.1.0", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not valid: %v", err)
	}
	return doc
}

// fullServer is a server with every door its router can have: the
// code routes, MCP, credentials, metrics, the API and the page.
func fullServer(t *testing.T) *Server {
	t.Helper()
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{})
	k, _ := signing.Generate("k1")
	authn := &auth.Authenticator{Keys: auth.NewKeyCache(auth.StoredKeys(store.Index().(keyrows.Store)), 0), Ring: signing.Keyring{k}}
	s := New(Config{Store: store, API: true, Runner: runtime.New(runtime.Config{}), MCP: http.NotFoundHandler(),
		Auth: authn, Metrics: metrics.New(nil)})
	t.Cleanup(s.Shutdown)
	return s
}

// TestOpenAPIDescribesEveryRoute checks the description both ways: every
// route of the router (and the links, which are served before it) is in
// it with its methods, and every operation in it is routed. The web
// page's own files are the page, not the API.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	doc := loadOpenAPI(t)
	s := fullServer(t)
	routed := map[string]bool{"GET /files/{conversation}/{name}": true, "HEAD /files/{conversation}/{name}": true}
	err := s.router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		if err != nil || path == "/" || isPageAsset(path) {
			return nil
		}
		methods, err := route.GetMethods()
		if err != nil { // a subrouter's prefix, or a route of every method (MCP's)
			if re, _ := route.GetPathRegexp(); !strings.HasSuffix(re, "$") {
				return nil
			}
			methods = []string{http.MethodGet, http.MethodPost, http.MethodDelete}
		}
		for _, m := range methods {
			if m != http.MethodOptions {
				routed[m+" "+path] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			described[method+" "+path] = true
		}
	}
	for _, r := range sortedKeys(routed) {
		if !described[r] {
			t.Errorf("the router has %s; openapi.json does not describe it", r)
		}
	}
	for _, d := range sortedKeys(described) {
		if !routed[d] {
			t.Errorf("openapi.json describes %s; the router has no such route", d)
		}
	}

	// Each operation, sent, reaches a handler: neither the router's 404
	// nor its 405.
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, d := range sortedKeys(described) {
		method, path, _ := strings.Cut(d, " ")
		url := srv.URL + strings.NewReplacer("{conversation}", "c1", "{id}", "x", "{version}", "1", "{op}", "read_text", "{name}", "a.txt").Replace(path)
		req, _ := http.NewRequest(method, url, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusMethodNotAllowed || bytes.Contains(b, []byte(`"Route not found"`)) {
			t.Errorf("%s %s: %d %s: described but not routed", method, path, resp.StatusCode, b)
		}
	}
}

// TestOpenAPIIsServed: GET /openapi.json answers the document, without a
// credential, as the repository keeps it.
func TestOpenAPIIsServed(t *testing.T) {
	srv := httptest.NewServer(fullServer(t))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(b, &v) != nil || !bytes.Equal(b, openAPI) {
		t.Fatalf("%d %s: %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return slices.Clip(out)
}
