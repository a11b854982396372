package engine

import (
	"context"
	"sort"
	"strings"

	"convfiles/files"
	"convfiles/files/driver"
)

// Record returns the indexed record of a file, by ID or by name. A deleted
// file is found by its ID, with Deleted set, so its versions can be listed
// and restored.
func (sp *Space) Record(ctx context.Context, idOrName string) (files.Record, error) {
	const op = "info"
	if !sp.indexed() {
		name, err := files.ValidateName(idOrName)
		if err != nil {
			return files.Record{}, err
		}
		info, err := sp.Stat(ctx, name)
		if err != nil {
			return files.Record{}, err
		}
		return files.Record{Conversation: sp.id, Name: name, Size: info.Size, Modified: info.ModTime, Version: 1}, nil
	}
	if rec, ok := sp.byID(ctx, idOrName); ok {
		return rec, nil
	}
	name, err := files.ValidateName(idOrName)
	if err != nil {
		return files.Record{}, err
	}
	rec, err := sp.opts.Index.Lookup(ctx, sp.id, name)
	if files.KindOf(err) == files.KindNotFound {
		return files.Record{}, notFound(op, name)
	}
	return rec, err
}

// Versions lists the kept earlier versions of a file (by ID or name),
// newest first.
func (sp *Space) Versions(ctx context.Context, idOrName string) ([]files.Version, error) {
	rec, err := sp.Record(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	if !sp.indexed() {
		return []files.Version{}, nil
	}
	return sp.opts.Index.Versions(ctx, rec.ID)
}

// OpenVersion opens version n of the file with the given ID for reading.
// The caller must close it.
func (sp *Space) OpenVersion(ctx context.Context, id string, n int) (files.Blob, files.Version, error) {
	const op = "read version"
	v, err := sp.findVersion(ctx, id, n)
	if err != nil {
		return nil, files.Version{}, err
	}
	f, err := sp.blobs.Open(ctx, sp.versionKey(v))
	if err != nil {
		if files.KindOf(err) == files.KindNotFound {
			return nil, files.Version{}, files.E(op, files.KindNotFound, v.Name, "the bytes of this version are gone", nil)
		}
		return nil, files.Version{}, relabel(op, err)
	}
	return f, v, nil
}

func (sp *Space) findVersion(ctx context.Context, id string, n int) (files.Version, error) {
	rec, err := sp.Record(ctx, id)
	if err != nil {
		return files.Version{}, err
	}
	list, err := sp.Versions(ctx, rec.ID)
	if err != nil {
		return files.Version{}, err
	}
	i := sort.Search(len(list), func(i int) bool { return list[i].Version <= n })
	if i == len(list) || list[i].Version != n {
		return files.Version{}, files.E("find version", files.KindNotFound, rec.Name, "no such version; list the file's versions to see which are kept", nil)
	}
	return list[i], nil
}

// Restore makes version n of the file with the given ID its content again,
// as a new write: the current content is kept as a version in turn, so a
// restore can be undone too. A deleted file comes back under its last
// name, with its ID, unless another file now has that name.
func (sp *Space) Restore(ctx context.Context, id string, n int, opts files.WriteOptions) (files.Info, error) {
	const op = "restore"
	rec, err := sp.Record(ctx, id)
	if err != nil {
		return files.Info{}, err
	}
	f, v, err := sp.OpenVersion(ctx, rec.ID, n)
	if err != nil {
		return files.Info{}, err
	}
	defer f.Close()
	if rec.Deleted != nil {
		if _, err := sp.Stat(ctx, rec.Name); err == nil || files.KindOf(err) != files.KindNotFound {
			return files.Info{}, files.E(op, files.KindConflict, rec.Name, "another file has this name now; rename it first", nil)
		}
		ctx = context.WithValue(ctx, reviveKey{}, rec.ID)
	}
	if sp.objects && v.Blob != "" {
		return sp.restoreObject(ctx, rec, v, opts)
	}
	return sp.Write(ctx, rec.Name, f, opts)
}

// Find returns one page of the Space's files and how many match in all:
// from the index when there is one, else from a walk of the folder.
func (sp *Space) Find(ctx context.Context, q files.ListQuery) ([]files.Record, int, error) {
	if q.Pattern != "" {
		if err := files.ValidateGlob(q.Pattern); err != nil {
			return nil, 0, err
		}
	}
	if sp.indexed() {
		return sp.opts.Index.List(ctx, sp.id, q)
	}
	if q.Deleted { // a folder without an index keeps no deleted files
		return []files.Record{}, 0, nil
	}
	all, err := sp.List(ctx)
	if err != nil {
		return nil, 0, err
	}
	var out []files.Record
	for _, fi := range all {
		if files.MatchGlob(q.Pattern, fi.Name) && q.InFolder(fi.Name) && !q.Skips(fi.Name) {
			out = append(out, files.Record{Conversation: sp.id, Name: fi.Name, Size: fi.Size, Modified: fi.ModTime, Version: 1})
		}
	}
	driver.SortRecords(out, q.Sort, q.Desc)
	total := len(out)
	out = out[min(q.Offset, total):]
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, total, nil
}

// versionsStored lists the kept versions a conversation's blobs hold.
func versionsStored(ctx context.Context, blobs driver.Blobs, conversation string) (map[string][]int, error) {
	out := map[string][]int{}
	err := blobs.List(ctx, conversation, versionsDir, func(b files.BlobInfo) error {
		id, n, ok := strings.Cut(strings.TrimPrefix(b.Path, versionsDir+"/"), "/")
		if v, isVersion := parseVersion(n); ok && isVersion {
			out[id] = append(out[id], v)
		}
		return nil
	})
	return out, err
}
