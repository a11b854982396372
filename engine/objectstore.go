package engine

import (
	"context"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
)

// removeObjects removes a conversation of an object store: its rows
// first, in one transaction, so no row ever names a deleted object; then
// its objects. A crash in between leaves objects no row names, which the
// garbage collector removes.
func (s *Store) removeObjects(ctx context.Context, q *quota, id string) error {
	evs, err := s.opts.Index.RemoveConversation(ctx, id)
	if err != nil {
		return err
	}
	q.gen++
	q.committed, q.loaded = 0, false
	s.publish(evs)
	if err := s.objects.RemoveConversation(ctx, id); err != nil && files.KindOf(err) != files.KindNotFound {
		s.opts.Logger.Error("remove a conversation's objects; the garbage collector removes them", "conversation", id, "err", err)
	}
	return nil
}

// listObjects is List in an object store: the index's rows.
func (sp *Space) listObjects(ctx context.Context, prefix string) ([]files.Record, error) {
	recs, _, err := sp.opts.Index.List(ctx, sp.id, files.ListQuery{Prefix: prefix})
	return recs, relabelErr("list", err)
}

// readDirObjects is ReadDir in an object store: the folder's rows.
func (sp *Space) readDirObjects(ctx context.Context, dir string) ([]files.DirEntry, error) {
	const op = "list"
	prefix := ""
	if dir != "." {
		if _, err := sp.opts.Index.Lookup(ctx, sp.id, dir); err == nil {
			return nil, files.E(op, files.KindConflict, dir, "is not a folder", nil)
		}
		prefix = dir + "/"
	}
	recs, err := sp.listObjects(ctx, prefix)
	if err != nil {
		return nil, err
	}
	if dir != "." && len(recs) == 0 {
		return nil, notFound(op, dir)
	}
	seen := map[string]bool{}
	entries := []files.DirEntry{}
	for _, r := range recs {
		child, _, deeper := strings.Cut(strings.TrimPrefix(r.Name, prefix), "/")
		if !seen[child] {
			seen[child] = true
			entries = append(entries, files.DirEntry{Name: child, IsDir: deeper})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}

// restoreObject is Restore in an object store: a server-side copy of the
// version's object becomes the file's new content.
func (sp *Space) restoreObject(ctx context.Context, rec files.Record, v files.Version, opts files.WriteOptions) (files.Info, error) {
	sum, _ := hex.DecodeString(v.SHA256)
	return sp.copyObject(ctx, sp.key(v.Blob), v.Size, sum, rec.Name, opts)
}

// GarbageReport says what a garbage collection found and did.
type GarbageReport struct {
	Conversations int   `json:"conversations"`
	Objects       int   `json:"objects"`       // objects looked at
	Removed       int   `json:"removed"`       // objects no row named, removed
	RemovedBytes  int64 `json:"removed_bytes"` // their bytes
	Young         int   `json:"young_unnamed"` // objects no row names yet, younger than the grace period
	Referenced    int   `json:"referenced"`    // objects a row names
}

// gcBatch is how many objects one question to the index covers.
const gcBatch = 1000

// CollectGarbage removes the objects of an object store that no row
// names and that are older than grace: what a crash between an upload
// and its commit, or between the removal of rows and of their objects,
// left behind. An object younger than grace may belong to a write that
// has not committed yet, and is left alone; an object a committed row
// names is never removed. Any number of replicas may collect at once.
func (s *Store) CollectGarbage(ctx context.Context, grace time.Duration) (GarbageReport, error) {
	var rep GarbageReport
	if s.objects == nil {
		return rep, files.E("collect garbage", files.KindInvalid, "", "only a store on an object store collects garbage; on disk, start-up removes what a crash left", nil)
	}
	oix, ok := s.opts.Index.(driver.ObjectIndex)
	if !ok {
		return rep, files.E("collect garbage", files.KindInvalid, "", "this index cannot name its objects", nil)
	}
	cutoff := s.opts.Now().Add(-grace)
	var convs []string
	if err := s.objects.Conversations(ctx, func(id string) error { convs = append(convs, id); return nil }); err != nil {
		return rep, err
	}
	for _, id := range convs {
		rep.Conversations++
		var batch []files.BlobInfo
		sweep := func() error {
			err := s.sweepObjects(ctx, oix, id, batch, cutoff, &rep)
			batch = batch[:0]
			return err
		}
		err := s.objects.List(ctx, id, objectsDir, func(b files.BlobInfo) error {
			if batch = append(batch, b); len(batch) == gcBatch {
				return sweep()
			}
			return nil
		})
		if err == nil {
			err = sweep()
		}
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// sweepObjects removes the objects of batch that no row names and that
// are older than cutoff.
func (s *Store) sweepObjects(ctx context.Context, oix driver.ObjectIndex, conv string, batch []files.BlobInfo, cutoff time.Time, rep *GarbageReport) error {
	if len(batch) == 0 {
		return nil
	}
	paths := make([]string, len(batch))
	for i, b := range batch {
		paths[i] = b.Path
	}
	named, err := oix.Referenced(ctx, conv, paths)
	if err != nil {
		return err
	}
	for _, b := range batch {
		rep.Objects++
		switch {
		case named[b.Path]:
			rep.Referenced++
		case b.ModTime.After(cutoff):
			rep.Young++
		default:
			if err := s.objects.Delete(ctx, driver.BlobKey{Conversation: conv, Path: b.Path}); err != nil {
				return err
			}
			rep.Removed++
			rep.RemovedBytes += b.Size
		}
	}
	return nil
}
