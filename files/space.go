package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"
)

// Space is one conversation's folder (or a standalone folder, see OpenDir),
// opened as an os.Root. Every file operation of every front door goes
// through a Space. A Space is cheap to create; it opens its folder on first
// use. It is safe for concurrent use; Close it when done.
type Space struct {
	id      string
	opts    Options
	q       *quota
	gen     uint64
	hostDir string
	// openRoot opens the folder and returns how to let go of it.
	openRoot func(create bool) (*os.Root, func(), error)

	rootMu    rootState
	lineCache *lineCache // shared by the Spaces of one Store
	names     *nameLocks // likewise
}

// Info describes one file of a Space.
type Info struct {
	// ID is the file's ID in the index; "" without one.
	ID      string    `json:"id,omitempty"`
	Name    string    `json:"name"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modified"`
	// Replaced is set by writes only: the size of the file the write
	// replaced, or -1 when it created the file.
	Replaced int64 `json:"-"`
}

// ID returns the conversation ID, or "" for a standalone folder.
func (sp *Space) ID() string { return sp.id }

// HostPath returns where name lives on the host, for the dialects that
// report absolute paths (seed 000's file.save). It is for display only:
// convfiles never opens a file by this path.
func (sp *Space) HostPath(name string) string {
	return sp.hostDir + "/" + name
}

// Close releases the folder handle, if one was opened.
func (sp *Space) Close() error { return sp.rootMu.close() }

// root returns the open folder. With create, a missing folder is made.
// It returns (nil, nil) when the folder does not exist and create is false.
func (sp *Space) root(create bool) (*os.Root, error) {
	return sp.rootMu.get(create, func(create bool) (*os.Root, func(), error) {
		r, release, err := sp.openRoot(create)
		if errors.Is(err, fs.ErrNotExist) && !create {
			return nil, nil, nil
		}
		if err != nil || r == nil {
			return nil, nil, err
		}
		return r, release, nil
	})
}

// loadUsage learns what the conversation holds the first time this
// process writes to it; afterwards every change this process commits
// keeps the count, and a reservation that would not fit asks the index
// again (see indexedUsage), since another process may have freed space.
// Reads never need it, so serving a file never walks its conversation.
func (sp *Space) loadUsage(r *os.Root) error {
	sp.q.mu.Lock()
	defer sp.q.mu.Unlock()
	if sp.q.loaded {
		return nil
	}
	var total int64
	var err error
	if sp.indexed() {
		total, err = sp.indexedUsage()
	} else {
		err = walkFiles(r, func(_ string, info fs.FileInfo) { total += info.Size() })
	}
	if err != nil {
		return err
	}
	sp.q.committed, sp.q.loaded = total, true
	return nil
}

// indexedUsage is what the index says the conversation holds: one row,
// shared by every process on the data folder.
func (sp *Space) indexedUsage() (int64, error) {
	u, err := sp.opts.Index.Usage(context.Background(), sp.id)
	return u.Bytes, err
}

// Stat returns the Info of the regular file name.
func (sp *Space) Stat(name string) (Info, error) {
	const op = "stat"
	name, err := ValidateName(name)
	if err != nil {
		return Info{}, err
	}
	r, err := sp.root(false)
	if err != nil {
		return Info{}, classify(op, name, err)
	}
	if r == nil {
		return Info{}, notFound(op, name)
	}
	fi, err := r.Lstat(name)
	if err != nil {
		return Info{}, classify(op, name, err)
	}
	if err := requireRegular(op, name, fi); err != nil {
		return Info{}, err
	}
	return Info{Name: name, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// Open opens the regular file name for reading. The caller must close it.
// A symbolic link is refused even when it points inside the folder: convfiles
// never creates links, so one found here was planted.
func (sp *Space) Open(name string) (*os.File, Info, error) {
	const op = "read"
	name, err := ValidateName(name)
	if err != nil {
		return nil, Info{}, err
	}
	r, err := sp.root(false)
	if err != nil {
		return nil, Info{}, classify(op, name, err)
	}
	if r == nil {
		return nil, Info{}, notFound(op, name)
	}
	return openRegular(r, op, name)
}

// openRegular opens name inside r and refuses anything but a regular file,
// judged on the open handle so no swap can slip between check and use.
// O_NOFOLLOW refuses a link as the last component; O_NONBLOCK keeps a
// planted FIFO from blocking the open.
func openRegular(r *os.Root, op, name string) (*os.File, Info, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|noFollow|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, Info{}, classify(op, name, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = requireRegular(op, name, fi)
	}
	if err != nil {
		f.Close()
		return nil, Info{}, classify(op, name, err)
	}
	return f, Info{Name: name, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// Remove deletes the file name. Folders are not removed (seed 001's
// os.remove contract); an empty folder left behind is harmless.
func (sp *Space) Remove(name string) error {
	const op = "remove"
	name, err := ValidateName(name)
	if err != nil {
		return err
	}
	r, err := sp.root(false)
	if err != nil {
		return classify(op, name, err)
	}
	if r == nil {
		return notFound(op, name)
	}
	_, err = sp.update(context.Background(), r, op, name, func(t *txn) error {
		fi, err := r.Lstat(name)
		if err == nil && fi.IsDir() {
			return E(op, KindConflict, name, "is a folder; only files can be removed", nil)
		}
		if err != nil {
			return classify(op, name, err)
		}
		rec, known := t.lookup(name)
		regular := fi.Mode().IsRegular()
		c := Change{Type: FileDeleted, Record: rec}
		if !known {
			c.Record = Record{Conversation: sp.id, Name: name, Size: fi.Size()}
		}
		// The content moves into the versions folder: nothing is copied
		// and the delete can be undone.
		keep := known && regular && sp.keep() > 0
		if keep {
			c.Kept = sp.versionOf(rec, "delete")
		}
		if err := t.change(op, c); err != nil {
			return err
		}
		if keep {
			if err = r.MkdirAll(versionsDir+"/"+rec.ID, 0o700); err == nil {
				err = r.Rename(name, versionPath(rec.ID, rec.Version))
			}
		} else {
			err = r.Remove(name)
		}
		if err != nil {
			return classify(op, name, err)
		}
		t.applied = true
		if regular && t.tx == nil {
			sp.q.committed -= fi.Size()
		}
		return nil
	})
	if err != nil {
		return err
	}
	syncDir(r, path.Dir(name))
	return nil
}
