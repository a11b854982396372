package auth

import (
	"context"
	"sync"
	"time"
)

// DefaultKeyCacheTTL is how long a server trusts a key record it read:
// a key revoked by another process (convfiles keys revoke, another
// replica) is refused at most this much later.
const DefaultKeyCacheTTL = time.Second

// maxCachedKeys bounds the cache; past it, the cache starts again empty.
const maxCachedKeys = 10000

// KeyCache is a KeyStore that keeps the records it read for a short
// while, so that a busy credential costs the index one lookup a TTL
// rather than one a request. Unknown IDs are never cached: a key created
// elsewhere works at once. Revoking through the cache forgets the key at
// once.
type KeyCache struct {
	KeyStore
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	keys map[string]cachedKey
}

type cachedKey struct {
	key  Key
	read time.Time
}

// NewKeyCache caches store's keys for ttl (DefaultKeyCacheTTL when zero).
func NewKeyCache(store KeyStore, ttl time.Duration) *KeyCache {
	if ttl <= 0 {
		ttl = DefaultKeyCacheTTL
	}
	return &KeyCache{KeyStore: store, ttl: ttl, now: time.Now, keys: map[string]cachedKey{}}
}

// Key returns the key's record, from the cache while it is fresh.
func (c *KeyCache) Key(ctx context.Context, id string) (Key, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.keys[id]
	c.mu.Unlock()
	if ok && now.Sub(e.read) < c.ttl {
		return e.key, nil
	}
	k, err := c.KeyStore.Key(ctx, id)
	if err != nil {
		return k, err
	}
	c.mu.Lock()
	if len(c.keys) >= maxCachedKeys {
		clear(c.keys)
	}
	c.keys[id] = cachedKey{key: k, read: now}
	c.mu.Unlock()
	return k, nil
}

// RevokeKey revokes the key and forgets it.
func (c *KeyCache) RevokeKey(ctx context.Context, id string, at time.Time) error {
	err := c.KeyStore.RevokeKey(ctx, id, at)
	c.mu.Lock()
	delete(c.keys, id)
	c.mu.Unlock()
	return err
}
