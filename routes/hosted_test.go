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
	"convfiles/files"
	"convfiles/internal/links"
	"convfiles/internal/signing"
	"convfiles/internal/storetest"
	"convfiles/runtime"
)

// hostedEnv is a hosted server on a loopback port: every request needs a
// credential, links are signed.
type hostedEnv struct {
	t      *testing.T
	srv    *httptest.Server
	store  *files.Store
	auth   *auth.Authenticator
	signer *links.Signer
}

func newHostedEnv(t *testing.T) *hostedEnv {
	t.Helper()
	store, _ := storetest.Open(t, filepath.Join(t.TempDir(), "files"), files.Options{Bus: files.NewBus()})
	k, err := signing.Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	e := &hostedEnv{t: t, store: store}
	e.auth = &auth.Authenticator{Keys: store.Index().(auth.KeyStore), Ring: signing.Keyring{k}}
	e.signer = &links.Signer{Keys: e.auth.Ring}
	e.srv = httptest.NewUnstartedServer(nil)
	base := "http://" + e.srv.Listener.Addr().String()
	work, err := files.OpenDir(filepath.Join(t.TempDir(), "workspace"), files.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { work.Close() })
	h := New(Config{Store: store, API: true, Auth: e.auth, Links: Links{Base: base, Sign: e.signer},
		Runner: runtime.New(runtime.Config{}), ScriptFiles: true, Workspace: work})
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

// TestHostedRefusesWhoMayNot: in hosted mode each credential reaches what
// it may and nothing else; every refusal is a JSON envelope, and another
// tenant's conversation answers exactly as a missing one.
func TestHostedRefusesWhoMayNot(t *testing.T) {
	e := newHostedEnv(t)
	ctx := context.Background()
	e.write("acme-1", "a.txt", "hello\n")
	right, _ := e.key(auth.Read|auth.Write|auth.Execute, "acme-")
	executeOnly, _ := e.key(auth.Execute, "acme-")
	readOnly, _ := e.key(auth.Read, "acme-")
	otherTenant, _ := e.key(auth.AllScopes&^auth.Admin, "other-")
	revoked, revokedKey := e.key(auth.Read|auth.Write, "acme-")
	if err := e.auth.Keys.RevokeKey(ctx, revokedKey.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	rightP, _ := e.auth.Authenticate(ctx, right)
	past := time.Now().Add(-2 * time.Hour)
	e.auth.Now = func() time.Time { return past }
	expired, err := e.auth.Mint(rightP, auth.TokenRequest{TTL: time.Hour})
	e.auth.Now = nil
	if err != nil {
		t.Fatal(err)
	}
	rec, err := e.store.FileByID(mustID(t, e.store, "acme-1", "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	type route struct {
		method, path, ctype string
		body                string
		need                auth.Scope
	}
	routes := []route{
		{"GET", "/api/conversations", "", "", auth.Read},
		{"GET", "/api/conversations/acme-1/files", "", "", auth.Read},
		{"GET", "/api/files/" + rec.ID, "", "", auth.Read},
		{"GET", "/api/files/" + rec.ID + "/download", "", "", auth.Read},
		{"GET", "/api/files/" + rec.ID + "/versions", "", "", auth.Read},
		{"POST", "/api/conversations/acme-1/ops/read_text", "application/json", `{"id":"a.txt"}`, auth.Read},
		{"POST", "/api/conversations/acme-1/ops/write_text", "application/json", `{"id":"b.txt","content":"x"}`, auth.Write},
		{"POST", "/api/files/" + rec.ID + "/copy", "application/json", `{"name":"c.txt"}`, auth.Write},
		{"GET", "/api/events?conversation=acme-1&last_event_id=0", "", "", auth.Read},
		{"POST", "/execute", "application/json", `{"code":"1+1","conversationId":"acme-1"}`, auth.Execute},
		{"POST", "/lint", "application/json", `{"code":"1+1"}`, auth.Execute},
		{"PUT", "/workspace", "application/json", `{"codeId":"c1","code":"1"}`, auth.Execute},
	}
	creds := []struct {
		name, cred string
		want       func(r route) int
	}{
		{"no credential", "", func(route) int { return 401 }},
		{"garbage", "not-a-key", func(route) int { return 401 }},
		{"revoked key", revoked, func(route) int { return 401 }},
		{"expired token", expired.Token, func(route) int { return 401 }},
		{"wrong tenant", otherTenant, func(r route) int {
			if r.path == "/lint" || r.path == "/workspace" || r.path == "/api/conversations" {
				return 200 // belongs to no conversation, or lists the tenant's own
			}
			return 404
		}},
		{"read-only scope", readOnly, func(r route) int {
			if r.need == auth.Read {
				return 200
			}
			return 403
		}},
		{"right credential", right, func(route) int { return 200 }},
	}
	for _, c := range creds {
		for _, r := range routes {
			status, env, h := e.callShort(r.method, r.path, c.cred, r.ctype, []byte(r.body))
			want := c.want(r)
			if status != want {
				t.Errorf("%s %s with %s: %d %s, want %d", r.method, r.path, c.name, status, env.raw, want)
				continue
			}
			if want >= 400 && (env.Success || env.Error.Type == "" || env.Error.Message == "") {
				t.Errorf("%s %s with %s: refusal is not an envelope: %s", r.method, r.path, c.name, env.raw)
			}
			if want == 401 && !strings.Contains(h.Get("WWW-Authenticate"), "resource_metadata=") {
				t.Errorf("%s %s with %s: WWW-Authenticate %q", r.method, r.path, c.name, h.Get("WWW-Authenticate"))
			}
		}
	}
	// Another tenant's file ID, and conversation, answer as unknown ones.
	_, a, _ := e.call("GET", "/api/files/"+rec.ID, otherTenant, "", nil)
	_, b, _ := e.call("GET", "/api/files/019a0000-0000-7000-8000-000000000000", otherTenant, "", nil)
	if a.raw != strings.ReplaceAll(b.raw, "019a0000-0000-7000-8000-000000000000", rec.ID) {
		t.Errorf("another tenant's file %s differs from an unknown one %s", a.raw, b.raw)
	}
	_, a, _ = e.call("GET", "/api/conversations/acme-1/files", otherTenant, "", nil)
	_, b, _ = e.call("GET", "/api/conversations/acme-404/files", otherTenant, "", nil)
	if a.raw != strings.ReplaceAll(b.raw, "acme-404", "acme-1") {
		t.Errorf("another tenant's conversation %s differs from a missing one %s", a.raw, b.raw)
	}
	if _, env, _ := e.call("GET", "/api/conversations", otherTenant, "", nil); strings.Contains(env.raw, "acme-1") {
		t.Errorf("another tenant lists acme-1: %s", env.raw)
	}
	if status, env, _ := e.call("GET", "/api/conversations", executeOnly, "", nil); status != 403 {
		t.Errorf("a key without read lists conversations: %d %s", status, env.raw)
	}
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
func mustID(t *testing.T, store *files.Store, conv, name string) string {
	t.Helper()
	sp, err := store.Space(conv)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	rec, err := sp.Record(name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}
