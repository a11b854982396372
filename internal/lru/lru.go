// Package lru keeps values by key up to a total size and a count, the
// least recently used going first: the small-object cache of the object
// store and the previews and thumbnails of the HTTP door share it. It is
// a leaf: it imports nothing of convfiles.
package lru

import (
	"container/list"
	"sync"
)

// Cache holds values of type V by string keys. It is safe for concurrent
// use. Size tells a value's size; the cache holds at most MaxSize of it
// in all and, when MaxEntries is above zero, at most that many values.
type Cache[V any] struct {
	maxSize    int64
	maxEntries int
	size       func(V) int64

	mu    sync.Mutex
	used  int64
	order *list.List // of *entry[V], most recent first
	byKey map[string]*list.Element
}

type entry[V any] struct {
	key   string
	value V
}

// New returns an empty cache of at most maxSize (as size counts it) and,
// above zero, maxEntries values.
func New[V any](maxSize int64, maxEntries int, size func(V) int64) *Cache[V] {
	return &Cache[V]{maxSize: maxSize, maxEntries: maxEntries, size: size, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the value kept under key, and makes it the most recent.
func (c *Cache[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry[V]).value, true
}

// Put keeps v under key (a key already kept keeps its value), then drops
// the least recently used values past the bounds.
func (c *Cache[V]) Put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&entry[V]{key, v})
	c.used += c.size(v)
	for c.used > c.maxSize || c.maxEntries > 0 && c.order.Len() > c.maxEntries {
		c.dropLocked(c.order.Back())
	}
}

// Drop forgets the value under key, if kept.
func (c *Cache[V]) Drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.dropLocked(e)
	}
}

// Used is the size of what the cache holds.
func (c *Cache[V]) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

func (c *Cache[V]) dropLocked(e *list.Element) {
	en := c.order.Remove(e).(*entry[V])
	delete(c.byKey, en.key)
	c.used -= c.size(en.value)
}
