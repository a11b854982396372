package routes

import (
	"io"
	"os"
	"sync"
	"time"

	"convfiles/content"
	"convfiles/files"
)

// mimeCache remembers the sniffed MIME type of files served recently, so a
// file fetched again is not sniffed again. An entry is valid only while
// the file's size and modification time are unchanged; a rewritten file is
// sniffed anew. It holds at most max entries.
type mimeCache struct {
	mu      sync.Mutex
	entries map[string]mimeEntry
	max     int
}

type mimeEntry struct {
	size  int64
	mtime time.Time
	mime  string
}

func newMIMECache(max int) *mimeCache {
	return &mimeCache{entries: make(map[string]mimeEntry, max), max: max}
}

// lookup returns the MIME type of the open file f, sniffing its head only
// when the cache has no valid entry. It leaves f's offset where it was not
// guaranteed: http.ServeContent seeks to the start itself.
func (c *mimeCache) lookup(conv string, info files.Info, f *os.File) string {
	key := conv + "\x00" + info.Name
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.size == info.Size && e.mtime.Equal(info.ModTime) {
		return e.mime
	}
	head := make([]byte, content.SniffLen)
	n, _ := io.ReadFull(f, head)
	_, mt := content.Detect(info.Name, head[:n], int64(n) == info.Size)
	c.mu.Lock()
	if len(c.entries) >= c.max {
		for k := range c.entries { // evict an arbitrary entry
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = mimeEntry{size: info.Size, mtime: info.ModTime, mime: mt}
	c.mu.Unlock()
	return mt
}
