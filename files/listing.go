package files

import (
	"io/fs"
	"sort"
)

// List returns every regular file of the Space, sorted by name. Reserved
// entries (temporary files of writes in progress) and links are not listed.
func (sp *Space) List() ([]Info, error) {
	r, err := sp.root(false)
	if err != nil {
		return nil, classify("list", "", err)
	}
	if r == nil {
		return nil, nil
	}
	var out []Info
	err = walkFiles(r, func(name string, fi fs.FileInfo) {
		out = append(out, Info{Name: name, Size: fi.Size(), ModTime: fi.ModTime()})
	})
	if err != nil {
		return nil, classify("list", "", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Summary counts the files and bytes of the Space and finds its newest change.
func (sp *Space) Summary() (ConversationInfo, error) {
	info := ConversationInfo{ID: sp.id}
	r, err := sp.root(false)
	if err != nil {
		return info, classify("summary", "", err)
	}
	if r == nil {
		return info, notFound("summary", sp.id)
	}
	if fi, err := r.Stat("."); err == nil {
		info.Modified = fi.ModTime()
	}
	err = walkFiles(r, func(_ string, fi fs.FileInfo) {
		info.Files++
		info.Bytes += fi.Size()
		if fi.ModTime().After(info.Modified) {
			info.Modified = fi.ModTime()
		}
	})
	return info, classify("summary", "", err)
}

// DirEntry is one entry of a folder listing.
type DirEntry struct {
	Name  string `json:"name"`
	IsDir bool   `json:"is_dir"`
}

// ReadDir lists the folder dir ("" or "." for the top), without recursion,
// sorted by name. Reserved entries and links are left out.
func (sp *Space) ReadDir(dir string) ([]DirEntry, error) {
	const op = "list"
	if dir != "" && dir != "." {
		clean, err := ValidateName(dir)
		if err != nil {
			return nil, err
		}
		dir = clean
	} else {
		dir = "."
	}
	r, err := sp.root(false)
	if err != nil {
		return nil, classify(op, dir, err)
	}
	if r == nil {
		if dir == "." {
			return nil, nil
		}
		return nil, notFound(op, dir)
	}
	if dir != "." {
		fi, err := r.Lstat(dir)
		if err != nil {
			return nil, classify(op, dir, err)
		}
		if !fi.IsDir() {
			return nil, E(op, KindConflict, dir, "is not a folder", nil)
		}
	}
	entries, err := fs.ReadDir(r.FS(), dir)
	if err != nil {
		return nil, classify(op, dir, err)
	}
	out := make([]DirEntry, 0, len(entries))
	for _, e := range entries {
		if IsReserved(e.Name()) || !(e.IsDir() || e.Type().IsRegular()) {
			continue
		}
		out = append(out, DirEntry{Name: e.Name(), IsDir: e.IsDir()})
	}
	return out, nil
}
