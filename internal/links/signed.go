package links

import (
	"crypto/hmac"
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"time"

	"convfiles/internal/signing"
)

// DefaultTTL is how long a signed link works.
const DefaultTTL = time.Hour

// Signer signs links: a link carries its expiry (exp, Unix seconds), the
// ID of the key that signed it (kid) and an HMAC-SHA256 (sig) over the
// conversation, the file's name and the expiry. The key is derived for
// the conversation, so a worker process given one conversation's key
// (ForConversation) can sign no other conversation's links.
type Signer struct {
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

// key is the key that signs or verifies conv's links under k.
func (s *Signer) key(k signing.Key, conv string) (signing.Key, bool) {
	if s.Conversation != "" {
		return k, conv == s.Conversation
	}
	return k.Derive("link", conv), true
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
	exp := strconv.FormatInt((s.now().Add(ttl).Unix()+59)/60*60, 10)
	sig := base64.RawURLEncoding.EncodeToString(k.MAC(conv, name, exp))
	return "exp=" + exp + "&kid=" + url.QueryEscape(k.ID) + "&sig=" + sig
}

// Verify checks the signature q carries for the link of name in conv.
func (s *Signer) Verify(conv, name string, q url.Values) error {
	exp, kid, sig := q.Get("exp"), q.Get("kid"), q.Get("sig")
	if exp == "" && kid == "" && sig == "" {
		return ErrUnsigned
	}
	at, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return ErrBadSig
	}
	k, ok := s.Keys.Lookup(kid)
	if !ok {
		return ErrBadSig
	}
	if k, ok = s.key(k, conv); !ok {
		return ErrBadSig
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, k.MAC(conv, name, exp)) {
		return ErrBadSig
	}
	if s.now().Unix() >= at {
		return ErrExpired
	}
	return nil
}
