package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// objectsDir is the reserved folder of a conversation's objects in an
// object store (see ObjectStore): one object per content, named at
// random, found only through the index.
const objectsDir = files.ReservedPrefix + "objects"

// newObjectPath names a new object.
func newObjectPath() string {
	var b [16]byte
	rand.Read(b[:])
	return objectsDir + "/" + hex.EncodeToString(b[:])
}

// objectInfo is what a row says of its file's bytes: in an object store
// the row is the truth, and its object's path is the tag a compare-and-
// commit compares, since every content has an object of its own.
func objectInfo(rec files.Record) files.BlobInfo {
	return files.BlobInfo{Path: rec.Name, Size: rec.Size, ModTime: rec.Modified, Tag: rec.Blob}
}

// versionKey is where the bytes of a kept version live.
func (sp *Space) versionKey(v files.Version) driver.BlobKey { return versionBlobKey(sp.id, v) }

// objectRecord returns the live row of name, or why there is none: not
// found, or a folder (other files lie below it), as of the last commit.
func (sp *Space) objectRecord(ctx context.Context, op, name string) (files.Record, error) {
	return findRow(op, name,
		func() (files.Record, error) { return sp.opts.Index.Lookup(ctx, sp.id, name) },
		func() (bool, error) { return sp.isFolder(ctx, name) })
}

// objectRecord is Space.objectRecord as the change's own transaction sees
// it: a change holding a transaction never asks the Index, whose pool may
// have no connection left to give it until that transaction ends.
func (t *txn) objectRecord(op, name string) (files.Record, error) {
	return findRow(op, name,
		func() (files.Record, error) { return t.tx.Lookup(t.sp.id, name) },
		func() (bool, error) { return t.tx.IsFolder(t.sp.id, name) })
}

// findRow returns the row lookup finds, or why there is none.
func findRow(op, name string, lookup func() (files.Record, error), isFolder func() (bool, error)) (files.Record, error) {
	rec, err := lookup()
	if err == nil {
		return rec, nil
	}
	if files.KindOf(err) != files.KindNotFound {
		return files.Record{}, relabel(op, err)
	}
	if folder, err := isFolder(); err != nil || folder {
		if err == nil {
			err = files.E(op, files.KindConflict, name, "is a folder, not a file", files.ErrIsFolder)
		}
		return files.Record{}, relabelErr(op, err)
	}
	return files.Record{}, notFound(op, name)
}

// isFolder reports whether live files lie below name.
func (sp *Space) isFolder(ctx context.Context, name string) (bool, error) {
	_, n, err := sp.opts.Index.List(ctx, sp.id, files.ListQuery{Prefix: name + "/", Limit: 1})
	return n > 0, err
}

// openObject opens the object of the live file name; the Blob describes
// it as its row does.
func (sp *Space) openObject(ctx context.Context, op, name string) (files.Blob, error) {
	rec, err := sp.objectRecord(ctx, op, name)
	if err != nil {
		return nil, err
	}
	b, err := sp.blobs.(driver.ObjectStore).OpenWritten(ctx, sp.key(rec.Blob), objectInfo(rec))
	return b, relabelErr(op, err)
}

// openBlob opens the current bytes of name in any store.
func (sp *Space) openBlob(ctx context.Context, op, name string) (files.Blob, error) {
	if sp.objects {
		return sp.openObject(ctx, op, name)
	}
	b, err := sp.blobs.Open(ctx, sp.key(name))
	if err != nil {
		return nil, relabel(op, err)
	}
	if err := sp.ownsLinked(ctx, op, name, b); err != nil {
		return nil, err
	}
	return b, nil
}

// ownsLinked closes b and says the file is not found when its bytes are
// linked under another name too and the index has no row for name: a
// copy convfiles made has its row; a hard link someone placed beside the
// files (perhaps to another conversation's) has none, and is not this
// conversation's file.
func (sp *Space) ownsLinked(ctx context.Context, op, name string, b files.Blob) error {
	if !b.Info().Shared || sp.opts.Index == nil {
		return nil
	}
	if _, err := sp.opts.Index.Lookup(ctx, sp.id, name); files.KindOf(err) == files.KindNotFound {
		b.Close()
		return notFound(op, name)
	}
	return nil
}

func relabelErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return relabel(op, err)
}

// checkPlace refuses a new name that a folder holds, or whose parent is a
// file: an object store could hold both, a folder cannot, and every store
// answers the same.
func (t *txn) checkPlace(op, name string) error {
	if folder, err := t.tx.IsFolder(t.sp.id, name); err != nil || folder {
		if err == nil {
			err = files.E(op, files.KindConflict, name, "is a folder; choose another name", files.ErrIsFolder)
		}
		return err
	}
	for i := strings.IndexByte(name, '/'); i > 0; i = next(name, i) {
		if _, isFile := t.lookup(name[:i]); isFile {
			return files.E(op, files.KindConflict, name, fmt.Sprintf("%s is a file, so it cannot hold other files", name[:i]), nil)
		}
	}
	return nil
}

func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// replacedBy describes what a change does with the live file prev that
// it replaces or deletes: its content is kept as a version (its object
// now the version's), or its object is dropped once the change commits.
func (t *txn) replacedBy(prev files.Record, reason string) *files.Version {
	if t.sp.keep() > 0 {
		v := t.sp.versionOf(prev, reason)
		v.Blob = prev.Blob
		return v
	}
	t.drop = append(t.drop, prev.Blob)
	return nil
}

// rowStat is what a row says of name, as a Stat of the blobs would.
func rowStat(prev files.Record, known bool, name string) (files.BlobInfo, error) {
	if !known {
		return files.BlobInfo{}, notFound("write", name)
	}
	return objectInfo(prev), nil
}

// copiedBlob is a BlobWriter whose bytes are an object already stored:
// Put copies them server-side, nothing passes through this process.
type copiedBlob struct {
	blobs driver.Blobs
	src   driver.BlobKey
	size  int64
	now   func() time.Time
	r     files.Blob
}

func (c *copiedBlob) Write([]byte) (int, error) { return 0, errors.New("a copy is not written") }

func (c *copiedBlob) Seek(int64, int) (int64, error) { return 0, errors.New("a copy is not written") }

// ReadAt reads the source (the head, to sniff the type).
func (c *copiedBlob) ReadAt(p []byte, off int64) (int, error) {
	if c.r == nil {
		r, err := c.blobs.Open(context.Background(), c.src)
		if err != nil {
			return 0, err
		}
		c.r = r
	}
	if off >= c.size {
		return 0, io.EOF
	}
	return c.r.ReadAt(p, off)
}

func (c *copiedBlob) Seal(context.Context) (files.BlobInfo, error) {
	return files.BlobInfo{Size: c.size, ModTime: c.now()}, nil
}

func (c *copiedBlob) Put(ctx context.Context, key driver.BlobKey, _ bool) error {
	return c.blobs.Copy(ctx, c.src, key)
}

func (c *copiedBlob) Close() error {
	if c.r != nil {
		c.r.Close()
		c.r = nil
	}
	return nil
}
