package auth

import (
	"context"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"convfiles/files"
	"convfiles/internal/signing"
)

// Authenticator turns a credential into a Principal: an API key (looked up
// in Keys), a conversation token (signed with a subkey of Ring), or, when
// IdP is set, a JWT from an identity provider.
type Authenticator struct {
	Keys KeyStore
	Ring signing.Keyring
	IdP  Verifier
	// DefaultTTL is the lifetime of a token minted without one
	// (DefaultTokenTTL when zero).
	DefaultTTL time.Duration
	// Now tells the time (time.Now when nil).
	Now func() time.Time
}

func (a *Authenticator) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// tokenKeys are the subkeys conversation tokens are signed with.
func (a *Authenticator) tokenKeys() signing.Keyring { return a.Ring.Derive("token") }

// Authenticate returns the principal a credential stands for, or a
// KindUnauthenticated error that says what is wrong with it.
func (a *Authenticator) Authenticate(ctx context.Context, credential string) (*Principal, error) {
	if credential == "" {
		return nil, ErrNoCredential
	}
	if strings.HasPrefix(credential, KeyPrefix) {
		return verifyKey(ctx, a.Keys, credential)
	}
	var c jwt.RegisteredClaims
	if _, _, err := jwt.NewParser().ParseUnverified(credential, &c); err != nil {
		return nil, Unauthenticated("the credential is neither an API key (" + KeyPrefix + "…) nor a token")
	}
	if c.Issuer == Issuer {
		return verifyToken(ctx, a.tokenKeys(), a.Keys, credential, a.now())
	}
	if a.IdP == nil {
		return nil, Unauthenticated("the token was not issued by convfiles, and no identity provider is configured")
	}
	return a.IdP.Verify(ctx, credential, a.now())
}

// Mint makes a conversation token for p, which must be an API key's
// principal, asking for no more than p holds.
func (a *Authenticator) Mint(p *Principal, req TokenRequest) (Token, error) {
	if req.TTL == 0 && a.DefaultTTL > 0 {
		req.TTL = a.DefaultTTL
	}
	return mint(a.tokenKeys(), p, req, a.now())
}

// Verifier verifies tokens of an identity provider (see package idp).
type Verifier interface {
	Verify(ctx context.Context, token string, now time.Time) (*Principal, error)
}

// ErrNoCredential is the refusal of a request that carries no credential.
var ErrNoCredential = Unauthenticated("no credential: send Authorization: Bearer <API key or token>")

// BearerToken returns the token of an "Authorization: Bearer …" header
// value, or "" when it is not one.
func BearerToken(header string) string {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// StillValid reports whether the credential behind p still works: it
// has not expired, and the API key it is or was minted from has not been
// revoked. Long-lived work a credential opened (an event stream, an MCP
// session) asks it every few seconds and ends when it does not.
func (a *Authenticator) StillValid(ctx context.Context, p *Principal) error {
	if p == nil || p == Local {
		return nil
	}
	if !p.Expires.IsZero() && !a.now().Before(p.Expires) {
		return Unauthenticated("the credential expired at " + p.Expires.UTC().Format(time.RFC3339))
	}
	if p.Key == "" || a.Keys == nil {
		return nil
	}
	k, err := a.Keys.Key(ctx, p.Key)
	switch {
	case files.KindOf(err) == files.KindNotFound, err == nil && k.Revoked != nil:
		return Unauthenticated("the API key " + p.Key + " was revoked")
	case err != nil:
		return nil // the index cannot answer now: the next check asks again
	}
	return nil
}
