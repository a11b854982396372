package routes

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
)

// openStreamAs opens the event stream with a bearer credential.
func openStreamAs(t *testing.T, ctx context.Context, url, cred string) <-chan sseEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+cred)
	return streamOf(t, req)
}

// endsWithCredential reads events until the stream says its credential
// ended, then checks that nothing follows and the stream is closed.
func endsWithCredential(t *testing.T, events <-chan sseEvent, why string) {
	t.Helper()
	for {
		ev := next(t, events)
		if ev.event != "credential-ended" {
			continue
		}
		if msg, _ := ev.data["message"].(string); !strings.Contains(msg, why) {
			t.Fatalf("the stream ended saying %v, want %q", ev.data, why)
		}
		break
	}
	select {
	case ev, open := <-events:
		if open {
			t.Fatalf("an event after the credential ended: %+v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream stayed open after its credential ended")
	}
}

// TestStreamsEndWithTheirCredential: a stream opened with a token
// delivers events whose links expire with the token; a stream opened with
// a short token closes at its expiry, one opened with a key once the key
// is revoked, and nothing is delivered after. A machine so slow that a
// 2 s token expires before its stream opens gets the refusal instead,
// which is the same end.
func TestStreamsEndWithTheirCredential(t *testing.T) {
	e := newHostedEnv(t)
	key, k := e.key(auth.Read|auth.Write, "acme-")
	mint := func(ttl int) auth.Token {
		status, env, _ := e.call("POST", "/api/tokens", key, "application/json",
			[]byte(`{"scopes": ["read"], "conversations": ["acme-1"], "ttl_seconds": `+strconv.Itoa(ttl)+`}`))
		var minted struct {
			Result auth.Token `json:"result"`
		}
		if status != 200 || json.Unmarshal([]byte(env.raw), &minted) != nil {
			t.Fatalf("mint: %d %s", status, env.raw)
		}
		return minted.Result
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// Links last an hour; those a 10-minute token receives, no longer
	// than the token.
	tenMinutes := mint(600)
	byToken := openStreamAs(t, ctx, e.srv.URL+"/api/events?conversation=acme-1", tenMinutes.Token)
	e.write("acme-1", "a.txt", "one")
	ev := next(t, byToken)
	link, err := url.Parse(ev.data["url"].(string))
	if ev.event != "file:created" || err != nil {
		t.Fatalf("first event %+v", ev)
	}
	if exp, _ := strconv.ParseInt(link.Query().Get("exp"), 10, 64); exp > tenMinutes.Expires.Unix() {
		t.Errorf("an event's link expires at %d, after its token (%d)", exp, tenMinutes.Expires.Unix())
	}

	short := mint(2)
	req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/events?conversation=acme-1", nil)
	req.Header.Set("Authorization", "Bearer "+short.Token)
	resp, err := http.DefaultClient.Do(req)
	switch {
	case err != nil:
		t.Fatal(err)
	case resp.StatusCode == http.StatusUnauthorized && !time.Now().Before(short.Expires):
		resp.Body.Close()
		t.Log("the token expired before its stream opened: refused, as it should be")
	case resp.StatusCode != http.StatusOK:
		t.Fatalf("the short token's stream: %d", resp.StatusCode)
	default:
		endsWithCredential(t, eventsOf(resp), "expired")
	}
	e.write("acme-1", "b.txt", "written after the token's end")

	byKey := openStreamAs(t, ctx, e.srv.URL+"/api/events?conversation=acme-1", key)
	e.write("acme-1", "c.txt", "three")
	if ev := next(t, byKey); ev.event != "file:created" {
		t.Fatalf("the key's stream: %+v", ev)
	}
	if err := e.auth.Keys.RevokeKey(context.Background(), k.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	endsWithCredential(t, byKey, "revoked")
}

// TestMCPStreamEndsWithItsToken: an MCP session's GET stream of server
// messages, opened with a short token, is closed at the token's expiry.
// A machine so slow that the token expires before the stream opens gets
// the refusal instead, which is the same end.
func TestMCPStreamEndsWithItsToken(t *testing.T) {
	e := newHostedEnv(t)
	key, _ := e.key(auth.Read, "acme-")
	status, env, _ := e.call("POST", "/api/tokens", key, "application/json", []byte(`{"scopes": ["read"], "conversations": ["acme-1"], "ttl_seconds": 2}`))
	var minted struct {
		Result auth.Token `json:"result"`
	}
	if status != 200 || json.Unmarshal([]byte(env.raw), &minted) != nil {
		t.Fatalf("mint: %d %s", status, env.raw)
	}
	tok := minted.Result.Token
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", e.srv.URL+"/mcp", strings.NewReader(init))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized && !time.Now().Before(minted.Result.Expires) {
		t.Log("the token expired before initialize: refused, as it should be")
		return
	}
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, session)
	}
	get, _ := http.NewRequest("GET", e.srv.URL+"/mcp", nil)
	get.Header.Set("Authorization", "Bearer "+tok)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Mcp-Session-Id", session)
	get.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	stream, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode == http.StatusUnauthorized && !time.Now().Before(minted.Result.Expires) {
		t.Log("the token expired before the stream opened: refused, as it should be")
		return
	}
	if stream.StatusCode != 200 {
		t.Fatalf("GET stream: %d", stream.StatusCode)
	}
	ended := make(chan struct{})
	go func() {
		io.Copy(io.Discard, stream.Body)
		close(ended)
	}()
	select {
	case <-ended:
		if time.Now().Before(minted.Result.Expires) {
			t.Fatal("the stream closed before its token expired")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the MCP stream stayed open past its token's expiry")
	}
}
