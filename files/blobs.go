package files

import (
	"errors"
	"io"
	"time"
)

// Blob is stored bytes opened for reading. Close it when done.
type Blob interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	// Info describes the bytes this Blob reads: they never change while
	// it is open, whatever is put at its key meanwhile.
	Info() BlobInfo
}

// BlobInfo describes stored bytes.
type BlobInfo struct {
	Path    string
	Size    int64
	ModTime time.Time
	// Tag changes whenever the bytes at a key are replaced, even by bytes
	// of the same size and time: an inode number on disk, an ETag in an
	// object store. A compare-and-commit compares it.
	Tag string
	// Shared says the bytes are reachable under more than one name on
	// disk (a hard link count above one): a copy the store made, or a
	// link someone made beside it, perhaps to another conversation's file.
	Shared bool
}

// SeekOffset is where a Seek of a Blob of size bytes, now at off, lands:
// what io.Seeker asks, for Blobs that keep their own offset.
func SeekOffset(off, size, offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += off
	case io.SeekEnd:
		offset += size
	default:
		return off, errors.New("seek: whence is io.SeekStart, io.SeekCurrent or io.SeekEnd")
	}
	if offset < 0 {
		return off, errors.New("seek before the start of the file")
	}
	return offset, nil
}
