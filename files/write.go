package files

import (
	"context"
	"io"
	"sync"
)

// WriteOptions tunes one write.
type WriteOptions struct {
	// Budget, when set, is charged every byte written (the per-execution cap).
	Budget *Budget
	// NoReplace makes the write fail with KindConflict when the name
	// exists, decided atomically on disk, even against other processes.
	NoReplace bool
	// IfUnchanged makes the write fail with ErrChanged unless the file is
	// still the one read: the same size and modification time as this
	// Info (from Open or ReadFile). A read-modify-write passes it so that
	// a change made meanwhile, by any writer, is never silently undone.
	IfUnchanged *Info
	// Source and Session record where a new file came from; "" means
	// SourceCreated. An overwrite keeps the file's original ones.
	Source  Source
	Session string
	// DerivedFrom records the ID of the file a new file is made from
	// (with Source SourceDerived); an overwrite keeps the file's own.
	DerivedFrom string

	reviveID string // the ID of a deleted file that a restore brings back
}

// chunk is how much a streamed write reserves and writes at a time.
const chunk = 256 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, chunk); return &b }}

// Write stores everything r yields as the file name, atomically: readers see
// the old file or the new one, never a part, and a failure (a limit, a full
// disk, a cancelled ctx) leaves the old file as it was. Missing parent
// folders are created. Every limit is checked before the bytes it covers are
// written, so no conversation ever holds more than its quota.
func (sp *Space) Write(ctx context.Context, name string, r io.Reader, opts WriteOptions) (Info, error) {
	w, err := sp.Create(ctx, name, opts)
	if err != nil {
		return Info{}, err
	}
	defer w.Abort()
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	for {
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return Info{}, err
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return w.Commit()
		}
		if rerr != nil {
			return Info{}, classify("write", w.name, rerr)
		}
	}
}

// WriteBytes stores data as the file name, with the guarantees of Write. Its
// size is known, so every limit is checked once, before anything is written.
func (sp *Space) WriteBytes(ctx context.Context, name string, data []byte, opts WriteOptions) (Info, error) {
	w, err := sp.Create(ctx, name, opts)
	if err != nil {
		return Info{}, err
	}
	defer w.Abort()
	if _, err := w.Write(data); err != nil {
		return Info{}, err
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
	return E(op, KindConflict, name, "the conversation was deleted while this operation was under way", nil)
}
