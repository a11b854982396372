package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/files"
)

// TestConversationTokens: a key mints a token with at most its own scopes
// and conversations; the token works until it expires or its key is
// revoked, and an altered token never does.
func TestConversationTokens(t *testing.T) {
	ctx := context.Background()
	a, now := newAuthenticator(t)
	secret, k := addKey(t, a, auth.Read|auth.Write|auth.Execute, "acme-")
	key, err := a.Authenticate(ctx, secret)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := a.Mint(key, auth.TokenRequest{Scopes: auth.Read, Conversations: []string{"acme-7"}, TTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Authenticate(ctx, tok.Token)
	if err != nil || !strings.HasPrefix(p.ID, "token:"+k.ID+":") || p.Scopes != auth.Read || len(p.Conversations) != 1 || p.Conversations[0] != "acme-7" {
		t.Fatalf("token principal %+v, %v", p, err)
	}
	again, _ := a.Mint(key, auth.TokenRequest{Scopes: auth.Read, Conversations: []string{"acme-7"}, TTL: time.Minute})
	if p2, err := a.Authenticate(ctx, again.Token); err != nil || p2.ID == p.ID || p2.Key != p.Key {
		t.Fatalf("two tokens of one key: %q and %q (%v): each needs its own ID, both the key's", p.ID, p2.ID, err)
	}
	wantKind(t, "token writes", p.Allow("acme-7", auth.Write), files.KindForbidden)
	wantKind(t, "token elsewhere in its tenant", p.Allow("acme-8", auth.Read), files.KindNotFound)

	parts := strings.Split(tok.Token, ".")
	for what, bad := range map[string]string{
		"payload altered":   parts[0] + "." + parts[1] + "x." + parts[2],
		"signature dropped": parts[0] + "." + parts[1] + ".",
		"alg none":          "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + ".",
	} {
		_, err := a.Authenticate(ctx, bad)
		wantKind(t, what, err, files.KindUnauthenticated)
	}

	for what, req := range map[string]auth.TokenRequest{
		"more scopes than the key": {Scopes: auth.Admin, Conversations: []string{"acme-1"}},
		"a tenant outside the key": {Tenant: "other-"},
		"too long a life":          {TTL: 48 * time.Hour},
	} {
		_, err := a.Mint(key, req)
		if err == nil {
			t.Errorf("%s: minted", what)
		}
	}
	_, err = a.Mint(key, auth.TokenRequest{Conversations: []string{"other-1"}})
	wantKind(t, "a conversation outside the key", err, files.KindNotFound)
	_, err = a.Mint(p, auth.TokenRequest{})
	wantKind(t, "a token minting", err, files.KindForbidden)
	inherits, err := a.Mint(key, auth.TokenRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if q, err := a.Authenticate(ctx, inherits.Token); err != nil || q.Tenant != "acme-" || q.Scopes != auth.Read|auth.Write|auth.Execute {
		t.Fatalf("a token asking nothing gets its key's binding and scopes: %+v, %v", q, err)
	}

	*now = now.Add(2 * time.Minute)
	_, err = a.Authenticate(ctx, tok.Token)
	wantKind(t, "expired", err, files.KindUnauthenticated)
	*now = now.Add(-2 * time.Minute)
	if err := a.Keys.RevokeKey(ctx, k.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, err = a.Authenticate(ctx, tok.Token)
	wantKind(t, "key revoked", err, files.KindUnauthenticated)
}

// TestUnboundKeyNamesConversations: a key that reaches every conversation
// must say which ones a token is for.
func TestUnboundKeyNamesConversations(t *testing.T) {
	a, _ := newAuthenticator(t)
	secret, _ := addKey(t, a, auth.Admin, "")
	key, err := a.Authenticate(context.Background(), secret)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Mint(key, auth.TokenRequest{})
	wantKind(t, "unbound token", err, files.KindInvalid)
	tok, err := a.Mint(key, auth.TokenRequest{Tenant: "team-"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Authenticate(context.Background(), tok.Token)
	if err != nil || p.Tenant != "team-" || p.Scopes.Has(auth.Admin) {
		t.Fatalf("admin key's token: %+v, %v (a token never gets admin unless asked)", p, err)
	}
}
