package routes

import (
	"bytes"
	"context"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/internal/links"
	"convfiles/internal/samples"
)

// hostedRoute is one route of the hosted table: what it is sent and the
// scope it needs.
type hostedRoute struct {
	method, path, ctype, body string
	need                      auth.Scope
	// tenantFree routes belong to no conversation: another tenant's
	// credential gets its own answer (200), not a refusal.
	tenantFree bool
}

// TestHostedRefusesWhoMayNot: in hosted mode every route × every kind of
// credential: only the right one gets through (a read-only one on reads);
// each refusal is a JSON envelope with its status, a 401 names the
// resource metadata, and another tenant's conversation answers exactly as
// a missing one.
func TestHostedRefusesWhoMayNot(t *testing.T) {
	e := newHostedEnv(t)
	ctx := context.Background()
	e.write("acme-1", "a.txt", "hello\n")
	e.write("acme-1", "a.txt", "hello again\n") // a.txt now has a version
	e.write("acme-1", "pixel.png", string(samples.Read(t, "sample.png")))
	e.write("acme-1", "gone.txt", "to delete\n")
	e.write("acme-2", "x.txt", "a conversation to delete\n")
	right, _ := e.key(auth.Read|auth.Write|auth.Execute, "acme-")
	readOnly, _ := e.key(auth.Read, "acme-")
	otherTenant, _ := e.key(auth.AllScopes&^auth.Admin, "other-")
	revoked, revokedKey := e.key(auth.Read|auth.Write|auth.Execute, "acme-")
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
	// Link signatures are no credential but for their own file's link.
	tamperedLink := e.signer.Query("acme-1", "other.txt")
	expiredLink := (&links.Signer{Keys: e.signer.Keys, Now: func() time.Time { return past }}).Query("acme-1", "a.txt")

	id := func(name string) string { return mustID(t, e.store, "acme-1", name) }
	a, png, gone := id("a.txt"), id("pixel.png"), id("gone.txt")
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "up.txt")
	fw.Write([]byte("uploaded\n"))
	mw.Close()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	// Changes come last, so that every credential meets the same files.
	routes := []hostedRoute{
		{method: "GET", path: "/files/acme-1/a.txt", need: auth.Read},
		{method: "GET", path: "/api/conversations", need: auth.Read, tenantFree: true},
		{method: "GET", path: "/api/conversations/acme-1/files", need: auth.Read},
		{method: "GET", path: "/api/conversations/acme-1/zip?path=a.txt", need: auth.Read},
		{method: "GET", path: "/api/files/" + a, need: auth.Read},
		{method: "GET", path: "/api/files/" + a + "/download", need: auth.Read},
		{method: "GET", path: "/api/files/" + a + "/view", need: auth.Read},
		{method: "GET", path: "/api/files/" + png + "/preview", need: auth.Read},
		{method: "GET", path: "/api/files/" + png + "/thumbnail", need: auth.Read},
		{method: "GET", path: "/api/files/" + a + "/versions", need: auth.Read},
		{method: "GET", path: "/api/files/" + a + "/versions/1/download", need: auth.Read},
		{method: "GET", path: "/api/events?conversation=acme-1&last_event_id=0", need: auth.Read},
		{method: "GET", path: "/api/session", need: auth.Read, tenantFree: true},
		{method: "POST", path: "/api/conversations/acme-1/ops/read_text", ctype: "application/json", body: `{"id":"a.txt"}`, need: auth.Read},
		{method: "POST", path: "/mcp", ctype: "application/json", body: initialize, need: auth.Read, tenantFree: true},
		{method: "POST", path: "/api/tokens", ctype: "application/json", body: `{"scopes":["read","write"],"conversations":["acme-1"]}`, need: auth.Write},
		{method: "POST", path: "/api/conversations/acme-1/ops/write_text", ctype: "application/json", body: `{"id":"b.txt","content":"x"}`, need: auth.Write},
		{method: "POST", path: "/api/conversations/acme-1/ops/zip", ctype: "application/json", body: `{"paths":["a.txt"],"name":"a.zip","replace":true}`, need: auth.Write},
		{method: "POST", path: "/api/files/upload?conversation=acme-1", ctype: mw.FormDataContentType(), body: form.String(), need: auth.Write},
		{method: "POST", path: "/api/files/" + a + "/copy", ctype: "application/json", body: `{"name":"c.txt"}`, need: auth.Write},
		{method: "POST", path: "/api/files/" + a + "/rename", ctype: "application/json", body: `{"name":"renamed.txt"}`, need: auth.Write},
		{method: "POST", path: "/api/files/" + a + "/versions/1/restore", need: auth.Write},
		{method: "DELETE", path: "/api/files/" + gone, need: auth.Write},
		{method: "DELETE", path: "/api/conversations/acme-2", need: auth.Write},
		{method: "POST", path: "/execute", ctype: "application/json", body: `{"code":"1+1","conversationId":"acme-1"}`, need: auth.Execute},
		{method: "POST", path: "/lint", ctype: "application/json", body: `{"code":"1+1"}`, need: auth.Execute, tenantFree: true},
		{method: "PUT", path: "/workspace", ctype: "application/json", body: `{"codeId":"c1","code":"1"}`, need: auth.Execute, tenantFree: true},
	}
	creds := []struct {
		name, cred, link string
		want             func(r hostedRoute) int
	}{
		{"no credential", "", "", func(r hostedRoute) int { return ifLink(r, 403, 401) }},
		{"garbage", "not-a-key", "", func(hostedRoute) int { return 401 }},
		{"revoked key", revoked, "", func(hostedRoute) int { return 401 }},
		{"expired token", expired.Token, "", func(hostedRoute) int { return 401 }},
		{"tampered link", "", tamperedLink, func(r hostedRoute) int { return ifLink(r, 403, 401) }},
		{"expired link", "", expiredLink, func(r hostedRoute) int { return ifLink(r, 403, 401) }},
		{"wrong tenant", otherTenant, "", func(r hostedRoute) int {
			if r.tenantFree {
				return 200
			}
			return 404
		}},
		{"read-only scope", readOnly, "", func(r hostedRoute) int {
			if r.need == auth.Read {
				return 200
			}
			return 403
		}},
		{"right credential", right, "", func(hostedRoute) int { return 200 }},
	}
	for _, c := range creds {
		for _, r := range routes {
			path := r.path
			if c.link != "" {
				path += map[bool]string{true: "&", false: "?"}[strings.Contains(path, "?")] + c.link
			}
			status, env, h := e.callShort(r.method, path, c.cred, r.ctype, []byte(r.body))
			want := c.want(r)
			if want == 200 && status/100 == 2 {
				status = 200 // an upload answers 201 Created
			}
			if status != want {
				t.Errorf("%s %s with %s: %d %.300s, want %d", r.method, r.path, c.name, status, env.raw, want)
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
	checkTenantSeesNothing(t, e, otherTenant, a)
}

// ifLink is the answer a route gives: onLink for a file link, else other.
func ifLink(r hostedRoute, onLink, other int) int {
	if strings.HasPrefix(r.path, "/files/") {
		return onLink
	}
	return other
}

// checkTenantSeesNothing: another tenant's file ID and conversation
// answer exactly as unknown ones, and its list holds none of them.
func checkTenantSeesNothing(t *testing.T, e *hostedEnv, otherTenant, id string) {
	t.Helper()
	_, a, _ := e.call("GET", "/api/files/"+id, otherTenant, "", nil)
	_, b, _ := e.call("GET", "/api/files/019a0000-0000-7000-8000-000000000000", otherTenant, "", nil)
	if a.raw != strings.ReplaceAll(b.raw, "019a0000-0000-7000-8000-000000000000", id) {
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
	executeOnly, _ := e.key(auth.Execute, "acme-")
	if status, env, _ := e.call("GET", "/api/conversations", executeOnly, "", nil); status != 403 {
		t.Errorf("a key without read lists conversations: %d %s", status, env.raw)
	}
}
