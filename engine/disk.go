package engine

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"sync"
	"syscall"
	"time"

	"convfiles/files"
)

// noFollow makes the last component of an open fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// classify turns an error from the file system into an *Error with a kind
// and a message a user can act on. It passes *Error values through and
// returns nil for nil.
func classify(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var fe *files.Error
	if errors.As(err, &fe) {
		return fe
	}
	switch {
	case errors.Is(err, context.Canceled):
		return files.E(op, files.KindCancelled, name, "cancelled before it finished; nothing was changed", err)
	case errors.Is(err, context.DeadlineExceeded):
		return files.Unavailable(op, name, "the server could not finish this in time", err)
	case errors.Is(err, fs.ErrNotExist):
		return notFound(op, name)
	case errors.Is(err, syscall.ENOTDIR):
		return files.E(op, files.KindConflict, name, "a folder in the name is a file", err)
	case errors.Is(err, syscall.EISDIR):
		return files.E(op, files.KindConflict, name, "is a folder, not a file", err)
	case errors.Is(err, syscall.ELOOP):
		return files.E(op, files.KindForbidden, name, "is a symbolic link; convfiles does not follow links", err)
	case errors.Is(err, syscall.ENAMETOOLONG):
		return files.E(op, files.KindInvalid, name, "the name is too long for the file system", err)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return files.E(op, files.KindNoSpace, name, "the server's disk is full; nothing was changed", err)
	case errEscapes != nil && errors.Is(err, errEscapes):
		return files.E(op, files.KindForbidden, name, "the name leads outside the conversation's folder (through a link)", err)
	}
	return files.E(op, files.KindInternal, name, "", err)
}

// errEscapes is the error os.Root answers for a name that leads outside
// it. The standard library does not export it; one probe at start-up
// finds it, so that classify compares errors rather than their text.
var errEscapes = func() error {
	r, err := os.OpenRoot("/")
	if err != nil {
		return nil
	}
	defer r.Close()
	_, err = r.Open("../convfiles-probe")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return nil
}()

func notFound(op, name string) error {
	return files.E(op, files.KindNotFound, name, "no such file", nil)
}

// requireRegular refuses anything but a regular file.
func requireRegular(op, name string, fi fs.FileInfo) error {
	switch m := fi.Mode(); {
	case m.IsRegular():
		return nil
	case m&fs.ModeSymlink != 0:
		return files.E(op, files.KindForbidden, name, "is a symbolic link; convfiles does not follow links", nil)
	case m.IsDir():
		return files.E(op, files.KindConflict, name, "is a folder, not a file", files.ErrIsFolder)
	default:
		return files.E(op, files.KindForbidden, name, "is not a regular file", nil)
	}
}

// walkFiles calls fn for every regular file below dir in r, in lexical
// order, skipping links and reserved entries (other than dir itself). It
// stops at ctx's end or fn's first error.
func walkFiles(ctx context.Context, r *os.Root, dir string, fn func(name string, fi fs.FileInfo) error) error {
	err := fs.WalkDir(r.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return nil // vanished or unreadable while we walked: not listed
		}
		if p != dir && files.IsReserved(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		return fn(p, fi)
	})
	return classify("list", dir, err)
}

// sweepReserved removes what interrupted writes and deletions left: every
// entry with the reserved prefix, at any depth. Links are not followed. A
// temporary file that another process is still writing (it holds a lock on
// it, or touched it in the last minute since this process started) is
// left alone.
func sweepReserved(r *os.Root, log *slog.Logger) error {
	var victims []string
	err := fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p != "." && files.IsReserved(d.Name()) {
			if d.IsDir() && d.Name() == versionsDir {
				return fs.SkipDir // kept versions, not leftovers
			}
			if !d.IsDir() && inUse(r, p) {
				return nil
			}
			victims = append(victims, p)
			if d.IsDir() {
				return fs.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, v := range victims {
		if err := r.RemoveAll(v); err != nil {
			return err
		}
		log.Info("swept leftover", "path", path.Clean(v))
	}
	return nil
}

// standaloneRoot is a standalone folder, opened (and swept) on first use
// and kept open until the Space closes.
type standaloneRoot struct {
	mu     sync.Mutex
	abs    string
	log    *slog.Logger
	r      *os.Root
	closed bool
}

// open returns the folder; a missing one is made with create, else nil.
func (s *standaloneRoot) open(_ string, create bool) (*os.Root, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, files.E("open", files.KindInternal, "", "the space is closed", nil)
	}
	if s.r == nil {
		r, err := openStandalone(s.abs, create, s.log)
		if errors.Is(err, fs.ErrNotExist) && !create {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		s.r = r
	}
	return s.r, func() {}, nil
}

func (s *standaloneRoot) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	return nil
}

// processStart is when this process started: a fact of the process, not
// configuration. A temporary file last written before it cannot be this
// process's; if no one holds its lock, its writer is dead (a crash, a
// SIGKILL) and it can go at once. Every Store of the process needs the
// same bound: one Store's sweep must spare another's files in flight.
var processStart = time.Now()

// inUse reports whether a temporary file is being written right now: its
// writer holds a lock on it. A file written in the last minute since this
// process started is also spared, because its writer may not have taken
// the lock yet.
func inUse(r *os.Root, p string) bool {
	fi, err := r.Lstat(p)
	if err != nil {
		return false
	}
	if mt := fi.ModTime(); mt.After(processStart) && time.Since(mt) < time.Minute {
		return true
	}
	if !fi.Mode().IsRegular() {
		return false
	}
	f, err := r.OpenFile(p, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
