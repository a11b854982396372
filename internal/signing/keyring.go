// Package signing holds the server's secret keys, rotated by key ID: the
// first key of a Keyring signs, and every key verifies, so a new key is
// added in front and an old one dropped once nothing it signed is alive.
// Each use gets its own subkey (Derive), so a link signature can never
// pass for a token's, and a worker process can be handed a key that signs
// links of one conversation only.
//
// It must never import another convfiles package.
package signing

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"strings"
	"sync"
)

// MinSecret is the shortest secret accepted, in bytes.
const MinSecret = 32

// Key is one secret and the ID signatures name it by.
type Key struct {
	ID     string
	Secret []byte
}

// Keyring is the keys in force; the first signs.
type Keyring []Key

// Parse reads keys written "id:secret", the secret in standard or URL-safe
// base64 of at least MinSecret bytes. IDs are 1 to 32 letters, digits,
// "-" or "_", and unique.
func Parse(specs []string) (Keyring, error) {
	var ring Keyring
	seen := map[string]bool{}
	for i, spec := range specs {
		id, enc, ok := strings.Cut(spec, ":")
		if !ok || !validID(id) {
			return nil, fmt.Errorf("signing key %d: write it as \"id:secret\" with an ID of 1 to 32 letters, digits, - or _ (convfiles keys signing-key prints one)", i+1)
		}
		if seen[id] {
			return nil, fmt.Errorf("signing key %q is listed twice", id)
		}
		seen[id] = true
		secret, err := decode(enc)
		if err != nil || len(secret) < MinSecret {
			return nil, fmt.Errorf("signing key %q: the secret must be base64 of at least %d random bytes", id, MinSecret)
		}
		ring = append(ring, Key{ID: id, Secret: secret})
	}
	return ring, nil
}

func decode(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

func validID(id string) bool {
	if id == "" || len(id) > 32 {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Generate returns a new key with a random secret of MinSecret bytes.
func Generate(id string) (Key, error) {
	if !validID(id) {
		return Key{}, fmt.Errorf("key ID %q: 1 to 32 letters, digits, - or _", id)
	}
	secret := make([]byte, MinSecret)
	if _, err := rand.Read(secret); err != nil {
		return Key{}, err
	}
	return Key{ID: id, Secret: secret}, nil
}

// String writes the key as Parse reads it.
func (k Key) String() string { return k.ID + ":" + base64.RawURLEncoding.EncodeToString(k.Secret) }

// Signer is the key that signs: the first.
func (r Keyring) Signer() (Key, bool) {
	if len(r) == 0 {
		return Key{}, false
	}
	return r[0], true
}

// Lookup returns the key with the given ID.
func (r Keyring) Lookup(id string) (Key, bool) {
	for _, k := range r {
		if k.ID == id {
			return k, true
		}
	}
	return Key{}, false
}

// Derive returns the subkey of k for a purpose, such as "token" or "link"
// and a conversation ID: HMAC-SHA256 of the purpose's parts under k.
func (k Key) Derive(purpose ...string) Key {
	var buf [256]byte
	b := append(buf[:0], "convfiles"...)
	for _, p := range purpose {
		b = append(b, 0)
		b = append(b, p...)
	}
	m := hmac.New(sha256.New, k.Secret)
	m.Write(b)
	return Key{ID: k.ID, Secret: m.Sum(nil)}
}

// Derive returns the keyring of every key's subkey for a purpose.
func (r Keyring) Derive(purpose ...string) Keyring {
	out := make(Keyring, len(r))
	for i, k := range r {
		out[i] = k.Derive(purpose...)
	}
	return out
}

// MAC is HMAC-SHA256 of the message's parts under k, each part ended by a
// zero byte so that no two lists of parts sign alike.
func (k Key) MAC(parts ...string) []byte {
	var buf [512]byte // one Write of the whole message: links are hot
	b := buf[:0]
	for _, p := range parts {
		b = append(b, p...)
		b = append(b, 0)
	}
	m := hmac.New(sha256.New, k.Secret)
	m.Write(b)
	return m.Sum(nil)
}

// MACer computes MACs under one key with pooled HMAC states, for keys used
// on every request (a cached link key): Key.MAC sets up a new state each time.
type MACer struct {
	pool sync.Pool
}

// NewMACer returns a MACer of k.
func NewMACer(k Key) *MACer {
	m := &MACer{}
	m.pool.New = func() any { return hmac.New(sha256.New, k.Secret) }
	return m
}

// Equal reports whether mac is the MAC of parts (Key.MAC), in constant time.
func (m *MACer) Equal(mac []byte, parts ...string) bool {
	var buf [512]byte
	b := buf[:0]
	for _, p := range parts {
		b = append(b, p...)
		b = append(b, 0)
	}
	h := m.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(b)
	var sum [sha256.Size]byte
	ok := hmac.Equal(mac, h.Sum(sum[:0]))
	m.pool.Put(h)
	return ok
}
