package routes

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/keyrows"
	"convfiles/internal/links"
	"convfiles/internal/signing"
	"convfiles/internal/storetest"
	"convfiles/routes/mcp"
	"convfiles/runtime"
)

// hostedEnv is a hosted server on a loopback port: every request needs a
// credential, links are signed.
type hostedEnv struct {
	t      *testing.T
	srv    *httptest.Server
	store  *engine.Store
	auth   *auth.Authenticator
	signer *links.Signer
}

func newHostedEnv(t *testing.T, adjust ...func(*Config)) *hostedEnv {
	t.Helper()
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), engine.Options{Bus: files.NewBus()})
	k, err := signing.Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	e := &hostedEnv{t: t, store: store}
	e.auth = &auth.Authenticator{Keys: auth.StoredKeys(store.Index().(keyrows.Store)), Ring: signing.Keyring{k}}
	e.signer = &links.Signer{Keys: e.auth.Ring}
	e.srv = httptest.NewUnstartedServer(nil)
	base := "http://" + e.srv.Listener.Addr().String()
	work, err := engine.OpenDir(filepath.Join(t.TempDir(), "workspace"), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { work.Close() })
	lk := Links{Base: base, Sign: e.signer}
	runner := runtime.New(runtime.Config{Link: lk.URL})
	t.Cleanup(runner.Wait)
	door, err := mcp.New(mcp.Config{Store: store, Hosted: true, Link: lk.URL, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { door.Close() })
	cfg := Config{Store: store, API: true, Auth: e.auth, Links: lk, MCP: door.HTTPHandler(),
		Runner: runner, ScriptFiles: true, Workspace: work}
	for _, f := range adjust {
		f(&cfg)
	}
	h := New(cfg)
	e.srv.Config.Handler = h
	e.srv.Start()
	t.Cleanup(func() { h.Shutdown(); e.srv.Close() })
	return e
}

// key stores a new API key and returns it.
func (e *hostedEnv) key(scopes auth.Scope, tenant string) (string, auth.Key) {
	e.t.Helper()
	secret, k, err := auth.NewKey("test", scopes, tenant, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.auth.Keys.CreateKey(context.Background(), k); err != nil {
		e.t.Fatal(err)
	}
	return secret, k
}

// write puts a file into a conversation.
func (e *hostedEnv) write(conv, name, content string) {
	e.t.Helper()
	sp, err := e.store.Space(conv)
	if err != nil {
		e.t.Fatal(err)
	}
	defer sp.Close()
	if _, err := sp.WriteBytes(context.Background(), name, []byte(content), files.WriteOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

// call sends a request with an optional bearer credential and returns the
// status and the decoded envelope.
func (e *hostedEnv) call(method, path, cred, ctype string, body []byte) (int, envelopeJSON, http.Header) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if strings.HasPrefix(path, "/mcp") {
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var env envelopeJSON
	json.Unmarshal(raw, &env)
	env.raw = string(raw)
	return resp.StatusCode, env, resp.Header
}

type envelopeJSON struct {
	Success bool `json:"success"`
	Error   struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

// callShort is call for routes that may stream (events): it reads the
// status and at most the first event.
func (e *hostedEnv) callShort(method, path, cred, ctype string, body []byte) (int, envelopeJSON, http.Header) {
	if !strings.HasPrefix(path, "/api/events") {
		return e.call(method, path, cred, ctype, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, e.srv.URL+path, nil)
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var env envelopeJSON
	if resp.StatusCode != 200 {
		raw, _ := io.ReadAll(resp.Body)
		json.Unmarshal(raw, &env)
		env.raw = string(raw)
	}
	return resp.StatusCode, env, resp.Header
}

// TestSignedLinksInHostedMode: a file's link from the API is signed and
// opens without a credential; altered, expired or unsigned, it is refused
// with 403.
func TestSignedLinksInHostedMode(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello\n")
	right, _ := e.key(auth.Read, "acme-")
	var out struct {
		Result struct {
			Files []struct {
				URL string `json:"url"`
			} `json:"files"`
		} `json:"result"`
	}
	_, env, _ := e.call("GET", "/api/conversations/acme-1/files", right, "", nil)
	if err := json.Unmarshal([]byte(env.raw), &out); err != nil || len(out.Result.Files) != 1 {
		t.Fatalf("listing: %s", env.raw)
	}
	link, _ := url.Parse(out.Result.Files[0].URL)
	if link.Query().Get("sig") == "" {
		t.Fatalf("unsigned link %s", link)
	}
	resp, err := http.Get(link.String())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(got) != "hello\n" {
		t.Fatalf("signed link: %d %q", resp.StatusCode, got)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("a tenant's file says Cache-Control %q: a shared cache could keep it", cc)
	}
	far := (&links.Signer{Keys: e.signer.Keys, TTL: 10 * 365 * 24 * time.Hour}).Query("acme-1", "a.txt")
	if status, env, _ := e.call("GET", "/files/acme-1/a.txt?"+far, "", "", nil); status != 403 || !strings.Contains(env.raw, "7 days") {
		t.Errorf("a link signed for ten years: %d %s", status, env.raw)
	}
	q := link.Query()
	tampered := *link
	q2 := url.Values{"exp": q["exp"], "kid": q["kid"], "sig": q["sig"]}
	tampered.Path = "/files/acme-1/b.txt"
	tampered.RawQuery = q2.Encode()
	unsigned := *link
	unsigned.RawQuery = ""
	past := time.Now().Add(-3 * time.Hour)
	old := &links.Signer{Keys: e.signer.Keys, Now: func() time.Time { return past }}
	expired := e.srv.URL + "/files/acme-1/a.txt?" + old.Query("acme-1", "a.txt")
	for what, u := range map[string]string{"tampered": tampered.String(), "unsigned": unsigned.String(), "expired": expired} {
		status, env, _ := e.call("GET", strings.TrimPrefix(u, e.srv.URL), "", "", nil)
		if status != 403 || env.Error.Type != "PermissionError" {
			t.Errorf("%s link: %d %s", what, status, env.raw)
		}
	}
}

// mustID is the index ID of a file.
func mustID(t *testing.T, store *engine.Store, conv, name string) string {
	t.Helper()
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	rec, err := sp.Record(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}
