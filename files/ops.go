package files

import (
	"context"
	"io"
	"regexp"
)

// Ops is every operation a door performs on one conversation's files. A
// *Space is the implementation in the process that owns the store; a
// worker process, where scripts and file decoders run, holds a client
// that performs each call over its pipe to that process (see package
// sandbox), so the index, quotas and events stay in one place.
//
// Open and OpenVersion hand out a Blob to read; where its bytes are in a
// local file a worker receives the descriptor itself and never a path.
//
// Every method takes the context of the request it serves: once that
// ends or passes its deadline, the call stops waiting for the index or
// the blobs. A change already sent to be committed still commits, and
// is reported as committed or as unknown, never as undone.
type Ops interface {
	// ID is the conversation ID, or "" for a standalone folder.
	ID() string
	// HostPath is where name lives on the host, for display only.
	HostPath(name string) string

	Stat(ctx context.Context, name string) (Info, error)
	Open(ctx context.Context, name string) (Blob, Info, error)
	ReadFile(ctx context.Context, name string, max int64) ([]byte, Info, error)
	ReadAt(ctx context.Context, name string, off, n int64) ([]byte, error)
	ReadLines(ctx context.Context, name string, q LineQuery) (LineRange, error)
	LineCount(ctx context.Context, name string) (int, error)
	// ReadTail is the last n lines of a file, read back from its end, at
	// most maxBytes of them, how many lines that is, and whether the
	// bound left lines out.
	ReadTail(ctx context.Context, name string, n int, maxBytes int64) (content string, lines int, truncated bool, err error)
	ReadDir(ctx context.Context, dir string) ([]DirEntry, error)
	List(ctx context.Context) ([]Info, error)
	Search(ctx context.Context, name string, re *regexp.Regexp) ([]Match, bool, error)

	Resolve(ctx context.Context, idOrName string) (string, error)
	Record(ctx context.Context, idOrName string) (Record, error)
	Versions(ctx context.Context, idOrName string) ([]Version, error)
	Find(ctx context.Context, q ListQuery) ([]Record, int, error)
	Sizes(ctx context.Context, prefix string, each func(name string, size int64)) error

	Write(ctx context.Context, name string, r io.Reader, opts WriteOptions) (Info, error)
	WriteBytes(ctx context.Context, name string, data []byte, opts WriteOptions) (Info, error)
	WriteAt(ctx context.Context, name string, off int64, data []byte, opts WriteOptions) (Info, error)
	// NewWriter is Create (appendTo false) or Append (true).
	NewWriter(ctx context.Context, name string, opts WriteOptions, appendTo bool) (FileWriter, error)
	ReplaceLines(ctx context.Context, name string, start, end int, text string, opts WriteOptions) (int, error)
	EditText(ctx context.Context, name string, edits []TextEdit, dryRun bool, opts WriteOptions) (EditResult, error)
	Copy(ctx context.Context, src, dst string, opts WriteOptions) (Info, error)
	Rename(ctx context.Context, from, to string) (Info, error)
	RenameNew(ctx context.Context, from, to string) (Info, error)
	Remove(ctx context.Context, name string) error
	Restore(ctx context.Context, id string, n int, opts WriteOptions) (Info, error)
}

// FileWriter is a file being written: nothing is visible under its name
// until Commit, and Abort (safe after Commit) throws it away.
type FileWriter interface {
	io.Writer
	io.Seeker
	Name() string
	Size() int64
	Commit() (Info, error)
	Abort()
}
