package s3blobs

import (
	"bytes"
	"io"
	"os"
	"sync"

	"convfiles/files"
)

// memorySpool is how many bytes a writer keeps in memory before it spills
// to a spool file: most files are small, and a spool file costs a create,
// an unlink and a write on the local disk for every one of them.
const memorySpool = 256 << 10

// spoolMemory bounds what all the writers of a store keep in memory at
// once: an upload of many files holds every one of them until it commits.
const spoolMemory = 64 << 20

// memoryBudget is bytes shared by the spools of a store.
type memoryBudget struct {
	mu        sync.Mutex
	used, max int64
}

// take reserves n bytes, or reports that they are not there.
func (m *memoryBudget) take(n int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+n > m.max {
		return false
	}
	m.used += n
	return true
}

// give returns n bytes taken.
func (m *memoryBudget) give(n int64) {
	m.mu.Lock()
	m.used -= n
	m.mu.Unlock()
}

// spool holds a writer's bytes: in memory up to memorySpool, while the
// store's budget has room, then in an unlinked file of the spool folder.
// Writes may seek, as the engine's edits do; a write past the end leaves
// zeros, as a file does.
type spool struct {
	dir    string
	budget *memoryBudget
	buf    []byte
	off    int64
	f      *os.File // once spilled
}

// Write writes p at the current offset.
func (s *spool) Write(p []byte) (int, error) {
	if s.f == nil {
		grow := s.off + int64(len(p)) - int64(len(s.buf))
		if s.off+int64(len(p)) > memorySpool || grow > 0 && !s.budget.take(grow) {
			if err := s.spill(); err != nil {
				return 0, err
			}
		}
	}
	if s.f != nil {
		return s.f.Write(p)
	}
	end := int(s.off) + len(p)
	if end > len(s.buf) {
		s.buf = append(s.buf, make([]byte, end-len(s.buf))...)
	}
	copy(s.buf[s.off:], p)
	s.off = int64(end)
	return len(p), nil
}

// spill moves the bytes to a spool file, unlinked at once so that a crash
// leaves nothing behind.
func (s *spool) spill() error {
	f, err := os.CreateTemp(s.dir, "convfiles-upload-*")
	if err != nil {
		return files.E("write", files.KindInternal, "", "cannot create a spool file", err)
	}
	os.Remove(f.Name())
	if _, err := f.Write(s.buf); err == nil {
		_, err = f.Seek(s.off, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return files.E("write", files.KindInternal, "", "cannot write the spool file", err)
	}
	s.budget.give(int64(len(s.buf)))
	s.f, s.buf = f, nil
	return nil
}

// Seek moves the offset of the next write.
func (s *spool) Seek(off int64, whence int) (int64, error) {
	if s.f != nil {
		return s.f.Seek(off, whence)
	}
	n, err := files.SeekOffset(s.off, int64(len(s.buf)), off, whence)
	s.off = n
	return n, err
}

// ReadAt reads the bytes written.
func (s *spool) ReadAt(p []byte, off int64) (int, error) {
	if s.f != nil {
		return s.f.ReadAt(p, off)
	}
	return bytes.NewReader(s.buf).ReadAt(p, off)
}

// size is how many bytes were written.
func (s *spool) size() (int64, error) {
	if s.f == nil {
		return int64(len(s.buf)), nil
	}
	fi, err := s.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Close drops the bytes.
func (s *spool) Close() error {
	if s.f == nil {
		s.budget.give(int64(len(s.buf)))
		s.buf = nil
		return nil
	}
	return s.f.Close()
}
