package routes

import (
	"container/list"
	"context"
	"sync"

	"convfiles/engine"
	"convfiles/files"
)

// Small files are served from memory once read: a link to one costs a
// look at the file's name (is it still the same bytes?) and a write,
// where opening, describing, sending and closing it cost five system
// calls. Only files on local disk are kept, at most smallFileMax bytes
// each and smallFilesTotal in all, the least recently served going first.
const (
	smallFileMax    = 64 << 10
	smallFilesTotal = 32 << 20
)

// smallFile is the bytes and headers of one version of a file.
type smallFile struct {
	key     fileKey
	blob    files.BlobInfo
	data    []byte
	headers *fileHeaders
}

// smallFiles is the memory of small files served recently.
type smallFiles struct {
	mu      sync.Mutex
	entries map[fileKey]*list.Element
	order   *list.List // of *smallFile, the most recently served first
	bytes   int
}

func newSmallFiles() *smallFiles {
	return &smallFiles{entries: map[fileKey]*list.Element{}, order: list.New()}
}

// current returns the kept copy of conv's file name when the bytes at
// that name are still the very ones kept: the same inode, size, time and
// links. A file never kept costs nothing more than a map look-up.
func (c *smallFiles) current(ctx context.Context, sp *engine.Space, conv, name string) *smallFile {
	key := fileKey{conv, name}
	c.mu.Lock()
	el, ok := c.entries[key]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	sf := el.Value.(*smallFile)
	now, err := sp.Current(ctx, name)
	if err != nil || now.Tag != sf.blob.Tag || now.Size != sf.blob.Size || !now.ModTime.Equal(sf.blob.ModTime) || now.Shared != sf.blob.Shared {
		c.forget(key)
		return nil
	}
	c.mu.Lock()
	if c.entries[key] == el {
		c.order.MoveToFront(el)
	}
	c.mu.Unlock()
	return sf
}

// keep remembers a file just read whole through Space.Open, which checked
// it, and returns it. Bytes not on local disk (no tag) and larger files
// are not kept.
func (c *smallFiles) keep(conv, name string, blob files.BlobInfo, data []byte, fh *fileHeaders) *smallFile {
	sf := &smallFile{key: fileKey{conv, name}, blob: blob, data: data, headers: fh}
	if blob.Tag == "" || len(data) > smallFileMax || int64(len(data)) != blob.Size {
		return sf
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[sf.key]; ok {
		c.removeLocked(el)
	}
	c.entries[sf.key] = c.order.PushFront(sf)
	c.bytes += len(data)
	for c.bytes > smallFilesTotal {
		c.removeLocked(c.order.Back())
	}
	return sf
}

func (c *smallFiles) forget(key fileKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.removeLocked(el)
	}
}

func (c *smallFiles) removeLocked(el *list.Element) {
	sf := c.order.Remove(el).(*smallFile)
	delete(c.entries, sf.key)
	c.bytes -= len(sf.data)
}
