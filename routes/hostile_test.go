package routes

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"convfiles/internal/hostile"
)

// TestHostileLinks requests every hostile name and conversation ID through
// the link route, each percent-encoded once, plus raw traversal paths sent
// byte for byte: none may answer with the canary, and none may succeed
// except literal names that really exist inside the conversation.
func TestHostileLinks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	fx := hostile.NewFixture(t, dir)
	store := fx.OpenStore(t)
	srv := httptest.NewServer(New(Config{Store: store}))
	defer srv.Close()

	var paths []string
	for _, c := range hostile.Names() {
		var segs []string
		for _, s := range strings.Split(c.Name, "/") {
			segs = append(segs, url.PathEscape(s))
		}
		paths = append(paths, "/files/"+hostile.Conversation+"/"+strings.Join(segs, "/"))
		paths = append(paths, "/files/"+hostile.Conversation+"/"+url.PathEscape(c.Name))
	}
	for _, id := range hostile.ConversationIDs() {
		paths = append(paths, "/files/"+url.PathEscape(id)+"/canary.txt")
	}
	paths = append(paths,
		"/files/c1/../c1-sibling/canary.txt",
		"/files/c1/%2e%2e/c1-sibling/canary.txt",
		"/files/c1/%2E%2E%2Fc1-sibling%2Fcanary.txt",
		"/files/c1/..%2fc1-sibling%2fcanary.txt",
		"/files/c1/%252e%252e/c1-sibling/canary.txt",
		"/files/c1/%25%32%65%25%32%65/x",
		"/files/c1-sibling/../c1/link-file",
		"/files/c1/link-out/secret.txt",
		"/files/c1/sub%5c..%5c..%5cc1-sibling%5ccanary.txt",
		"/files/c1/%c0%ae%c0%ae/c1-sibling/canary.txt",
		"/files/c1//etc/passwd",
		"/files/..%2f..%2f/etc/passwd",
		"/files/c1/%00",
	)
	for _, p := range paths {
		status, body := rawGet(t, srv, p)
		if strings.Contains(body, hostile.Secret) {
			t.Fatalf("GET %s leaked the canary", p)
		}
		if status < 400 || status >= 500 {
			t.Errorf("GET %s: status %d, want a 4xx error: %s", p, status, body)
		}
		if !strings.Contains(body, `"success":false`) {
			t.Errorf("GET %s: not a JSON error envelope: %q", p, body)
		}
	}
	if n := len(paths); n < 40 {
		t.Fatalf("only %d hostile requests", n)
	}
	fx.CheckUntouched(t)
}

// rawGet sends path exactly as given, without the client cleaning it.
func rawGet(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = path
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %q: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
