package s3blobs

import (
	"context"
	"errors"
	"io"
	"time"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/minio/minio-go/v7"
)

// writer is bytes on their way to the store, spooled (in memory while
// small, see spool) and uploaded by Put.
type writer struct {
	b      *Blobs
	f      *spool
	sealed bool
	size   int64
	closed bool
}

// Create starts new bytes.
func (b *Blobs) Create(ctx context.Context, key driver.BlobKey) (driver.BlobWriter, error) {
	return &writer{b: b, f: &spool{dir: b.cfg.SpoolDir, budget: b.spooled}}, nil
}

func (w *writer) Write(p []byte) (int, error) {
	if w.sealed {
		return 0, errors.New("write after seal")
	}
	return w.f.Write(p)
}

func (w *writer) Seek(off int64, whence int) (int64, error) { return w.f.Seek(off, whence) }

func (w *writer) ReadAt(p []byte, off int64) (int, error) { return w.f.ReadAt(p, off) }

// Seal ends the writing; the spool file need not be durable, since the
// upload is what makes the bytes last.
func (w *writer) Seal(ctx context.Context) (files.BlobInfo, error) {
	if err := ctx.Err(); err != nil {
		return files.BlobInfo{}, files.E("write", files.KindCancelled, "", "cancelled", err)
	}
	size, err := w.f.size()
	if err != nil {
		return files.BlobInfo{}, files.E("write", files.KindInternal, "", "cannot read the spool file", err)
	}
	w.sealed, w.size = true, size
	return files.BlobInfo{Size: w.size, ModTime: time.Now()}, nil
}

// Put uploads the spooled bytes to key: one PUT for a small file, a
// multipart upload read from the spool part by part for a large one.
// Either becomes visible at once and whole. With noReplace the store
// refuses a taken key (If-None-Match: *).
func (w *writer) Put(ctx context.Context, key driver.BlobKey, noReplace bool) error {
	if !w.sealed {
		return files.E("write", files.KindInternal, key.Path, "put before seal", nil)
	}
	name, err := w.b.object("write", key)
	if err != nil {
		return err
	}
	opts := minio.PutObjectOptions{PartSize: w.b.cfg.PartSize, NumThreads: 2, ContentType: "application/octet-stream",
		UserMetadata: map[string]string{tagKey: newTag()}}
	if noReplace {
		if err := w.b.free(ctx, "write", key); err != nil {
			return err
		}
		opts.SetMatchETagExcept("*")
	}
	_, err = w.b.c.PutObject(ctx, w.b.cfg.Bucket, name, io.NewSectionReader(w.f, 0, w.size), w.size, opts)
	if err == nil {
		w.keepWritten(name)
	}
	return w.b.fail("write", key.Path, err)
}

// keepWritten puts the bytes of a small object just stored into the
// cache, so that reading a file right after writing it (a link, a read
// back) costs no request to the store. An object of that name already
// kept is replaced.
func (w *writer) keepWritten(name string) {
	if !w.b.cache.holds(w.size) {
		return
	}
	data := make([]byte, w.size)
	if _, err := w.f.ReadAt(data, 0); err != nil {
		return
	}
	w.b.cache.drop(name)
	w.b.cache.put(name, data)
}

// Close drops the spooled bytes.
func (w *writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	return w.f.Close()
}
