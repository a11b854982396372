package engine

import (
	"context"

	"convfiles/files"
	"convfiles/files/driver"
)

// commitObject is commit in an object store: the sealed bytes of bw go to
// a new object first, then one transaction checks and records the change
// with its row naming that object. Nothing is visible before the row
// commits; a failure deletes the object, and a crash before the commit
// leaves it to the garbage collector. The content the row named before
// becomes a version without a copy (its object is the version's), or is
// dropped after the commit.
//
// The commit is the point of no return: the object is removed here only
// when the change itself was refused, which rolls its transaction back.
// When the transaction fails or its outcome is unknown (a connection lost
// during the commit, which may well have committed), the object stays, and
// the garbage collector removes it if no row names it.
func (sp *Space) commitObject(ctx context.Context, bw driver.BlobWriter, rec files.Record, noReplace bool, expect *stamp, reserved int64) (files.Record, int64, error) {
	const op = "write"
	name := rec.Name
	// 128 random bits name the object: no other write can hold the name,
	// so the store is not asked first whether it is free (a request of
	// its own on every write).
	obj := sp.key(newObjectPath())
	if err := bw.Put(ctx, obj, false); err != nil {
		return rec, -1, relabel(op, err)
	}
	rec.Blob = obj.Path
	replaced := int64(-1)
	refused := false
	t, err := sp.update(ctx, op, name, func(t *txn) (err error) {
		defer func() { refused = err != nil }()
		prev, known := t.lookup(name)
		if expect != nil && !expect.matches(rowStat(prev, known, name)) {
			return errChanged(name)
		}
		var c driver.Change
		switch {
		case known && noReplace:
			return errExists(op, name)
		case known:
			replaced = prev.Size
			c = sp.recordWrite(rec, prev, t.replacedBy(prev, "overwrite"))
		default:
			if err := t.checkPlace(op, name); err != nil {
				return err
			}
			c = t.writeChange(rec, files.Record{}, false, -1, false)
		}
		if err := t.change(op, c); err != nil {
			return err
		}
		sp.q.inflight = max(sp.q.inflight-reserved, 0)
		return nil
	})
	if err != nil {
		if refused {
			sp.blobs.Delete(context.WithoutCancel(ctx), obj)
		}
		return rec, -1, err
	}
	return t.record, replaced, nil
}

// removeObject is Remove in an object store: only rows change.
func (t *txn) removeObject(op, name string) error {
	rec, known := t.lookup(name)
	if !known {
		_, err := t.objectRecord(op, name)
		return err
	}
	return t.change(op, driver.Change{Type: files.FileDeleted, Record: rec, Kept: t.replacedBy(rec, "delete")})
}

// renameObject is rename in an object store: only rows change, and the
// file keeps its object.
func (t *txn) renameObject(from, to string, noReplace bool) (files.Info, error) {
	const op = "rename"
	sp := t.sp
	src, known := t.lookup(from)
	if !known {
		_, err := t.objectRecord(op, from)
		return files.Info{}, err
	}
	replaced := int64(-1)
	c := driver.Change{Type: files.FileModified, RenamedFrom: from}
	dst, exists := t.lookup(to)
	switch {
	case exists && from == to:
	case exists && noReplace:
		return files.Info{}, errExists(op, to)
	case exists:
		replaced = dst.Size
		c.Replaced = &dst
		c.Kept = t.replacedBy(dst, "overwrite")
	default:
		if err := t.checkPlace(op, to); err != nil {
			return files.Info{}, err
		}
	}
	rec := src
	rec.Name, rec.Modified = to, sp.opts.Now()
	c.Record = sp.stamp(rec)
	if err := t.change(op, c); err != nil {
		return files.Info{}, err
	}
	return files.Info{ID: t.record.ID, Name: to, Size: src.Size, ModTime: t.record.Modified, Replaced: replaced}, nil
}

// copyObject writes the content of the object src (size bytes, SHA-256
// sum) as the file dst with a server-side copy: the copy is reserved and
// charged as a write of its size, and commits as one.
func (sp *Space) copyObject(ctx context.Context, src driver.BlobKey, size int64, sum []byte, dst string, opts files.WriteOptions) (files.Info, error) {
	w, err := sp.newWriterWith(ctx, dst, opts, &copiedBlob{blobs: sp.blobs, src: src, size: size, now: sp.opts.Now})
	if err != nil {
		return files.Info{}, err
	}
	defer w.Abort()
	if err := w.reserve(size, true); err != nil {
		return files.Info{}, err
	}
	w.size, w.off, w.lines, w.knownSum = size, size, nil, sum
	return w.Commit()
}
