package engine

import (
	"io/fs"

	"convfiles/files"
)

func errExists(op, name string) error {
	return files.E(op, files.KindConflict, name, "already exists", fs.ErrExist)
}
