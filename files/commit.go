package files

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// commit renames tmp over rec.Name under the conversation's lock, so the
// bytes of the file it replaces are released from the quota exactly once,
// keeps the replaced content as a version, and records the change. It
// returns the recorded file and the size of the replaced one, or -1 when
// there was none.
func (sp *Space) commit(r *os.Root, tmp string, rec Record, noReplace bool, expect *Info) (Record, int64, error) {
	name := rec.Name
	sp.q.mu.Lock()
	defer sp.q.mu.Unlock()
	if sp.q.gen != sp.gen {
		return rec, -1, errDeleted("write", name)
	}
	prev, known := sp.lookup(name)
	replaced := int64(-1)
	if noReplace {
		// link(2) fails if the name exists: the check and the commit are
		// one step, so two creators cannot both win.
		if err := r.Link(tmp, name); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return rec, -1, errExists("write", name)
			}
			return rec, -1, err
		}
		if err := r.Remove(tmp); err != nil {
			return rec, -1, err
		}
		known = false
	} else {
		fi, err := r.Lstat(name)
		if expect != nil && (err != nil || fi.Size() != expect.Size || !fi.ModTime().Equal(expect.ModTime)) {
			return rec, -1, E("write", KindConflict, name, "the file changed after it was read; read it again", ErrChanged)
		}
		switch {
		case err == nil && fi.IsDir():
			return rec, -1, E("write", KindConflict, name, "is a folder; choose another name", nil)
		case err == nil && fi.Mode().IsRegular():
			replaced = fi.Size()
		case err == nil:
			replaced = 0 // a link or other entry is replaced, never followed
		case !errors.Is(err, fs.ErrNotExist):
			return rec, -1, err
		}
		known = known && replaced >= 0
		kept := known && sp.keep() > 0 && sp.keepVersion(r, name, prev)
		if err := r.Rename(tmp, name); err != nil {
			if kept {
				r.Remove(versionPath(prev.ID, prev.Version))
			}
			return rec, -1, err
		}
		if !kept {
			sp.q.used -= max(replaced, 0)
		}
		if kept {
			return sp.apply(r, sp.recordWrite(rec, prev, sp.versionOf(prev, "overwrite"))), replaced, nil
		}
	}
	if known {
		return sp.apply(r, sp.recordWrite(rec, prev, nil)), replaced, nil
	}
	typ := FileCreated
	if replaced >= 0 {
		typ = FileModified
	}
	rec.Version = 1
	if rec.ID != "" { // a deleted file restored: its versions go on
		if old, err := sp.opts.Index.ByID(rec.ID); err == nil {
			rec.Version, rec.Source, rec.Session, rec.Created = old.Version+1, old.Source, old.Session, old.Created
			rec.DerivedFrom = old.DerivedFrom
		}
	}
	return sp.apply(r, Change{Type: typ, Record: sp.stamp(rec)}), replaced, nil
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
