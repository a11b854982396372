package routes

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
)

// firstEvent opens the event stream of all conversations with cred and
// returns a function that reads the data of the next event.
func (e *hostedEnv) firstEvent(cred string) func() string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	e.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+cred)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("event stream: %v %v", resp, err)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	r := bufio.NewReader(resp.Body)
	return func() string {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return "stream ended: " + err.Error()
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok && data != "{}\n" {
				return data
			}
		}
	}
}

// TestEventsStayWithTheirTenant: a stream of all conversations carries
// only the events of the credential's own tenant.
func TestEventsStayWithTheirTenant(t *testing.T) {
	e := newHostedEnv(t)
	acme, _ := e.key(auth.Read, "acme-")
	other, _ := e.key(auth.Read, "other-")
	acmeNext, otherNext := e.firstEvent(acme), e.firstEvent(other)
	e.write("acme-1", "x.txt", "x")
	e.write("other-1", "x.txt", "x")
	if got := acmeNext(); !strings.Contains(got, `"conversation":"acme-1"`) {
		t.Errorf("acme's first event: %s", got)
	}
	if got := otherNext(); !strings.Contains(got, `"conversation":"other-1"`) {
		t.Errorf("other's first event is not its own: %s", got)
	}
}

// TestSavedCodeStaysWithItsTenant: code one tenant saves under a codeId
// is neither run nor overwritten by another tenant using the same codeId.
func TestSavedCodeStaysWithItsTenant(t *testing.T) {
	e := newHostedEnv(t)
	acme, _ := e.key(auth.Execute, "acme-")
	other, _ := e.key(auth.Execute, "other-")
	if status, env, _ := e.call("PUT", "/workspace", acme, "application/json", []byte(`{"codeId":"shared","code":"'acme code'"}`)); status != 200 {
		t.Fatalf("save: %d %s", status, env.raw)
	}
	status, env, _ := e.call("POST", "/execute", other, "application/json", []byte(`{"codeId":"shared"}`))
	if status != 404 || strings.Contains(env.raw, "acme code") {
		t.Fatalf("another tenant ran acme's code: %d %s", status, env.raw)
	}
	e.call("PUT", "/workspace", other, "application/json", []byte(`{"codeId":"shared","code":"'other code'"}`))
	if _, env, _ := e.call("POST", "/execute", acme, "application/json", []byte(`{"codeId":"shared"}`)); !strings.Contains(env.raw, "acme code") {
		t.Fatalf("acme's code after another tenant saved the same codeId: %s", env.raw)
	}
}

// TestLinkWithABearerCredential: an unsigned link opens with a bearer
// credential that reaches its conversation, and answers another tenant's
// credential as a missing conversation.
func TestLinkWithABearerCredential(t *testing.T) {
	e := newHostedEnv(t)
	e.write("acme-1", "a.txt", "hello\n")
	acme, _ := e.key(auth.Read, "acme-")
	other, _ := e.key(auth.Read, "other-")
	if status, env, _ := e.call("GET", "/files/acme-1/a.txt", acme, "", nil); status != 200 || env.raw != "hello\n" {
		t.Errorf("own credential: %d %q", status, env.raw)
	}
	if status, env, _ := e.call("GET", "/files/acme-1/a.txt", other, "", nil); status != 404 || env.Error.Type != "FileNotFoundError" {
		t.Errorf("another tenant's credential: %d %s", status, env.raw)
	}
	if status, _, h := e.call("GET", "/files/acme-1/a.txt", "cfk_bad", "", nil); status != 401 || h.Get("WWW-Authenticate") == "" {
		t.Errorf("a bad credential: %d", status)
	}
}

// TestResourceMetadata: the URL a 401 names serves, without a credential,
// the protected-resource metadata that tells MCP clients to send bearer
// tokens to /mcp.
func TestResourceMetadata(t *testing.T) {
	e := newHostedEnv(t)
	_, _, h := e.call("GET", "/api/conversations", "", "", nil)
	challenge := h.Get("WWW-Authenticate")
	_, rest, ok := strings.Cut(challenge, `resource_metadata="`)
	metaURL, _, _ := strings.Cut(rest, `"`)
	if !ok || !strings.HasPrefix(metaURL, e.srv.URL) {
		t.Fatalf("challenge %q", challenge)
	}
	status, env, _ := e.call("GET", strings.TrimPrefix(metaURL, e.srv.URL), "", "", nil)
	if status != 200 || !strings.Contains(env.raw, `"resource":"`+e.srv.URL+`/mcp"`) || !strings.Contains(env.raw, `"bearer_methods_supported":["header"]`) {
		t.Fatalf("metadata: %d %s", status, env.raw)
	}
}

// mintFor mints a token of key for one conversation.
func (e *hostedEnv) mintFor(key, conv, scopes string) string {
	e.t.Helper()
	status, env, _ := e.call("POST", "/api/tokens", key, "application/json", []byte(`{"scopes": "`+scopes+`", "conversations": ["`+conv+`"]}`))
	var minted struct {
		Result struct {
			Token string `json:"token"`
		} `json:"result"`
	}
	if status != 200 || json.Unmarshal([]byte(env.raw), &minted) != nil || minted.Result.Token == "" {
		e.t.Fatalf("mint for %s: %d %s", conv, status, env.raw)
	}
	return minted.Result.Token
}

// TestTokensOfOneKeyAreApart: two tokens a service minted from one key
// for two conversations (the documented set-up: keys for services,
// tokens for agents) each have their own rate limit, stream cap and
// saved code: one exhausting its share, or saving codeId "main", does
// nothing to the other.
func TestTokensOfOneKeyAreApart(t *testing.T) {
	e := newHostedEnv(t, func(c *Config) {
		c.RateLimits = RateLimits{PerClient: 1000, PerCodeID: 1000, Global: 1000, PerCredential: 6, EventStreamsPerClient: 1}
	})
	key, _ := e.key(auth.Read|auth.Write|auth.Execute, "beta-")
	t1, t2 := e.mintFor(key, "beta-1", "read write execute"), e.mintFor(key, "beta-2", "read write execute")
	e.write("beta-2", "private.txt", "beta-2's own")

	// T2 saves main, then T1 saves its own main.
	for _, save := range []struct{ tok, code string }{{t2, `"T2's code"`}, {t1, `"T1's code"`}} {
		status, env, _ := e.call("PUT", "/workspace", save.tok, "application/json", []byte(`{"codeId":"main","code":`+strconv.Quote(save.code)+`}`))
		if status != 200 || !strings.Contains(env.raw, `"filePath":"/workspace/conversation-beta-`) || strings.Contains(env.raw, os.TempDir()) {
			t.Fatalf("save: %d %s (the path within the workspace, never the host's)", status, env.raw)
		}
	}
	if _, env, _ := e.call("POST", "/execute", t2, "application/json", []byte(`{"codeId":"main"}`)); !strings.Contains(env.raw, "T2's code") {
		t.Fatalf("T2 ran %s, not its own saved code", env.raw)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	openStreamAs(t, ctx, e.srv.URL+"/api/events?conversation=beta-1", t1) // T1's one stream
	if status, env, _ := e.callShort("GET", "/api/events?conversation=beta-1", t1, "", nil); status != 429 {
		t.Fatalf("T1's second stream: %d %s", status, env.raw)
	}
	openStreamAs(t, ctx, e.srv.URL+"/api/events?conversation=beta-2", t2) // T2's own, not refused

	// T1 spends the rest of its 6 requests a minute, and is refused.
	refused := false
	for i := 0; i < 7 && !refused; i++ {
		status, _, _ := e.call("GET", "/api/conversations/beta-1/files", t1, "", nil)
		refused = status == 429
	}
	if !refused {
		t.Fatal("T1 was never refused past its 6 requests a minute")
	}
	if status, env, _ := e.call("GET", "/api/conversations/beta-2/files", t2, "", nil); status != 200 {
		t.Fatalf("T2 after T1 spent its share: %d %s", status, env.raw)
	}
}
