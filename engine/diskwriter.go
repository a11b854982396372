package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"

	"convfiles/files"
	"convfiles/files/driver"
)

// diskWriter is new bytes in a temporary file beside their target.
type diskWriter struct {
	r            *os.Root
	release      func()
	f            *os.File
	tmp          string
	conversation string
	name         string // where the bytes will most likely go, for messages
	sealed       bool
	// dirSynced is closed once the folder Put renamed into is synced; nil
	// before Put.
	dirSynced chan struct{}
	closed    bool
}

func (w *diskWriter) Write(p []byte) (int, error) {
	if w.sealed {
		return 0, files.E("write", files.KindInternal, w.name, "write after seal", nil)
	}
	return w.f.Write(p)
}

func (w *diskWriter) Seek(off int64, whence int) (int64, error) { return w.f.Seek(off, whence) }

func (w *diskWriter) ReadAt(p []byte, off int64) (int, error) { return w.f.ReadAt(p, off) }

// Seal syncs the temporary file's bytes to disk.
func (w *diskWriter) Seal(ctx context.Context) (files.BlobInfo, error) {
	if err := ctx.Err(); err != nil {
		return files.BlobInfo{}, classify("write", w.name, err)
	}
	if err := w.f.Sync(); err != nil {
		return files.BlobInfo{}, classify("write", w.name, err)
	}
	fi, err := w.f.Stat()
	if err != nil {
		return files.BlobInfo{}, classify("write", w.name, err)
	}
	w.sealed = true
	return blobInfo(w.name, fi), nil
}

// Put renames the temporary file over key, or with noReplace links it
// there, which fails if the name exists, so two creators in any processes
// cannot both win.
func (w *diskWriter) Put(ctx context.Context, key driver.BlobKey, noReplace bool) error {
	switch {
	case !w.sealed:
		return files.E("write", files.KindInternal, key.Path, "put before seal", nil)
	case key.Conversation != w.conversation:
		return files.E("write", files.KindInternal, key.Path, "put into another conversation", nil)
	}
	if err := place(w.r, w.tmp, key.Path, noReplace); err != nil {
		return classify("write", key.Path, err)
	}
	// The folder syncs while the caller commits its index transaction;
	// Close waits for it, so nothing is acknowledged before both are done.
	w.dirSynced = make(chan struct{})
	go func(dir string) {
		syncDir(w.r, dir)
		close(w.dirSynced)
	}(path.Dir(key.Path))
	return nil
}

// place puts tmp at name: a rename, or with noReplace a link(2) and the
// removal of tmp.
func place(r *os.Root, tmp, name string, noReplace bool) error {
	if !noReplace {
		return r.Rename(tmp, name)
	}
	if err := r.Link(tmp, name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errExists("write", name)
		}
		return err
	}
	return r.Remove(tmp)
}

// Close waits until the folder a Put renamed into is synced, so the
// rename survives a crash, or removes the temporary file that was never
// put.
func (w *diskWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	w.f.Close()
	if w.dirSynced != nil {
		<-w.dirSynced
	} else {
		w.r.Remove(w.tmp)
	}
	w.release()
	return nil
}

// lockTemp tells a sweep in another process that the temporary file f is
// live.
func lockTemp(f *os.File) {
	syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
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
