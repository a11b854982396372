package routes

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/engine"
)

// sessionCall sends a request riding on a session cookie, with an optional
// X-CSRF-Token, and returns the status, the body and the answer's cookies.
func (e *hostedEnv) sessionCall(method, path, cookie, csrf, body string) (int, string, []*http.Cookie) {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
	}
	if csrf != "" {
		req.Header.Set(csrfHeader, csrf)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(raw), resp.Cookies()
}

// TestSessionCookieAndCSRF: signing in takes a token, never an API key or
// a bad token, and answers an HttpOnly, SameSite=Strict cookie and a CSRF
// token; a change riding on the cookie needs that CSRF token, a read does
// not; signing out expires the cookie.
func TestSessionCookieAndCSRF(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello\n")
	e.write("acme-1", "b.txt", "bye\n")
	key, _ := e.key(auth.Read|auth.Write, "acme-")
	p, _ := e.auth.Authenticate(context.Background(), key)
	tok, err := e.auth.Mint(p, auth.TokenRequest{TTL: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for what, body := range map[string]string{"an API key": `{"token": "` + key + `"}`, "a bad token": `{"token": "eyJhbGciOi.x.y"}`,
		"an unknown field": `{"token": "` + tok.Token + `", "remember": true}`} {
		if status, out, cookies := e.sessionCall("POST", "/api/session", "", "", body); status < 400 || len(cookies) > 0 {
			t.Errorf("sign-in with %s: %d %s %v", what, status, out, cookies)
		}
	}
	status, out, cookies := e.sessionCall("POST", "/api/session", "", "", `{"token": "`+tok.Token+`"}`)
	var signedIn struct {
		Result struct{ CSRFToken, Scopes, Tenant string }
	}
	json.Unmarshal([]byte(strings.ReplaceAll(out, "csrf_token", "csrftoken")), &signedIn)
	if status != 200 || len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode ||
		cookies[0].Value != tok.Token || signedIn.Result.CSRFToken == "" || signedIn.Result.Tenant != "acme-" {
		t.Fatalf("sign-in: %d %s %+v", status, out, cookies)
	}
	csrf := signedIn.Result.CSRFToken
	if status, out, _ := e.sessionCall("GET", "/api/conversations/acme-1/files", tok.Token, "", ""); status != 200 {
		t.Fatalf("a read on the cookie: %d %s", status, out)
	}
	id := mustID(t, e.store, "acme-1", "a.txt")
	for what, header := range map[string]string{"no CSRF token": "", "another session's": e.srvCSRF("not-this-session")} {
		status, out, _ := e.sessionCall("DELETE", "/api/files/"+id, tok.Token, header, "")
		if status != 403 || !strings.Contains(out, csrfHeader) {
			t.Errorf("DELETE on the cookie with %s: %d %s", what, status, out)
		}
	}
	if _, err := e.store.FileByID(context.Background(), id); err != nil {
		t.Fatalf("a refused DELETE deleted: %v", err)
	}
	if status, out, _ := e.sessionCall("DELETE", "/api/files/"+id, tok.Token, csrf, ""); status != 200 {
		t.Fatalf("DELETE with the session's CSRF token: %d %s", status, out)
	}
	status, _, cookies = e.sessionCall("DELETE", "/api/session", tok.Token, csrf, "")
	if status != 200 || len(cookies) != 1 || cookies[0].MaxAge >= 0 || cookies[0].Value != "" {
		t.Fatalf("sign-out: %d %+v", status, cookies)
	}
}

// srvCSRF is the CSRF token the server would give a session of cred.
func (e *hostedEnv) srvCSRF(cred string) string {
	return (&Server{auth: e.auth}).csrfToken(cred)
}

// TestSessionInLocalMode: a local server has nothing to sign in to; its
// session is the local user's, without a CSRF token.
func TestSessionInLocalMode(t *testing.T) {
	e := newAPIEnv(t, engine.Options{})
	resp, err := http.Post(e.srv.URL+"/api/session", "application/json", strings.NewReader(`{"token": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("sign-in on a local server: %d", resp.StatusCode)
	}
	resp, err = http.Get(e.srv.URL + "/api/session")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(raw), `"hosted":false`) || strings.Contains(string(raw), "csrf_token") {
		t.Fatalf("GET /api/session on a local server: %d %s", resp.StatusCode, raw)
	}
}

// TestMintTokenRefusals: only an API key mints, never more than it holds,
// for no longer than a day; a body with a misspelt field, bad JSON or more
// than 64 KiB is refused with what to send.
func TestMintTokenRefusals(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello\n")
	key, _ := e.key(auth.Read|auth.Write, "acme-")
	p, _ := e.auth.Authenticate(context.Background(), key)
	tok, _ := e.auth.Mint(p, auth.TokenRequest{})
	big := `{"conversations": ["` + strings.Repeat("a", 70<<10) + `"]}`
	for _, c := range []struct {
		what, cred, body string
		status           int
		says             string
	}{
		{"a token minting", tok.Token, `{}`, 403, "only an API key"},
		{"more scopes than the key", key, `{"scopes": ["read", "execute"]}`, 403, "at most its key's scopes"},
		{"an unknown scope", key, `{"scopes": "read fly"}`, 400, "scopes are read, write, execute and admin"},
		{"over a day", key, `{"ttl_seconds": 90000}`, 400, "from 1s to 24h"},
		{"a TTL whose nanoseconds wrap", key, `{"ttl_seconds": 18446744074}`, 400, "ttl_seconds is out of range"},
		{"a negative TTL", key, `{"ttl_seconds": -5}`, 400, "ttl_seconds is out of range"},
		{"a misspelt field", key, `{"ttl": 60}`, 400, `unknown field "ttl"`},
		{"not JSON", key, `{"scopes": `, 400, "send a JSON body like"},
		{"over 64 KiB", key, big, 413, "larger than 64 KiB"},
		{"another tenant's conversation", key, `{"conversations": ["other-1"]}`, 404, "no such conversation"},
	} {
		status, env, _ := e.call("POST", "/api/tokens", c.cred, "application/json", []byte(c.body))
		if status != c.status || !strings.Contains(env.Error.Message, c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.what, status, env.raw, c.status, c.says)
		}
	}
	status, env, h := e.call("POST", "/api/tokens", key, "application/json", []byte(`{"scopes": "read", "ttl_seconds": 60}`))
	if status != 200 || h.Get("Cache-Control") != "no-store" || !strings.Contains(env.raw, `"expires_at"`) {
		t.Fatalf("a good mint: %d %s %v", status, env.raw, h)
	}
}

// TestPerCredentialRateLimit: past its requests a minute a credential
// gets 429 with Retry-After; another credential goes on.
func TestPerCredentialRateLimit(t *testing.T) {
	e := newHostedEnv(t, func(c *Config) { c.RateLimits.PerCredential = 3 })
	busy, _ := e.key(auth.Read, "acme-")
	calm, _ := e.key(auth.Read, "acme-")
	for i := 0; i < 3; i++ {
		if status, env, _ := e.call("GET", "/api/conversations", busy, "", nil); status != 200 {
			t.Fatalf("request %d: %d %s", i+1, status, env.raw)
		}
	}
	status, env, h := e.call("GET", "/api/conversations", busy, "", nil)
	if status != 429 || h.Get("Retry-After") == "" || !strings.Contains(env.Error.Message, "this credential") {
		t.Fatalf("the 4th request: %d %s", status, env.raw)
	}
	if status, _, _ := e.call("GET", "/api/conversations", calm, "", nil); status != 200 {
		t.Fatalf("another credential: %d", status)
	}
}

// TestRenameBodyOver64KiB: a rename body past 64 KiB is refused as too
// large, not cut and misread; the file keeps its name.
func TestRenameBodyOver64KiB(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello\n")
	key, _ := e.key(auth.Read|auth.Write, "acme-")
	id := mustID(t, e.store, "acme-1", "a.txt")
	body := `{"name": "` + strings.Repeat("b", 70<<10) + `.txt"}`
	status, env, _ := e.call("POST", "/api/files/"+id+"/rename", key, "application/json", []byte(body))
	if status != 413 || !strings.Contains(env.Error.Message, "larger than 64 KiB") {
		t.Fatalf("a 70 KiB rename body: %d %s", status, env.raw)
	}
	if mustID(t, e.store, "acme-1", "a.txt") != id {
		t.Fatal("the file was renamed")
	}
}
