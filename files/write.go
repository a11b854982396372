package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"syscall"

	"github.com/google/uuid"
)

// WriteOptions tunes one write.
type WriteOptions struct {
	// Budget, when set, is charged every byte written (the per-execution cap).
	Budget *Budget
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
	return sp.write(ctx, name, opts, func(f *os.File, reserve func(int64) error) error {
		bp := bufPool.Get().(*[]byte)
		defer bufPool.Put(bp)
		buf := *bp
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, rerr := io.ReadFull(r, buf)
			if n > 0 {
				if err := reserve(int64(n)); err != nil {
					return err
				}
				if _, err := f.Write(buf[:n]); err != nil {
					return err
				}
			}
			if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
				return nil
			}
			if rerr != nil {
				return rerr
			}
		}
	})
}

// WriteBytes stores data as the file name, with the guarantees of Write. Its
// size is known, so every limit is checked once, before anything is written.
func (sp *Space) WriteBytes(ctx context.Context, name string, data []byte, opts WriteOptions) (Info, error) {
	return sp.write(ctx, name, opts, func(f *os.File, reserve func(int64) error) error {
		if err := reserve(int64(len(data))); err != nil {
			return err
		}
		_, err := f.Write(data)
		return err
	})
}

type fillFunc func(f *os.File, reserve func(n int64) error) error

func (sp *Space) write(ctx context.Context, name string, opts WriteOptions, fill fillFunc) (Info, error) {
	const op = "write"
	name, err := ValidateName(name)
	if err != nil {
		return Info{}, err
	}
	if err := sp.checkAlive(op, name); err != nil {
		return Info{}, err
	}
	r, err := sp.root(true)
	if err != nil {
		return Info{}, classify(op, name, err)
	}
	dir := path.Dir(name)
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return Info{}, classify(op, name, err)
		}
	}
	tmp := path.Join(dir, ReservedPrefix+"tmp-"+uuid.NewString())
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if err != nil {
		return Info{}, classify(op, name, err)
	}
	// The lock tells a sweep in another process that this temp file is live.
	syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	var size int64
	reserve := func(n int64) error {
		if max := sp.opts.Limits.MaxFileBytes; max > 0 && size+n > max {
			return E(op, KindTooLarge, name, fmt.Sprintf("a file may hold at most %s; this one would hold more", FormatBytes(max)), nil)
		}
		if err := opts.Budget.reserve(op, name, n); err != nil {
			return err
		}
		if err := sp.q.reserve(op, name, n, sp.opts.Limits.MaxConversationBytes); err != nil {
			opts.Budget.release(n)
			return err
		}
		size += n
		return nil
	}
	fail := func(err error) (Info, error) {
		f.Close()
		r.Remove(tmp)
		sp.q.release(size)
		opts.Budget.release(size)
		return Info{}, classify(op, name, err)
	}
	if err := fill(f, reserve); err != nil {
		return fail(err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	existed, err := sp.commit(r, tmp, name)
	if err != nil {
		r.Remove(tmp)
		sp.q.release(size)
		return Info{}, classify(op, name, err)
	}
	syncDir(r, dir)
	ev := FileCreated
	if existed {
		ev = FileModified
	}
	sp.opts.Bus.Publish(Event{Type: ev, Conversation: sp.id, Name: name, Size: size, Time: sp.opts.Now()})
	return Info{Name: name, Size: size, ModTime: fi.ModTime()}, nil
}

// commit renames tmp over name under the conversation's lock, so the bytes
// of the file it replaces are released from the quota exactly once.
func (sp *Space) commit(r *os.Root, tmp, name string) (existed bool, err error) {
	sp.q.mu.Lock()
	defer sp.q.mu.Unlock()
	if sp.q.gen != sp.gen {
		return false, errDeleted("write", name)
	}
	var old int64
	fi, err := r.Lstat(name)
	switch {
	case err == nil && fi.IsDir():
		return false, E("write", KindConflict, name, "is a folder; choose another name", nil)
	case err == nil:
		existed = true
		if fi.Mode().IsRegular() {
			old = fi.Size()
		}
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	if err := r.Rename(tmp, name); err != nil {
		return false, err
	}
	sp.q.used -= old
	return existed, nil
}

// syncDir makes a rename or removal in dir durable. A failure is not
// reported: the data itself is already synced, and the worst case after a
// crash is the previous version of the name, never a partial file.
func syncDir(r *os.Root, dir string) {
	d, err := r.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
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
