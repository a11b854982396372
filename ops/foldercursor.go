package ops

import (
	"context"
	"path"

	"convfiles/files"
)

// folderCursor opens files one after another, holding the folder of the
// last one open where the Space can (files.FolderOpener): files read in
// name order come a folder at a time, so each folder's path is walked
// once, not once a file.
type folderCursor struct {
	sp     files.Ops
	dir    string
	folder files.Folder
}

// open opens name as Ops.Open does.
func (c *folderCursor) open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	fo, ok := c.sp.(files.FolderOpener)
	if !ok {
		return c.sp.Open(ctx, name)
	}
	dir := path.Dir(name)
	if dir == "." {
		dir = ""
	}
	if c.folder == nil || dir != c.dir {
		c.close()
		folder, err := fo.OpenFolder(ctx, dir)
		if err != nil {
			return nil, files.Info{}, err
		}
		c.folder, c.dir = folder, dir
	}
	return c.folder.Open(ctx, name)
}

// close lets go of the folder held.
func (c *folderCursor) close() {
	if c.folder != nil {
		c.folder.Close()
		c.folder = nil
	}
}
