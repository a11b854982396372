package engine

import (
	"os"
	"path/filepath"
	"strings"

	"convfiles/files"
)

// ReadRoots are the folders outside any conversation from which scripts may
// read by absolute path (SABRE's read_file("/abs/path")), each opened as its
// own os.Root. The list comes from the operator's configuration and is empty
// by default, so absolute reads are refused unless someone allowed them.
type ReadRoots struct {
	roots []readRoot
}

type readRoot struct {
	dir  string // absolute, cleaned, without a trailing separator
	root *os.Root
}

// OpenReadRoots opens each folder of dirs. Paths must be absolute.
func OpenReadRoots(dirs []string) (*ReadRoots, error) {
	rr := &ReadRoots{}
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			rr.Close()
			return nil, files.E("open read root", files.KindInvalid, d, "a read root must be an absolute path", nil)
		}
		clean := filepath.Clean(d)
		r, err := os.OpenRoot(clean)
		if err != nil {
			rr.Close()
			return nil, files.E("open read root", files.KindInvalid, d, "cannot open the folder", err)
		}
		rr.roots = append(rr.roots, readRoot{dir: strings.TrimSuffix(clean, "/"), root: r})
	}
	return rr, nil
}

// Close releases every root.
func (rr *ReadRoots) Close() error {
	if rr == nil {
		return nil
	}
	for _, r := range rr.roots {
		r.root.Close()
	}
	rr.roots = nil
	return nil
}

// Dirs returns the configured folders.
func (rr *ReadRoots) Dirs() []string {
	if rr == nil {
		return nil
	}
	out := make([]string, len(rr.roots))
	for i, r := range rr.roots {
		out[i] = r.dir
	}
	return out
}

// Open opens the regular file at the absolute path abs, which must lie inside
// one of the read roots. The part below the root is validated like any file
// name and opened through that root, so neither ".." nor a link can leave it.
func (rr *ReadRoots) Open(abs string) (files.Blob, files.Info, error) {
	const op = "read"
	if !strings.HasPrefix(abs, "/") {
		return nil, files.Info{}, files.E(op, files.KindInvalid, abs, "not an absolute path", nil)
	}
	if strings.ContainsRune(abs, 0) {
		return nil, files.Info{}, files.E(op, files.KindInvalid, abs, "NUL byte in the path", nil)
	}
	if rr != nil {
		for _, r := range rr.roots {
			prefix := r.dir + "/"
			if r.dir == "" {
				prefix = "/"
			}
			if !strings.HasPrefix(abs, prefix) {
				continue
			}
			rel, err := files.ValidateName(abs[len(prefix):])
			if err != nil {
				return nil, files.Info{}, err
			}
			f, info, err := openRegular(r.root, op, rel)
			if err != nil {
				return nil, files.Info{}, err
			}
			info.Name = abs
			b, err := FileBlob(f, abs)
			return b, info, err
		}
	}
	return nil, files.Info{}, files.E(op, files.KindForbidden, abs, "absolute paths may be read only inside a configured read root ("+rr.describe()+"); use a name relative to the conversation instead", nil)
}

func (rr *ReadRoots) describe() string {
	dirs := rr.Dirs()
	if len(dirs) == 0 {
		return "none is configured"
	}
	return "configured: " + strings.Join(dirs, ", ")
}
