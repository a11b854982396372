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
	sp.openRoot = func(create bool) (*os.Root, func(), error) {
		r, err := openStandalone(abs, create, sp.opts)
		if err != nil || r == nil {
			return nil, nil, err
		}
		return r, func() { r.Close() }, nil
	}
	return sp, nil
}

// openStandalone opens (with create, making) a standalone folder and sweeps
// leftovers of interrupted writes in it.
func openStandalone(abs string, create bool, opts Options) (*os.Root, error) {
	r, err := os.OpenRoot(abs)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = os.MkdirAll(abs, 0o755); err != nil {
			return nil, err
		}
		r, err = os.OpenRoot(abs)
	}
	if err != nil {
		return nil, err
	}
	if err := sweepReserved(r, opts.Logger); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}
