package routes

import (
	"context"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/lru"
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
	name    string
	blob    files.BlobInfo
	data    []byte
	headers *fileHeaders
}

// smallFiles is the memory of small files served recently, by
// conversation and name.
type smallFiles struct{ kept *lru.Cache[*smallFile] }

func newSmallFiles() *smallFiles {
	return &smallFiles{lru.New(smallFilesTotal, 0, func(sf *smallFile) int64 { return int64(len(sf.data)) })}
}

func smallKey(conv, name string) string { return conv + "\x00" + name }

// current returns the kept copy of conv's file name when the bytes at
// that name are still the very ones kept: the same inode, size, time and
// links. A file never kept costs nothing more than a map look-up.
func (c *smallFiles) current(ctx context.Context, sp *engine.Space, conv, name string) *smallFile {
	key := smallKey(conv, name)
	sf, ok := c.kept.Get(key)
	if !ok {
		return nil
	}
	now, err := sp.Current(ctx, name)
	if err != nil || now.Tag != sf.blob.Tag || now.Size != sf.blob.Size || !now.ModTime.Equal(sf.blob.ModTime) || now.Shared != sf.blob.Shared {
		c.kept.Drop(key)
		return nil
	}
	return sf
}

// keep remembers a file just read whole through Space.Open, which checked
// it, and returns it. Bytes not on local disk (no tag) and larger files
// are not kept.
func (c *smallFiles) keep(conv, name string, blob files.BlobInfo, data []byte, fh *fileHeaders) *smallFile {
	sf := &smallFile{name: name, blob: blob, data: data, headers: fh}
	if blob.Tag != "" && len(data) <= smallFileMax && int64(len(data)) == blob.Size {
		key := smallKey(conv, name)
		c.kept.Drop(key) // an older version
		c.kept.Put(key, sf)
	}
	return sf
}
