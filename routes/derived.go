package routes

import (
	"container/list"
	"sync"
)

// Bounds of the derived cache: what previews and thumbnails decode is
// kept by the content it came from, so a page that shows the same image
// again costs nothing, up to these totals.
const (
	derivedCacheBytes   = 64 << 20
	derivedCacheEntries = 4096
	derivedMaxEntry     = 4 << 20 // larger answers are made again each time
)

// derivedCache keeps recent previews and thumbnails by a key that names
// their content (its SHA-256) and the request (a size, a sheet): the same
// bytes give the same answer to anyone who may read them, so nothing of
// one conversation reaches another that does not hold the same bytes.
// Least recently used entries go first.
type derivedCache struct {
	mu      sync.Mutex
	used    int
	order   *list.List // of *derivedEntry, most recent first
	entries map[string]*list.Element
}

type derivedEntry struct {
	key  string
	mime string
	data []byte
}

func newDerivedCache() *derivedCache {
	return &derivedCache{order: list.New(), entries: map[string]*list.Element{}}
}

// get returns the entry for key, if kept.
func (c *derivedCache) get(key string) (mime string, data []byte, ok bool) {
	if key == "" {
		return "", nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return "", nil, false
	}
	c.order.MoveToFront(el)
	e := el.Value.(*derivedEntry)
	return e.mime, e.data, true
}

// put keeps data under key, evicting the least recently used entries
// past the bounds.
func (c *derivedCache) put(key, mime string, data []byte) {
	if key == "" || len(data) > derivedMaxEntry {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.entries[key] = c.order.PushFront(&derivedEntry{key: key, mime: mime, data: data})
	c.used += len(data)
	for c.used > derivedCacheBytes || c.order.Len() > derivedCacheEntries {
		last := c.order.Back()
		e := last.Value.(*derivedEntry)
		c.order.Remove(last)
		delete(c.entries, e.key)
		c.used -= len(e.data)
	}
}
