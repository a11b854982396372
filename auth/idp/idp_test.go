package idp_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"convfiles/auth"
	"convfiles/auth/idp"
	"convfiles/files"
	"convfiles/internal/signing"
	"convfiles/sqlite"

	"github.com/golang-jwt/jwt/v5"
)

// jwks is an identity provider's key set served on a loopback port; keys
// may be rotated while it runs.
type jwks struct {
	mu   sync.Mutex
	keys map[string]*rsa.PrivateKey
}

func (j *jwks) add(t *testing.T, kid string) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	j.mu.Lock()
	j.keys[kid] = k
	j.mu.Unlock()
}

func (j *jwks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var set []map[string]string
	for kid, k := range j.keys {
		set = append(set, map[string]string{"kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig",
			"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes())})
	}
	json.NewEncoder(w).Encode(map[string]any{"keys": set})
}

func (j *jwks) sign(t *testing.T, kid string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = kid
	j.mu.Lock()
	defer j.mu.Unlock()
	s, err := tok.SignedString(j.keys[kid])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIdentityProviderTokens: a provider's JWT is verified against its
// JWKS, including a key it rotated in after start-up; the wrong issuer,
// audience, algorithm or an expired token is refused; claims bind it.
func TestIdentityProviderTokens(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	set := &jwks{keys: map[string]*rsa.PrivateKey{}}
	set.add(t, "a")
	srv := httptest.NewServer(set)
	defer srv.Close()
	v, err := idp.New(ctx, idp.Config{Issuer: "https://id.example", Audience: "convfiles-test", JWKSURL: srv.URL, DefaultScopes: auth.Read})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := sqlite.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ring, _ := signing.Generate("k1")
	a := &auth.Authenticator{Keys: auth.StoredKeys(ix), Ring: signing.Keyring{ring}, IdP: v}
	claims := func(extra jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"iss": "https://id.example", "aud": "convfiles-test", "sub": "user-1",
			"exp": time.Now().Add(time.Hour).Unix(), "tenant": "acme-"}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	p, err := a.Authenticate(ctx, set.sign(t, "a", claims(nil)))
	if err != nil || p.ID != "jwt:user-1" || p.Tenant != "acme-" || p.Scopes != auth.Read {
		t.Fatalf("provider token: %+v, %v", p, err)
	}
	p, err = a.Authenticate(ctx, set.sign(t, "a", claims(jwt.MapClaims{"tenant": nil, "conversations": []string{"c1", "c2"}, "scope": "read write"})))
	if err != nil || len(p.Conversations) != 2 || p.Scopes != auth.Read|auth.Write {
		t.Fatalf("conversations and scope claims: %+v, %v", p, err)
	}
	set.add(t, "b") // rotated in after the first fetch
	if _, err := a.Authenticate(ctx, set.sign(t, "b", claims(nil))); err != nil {
		t.Fatalf("token signed with a rotated-in key: %v", err)
	}
	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, claims(nil))
	hs.Header["kid"] = "a"
	hsTok, _ := hs.SignedString([]byte("a shared secret the provider never had"))
	for what, tok := range map[string]string{
		"wrong issuer":   set.sign(t, "a", claims(jwt.MapClaims{"iss": "https://evil.example"})),
		"wrong audience": set.sign(t, "a", claims(jwt.MapClaims{"aud": "someone-else"})),
		"expired":        set.sign(t, "a", claims(jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix()})),
		"no expiry":      set.sign(t, "a", claims(jwt.MapClaims{"exp": nil})),
		"no binding":     set.sign(t, "a", claims(jwt.MapClaims{"tenant": nil})),
		"bad tenant":     set.sign(t, "a", claims(jwt.MapClaims{"tenant": "acme"})),
		"tenant _":       set.sign(t, "a", claims(jwt.MapClaims{"tenant": "_"})), // starts nearly every conversation ID
		"bad scope":      set.sign(t, "a", claims(jwt.MapClaims{"scope": "root"})),
		"HS256":          hsTok,
	} {
		if _, err := a.Authenticate(ctx, tok); files.KindOf(err) != files.KindUnauthenticated {
			t.Errorf("%s: %v, want unauthenticated", what, err)
		}
	}
}
