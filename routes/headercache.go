package routes

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"convfiles/content"
	"convfiles/files"
)

// fileHeaders are the response headers of a file that depend only on its
// name, bytes and modification: worked out once per version of a file.
type fileHeaders struct {
	size       int64
	mtime      time.Time
	ctype      []string
	inline     []string // Content-Disposition when shown in place
	attachment []string // Content-Disposition for ?download=1 (and unsafe types)
	etag       []string
	length     []string // Content-Length
	modified   []string // Last-Modified
}

// Header values every file response carries; net/http only reads them.
var (
	nosniff = []string{"nosniff"}
	ranges  = []string{"bytes"}
	sandbox = []string{"sandbox"}
	noCache = []string{"no-cache"}
	// privateNoCache is a hosted server's: a tenant's file, fetched with
	// a credential or a signed link, is never kept by a shared cache.
	privateNoCache = []string{"private, no-cache"}
)

// headerCache remembers the headers of files served recently, so a file
// fetched again is neither sniffed nor described again. An entry is used
// only while the file's size and modification time are unchanged. It holds
// at most max entries.
type headerCache struct {
	mu      sync.Mutex
	entries map[fileKey]*fileHeaders
	max     int
}

type fileKey struct{ conv, name string }

func newHeaderCache(max int) *headerCache {
	return &headerCache{entries: make(map[fileKey]*fileHeaders, max), max: max}
}

// lookup returns the headers of the open file f, sniffing its head only on
// a miss. It may move f's offset: http.ServeContent seeks to the start.
func (c *headerCache) lookup(conv string, info files.Info, f io.Reader) *fileHeaders {
	key := fileKey{conv, info.Name}
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.size == info.Size && e.mtime.Equal(info.ModTime) {
		return e
	}
	e = describeFile(info, f)
	c.mu.Lock()
	if len(c.entries) >= c.max {
		for k := range c.entries { // evict an arbitrary entry
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = e
	c.mu.Unlock()
	return e
}

// describeFile sniffs the open file f and works out its headers.
func describeFile(info files.Info, f io.Reader) *fileHeaders {
	_, mt := content.DetectReader(info.Name, f, info.Size)
	return &fileHeaders{
		size:       info.Size,
		mtime:      info.ModTime,
		ctype:      []string{servedType(mt)},
		inline:     []string{disposition(info.Name, mt, false)},
		attachment: []string{disposition(info.Name, mt, true)},
		etag:       []string{`"` + strconv.FormatInt(info.Size, 36) + "-" + strconv.FormatInt(info.ModTime.UnixNano(), 36) + `"`},
		length:     []string{strconv.FormatInt(info.Size, 10)},
		modified:   []string{info.ModTime.UTC().Format(http.TimeFormat)},
	}
}
