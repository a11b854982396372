package engine

import (
	"crypto/sha256"
	"sync"
)

// sequentialHash computes a file's SHA-256 while it is written in order, so
// an indexed write does not read its file back, and on another core: each
// Write hands a copy of its bytes to a goroutine that hashes them while
// the writer goes on writing and syncing, and the commit waits only for
// what is left. A write out of order (a seek) breaks it, and the commit
// hashes the file instead. A nil *sequentialHash ignores everything.
type sequentialHash struct {
	pos     int64
	broken  bool
	stopped bool
	work    chan []byte
	digest  chan []byte
}

// hashChunk is how much of a write one hand-over copies; hashQueue
// bounds the hand-overs in flight, so a writer that outruns the hasher
// waits, and a writer holds at most hashChunk × (hashQueue+1) of copies.
const (
	hashChunk = 256 << 10
	hashQueue = 4
)

var hashChunks = sync.Pool{New: func() any { b := make([]byte, hashChunk); return &b }}

func newSequentialHash() *sequentialHash {
	s := &sequentialHash{work: make(chan []byte, hashQueue), digest: make(chan []byte, 1)}
	go func() {
		h := sha256.New()
		for c := range s.work {
			h.Write(c)
			c = c[:cap(c)]
			hashChunks.Put(&c)
		}
		s.digest <- h.Sum(nil)
	}()
	return s
}

// Write feeds p at the current end, as io.Writer.
func (s *sequentialHash) Write(p []byte) (int, error) {
	if s != nil {
		s.write(s.pos, p)
	}
	return len(p), nil
}

// write feeds p written at offset off. p is copied: the caller may reuse
// it as soon as write returns.
func (s *sequentialHash) write(off int64, p []byte) {
	if s == nil || s.broken || s.stopped {
		return
	}
	if off != s.pos {
		s.broken = true
		s.stop()
		return
	}
	s.pos += int64(len(p))
	for len(p) > 0 {
		c := *hashChunks.Get().(*[]byte)
		n := copy(c, p)
		s.work <- c[:n]
		p = p[n:]
	}
}

// stop lets the hashing goroutine finish. It is safe to call more than
// once; a Writer that is aborted calls it so that nothing is left running.
func (s *sequentialHash) stop() {
	if s != nil && !s.stopped {
		s.stopped = true
		close(s.work)
	}
}

// sum returns the digest of a file of size bytes, or nil when the bytes
// seen are not the whole file in order. It ends the hashing.
func (s *sequentialHash) sum(size int64) []byte {
	if s == nil {
		return nil
	}
	s.stop()
	d := <-s.digest
	s.digest <- d // a second sum gets it too
	if s.broken || s.pos != size {
		return nil
	}
	return d
}
