// Package idp verifies JWTs from an existing identity provider against
// its JWKS (github.com/MicahParks/keyfunc), for auth.Authenticator. It is
// apart from package auth because fetching keys speaks HTTP, which the
// stores that keep API keys must not link.
//
// idp must never import SQL, the engine or a door.
package idp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"convfiles/auth"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
)

// Config verifies JWTs from an existing identity provider: signed with
// a key of its JWKS (fetched from JWKSURL, refreshed as the provider
// rotates keys), from Issuer, for Audience. Claims name what the token
// reaches: TenantClaim (a tenant prefix) or ConversationsClaim (a list or
// a space-separated string), and ScopeClaim (space-separated, or a list).
type Config struct {
	Issuer             string
	Audience           string
	JWKSURL            string
	TenantClaim        string // default "tenant"
	ConversationsClaim string // default "conversations"
	ScopeClaim         string // default "scope"
	// DefaultScopes are a token's scopes when it has no scope claim.
	DefaultScopes auth.Scope
}

// Verifier verifies an identity provider's tokens.
type Verifier struct {
	cfg Config
	kf  keyfunc.Keyfunc
}

// New starts fetching the provider's keys; ctx ends the refreshes.
func New(ctx context.Context, cfg Config) (*Verifier, error) {
	if cfg.Issuer == "" || cfg.Audience == "" || cfg.JWKSURL == "" {
		return nil, errors.New("[auth.jwt] needs issuer, audience and jwks_url")
	}
	if cfg.TenantClaim == "" {
		cfg.TenantClaim = "tenant"
	}
	if cfg.ConversationsClaim == "" {
		cfg.ConversationsClaim = "conversations"
	}
	if cfg.ScopeClaim == "" {
		cfg.ScopeClaim = "scope"
	}
	kf, err := keyfunc.NewDefaultCtx(ctx, []string{cfg.JWKSURL})
	if err != nil {
		return nil, fmt.Errorf("[auth.jwt] jwks_url %s: %w", cfg.JWKSURL, err)
	}
	return &Verifier{cfg: cfg, kf: kf}, nil
}

// asymmetric are the algorithms a provider may sign with: never HS*,
// whose key would be the provider's public key.
var asymmetric = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// Verify checks a provider's token and returns its principal.
func (i *Verifier) Verify(ctx context.Context, raw string, now time.Time) (*auth.Principal, error) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(raw, claims, i.kf.KeyfuncCtx(ctx), jwt.WithValidMethods(asymmetric),
		jwt.WithIssuer(i.cfg.Issuer), jwt.WithAudience(i.cfg.Audience), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }), jwt.WithLeeway(30*time.Second))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, auth.Unauthenticated("the identity provider's token has expired")
	case err != nil:
		return nil, auth.Unauthenticated("the identity provider's token is not valid: " + err.Error())
	}
	sub, _ := claims["sub"].(string)
	p := &auth.Principal{ID: "jwt:" + sub, Scopes: i.cfg.DefaultScopes}
	if exp, err := claims.GetExpirationTime(); err == nil && exp != nil {
		p.Expires = exp.Time
	}
	if v, ok := claims[i.cfg.ScopeClaim]; ok {
		if p.Scopes, err = auth.ParseScopes(strings.Join(stringsOf(v), " ")); err != nil {
			return nil, auth.Unauthenticated("the token's " + i.cfg.ScopeClaim + " claim: " + err.Error())
		}
	}
	if t, ok := claims[i.cfg.TenantClaim].(string); ok && t != "" {
		if err := auth.ValidateTenant(t); err != nil {
			return nil, auth.Unauthenticated("the token's " + i.cfg.TenantClaim + " claim: " + err.Error())
		}
		p.Tenant = t
	}
	p.Conversations = stringsOf(claims[i.cfg.ConversationsClaim])
	if !p.Bound() {
		return nil, auth.Unauthenticated(fmt.Sprintf("the token names no tenant (%s) and no conversations (%s)", i.cfg.TenantClaim, i.cfg.ConversationsClaim))
	}
	return p, nil
}

// stringsOf reads a claim that is a string of space-separated words or a
// list of strings.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
