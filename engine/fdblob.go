package engine

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"convfiles/files"

	"golang.org/x/sys/unix"
)

// fdBlob is a Blob read straight from a file descriptor: what a folder
// held open hands out for each of many small files, without the poller
// registration, finalizer and locking an *os.File costs. It reads with
// pread and stops at the size it was opened with: the bytes under an
// open file never change (every change puts a new file in place), so
// finding the end takes no extra read. Its holder must Close it.
type fdBlob struct {
	fd   int
	off  int64
	info files.BlobInfo
}

var errClosed = errors.New("read of a closed file")

func (b *fdBlob) Info() files.BlobInfo { return b.info }

func (b *fdBlob) Read(p []byte) (int, error) {
	n, err := b.ReadAt(p, b.off)
	b.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// ReadAt reads len(p) bytes from off, or what is left before the end.
func (b *fdBlob) ReadAt(p []byte, off int64) (int, error) {
	if b.fd < 0 {
		return 0, errClosed
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: b.info.Path, Err: unix.EINVAL}
	}
	if off >= b.info.Size {
		return 0, io.EOF
	}
	want := p[:min(int64(len(p)), b.info.Size-off)]
	done := 0
	for done < len(want) {
		n, err := unix.Pread(b.fd, want[done:], off+int64(done))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, &fs.PathError{Op: "read", Path: b.info.Path, Err: err}
		}
		if n == 0 {
			return done, io.ErrUnexpectedEOF // cut short under us: not convfiles' doing
		}
		done += n
	}
	if done < len(p) {
		return done, io.EOF
	}
	return done, nil
}

func (b *fdBlob) Seek(offset int64, whence int) (int64, error) {
	off, err := files.SeekOffset(b.off, b.info.Size, offset, whence)
	b.off = off
	return off, err
}

// Close closes the descriptor once; a second Close reports it, and never
// closes a number the descriptor's reuse has given to another file.
func (b *fdBlob) Close() error {
	if b.fd < 0 {
		return os.ErrClosed
	}
	err := unix.Close(b.fd)
	b.fd = -1
	return err
}
