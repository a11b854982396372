package s3blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"convfiles/files"
	"convfiles/files/driver"

	"github.com/minio/minio-go/v7"
)

// Open opens the object at key: a HEAD learns its size and ETag, and
// every GET of the reads is pinned to that ETag, so it reads the bytes it
// opened or fails with a conflict, never a mix of two contents.
func (b *Blobs) Open(ctx context.Context, key driver.BlobKey) (files.Blob, error) {
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
	return &objectReader{b: b, ctx: ctx, name: name, etag: oi.ETag, info: info(key.Path, oi)}, nil
}

// OpenWritten opens an object written once, as info describes it: no
// request before the first read, one GET for a read from start to end,
// and none at all for a small object read recently (see objectCache).
func (b *Blobs) OpenWritten(ctx context.Context, key driver.BlobKey, info files.BlobInfo) (files.Blob, error) {
	name, err := b.object("read", key)
	if err != nil {
		return nil, err
	}
	if b.cache.holds(info.Size) {
		return b.cachedBlob(ctx, name, info)
	}
	return &objectReader{b: b, ctx: ctx, name: name, info: info}, nil
}

// objectReader reads an object of known size by ranged GETs: a Read
// streams one GET from where it is to the end, a Seek costs nothing
// until the next Read, and a ReadAt asks for exactly its range.
type objectReader struct {
	b    *Blobs
	ctx  context.Context
	name string
	etag string // pinned by Open; "" for an object written once
	info files.BlobInfo

	off     int64         // where the next Read reads
	body    io.ReadCloser // the GET a Read streams, nil when none
	bodyOff int64         // where body is
}

func (o *objectReader) Info() files.BlobInfo { return o.info }

// get starts a GET of [off, end] (end < 0: to the end of the object).
func (o *objectReader) get(off, end int64) (io.ReadCloser, error) {
	opts := minio.GetObjectOptions{}
	if o.etag != "" {
		opts.SetMatchETag(o.etag)
	}
	if off > 0 || end >= 0 {
		if err := opts.SetRange(off, max(end, 0)); err != nil {
			return nil, err
		}
	}
	body, _, _, err := minio.Core{Client: o.b.c}.GetObject(o.ctx, o.b.cfg.Bucket, o.name, opts)
	return body, o.classify(err)
}

func (o *objectReader) Read(p []byte) (int, error) {
	if o.off >= o.info.Size {
		return 0, io.EOF
	}
	if o.body != nil && o.bodyOff != o.off {
		o.body.Close()
		o.body = nil
	}
	if o.body == nil {
		body, err := o.get(o.off, -1)
		if err != nil {
			return 0, err
		}
		o.body, o.bodyOff = body, o.off
	}
	p = p[:min(int64(len(p)), o.info.Size-o.off)]
	n, err := o.body.Read(p)
	o.off += int64(n)
	o.bodyOff += int64(n)
	if err == io.EOF && o.off < o.info.Size {
		err = io.ErrUnexpectedEOF
	}
	if err == io.EOF || err == nil {
		return n, nil
	}
	return n, o.classify(err)
}

func (o *objectReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= o.info.Size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), o.info.Size-off)
	body, err := o.get(off, off+want-1)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	n, err := io.ReadFull(body, p[:want])
	if err != nil {
		return n, o.classify(err)
	}
	if want < int64(len(p)) {
		return n, io.EOF
	}
	return n, nil
}

func (o *objectReader) Seek(offset int64, whence int) (int64, error) {
	off, err := files.SeekOffset(o.off, o.info.Size, offset, whence)
	o.off = off
	return off, err
}

func (o *objectReader) Close() error {
	if o.body != nil {
		o.body.Close()
		o.body = nil
	}
	return nil
}

// classify turns a failed GET into a files.Error.
func (o *objectReader) classify(err error) error {
	if err == nil {
		return nil
	}
	if isNotFound(err) {
		return files.E("read", files.KindNotFound, o.info.Path, "no such file", err)
	}
	if minio.ToErrorResponse(err).StatusCode == http.StatusPreconditionFailed {
		return files.E("read", files.KindConflict, o.info.Path, "the file changed while it was read; read it again", files.ErrChanged)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("read %s: the object store ended the object early: %w", o.info.Path, err)
	}
	return o.b.fail("read", o.info.Path, err)
}

// DirectURL signs a GET of the object for ttl, asking the store to answer
// with the headers h (S3's response-content-type and friends). An object
// opened by Open may be rewritten at its key, which a URL cannot pin, so
// it has none; objects written once (OpenWritten) do.
func (o *objectReader) DirectURL(ttl time.Duration, h driver.DirectHeaders) (string, error) {
	if o.etag != "" {
		return "", nil
	}
	params := url.Values{}
	for k, v := range map[string]string{"response-content-type": h.ContentType,
		"response-content-disposition": h.ContentDisposition, "response-cache-control": h.CacheControl} {
		if v != "" {
			params.Set(k, v)
		}
	}
	u, err := o.b.public.PresignedGetObject(o.ctx, o.b.cfg.Bucket, o.name, ttl, params)
	if err != nil {
		return "", o.b.fail("read", o.info.Path, err)
	}
	return u.String(), nil
}
