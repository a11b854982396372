package files

import (
	"crypto/sha256"
	"hash"
)

// sequentialHash computes a file's SHA-256 while it is written in order, so
// an indexed write does not read its file back. A write out of order (a
// seek) breaks it, and the commit hashes the file instead. A nil
// *sequentialHash ignores everything.
type sequentialHash struct {
	h      hash.Hash
	pos    int64
	broken bool
}

func newSequentialHash() *sequentialHash { return &sequentialHash{h: sha256.New()} }

// Write feeds p at the current end, as io.Writer.
func (s *sequentialHash) Write(p []byte) (int, error) {
	if s != nil {
		s.write(s.pos, p)
	}
	return len(p), nil
}

// write feeds p written at offset off.
func (s *sequentialHash) write(off int64, p []byte) {
	if s == nil || s.broken {
		return
	}
	if off != s.pos {
		s.broken = true
		return
	}
	s.h.Write(p)
	s.pos += int64(len(p))
}

// sum returns the digest of a file of size bytes, or nil when the bytes
// seen are not the whole file in order.
func (s *sequentialHash) sum(size int64) []byte {
	if s == nil || s.broken || s.pos != size {
		return nil
	}
	return s.h.Sum(nil)
}
