package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/files"
	"convfiles/internal/signing"
	"convfiles/sqlite"
)

// newAuthenticator returns an Authenticator over a real (in-memory)
// SQLite index, with a clock the test moves.
func newAuthenticator(t *testing.T) (*auth.Authenticator, *time.Time) {
	t.Helper()
	ix, err := sqlite.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	k, err := signing.Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	return &auth.Authenticator{Keys: auth.StoredKeys(ix), Ring: signing.Keyring{k}, Now: func() time.Time { return now }}, &now
}

// addKey makes and stores a key, returning the secret.
func addKey(t *testing.T, a *auth.Authenticator, scopes auth.Scope, tenant string, convs ...string) (string, auth.Key) {
	t.Helper()
	secret, k, err := auth.NewKey("test", scopes, tenant, convs)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Keys.CreateKey(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	return secret, k
}

func wantKind(t *testing.T, what string, err error, kind files.Kind) {
	t.Helper()
	if files.KindOf(err) != kind || err == nil {
		t.Errorf("%s: %v (kind %v), want kind %v", what, err, files.KindOf(err), kind)
	}
}

// TestAPIKeys: a stored key authenticates as itself until revoked; an
// altered or unknown one never does, and the store holds only its hash.
func TestAPIKeys(t *testing.T) {
	ctx := context.Background()
	a, _ := newAuthenticator(t)
	secret, k := addKey(t, a, auth.Read|auth.Write, "acme-")
	if strings.Contains(k.Hash, secret) || !strings.HasPrefix(secret, auth.KeyPrefix+k.ID+"_") {
		t.Fatalf("key %q, record %+v", secret, k)
	}
	p, err := a.Authenticate(ctx, secret)
	if err != nil || p.ID != "key:"+k.ID || p.Tenant != "acme-" || p.Scopes != auth.Read|auth.Write {
		t.Fatalf("Authenticate = %+v, %v", p, err)
	}
	altered := secret[:len(secret)-1] + "A"
	if strings.HasSuffix(secret, "A") {
		altered = secret[:len(secret)-1] + "B"
	}
	for what, cred := range map[string]string{
		"altered":   altered,
		"unknown":   auth.KeyPrefix + "000000000000_" + strings.Repeat("A", 43),
		"malformed": auth.KeyPrefix + "x",
		"garbage":   "hello",
		"none":      "",
	} {
		_, err := a.Authenticate(ctx, cred)
		wantKind(t, what, err, files.KindUnauthenticated)
	}
	stored, err := a.Keys.Key(ctx, k.ID)
	if err != nil || stored.Hash != k.Hash || stored.Scopes != k.Scopes || stored.Tenant != "acme-" {
		t.Fatalf("stored %+v, %v", stored, err)
	}
	if err := a.Keys.RevokeKey(ctx, k.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, err = a.Authenticate(ctx, secret)
	wantKind(t, "revoked", err, files.KindUnauthenticated)
	wantKind(t, "revoking an unknown key", a.Keys.RevokeKey(ctx, "nope", time.Now()), files.KindNotFound)
}

// TestNewKeyRefusals: a key needs a scope, a tenant that cannot reach a
// longer name's conversations, and one kind of binding.
func TestNewKeyRefusals(t *testing.T) {
	for what, tc := range map[string]struct {
		scopes auth.Scope
		tenant string
		convs  []string
	}{
		"no scope":          {0, "", nil},
		"tenant without -":  {auth.Read, "acme", nil},
		"tenant with a dot": {auth.Read, "ac.me-", nil},
		"both bindings":     {auth.Read, "acme-", []string{"acme-1"}},
		"bad conversation":  {auth.Read, "", []string{"../x"}},
	} {
		_, _, err := auth.NewKey("k", tc.scopes, tc.tenant, tc.convs)
		wantKind(t, what, err, files.KindInvalid)
	}
}

// TestPrincipalAllow: a tenant reaches its prefix only; another tenant's
// conversation is "not found" whatever the scope; a missing scope is
// forbidden; admin holds every scope.
func TestPrincipalAllow(t *testing.T) {
	p := &auth.Principal{Scopes: auth.Read, Tenant: "acme-"}
	if err := p.Allow("acme-1", auth.Read); err != nil {
		t.Errorf("own conversation: %v", err)
	}
	wantKind(t, "other tenant", p.Allow("acmecorp-1", auth.Read), files.KindNotFound)
	wantKind(t, "write with read scope", p.Allow("acme-1", auth.Write), files.KindForbidden)
	c := &auth.Principal{Scopes: auth.Admin, Conversations: []string{"c1"}}
	if err := c.Allow("c1", auth.Write|auth.Execute); err != nil {
		t.Errorf("admin: %v", err)
	}
	wantKind(t, "unlisted conversation", c.Allow("c2", auth.Read), files.KindNotFound)
	if s, err := auth.ParseScopes("read, write execute"); err != nil || s != auth.Read|auth.Write|auth.Execute {
		t.Errorf("ParseScopes = %v, %v", s, err)
	}
	if _, err := auth.ParseScopes("read delete"); err == nil || !strings.Contains(err.Error(), "read, write, execute and admin") {
		t.Errorf("unknown scope: %v", err)
	}
}
