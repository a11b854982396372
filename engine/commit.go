package engine

import (
	"context"
	"errors"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// stamp identifies one content of a name. Every write puts new bytes in
// place under a new tag (see BlobInfo.Tag), so a stamp taken when a file
// was read no longer matches once anyone has written it since; size and
// modification time guard against a tag the store reused.
type stamp struct {
	exists bool
	tag    string // "": compare size and time only (a caller's Info)
	size   int64
	mtime  int64
}

func stampOf(b files.BlobInfo) stamp {
	return stamp{exists: true, tag: b.Tag, size: b.Size, mtime: b.ModTime.UnixNano()}
}

// stampOfInfo is the stamp a caller can name: the size and time of an Info.
func stampOfInfo(i files.Info) stamp {
	return stamp{exists: true, size: i.Size, mtime: i.ModTime.UnixNano()}
}

// matches reports whether what Blobs.Stat found (b, err) is still s.
func (s stamp) matches(b files.BlobInfo, err error) bool {
	if err != nil {
		return !s.exists && files.KindOf(err) == files.KindNotFound
	}
	return s.exists && b.Size == s.size && b.ModTime.UnixNano() == s.mtime && (s.tag == "" || b.Tag == s.tag)
}

func errChanged(name string) error {
	return files.E("write", files.KindConflict, name, "the file changed after it was read; read it again", files.ErrChanged)
}

// commit puts the sealed bytes of bw at rec.Name as one txn: the file it
// replaces is kept as a version, the quota and the index see the change
// at once, and with expect set the bytes go in only if the name still
// holds that content (else ErrChanged). It returns the recorded file and
// the size of the replaced one, or -1 when there was none.
//
// reserved is what the writer reserved for the bytes of bw: once they
// are in place they are the conversation's, no longer a write in flight.
func (sp *Space) commit(ctx context.Context, bw driver.BlobWriter, rec files.Record, noReplace bool, expect *stamp, reserved int64) (files.Record, int64, error) {
	if sp.objects {
		return sp.commitObject(ctx, bw, rec, noReplace, expect, reserved)
	}
	name := rec.Name
	replaced := int64(-1)
	t, err := sp.update(ctx, "write", name, func(t *txn) error {
		prev, known := t.lookup(name)
		b, err := sp.blobs.Stat(ctx, sp.key(name))
		if expect != nil && !expect.matches(b, err) {
			return errChanged(name)
		}
		switch {
		case errors.Is(err, files.ErrIsFolder):
			return files.E("write", files.KindConflict, name, "is a folder; choose another name", nil)
		case err == nil && noReplace:
			return errExists("write", name)
		case err == nil:
			replaced = b.Size
		case files.KindOf(err) == files.KindForbidden:
			replaced = 0 // a link or other entry is replaced, never followed
		case files.KindOf(err) != files.KindNotFound:
			return err
		}
		known = known && replaced >= 0
		kept := known && sp.keep() > 0 && sp.keepVersion(ctx, name, prev)
		version := sp.key(versionPath(prev.ID, prev.Version))
		if kept {
			t.onUndo(func(ctx context.Context) error { return sp.blobs.Delete(ctx, version) })
		}
		c := t.writeChange(rec, prev, known, replaced, kept)
		if err := t.change("write", c); err != nil {
			t.rollback()
			return err
		}
		if replaced >= 0 && !kept && t.tx != nil { // moved back if the index fails
			if err := t.setAside(sp.key(name)); err != nil {
				return err
			}
		}
		if err := bw.Put(ctx, sp.key(name), noReplace); err != nil {
			t.rollback()
			return err
		}
		switch {
		case kept: // until the commit, the version's link is the old content
			t.onUndo(func(ctx context.Context) error { return sp.blobs.Move(ctx, version, sp.key(name), false) })
		case replaced < 0:
			t.onUndo(func(ctx context.Context) error { return sp.blobs.Delete(ctx, sp.key(name)) })
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

// writeChange describes the write of rec over what the name held: the
// indexed file prev (known), another entry (replaced ≥ 0), or nothing.
func (t *txn) writeChange(rec, prev files.Record, known bool, replaced int64, kept bool) driver.Change {
	sp := t.sp
	if known {
		var v *files.Version
		if kept {
			v = sp.versionOf(prev, "overwrite")
		}
		return sp.recordWrite(rec, prev, v)
	}
	typ := files.FileCreated
	if replaced >= 0 {
		typ = files.FileModified
	}
	rec.Version = 1
	if rec.ID != "" && t.tx != nil { // a deleted file restored: its versions go on
		if old, err := t.tx.ByID(rec.ID); err == nil {
			rec.Version, rec.Source, rec.Session, rec.Created = old.Version+1, old.Source, old.Session, old.Created
			rec.DerivedFrom = old.DerivedFrom
		}
	}
	return driver.Change{Type: typ, Record: sp.stamp(rec)}
}

// recordWrite describes the overwrite of the indexed file prev by rec: the
// ID, origin and creation time stay, the version goes up.
func (sp *Space) recordWrite(rec, prev files.Record, kept *files.Version) driver.Change {
	rec.ID, rec.Source, rec.Session, rec.Created = prev.ID, prev.Source, prev.Session, prev.Created
	rec.DerivedFrom = prev.DerivedFrom
	rec.Version = prev.Version + 1
	rec.Modified = sp.modifiedAt(rec)
	return driver.Change{Type: files.FileModified, Record: rec, Kept: kept}
}

// modifiedAt is when rec's content was written: the disk's time, so that
// the index, links (Last-Modified) and listings agree.
func (sp *Space) modifiedAt(rec files.Record) time.Time {
	if rec.DiskTime != 0 {
		return time.Unix(0, rec.DiskTime)
	}
	return sp.opts.Now()
}

// stamp sets the times and the default source of a new record.
func (sp *Space) stamp(rec files.Record) files.Record {
	if rec.Modified.IsZero() {
		rec.Modified = sp.modifiedAt(rec)
	}
	if rec.Created.IsZero() {
		rec.Created = rec.Modified
	}
	if rec.Source == "" {
		rec.Source = files.SourceCreated
	}
	return rec
}
