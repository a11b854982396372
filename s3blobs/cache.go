package s3blobs

import (
	"bytes"
	"context"
	"io"

	"convfiles/files"
	"convfiles/internal/lru"
)

// cachedObjectMax is the largest object the cache keeps: small files,
// where the request to the object store is most of a read's time.
const cachedObjectMax = 256 << 10

// DefaultCacheBytes is how many bytes of small objects a Blobs keeps in
// memory unless Config.CacheBytes says otherwise.
const DefaultCacheBytes = 64 << 20

// objectCache keeps the bytes of small objects written once, least
// recently used out first. It can never be stale: such an object is
// never rewritten (a new content is a new object, under a new name), and
// which object a file's name means is asked of the index on every read.
// So an edit on another replica is never hidden by it.
type objectCache struct {
	max   int64
	bytes *lru.Cache[[]byte]
}

func newObjectCache(max int64) *objectCache {
	return &objectCache{max: max, bytes: lru.New(max, 0, func(b []byte) int64 { return int64(len(b)) })}
}

// holds reports whether an object of size bytes is kept.
func (c *objectCache) holds(size int64) bool {
	return c != nil && c.max > 0 && size <= cachedObjectMax && size <= c.max
}

func (c *objectCache) get(key string) ([]byte, bool) { return c.bytes.Get(key) }

func (c *objectCache) put(key string, data []byte) { c.bytes.Put(key, data) }

// drop forgets an object (it was deleted).
func (c *objectCache) drop(key string) {
	if c != nil {
		c.bytes.Drop(key)
	}
}

// cachedBlob opens a small object written once from the cache, reading
// it whole into the cache on a miss.
func (b *Blobs) cachedBlob(ctx context.Context, name string, info files.BlobInfo) (files.Blob, error) {
	data, ok := b.cache.get(name)
	if !ok {
		r := &objectReader{b: b, ctx: ctx, name: name, info: info}
		body, err := r.get(0, -1)
		if err != nil {
			return nil, err
		}
		defer body.Close()
		data = make([]byte, info.Size)
		if _, err := io.ReadFull(body, data); err != nil {
			return nil, r.classify(err)
		}
		b.cache.put(name, data)
	}
	return &memBlob{Reader: bytes.NewReader(data), info: info}, nil
}

// memBlob is an object's bytes held in memory.
type memBlob struct {
	*bytes.Reader
	info files.BlobInfo
}

func (m *memBlob) Info() files.BlobInfo { return m.info }
func (m *memBlob) Close() error         { return nil }
