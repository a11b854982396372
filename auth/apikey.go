package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"convfiles/files"
)

// KeyPrefix starts every API key, so a leaked one is recognisable (and
// secret scanners can find it).
const KeyPrefix = "cfk_"

// Key is an API key as it is stored: its hash, never the key itself.
type Key struct {
	// ID is the key's public part, shown in listings and logs.
	ID   string
	Name string
	// Hash is the hex SHA-256 of the whole key. A key is 32 random bytes,
	// so a fast hash is enough: there is nothing to guess.
	Hash   string
	Scopes Scope
	// Tenant and Conversations bind the key as they bind a Principal.
	Tenant        string
	Conversations []string
	// MaxBytes is the key's quota: the bytes all the conversations it
	// reaches may hold together, counted whoever wrote them; 0: none of
	// its own (each conversation's limit still holds). Its tokens share
	// it.
	MaxBytes int64
	Created  time.Time
	// Revoked is when the key was revoked; nil while it works.
	Revoked *time.Time
}

// KeyStore keeps API keys where every replica finds them (the metadata
// index). Key of an unknown ID is a KindNotFound error.
type KeyStore interface {
	CreateKey(ctx context.Context, k Key) error
	Key(ctx context.Context, id string) (Key, error)
	Keys(ctx context.Context) ([]Key, error)
	// RevokeKey marks a key revoked; revoking it again changes nothing.
	RevokeKey(ctx context.Context, id string, at time.Time) error
}

// CheckTenantFree refuses a new key's tenant that overlaps the tenant of
// a working key (TenantsOverlap): "acme-corp-" beside "acme-" would let
// the acme- key read and write every acme-corp- conversation. The same
// tenant again is a second key of one tenant, and is allowed.
func CheckTenantFree(ctx context.Context, ks KeyStore, tenant string) error {
	if tenant == "" {
		return nil
	}
	keys, err := ks.Keys(ctx)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.Revoked == nil && TenantsOverlap(tenant, k.Tenant) {
			return files.E("create key", files.KindConflict, tenant, fmt.Sprintf("overlaps tenant %q of key %s (%s): a key of the shorter "+
				"prefix would reach the other's conversations; choose a prefix that neither starts nor is started by an existing tenant's", k.Tenant, k.ID, k.Name), nil)
		}
	}
	return nil
}

// NewKey makes an API key with the given name, scopes and binding. It
// returns the key, to be shown once, and the record to store.
func NewKey(name string, scopes Scope, tenant string, convs []string) (string, Key, error) {
	if scopes == 0 {
		return "", Key{}, files.E("create key", files.KindInvalid, name, "give the key at least one scope: read, write, execute or admin", nil)
	}
	if err := ValidateTenant(tenant); err != nil {
		return "", Key{}, err
	}
	if tenant != "" && len(convs) > 0 {
		return "", Key{}, files.E("create key", files.KindInvalid, name, "bind a key to a tenant or to conversations, not both", nil)
	}
	for _, c := range convs {
		if err := files.ValidateConversationID(c); err != nil {
			return "", Key{}, err
		}
	}
	raw := make([]byte, 6+32)
	if _, err := rand.Read(raw); err != nil {
		return "", Key{}, err
	}
	id := hex.EncodeToString(raw[:6])
	secret := KeyPrefix + id + "_" + base64.RawURLEncoding.EncodeToString(raw[6:])
	k := Key{ID: id, Name: name, Hash: hashKey(secret), Scopes: scopes, Tenant: tenant, Conversations: convs, Created: time.Now().UTC()}
	return secret, k, nil
}

func hashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// keyID returns the ID part of something that looks like an API key.
func keyID(secret string) (string, bool) {
	rest, ok := strings.CutPrefix(secret, KeyPrefix)
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, "_")
	return id, ok && len(id) == 12
}

// verifyKey checks secret against its stored record and returns the
// principal it stands for.
func verifyKey(ctx context.Context, store KeyStore, secret string) (*Principal, error) {
	id, ok := keyID(secret)
	if !ok {
		return nil, Unauthenticated("the API key is malformed: keys look like " + KeyPrefix + "<id>_<secret>")
	}
	k, err := store.Key(ctx, id)
	if files.KindOf(err) == files.KindNotFound {
		return nil, Unauthenticated("the API key is not known")
	}
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(hashKey(secret)), []byte(k.Hash)) != 1 {
		return nil, Unauthenticated("the API key is not known")
	}
	if k.Revoked != nil {
		return nil, Unauthenticated("the API key was revoked")
	}
	return &Principal{ID: "key:" + k.ID, Key: k.ID, Scopes: k.Scopes, Tenant: k.Tenant, Conversations: k.Conversations,
		Allowance: k.allowance()}, nil
}

// allowance is the key's quota over the conversations it reaches, nil
// when it has none.
func (k Key) allowance() *files.Allowance {
	if k.MaxBytes <= 0 {
		return nil
	}
	return &files.Allowance{Tenant: k.Tenant, Conversations: k.Conversations, MaxBytes: k.MaxBytes}
}

// Unauthenticated is the refusal of a credential, saying what is wrong.
func Unauthenticated(msg string) error {
	return files.E("authenticate", files.KindUnauthenticated, "", msg, nil)
}
