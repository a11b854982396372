package routes

import (
	"bufio"
	"context"
	"net/http"
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
