package engine

import (
	"context"
	"io"
	"sync"

	"convfiles/files"
)

// chunk is how much a streamed write reserves and writes at a time.
const chunk = 256 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, chunk); return &b }}

// Write stores everything r yields as the file name, atomically: readers see
// the old file or the new one, never a part, and a failure (a limit, a full
// disk, a cancelled ctx) leaves the old file as it was. Missing parent
// folders are created. Every limit is checked before the bytes it covers are
// written, so no conversation ever holds more than its quota.
func (sp *Space) Write(ctx context.Context, name string, r io.Reader, opts files.WriteOptions) (files.Info, error) {
	w, err := sp.Create(ctx, name, opts)
	if err != nil {
		return files.Info{}, err
	}
	defer w.Abort()
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	for {
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return files.Info{}, err
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return w.Commit()
		}
		if rerr != nil {
			return files.Info{}, classify("write", w.name, rerr)
		}
	}
}

// WriteBytes stores data as the file name, with the guarantees of Write. Its
// size is known, so every limit is checked once, before anything is written.
func (sp *Space) WriteBytes(ctx context.Context, name string, data []byte, opts files.WriteOptions) (files.Info, error) {
	w, err := sp.Create(ctx, name, opts)
	if err != nil {
		return files.Info{}, err
	}
	defer w.Abort()
	if _, err := w.Write(data); err != nil {
		return files.Info{}, err
	}
	return w.Commit()
}

// checkAlive refuses to write through a Space whose conversation was deleted
// after the Space was made: the write would land in a folder that is gone.
func (sp *Space) checkAlive(op, name string) error {
	sp.q.mu.Lock()
	defer sp.q.mu.Unlock()
	if sp.q.gen != sp.gen {
		return errDeleted(op, name)
	}
	return nil
}

func errDeleted(op, name string) error {
	return files.E(op, files.KindConflict, name, "the conversation was deleted while this operation was under way", nil)
}
