package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// stamp identifies one content of a name on disk. Every write puts a new
// file (a new inode) in place, so a stamp taken when a file was read no
// longer matches once anyone has written it since; size and modification
// time guard against an inode number the file system reused.
type stamp struct {
	exists bool
	ino    uint64 // 0: compare size and time only (a caller's Info)
	size   int64
	mtime  int64
}

func stampOf(fi fs.FileInfo) stamp {
	s := stamp{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = st.Ino
	}
	return s
}

// stampOfInfo is the stamp a caller can name: the size and time of an Info.
func stampOfInfo(i Info) stamp {
	return stamp{exists: true, size: i.Size, mtime: i.ModTime.UnixNano()}
}

// matches reports whether what Lstat found (fi, err) is still s.
func (s stamp) matches(fi fs.FileInfo, err error) bool {
	if err != nil || !fi.Mode().IsRegular() {
		return !s.exists && err != nil && errors.Is(err, fs.ErrNotExist)
	}
	now := stampOf(fi)
	return s.exists && now.size == s.size && now.mtime == s.mtime && (s.ino == 0 || now.ino == s.ino)
}

func errChanged(name string) error {
	return E("write", KindConflict, name, "the file changed after it was read; read it again", ErrChanged)
}

// commit moves tmp over rec.Name as one txn: the file it replaces is kept
// as a version, the quota and the index see the change at once, and with
// expect set the move happens only if the name still holds that content
// (else ErrChanged). It returns the recorded file and the size of the
// replaced one, or -1 when there was none.
//
// reserved is what the writer reserved for the bytes of tmp: once they
// are in place they are the conversation's, no longer a write in flight.
func (sp *Space) commit(ctx context.Context, r *os.Root, tmp string, rec Record, noReplace bool, expect *stamp, reserved int64) (Record, int64, error) {
	name := rec.Name
	replaced := int64(-1)
	t, err := sp.update(ctx, r, "write", name, func(t *txn) error {
		prev, known := t.lookup(name)
		fi, err := r.Lstat(name)
		if expect != nil && !expect.matches(fi, err) {
			return errChanged(name)
		}
		switch {
		case err == nil && fi.IsDir():
			return E("write", KindConflict, name, "is a folder; choose another name", nil)
		case err == nil && noReplace:
			return errExists("write", name)
		case err == nil && fi.Mode().IsRegular():
			replaced = fi.Size()
		case err == nil:
			replaced = 0 // a link or other entry is replaced, never followed
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		known = known && replaced >= 0
		kept := known && sp.keep() > 0 && sp.keepVersion(r, name, prev)
		undo := func() {
			if kept {
				r.Remove(versionPath(prev.ID, prev.Version))
			}
		}
		c := t.writeChange(rec, prev, known, replaced, kept)
		if err := t.change("write", c); err != nil {
			undo()
			return err
		}
		if err := place(r, tmp, name, noReplace); err != nil {
			undo()
			return err
		}
		t.applied = true
		sp.q.inflight = max(sp.q.inflight-reserved, 0)
		if t.tx == nil {
			sp.q.committed += rec.Size - max(replaced, 0)
		}
		return nil
	})
	if err != nil {
		return rec, -1, err
	}
	return t.record, replaced, nil
}

// place puts tmp at name: a rename, or with noReplace a link(2), which
// fails if the name exists, so two creators in any processes cannot both
// win, then the removal of tmp.
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

// writeChange describes the write of rec over what the name held: the
// indexed file prev (known), another entry (replaced ≥ 0), or nothing.
func (t *txn) writeChange(rec, prev Record, known bool, replaced int64, kept bool) Change {
	sp := t.sp
	if known {
		var v *Version
		if kept {
			v = sp.versionOf(prev, "overwrite")
		}
		return sp.recordWrite(rec, prev, v)
	}
	typ := FileCreated
	if replaced >= 0 {
		typ = FileModified
	}
	rec.Version = 1
	if rec.ID != "" && t.tx != nil { // a deleted file restored: its versions go on
		if old, err := t.tx.ByID(rec.ID); err == nil {
			rec.Version, rec.Source, rec.Session, rec.Created = old.Version+1, old.Source, old.Session, old.Created
			rec.DerivedFrom = old.DerivedFrom
		}
	}
	return Change{Type: typ, Record: sp.stamp(rec)}
}

// recordWrite describes the overwrite of the indexed file prev by rec: the
// ID, origin and creation time stay, the version goes up.
func (sp *Space) recordWrite(rec, prev Record, kept *Version) Change {
	rec.ID, rec.Source, rec.Session, rec.Created = prev.ID, prev.Source, prev.Session, prev.Created
	rec.DerivedFrom = prev.DerivedFrom
	rec.Version = prev.Version + 1
	rec.Modified = sp.modifiedAt(rec)
	return Change{Type: FileModified, Record: rec, Kept: kept}
}

// modifiedAt is when rec's content was written: the disk's time, so that
// the index, links (Last-Modified) and listings agree.
func (sp *Space) modifiedAt(rec Record) time.Time {
	if rec.DiskTime != 0 {
		return time.Unix(0, rec.DiskTime)
	}
	return sp.opts.Now()
}

// stamp sets the times and the default source of a new record.
func (sp *Space) stamp(rec Record) Record {
	if rec.Modified.IsZero() {
		rec.Modified = sp.modifiedAt(rec)
	}
	if rec.Created.IsZero() {
		rec.Created = rec.Modified
	}
	if rec.Source == "" {
		rec.Source = SourceCreated
	}
	return rec
}
