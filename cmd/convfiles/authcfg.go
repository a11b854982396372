package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"convfiles/auth"
	"convfiles/auth/idp"
	"convfiles/engine"
	"convfiles/internal/links"
	"convfiles/internal/signing"
)

// AuthConfig is the [auth] section: who may do what in hosted mode, and
// how links are signed.
type AuthConfig struct {
	// SigningKeys are the server's secret keys, "id:secret" with the
	// secret base64 (convfiles keys signing-key prints one); the first
	// signs, every one verifies. The CONVFILES_SIGNING_KEYS variable
	// (comma-separated) wins over it. With neither, convfiles keeps a
	// generated key in <data_dir>/signing-keys.
	SigningKeys []string `toml:"signing_keys"`
	// SignLinks signs file links in local mode too (hosted mode always does).
	SignLinks bool `toml:"sign_links"`
	// LinkTTL is how long a signed link works (default 1h).
	LinkTTL Duration `toml:"link_ttl"`
	// LinkMaxLifetime is the longest a link may live: one signed for
	// longer is refused, whoever signed it (default 168h).
	LinkMaxLifetime Duration `toml:"link_max_lifetime"`
	// TokenTTL is the lifetime of a token minted without one (default 15m, at most 24h).
	TokenTTL Duration `toml:"token_ttl"`
	// JWT verifies tokens of an existing identity provider.
	JWT *JWTConfig `toml:"jwt"`
}

// JWTConfig is [auth.jwt]: tokens signed by a key of the provider's JWKS.
type JWTConfig struct {
	Issuer             string   `toml:"issuer"`
	Audience           string   `toml:"audience"`
	JWKSURL            string   `toml:"jwks_url"`
	TenantClaim        string   `toml:"tenant_claim"`
	ConversationsClaim string   `toml:"conversations_claim"`
	ScopeClaim         string   `toml:"scope_claim"`
	DefaultScopes      []string `toml:"default_scopes"`
}

// signingKeysEnv overrides [auth] signing_keys.
const signingKeysEnv = "CONVFILES_SIGNING_KEYS"

// signsLinks reports whether the links convfiles hands out are signed.
func (c Config) signsLinks() bool { return c.Mode == "hosted" || c.Auth.SignLinks }

// signingKeysPath is where a generated signing key is kept.
func (c Config) signingKeysPath() string { return filepath.Join(c.DataDir, "signing-keys") }

// keyring is the server's signing keys: the variable's, the config's, or
// the data folder's, generated there on first use.
func (c Config) keyring() (signing.Keyring, error) {
	if v := os.Getenv(signingKeysEnv); v != "" {
		ring, err := signing.Parse(strings.Split(v, ","))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", signingKeysEnv, err)
		}
		return ring, nil
	}
	if len(c.Auth.SigningKeys) > 0 {
		ring, err := signing.Parse(c.Auth.SigningKeys)
		if err != nil {
			return nil, fmt.Errorf("config: auth.signing_keys: %w", err)
		}
		return ring, nil
	}
	if c.distributed() {
		// A key generated into one replica's folder would make the
		// links it signs fail on every other replica.
		return nil, fmt.Errorf("several replicas must sign links with the same keys: set %s or [auth] signing_keys on every replica (convfiles keys signing-key prints a new one)", signingKeysEnv)
	}
	return c.storedKeyring()
}

// storedKeyring reads <data_dir>/signing-keys, creating it with one new
// key when it does not exist yet. Only the owner may read it.
func (c Config) storedKeyring() (signing.Keyring, error) {
	path := c.signingKeysPath()
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err := signing.Generate("k" + time.Now().UTC().Format("20060102"))
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return c.storedKeyring() // another process made it first
		}
		if err != nil {
			return nil, err
		}
		_, err = fmt.Fprintln(f, k.String())
		if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
			os.Remove(path)
			return nil, err
		}
		return signing.Keyring{k}, nil
	}
	if err != nil {
		return nil, err
	}
	ring, err := signing.Parse(strings.Fields(string(raw)))
	if err == nil && len(ring) == 0 {
		err = errors.New("it holds no key")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ring, nil
}

// linkBuilder is how file links are made: plain in local mode, signed
// with the server's keys when links are signed.
func (c Config) linkBuilder() (links.Links, error) {
	l := links.Links{Base: c.publicURL()}
	if !c.signsLinks() {
		return l, nil
	}
	ring, err := c.keyring()
	if err != nil {
		return l, err
	}
	l.Sign = &links.Signer{Keys: ring, TTL: c.Auth.LinkTTL.Duration, MaxLifetime: c.Auth.LinkMaxLifetime.Duration}
	return l, nil
}

// authenticator checks the credentials of a hosted server: API keys in
// the index, tokens it minted, and an identity provider's JWTs when
// [auth.jwt] is set. ctx ends the provider's key refreshes.
func (c Config) authenticator(ctx context.Context, store *engine.Store) (*auth.Authenticator, []string, error) {
	keys, ok := keysOf(store.Index())
	if !ok {
		return nil, nil, errors.New("hosted mode needs an index that keeps API keys")
	}
	ring, err := c.keyring()
	if err != nil {
		return nil, nil, err
	}
	a := &auth.Authenticator{Keys: auth.NewKeyCache(keys, 0), Ring: ring, DefaultTTL: c.Auth.TokenTTL.Duration}
	if c.Auth.JWT == nil {
		return a, nil, nil
	}
	j := c.Auth.JWT
	scopes, err := auth.ParseScopes(strings.Join(j.DefaultScopes, " "))
	if err != nil {
		return nil, nil, fmt.Errorf("config: auth.jwt.default_scopes: %w", err)
	}
	v, err := idp.New(ctx, idp.Config{Issuer: j.Issuer, Audience: j.Audience, JWKSURL: j.JWKSURL, TenantClaim: j.TenantClaim,
		ConversationsClaim: j.ConversationsClaim, ScopeClaim: j.ScopeClaim, DefaultScopes: scopes})
	if err != nil {
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	a.IdP = v
	return a, []string{j.Issuer}, nil
}

// validateAuth checks [auth] before anything starts.
func (c Config) validateAuth() error {
	a := c.Auth
	if a.LinkMaxLifetime.Duration < time.Minute || a.LinkMaxLifetime.Duration > 365*24*time.Hour {
		return fmt.Errorf("config: auth.link_max_lifetime must be from 1m to 8760h (a year)")
	}
	if a.LinkTTL.Duration <= 0 || a.LinkTTL.Duration > a.LinkMaxLifetime.Duration || a.TokenTTL.Duration < time.Second || a.TokenTTL.Duration > auth.MaxTokenTTL {
		return fmt.Errorf("config: auth.link_ttl must be from 1s to auth.link_max_lifetime (%s: a link lives no longer) and auth.token_ttl between 1s and %s",
			a.LinkMaxLifetime.Duration, auth.MaxTokenTTL)
	}
	if len(a.SigningKeys) > 0 {
		if _, err := signing.Parse(a.SigningKeys); err != nil {
			return fmt.Errorf("config: auth.signing_keys: %w", err)
		}
	}
	if a.JWT != nil && (a.JWT.Issuer == "" || a.JWT.Audience == "" || a.JWT.JWKSURL == "") {
		return errors.New("config: [auth.jwt] needs issuer, audience and jwks_url")
	}
	return nil
}
