package routes

import (
	"strings"

	"convfiles/files"
	"convfiles/internal/lru"
)

// Bounds of the derived cache: what previews and thumbnails decode is
// kept by the content it came from, so a page that shows the same image
// again costs nothing, up to these totals.
const (
	derivedCacheBytes   = 64 << 20
	derivedCacheEntries = 4096
	derivedMaxEntry     = 4 << 20 // larger answers are made again each time
)

// derived is a preview's JSON or a thumbnail's bytes, with their type.
type derived struct {
	mime string
	data []byte
}

// derivedCache keeps recent previews and thumbnails by a key that names
// their content (its SHA-256) and the request (a size, a sheet): the same
// bytes give the same answer to anyone who may read them, so nothing of
// one conversation reaches another that does not hold the same bytes.
type derivedCache struct{ kept *lru.Cache[derived] }

func newDerivedCache() *derivedCache {
	return &derivedCache{lru.New(derivedCacheBytes, derivedCacheEntries, func(d derived) int64 { return int64(len(d.data)) })}
}

// get returns what is kept under key, if anything.
func (c *derivedCache) get(key string) (mime string, data []byte, ok bool) {
	if key == "" {
		return "", nil, false
	}
	d, ok := c.kept.Get(key)
	return d.mime, d.data, ok
}

// put keeps data under key; answers larger than derivedMaxEntry are not
// kept.
func (c *derivedCache) put(key, mime string, data []byte) {
	if key != "" && len(data) <= derivedMaxEntry {
		c.kept.Put(key, derived{mime, data})
	}
}

// derivedKey names what is derived from rec's content by what: "" when
// the content has no hash to name it by (nothing is cached then).
func derivedKey(rec files.Record, what ...string) string {
	if rec.SHA256 == "" {
		return ""
	}
	return rec.SHA256 + "\x00" + strings.Join(what, "\x00")
}
