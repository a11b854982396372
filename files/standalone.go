package files

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// OpenDir returns a Space over a standalone folder (convfiles run --dir), the
// single-folder model of seeds 000 and 001. The same name rules, limits and
// atomic writes apply; the folder is created on first write. Its conversation
// ID is "". The path is the operator's, not a user's.
func OpenDir(dir string, opts Options) (*Space, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, E("open folder", KindInvalid, dir, "cannot resolve the folder", err)
	}
	sp := &Space{opts: opts.withDefaults(), q: &quota{}, hostDir: abs}
	sp.openRoot = func(create bool) (*os.Root, error) {
		r, err := os.OpenRoot(abs)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err = os.MkdirAll(abs, 0o755); err != nil {
				return nil, err
			}
			r, err = os.OpenRoot(abs)
		}
		if err == nil {
			if err = sweepReserved(r, sp.opts.Logger); err != nil {
				r.Close()
				return nil, err
			}
		}
		return r, err
	}
	return sp, nil
}
