package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"convfiles/files"
	"convfiles/internal/signing"
)

// Issuer is the iss and aud of the tokens convfiles mints.
const Issuer = "convfiles"

// The lifetimes of conversation tokens.
const (
	DefaultTokenTTL = 15 * time.Minute
	MaxTokenTTL     = 24 * time.Hour
)

// TokenRequest asks for a conversation token: a short-lived credential
// that an API key mints for an agent or a browser, with at most the key's
// scopes, for some of the key's conversations.
type TokenRequest struct {
	Scopes        Scope
	Tenant        string
	Conversations []string
	TTL           time.Duration // DefaultTokenTTL when zero; at most MaxTokenTTL
}

// Token is a minted token and when it expires.
type Token struct {
	Token   string    `json:"token"`
	Expires time.Time `json:"expires_at"`
}

// tokenClaims are a conversation token's JWT claims; sub is the key that
// minted it, so revoking the key ends its tokens too.
type tokenClaims struct {
	jwt.RegisteredClaims
	Scope         string   `json:"scope"`
	Tenant        string   `json:"tenant,omitempty"`
	Conversations []string `json:"conversations,omitempty"`
}

// mint signs a token for p (an API key's principal) after checking that
// it asks for no more than p holds.
func mint(keys signing.Keyring, p *Principal, req TokenRequest, now time.Time) (Token, error) {
	const op = "mint token"
	if p.Key == "" || p.ID != "key:"+p.Key {
		return Token{}, files.E(op, files.KindForbidden, "", "only an API key mints tokens", nil)
	}
	if req.Scopes == 0 {
		req.Scopes = p.Scopes &^ Admin
	}
	if !p.Scopes.Has(req.Scopes) {
		return Token{}, files.E(op, files.KindForbidden, "", fmt.Sprintf("a token gets at most its key's scopes (%s), not %s", p.Scopes, req.Scopes), nil)
	}
	if err := narrow(p, &req); err != nil {
		return Token{}, err
	}
	switch {
	case req.TTL == 0:
		req.TTL = DefaultTokenTTL
	case req.TTL < 0 || req.TTL > MaxTokenTTL:
		return Token{}, files.E(op, files.KindInvalid, req.TTL.String(), "a token lives from 1s to "+MaxTokenTTL.String(), nil)
	}
	k, ok := keys.Signer()
	if !ok {
		return Token{}, files.E(op, files.KindInternal, "", "", errors.New("no signing key"))
	}
	exp := now.Add(req.TTL).Truncate(time.Second)
	// Each token has an ID of its own (jti): rate limits, stream caps and
	// logs count it apart from its key's other tokens.
	var id [8]byte
	rand.Read(id[:])
	claims := tokenClaims{
		RegisteredClaims: jwt.RegisteredClaims{Issuer: Issuer, Audience: jwt.ClaimStrings{Issuer}, Subject: p.Key,
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp), ID: hex.EncodeToString(id[:])},
		Scope: req.Scopes.String(), Tenant: req.Tenant, Conversations: req.Conversations,
	}
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	t.Header["kid"] = k.ID
	s, err := t.SignedString(k.Secret)
	return Token{Token: s, Expires: exp}, err
}

// narrow checks the token's binding against its key's, and gives a token
// that names none the key's own.
func narrow(p *Principal, req *TokenRequest) error {
	const op = "mint token"
	if req.Tenant != "" && len(req.Conversations) > 0 {
		return files.E(op, files.KindInvalid, "", "bind a token to a tenant or to conversations, not both", nil)
	}
	for _, c := range req.Conversations {
		if err := files.ValidateConversationID(c); err != nil {
			return err
		}
		if !p.Reaches(c) {
			return files.E(op, files.KindNotFound, c, "no such conversation", nil)
		}
	}
	if req.Tenant != "" {
		if err := ValidateTenant(req.Tenant); err != nil {
			return err
		}
		if len(p.Conversations) > 0 || !p.Reaches(req.Tenant) {
			return files.E(op, files.KindForbidden, req.Tenant, "is not within this key's conversations", nil)
		}
	}
	if req.Tenant == "" && len(req.Conversations) == 0 {
		if !p.Bound() {
			return files.E(op, files.KindInvalid, "", "name the conversations (or the tenant) the token is for", nil)
		}
		req.Tenant, req.Conversations = p.Tenant, p.Conversations
	}
	return nil
}

// verifyToken checks a token convfiles minted, and that its key still works.
func verifyToken(ctx context.Context, keys signing.Keyring, store KeyStore, raw string, now time.Time) (*Principal, error) {
	var c tokenClaims
	_, err := jwt.ParseWithClaims(raw, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		k, ok := keys.Lookup(kid)
		if !ok {
			return nil, errors.New("signed by an unknown key")
		}
		return k.Secret, nil
	}, jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer(Issuer), jwt.WithAudience(Issuer),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(func() time.Time { return now }))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, Unauthenticated("the token has expired: mint a new one")
	case err != nil:
		return nil, Unauthenticated("the token is not valid: it was altered, or signed by a retired key")
	}
	k, err := store.Key(ctx, c.Subject)
	if files.KindOf(err) == files.KindNotFound || err == nil && k.Revoked != nil {
		return nil, Unauthenticated("the key that minted this token was revoked")
	}
	if err != nil {
		return nil, err
	}
	sc, err := ParseScopes(c.Scope)
	if err != nil {
		return nil, Unauthenticated("the token's scopes are not valid")
	}
	id := "token:" + k.ID
	if c.ID != "" {
		id += ":" + c.ID
	}
	p := &Principal{ID: id, Key: k.ID, Scopes: sc.within(k.Scopes), Tenant: c.Tenant, Conversations: c.Conversations,
		Expires: c.ExpiresAt.Time, Allowance: k.allowance()}
	if !p.Bound() {
		return nil, Unauthenticated("the token names no conversation")
	}
	return p, nil
}
