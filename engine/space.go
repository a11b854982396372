package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"convfiles/files"
	"convfiles/files/driver"
)

// Space is one conversation's files (or a standalone folder's, see
// OpenDir). Every file operation of every front door goes through a
// Space, which keeps the rules (names, limits, versions, conflicts) and
// leaves the bytes to its Blobs and the metadata to its Index. A Space is
// cheap to create and safe for concurrent use; Close it when done.
type Space struct {
	id      string
	opts    Options
	q       *quota
	gen     uint64
	hostDir string
	blobs   driver.Blobs
	// objects is set when blobs is an ObjectStore: rows name the objects
	// that hold each content (see ObjectStore).
	objects bool
	// close releases what the Space holds (a standalone folder's handle).
	close func() error

	lineCache *lineCache // shared by the Spaces of one Store
	names     *nameLocks // likewise
	commits   *committer // likewise; nil without an index
	reaper    *reaper    // likewise; nil without an index
}

// ID returns the conversation ID, or "" for a standalone folder.
func (sp *Space) ID() string { return sp.id }

// HostPath returns where name lives on the host, for the dialects that
// report absolute paths (seed 000's file.save). It is for display only:
// convfiles never opens a file by this path.
func (sp *Space) HostPath(name string) string {
	return sp.hostDir + "/" + name
}

// Close releases what the Space holds.
func (sp *Space) Close() error {
	if sp.close == nil {
		return nil
	}
	return sp.close()
}

// key names the bytes of p in this Space's conversation.
func (sp *Space) key(p string) driver.BlobKey { return driver.BlobKey{Conversation: sp.id, Path: p} }

// loadUsage learns what the conversation holds the first time this
// process writes to it; afterwards every change this process commits
// keeps the count, and a reservation that would not fit asks the index
// again (see indexedUsage), since another process may have freed space.
// Reads never need it, so serving a file never walks its conversation.
func (sp *Space) loadUsage(ctx context.Context) error {
	sp.q.mu.Lock()
	defer sp.q.mu.Unlock()
	if sp.q.loaded {
		return nil
	}
	var total int64
	var err error
	if sp.indexed() {
		total, err = sp.indexedUsage(ctx)
	} else {
		err = sp.blobs.List(ctx, sp.id, "", func(b files.BlobInfo) error { total += b.Size; return nil })
	}
	if err != nil {
		return err
	}
	sp.q.committed, sp.q.loaded = total, true
	return nil
}

// indexedUsage is what the index says the conversation holds: one row,
// shared by every process on the data folder.
func (sp *Space) indexedUsage(ctx context.Context) (int64, error) {
	u, err := sp.opts.Index.Usage(ctx, sp.id)
	return u.Bytes, err
}

// Stat returns the Info of the regular file name.
func (sp *Space) Stat(ctx context.Context, name string) (files.Info, error) {
	const op = "stat"
	name, err := files.ValidateName(name)
	if err != nil {
		return files.Info{}, err
	}
	if sp.objects {
		rec, err := sp.objectRecord(ctx, op, name)
		if err != nil {
			return files.Info{}, err
		}
		return files.Info{ID: rec.ID, Name: name, Size: rec.Size, ModTime: rec.Modified}, nil
	}
	b, err := sp.blobs.Stat(ctx, sp.key(name))
	if err != nil {
		return files.Info{}, relabel(op, err)
	}
	return files.Info{Name: name, Size: b.Size, ModTime: b.ModTime}, nil
}

// Open opens the file name for reading. The caller must close it. A
// symbolic link is refused even when it points inside the folder:
// convfiles never creates links, so one found here was planted.
func (sp *Space) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	const op = "read"
	name, err := files.ValidateName(name)
	if err != nil {
		return nil, files.Info{}, err
	}
	b, err := sp.openBlob(ctx, op, name)
	if err != nil {
		return nil, files.Info{}, err
	}
	bi := b.Info()
	return b, files.Info{Name: name, Size: bi.Size, ModTime: bi.ModTime}, nil
}

// openRegular opens name inside r and refuses anything but a regular file,
// judged on the open handle so no swap can slip between check and use.
// O_NOFOLLOW refuses a link as the last component; O_NONBLOCK keeps a
// planted FIFO from blocking the open.
func openRegular(r *os.Root, op, name string) (*os.File, files.Info, error) {
	if err := noLinkedFolder(r, op, name); err != nil {
		return nil, files.Info{}, err
	}
	f, err := r.OpenFile(name, os.O_RDONLY|noFollow|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, files.Info{}, classify(op, name, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = requireRegular(op, name, fi)
	}
	if err != nil {
		f.Close()
		return nil, files.Info{}, classify(op, name, err)
	}
	return f, files.Info{Name: name, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// noLinkedFolder refuses a name whose folders include a symbolic link:
// os.Root follows one that stays inside the conversation's folder, which
// would make a file readable under a name convfiles never gave it.
// Names without folders cost nothing.
func noLinkedFolder(r *os.Root, op, name string) error {
	for i := strings.IndexByte(name, '/'); i > 0; i = next(name, i) {
		fi, err := r.Lstat(name[:i])
		if err != nil {
			return classify(op, name, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return files.E(op, files.KindForbidden, name, "lies in a folder that is a symbolic link; convfiles does not follow links", nil)
		}
	}
	return nil
}

// Remove deletes the file name. Folders are not removed (seed 001's
// os.remove contract); an empty folder left behind is harmless.
func (sp *Space) Remove(ctx context.Context, name string) error {
	const op = "remove"
	name, err := files.ValidateName(name)
	if err != nil {
		return err
	}
	_, err = sp.update(ctx, op, name, func(t *txn) error {
		if sp.objects {
			return t.removeObject(op, name)
		}
		b, err := sp.blobs.Stat(ctx, sp.key(name))
		regular := err == nil
		switch {
		case errors.Is(err, files.ErrIsFolder):
			return files.E(op, files.KindConflict, name, "is a folder; only files can be removed", nil)
		case err != nil && files.KindOf(err) != files.KindForbidden:
			return relabel(op, err)
		}
		rec, known := t.lookup(name)
		c := driver.Change{Type: files.FileDeleted, Record: rec}
		if !known {
			c.Record = files.Record{Conversation: sp.id, Name: name, Size: b.Size}
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
		version := sp.key(versionPath(rec.ID, rec.Version))
		switch {
		case keep:
			if err = sp.blobs.Move(ctx, sp.key(name), version, false); err == nil {
				t.onUndo(func(ctx context.Context) error { return sp.blobs.Move(ctx, version, sp.key(name), false) })
			}
		case t.tx != nil: // removed once the index has recorded it
			err = t.setAside(sp.key(name))
		default:
			err = sp.blobs.Delete(ctx, sp.key(name))
		}
		if err != nil {
			return relabel(op, err)
		}
		t.applied = true
		if regular && t.tx == nil {
			sp.q.committed -= b.Size
		}
		return nil
	})
	return err
}

// relabel gives an error from Blobs the operation the caller performs.
func relabel(op string, err error) error {
	var fe *files.Error
	if errors.As(err, &fe) && fe.Op != op {
		c := *fe
		c.Op = op
		return &c
	}
	return classify(op, "", err)
}
