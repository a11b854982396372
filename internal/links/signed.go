package links

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"convfiles/internal/signing"
)

// DefaultTTL is how long a signed link works.
const DefaultTTL = time.Hour

// MaxLifetime is the longest a link may live by default: one signed with
// a later expiry is refused, whoever holds a key (a worker holds its
// conversation's) and whatever TTL it was configured with.
const MaxLifetime = 7 * 24 * time.Hour

// ErrTooLong is a link whose expiry is further away than a link may live.
var ErrTooLong = errors.New("the link's expiry is further away than a link may live on this server (7 days unless configured); ask for a new link")

// Signer signs links: a link carries its expiry (exp, Unix seconds), the
// ID of the key that signed it (kid) and an HMAC-SHA256 (sig) over the
// conversation, the file's name and the expiry. The key is derived for
// the conversation, so a worker process given one conversation's key
// (ForConversation) can sign no other conversation's links.
type Signer struct {
	derived  sync.Map // kid NUL conversation → derivedKey
	nDerived atomic.Int64

	// Keys are the server's keys (the first signs), or, with Conversation
	// set, that conversation's derived keys.
	Keys         signing.Keyring
	Conversation string
	// TTL is how long a link works (DefaultTTL when zero). Expiries are
	// rounded up to the minute, so a file's link stays the same for a
	// minute and browsers can cache it.
	TTL time.Duration
	// Now tells the time (time.Now when nil).
	Now func() time.Time
	// Until, when set, is the latest expiry this Signer gives: the end of
	// the credential the links are made for, which they never outlive.
	Until time.Time
	// MaxLifetime is the longest a link this Signer verifies may live
	// (the MaxLifetime constant when zero).
	MaxLifetime time.Duration
}

// LimitedTo returns a Signer whose links expire by until at the latest
// (s itself when until is zero or s is nil).
func (s *Signer) LimitedTo(until time.Time) *Signer {
	if s == nil || until.IsZero() {
		return s
	}
	return &Signer{Keys: s.Keys, Conversation: s.Conversation, TTL: s.TTL, Now: s.Now, Until: until, MaxLifetime: s.MaxLifetime}
}

// The refusals of Verify.
var (
	ErrUnsigned = errors.New("the link is not signed: ask convfiles for a new link")
	ErrExpired  = errors.New("the link has expired: ask convfiles for a new link")
	ErrBadSig   = errors.New("the link's signature does not match it: it was altered, or signed by a key that was retired")
)

func (s *Signer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ForConversation returns a Signer that signs the links of conv only; nil
// when s is nil or has no key.
func (s *Signer) ForConversation(conv string) *Signer {
	if s == nil {
		return nil
	}
	k, ok := s.Keys.Signer()
	if !ok {
		return nil
	}
	return &Signer{Keys: signing.Keyring{k.Derive("link", conv)}, Conversation: conv, TTL: s.TTL, Now: s.Now}
}

// maxDerived bounds the cache of conversations' derived keys.
const maxDerived = 4096

// key is the key that signs or verifies conv's links under k. Derived
// keys are cached: every link request would otherwise derive one.
func (s *Signer) key(k signing.Key, conv string) (signing.Key, bool) {
	if s.Conversation != "" {
		return k, conv == s.Conversation
	}
	return s.derive(k, conv).key, true
}

// derive returns conv's link key under k, from the cache when it holds it.
func (s *Signer) derive(k signing.Key, conv string) *derivedKey {
	id := k.ID + "\x00" + conv
	if d, ok := s.derived.Load(id); ok {
		if d := d.(*derivedKey); bytes.Equal(d.of, k.Secret) {
			return d
		}
	}
	key := k.Derive("link", conv)
	d := &derivedKey{of: k.Secret, key: key, mac: signing.NewMACer(key)}
	if s.nDerived.Add(1) > maxDerived {
		s.derived.Clear()
		s.nDerived.Store(1)
	}
	s.derived.Store(id, d)
	return d
}

// derivedKey is a cached derived key, the secret it was derived from (a
// key ID may be reused for a new secret), and its pooled MAC states.
type derivedKey struct {
	of  []byte
	key signing.Key
	mac *signing.MACer
}

// Query returns the query string that signs the link of name in conv, or
// "" when this Signer may not sign it.
func (s *Signer) Query(conv, name string) string {
	k, ok := s.Keys.Signer()
	if !ok {
		return ""
	}
	if k, ok = s.key(k, conv); !ok {
		return ""
	}
	ttl := s.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	at := (s.now().Add(ttl).Unix() + 59) / 60 * 60
	if !s.Until.IsZero() && at > s.Until.Unix() {
		at = s.Until.Unix()
	}
	exp := strconv.FormatInt(at, 10)
	sig := base64.RawURLEncoding.EncodeToString(k.MAC(conv, name, exp))
	return "exp=" + exp + "&kid=" + url.QueryEscape(k.ID) + "&sig=" + sig
}

// Verify checks the signature q carries for the link of name in conv.
func (s *Signer) Verify(conv, name string, q url.Values) error {
	return s.verify(conv, name, q.Get("exp"), q.Get("kid"), q.Get("sig"))
}

// VerifyQuery is Verify of a raw query string, read without building a
// map: the link route calls it on every request.
func (s *Signer) VerifyQuery(conv, name, rawQuery string) error {
	var exp, kid, sig string
	for rest := rawQuery; rest != ""; {
		var kv string
		kv, rest, _ = strings.Cut(rest, "&")
		switch k, v, _ := strings.Cut(kv, "="); k {
		case "exp":
			exp = v
		case "kid":
			kid = v
		case "sig":
			sig = v
		}
	}
	if strings.ContainsAny(exp+kid+sig, "%+") {
		// Escaped (convfiles never escapes them): read it the exact way.
		q, _ := url.ParseQuery(rawQuery)
		return s.Verify(conv, name, q)
	}
	return s.verify(conv, name, exp, kid, sig)
}

func (s *Signer) verify(conv, name, exp, kid, sig string) error {
	if exp == "" && kid == "" && sig == "" {
		return ErrUnsigned
	}
	at, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return ErrBadSig
	}
	k, ok := s.Keys.Lookup(kid)
	if !ok || len(sig) > base64.RawURLEncoding.EncodedLen(sha256.Size) {
		return ErrBadSig
	}
	var got [sha256.Size + 3]byte
	n, err := base64.RawURLEncoding.Decode(got[:], []byte(sig))
	if err != nil {
		return ErrBadSig
	}
	if s.Conversation != "" {
		if conv != s.Conversation || !hmac.Equal(got[:n], k.MAC(conv, name, exp)) {
			return ErrBadSig
		}
	} else if !s.derive(k, conv).mac.Equal(got[:n], conv, name, exp) {
		return ErrBadSig
	}
	now := s.now().Unix()
	if now >= at {
		return ErrExpired
	}
	longest := s.MaxLifetime
	if longest <= 0 {
		longest = MaxLifetime
	}
	if at > now+int64(longest/time.Second)+60 {
		return ErrTooLong
	}
	return nil
}
