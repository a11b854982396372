package files

import "context"

// Folder is one folder of a conversation held open for reading many of
// its files, as a search does: each file in it then costs one open, not
// a walk of its path from the conversation's top.
type Folder interface {
	// Open opens name, a file directly in the folder, as Ops.Open does.
	Open(ctx context.Context, name string) (Blob, Info, error)
	Close() error
}

// FolderOpener is what an Ops offers when it can hold a folder open (a
// Space on local disk). dir is a folder's name, "" for the top; a
// caller without a FolderOpener opens each file with Ops.Open.
type FolderOpener interface {
	OpenFolder(ctx context.Context, dir string) (Folder, error)
}
