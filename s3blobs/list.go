package s3blobs

import (
	"context"
	"strings"

	"convfiles/files"

	"github.com/minio/minio-go/v7"
)

// List calls fn for every object of a conversation below dir. Objects in
// reserved folders are listed only when dir names one.
func (b *Blobs) List(ctx context.Context, conversation, dir string, fn func(files.BlobInfo) error) error {
	top, err := b.convPrefix("list", conversation)
	if err != nil {
		return err
	}
	prefix := top
	if dir != "" && !clean(strings.TrimSuffix(dir, "/")) {
		return files.E("list", files.KindInvalid, dir, "not a folder inside a conversation", nil)
	}
	if dir != "" {
		prefix += strings.TrimSuffix(dir, "/") + "/"
	}
	named := strings.HasPrefix(dir, files.ReservedPrefix)
	for oi := range b.c.ListObjectsIter(ctx, b.cfg.Bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if oi.Err != nil {
			return b.fail("list", dir, oi.Err)
		}
		rel := strings.TrimPrefix(oi.Key, top)
		if !named && reserved(rel) {
			continue
		}
		if err := fn(info(rel, oi)); err != nil {
			return err
		}
	}
	return nil
}

// reserved reports whether a path lies in, or is, a reserved entry.
func reserved(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(part, files.ReservedPrefix) {
			return true
		}
	}
	return false
}

// Conversations calls fn with every conversation that has objects, the
// Store's reserved spaces included.
func (b *Blobs) Conversations(ctx context.Context, fn func(id string) error) error {
	for oi := range b.c.ListObjectsIter(ctx, b.cfg.Bucket, minio.ListObjectsOptions{Prefix: b.prefix}) {
		if oi.Err != nil {
			return b.fail("list conversations", "", oi.Err)
		}
		id, isDir := strings.CutSuffix(strings.TrimPrefix(oi.Key, b.prefix), "/")
		if !isDir || files.ValidateConversationID(strings.TrimPrefix(id, files.ReservedPrefix)) != nil {
			continue
		}
		if err := fn(id); err != nil {
			return err
		}
	}
	return nil
}

// RemoveConversation deletes every object of a conversation, in batches
// of up to 1000 per request. A conversation without objects is not
// found.
func (b *Blobs) RemoveConversation(ctx context.Context, id string) error {
	top, err := b.convPrefix("remove conversation", id)
	if err != nil {
		return err
	}
	listed := b.c.ListObjects(ctx, b.cfg.Bucket, minio.ListObjectsOptions{Prefix: top, Recursive: true})
	objects := make(chan minio.ObjectInfo)
	found := false
	go func() {
		defer close(objects)
		for oi := range listed {
			found = found || oi.Err == nil
			objects <- oi
		}
	}()
	defer func() {
		for range objects { // drain what an early return left
		}
	}()
	for res := range b.c.RemoveObjects(ctx, b.cfg.Bucket, objects, minio.RemoveObjectsOptions{}) {
		if res.Err != nil && !isNotFound(res.Err) {
			return b.fail("remove conversation", id, res.Err)
		}
	}
	if !found {
		return files.E("remove conversation", files.KindNotFound, id, "no such conversation", nil)
	}
	return nil
}
