package s3blobs

import (
	"context"
	"io"

	"convfiles/files"

	"github.com/minio/minio-go/v7"
)

// blob is an object opened for reading: every ranged GET it makes is
// pinned to the ETag it was opened with, so it reads the bytes it opened
// or fails with a conflict, never a mix of two contents.
type blob struct {
	*minio.Object
	info files.BlobInfo
}

// Open opens the object at key.
func (b *Blobs) Open(ctx context.Context, key files.BlobKey) (files.Blob, error) {
	name, err := b.object("read", key)
	if err != nil {
		return nil, err
	}
	oi, err := b.c.StatObject(ctx, b.cfg.Bucket, name, minio.StatObjectOptions{})
	if err != nil {
		if isNotFound(err) {
			return nil, files.E("read", files.KindNotFound, key.Path, "no such file", nil)
		}
		return nil, b.fail("read", key.Path, err)
	}
	opts := minio.GetObjectOptions{}
	opts.SetMatchETag(oi.ETag)
	obj, err := b.c.GetObject(ctx, b.cfg.Bucket, name, opts)
	if err != nil {
		return nil, b.fail("read", key.Path, err)
	}
	return &blob{Object: obj, info: info(key.Path, oi)}, nil
}

// OpenWritten opens an object written once, as info describes it: one
// GET when it is read, no HEAD before.
func (b *Blobs) OpenWritten(ctx context.Context, key files.BlobKey, info files.BlobInfo) (files.Blob, error) {
	name, err := b.object("read", key)
	if err != nil {
		return nil, err
	}
	obj, err := b.c.GetObject(ctx, b.cfg.Bucket, name, minio.GetObjectOptions{})
	if err != nil {
		return nil, b.fail("read", key.Path, err)
	}
	return &blob{Object: obj, info: info}, nil
}

func (o *blob) Info() files.BlobInfo { return o.info }

func (o *blob) Read(p []byte) (int, error) {
	n, err := o.Object.Read(p)
	return n, o.classify(err)
}

func (o *blob) ReadAt(p []byte, off int64) (int, error) {
	if off >= o.info.Size {
		return 0, io.EOF
	}
	n, err := o.Object.ReadAt(p, off)
	return n, o.classify(err)
}

func (o *blob) classify(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	if isNotFound(err) {
		return files.E("read", files.KindNotFound, o.info.Path, "no such file", err)
	}
	if minio.ToErrorResponse(err).StatusCode == 412 {
		return files.E("read", files.KindConflict, o.info.Path, "the file changed while it was read; read it again", files.ErrChanged)
	}
	return err
}
