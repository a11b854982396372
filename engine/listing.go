package engine

import (
	"context"
	"errors"
	"sort"
	"strings"

	"convfiles/files"
)

// List returns every regular file of the Space, sorted by name. Reserved
// entries (temporary files of writes in progress) and links are not listed.
func (sp *Space) List(ctx context.Context) ([]files.Info, error) {
	var out []files.Info
	if sp.objects {
		recs, err := sp.listObjects(ctx, "")
		for _, r := range recs {
			out = append(out, files.Info{ID: r.ID, Name: r.Name, Size: r.Size, ModTime: r.Modified})
		}
		return out, err
	}
	err := sp.blobs.List(ctx, sp.id, "", func(b files.BlobInfo) error {
		out = append(out, files.Info{Name: b.Path, Size: b.Size, ModTime: b.ModTime})
		return nil
	})
	if err != nil {
		return nil, relabel("list", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Summary counts the files (made folders' .keep files not among them) and
// bytes of the Space and finds its newest change.
func (sp *Space) Summary(ctx context.Context) (files.ConversationInfo, error) {
	info := files.ConversationInfo{ID: sp.id}
	if sp.objects {
		recs, err := sp.listObjects(ctx, "")
		for _, r := range recs {
			if !files.IsKeepFile(r.Name, r.Size) {
				info.Files++
			}
			info.Bytes += r.Size
			if r.Modified.After(info.Modified) {
				info.Modified = r.Modified
			}
		}
		return info, err
	}
	err := sp.blobs.List(ctx, sp.id, "", func(b files.BlobInfo) error {
		if !files.IsKeepFile(b.Path, b.Size) {
			info.Files++
		}
		info.Bytes += b.Size
		if b.ModTime.After(info.Modified) {
			info.Modified = b.ModTime
		}
		return nil
	})
	return info, relabel("summary", err)
}

// ReadDir lists the folder dir ("" or "." for the top), without recursion,
// sorted by name. Reserved entries and links are left out. A folder is
// there while it holds a file, as in an object store: an empty one is not
// listed.
func (sp *Space) ReadDir(ctx context.Context, dir string) ([]files.DirEntry, error) {
	const op = "list"
	if dir != "" && dir != "." {
		clean, err := files.ValidateName(dir)
		if err != nil {
			return nil, err
		}
		dir = clean
	} else {
		dir = "."
	}
	if sp.objects {
		return sp.readDirObjects(ctx, dir)
	}
	if dir != "." {
		_, err := sp.blobs.Stat(ctx, sp.key(dir))
		switch {
		case err == nil:
			return nil, files.E(op, files.KindConflict, dir, "is not a folder", nil)
		case !errors.Is(err, files.ErrIsFolder):
			return nil, relabel(op, err)
		}
	}
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	seen := map[string]bool{}
	var entries []files.DirEntry
	err := sp.blobs.List(ctx, sp.id, strings.TrimSuffix(prefix, "/"), func(b files.BlobInfo) error {
		rest := strings.TrimPrefix(b.Path, prefix)
		child, _, deeper := strings.Cut(rest, "/")
		if !seen[child] {
			seen[child] = true
			entries = append(entries, files.DirEntry{Name: child, IsDir: deeper})
		}
		return nil
	})
	if err != nil {
		return nil, relabel(op, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}

// Sizes calls each with the name and size of every file whose name begins
// with prefix ("dir/" for a folder's, "" for all), in name order: from
// the index's names and sizes alone when there is one.
func (sp *Space) Sizes(ctx context.Context, prefix string, each func(name string, size int64)) error {
	if sp.indexed() {
		return sp.opts.Index.Sizes(ctx, sp.id, prefix, each)
	}
	all, err := sp.List(ctx)
	for _, fi := range all {
		if strings.HasPrefix(fi.Name, prefix) {
			each(fi.Name, fi.Size)
		}
	}
	return err
}
