package engine

import (
	"convfiles/files"
	"io/fs"
)

func errExists(op, name string) error {
	return files.E(op, files.KindConflict, name, "already exists", fs.ErrExist)
}
