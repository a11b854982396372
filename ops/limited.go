package ops

import (
	"context"
	"io"
	"regexp"

	"convfiles/auth"
	"convfiles/files"
)

// ForPrincipal is the conversation's files as a script run by ctx's
// principal may use them: every read needs the read scope and every change
// the write scope, whichever helper the script calls and wherever it runs
// (in this process or a worker, whose calls come back here). A principal
// holding both gets sp itself.
func ForPrincipal(ctx context.Context, sp files.Ops) files.Ops {
	p := auth.FromContext(ctx)
	if sp == nil || p != nil && p.Scopes.Has(auth.Read|auth.Write) {
		return sp
	}
	var scopes auth.Scope
	if p != nil {
		scopes = p.Scopes
	}
	return &limited{Ops: sp, scopes: scopes}
}

// limited refuses what its scopes do not allow.
type limited struct {
	files.Ops
	scopes auth.Scope
}

func (l *limited) may(need auth.Scope, what string) error {
	if l.scopes.Has(need) {
		return nil
	}
	return files.E(what, files.KindForbidden, "", "this credential may not "+need.String()+" files: it holds "+l.scopes.String(), nil)
}

func (l *limited) reads(what string) error  { return l.may(auth.Read, what) }
func (l *limited) writes(what string) error { return l.may(auth.Write, what) }

// Stat is the reads of Ops, checked.
func (l *limited) Stat(ctx context.Context, name string) (files.Info, error) {
	if err := l.reads("stat"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.Stat(ctx, name)
}

// Open is checked as a read.
func (l *limited) Open(ctx context.Context, name string) (files.Blob, files.Info, error) {
	if err := l.reads("open"); err != nil {
		return nil, files.Info{}, err
	}
	return l.Ops.Open(ctx, name)
}

// ReadTail is checked as a read.
func (l *limited) ReadTail(ctx context.Context, name string, n int, maxBytes int64) (string, int, bool, error) {
	if err := l.reads("read_tail"); err != nil {
		return "", 0, false, err
	}
	return l.Ops.ReadTail(ctx, name, n, maxBytes)
}

// ReadFile is checked as a read.
func (l *limited) ReadFile(ctx context.Context, name string, max int64) ([]byte, files.Info, error) {
	if err := l.reads("read"); err != nil {
		return nil, files.Info{}, err
	}
	return l.Ops.ReadFile(ctx, name, max)
}

// ReadAt is checked as a read.
func (l *limited) ReadAt(ctx context.Context, name string, off, n int64) ([]byte, error) {
	if err := l.reads("read"); err != nil {
		return nil, err
	}
	return l.Ops.ReadAt(ctx, name, off, n)
}

// ReadLines is checked as a read.
func (l *limited) ReadLines(ctx context.Context, name string, q files.LineQuery) (files.LineRange, error) {
	if err := l.reads("read lines"); err != nil {
		return files.LineRange{}, err
	}
	return l.Ops.ReadLines(ctx, name, q)
}

// LineCount is checked as a read.
func (l *limited) LineCount(ctx context.Context, name string) (int, error) {
	if err := l.reads("count lines"); err != nil {
		return 0, err
	}
	return l.Ops.LineCount(ctx, name)
}

// ReadDir is checked as a read.
func (l *limited) ReadDir(ctx context.Context, dir string) ([]files.DirEntry, error) {
	if err := l.reads("read folder"); err != nil {
		return nil, err
	}
	return l.Ops.ReadDir(ctx, dir)
}

// List is checked as a read.
func (l *limited) List(ctx context.Context) ([]files.Info, error) {
	if err := l.reads("list"); err != nil {
		return nil, err
	}
	return l.Ops.List(ctx)
}

// Search is checked as a read.
func (l *limited) Search(ctx context.Context, name string, re *regexp.Regexp) ([]files.Match, bool, error) {
	if err := l.reads("search"); err != nil {
		return nil, false, err
	}
	return l.Ops.Search(ctx, name, re)
}

// Resolve is checked as a read.
func (l *limited) Resolve(ctx context.Context, idOrName string) (string, error) {
	if err := l.reads("resolve"); err != nil {
		return "", err
	}
	return l.Ops.Resolve(ctx, idOrName)
}

// Record is checked as a read.
func (l *limited) Record(ctx context.Context, idOrName string) (files.Record, error) {
	if err := l.reads("record"); err != nil {
		return files.Record{}, err
	}
	return l.Ops.Record(ctx, idOrName)
}

// Versions is checked as a read.
func (l *limited) Versions(ctx context.Context, idOrName string) ([]files.Version, error) {
	if err := l.reads("versions"); err != nil {
		return nil, err
	}
	return l.Ops.Versions(ctx, idOrName)
}

// Find is checked as a read.
func (l *limited) Find(ctx context.Context, q files.ListQuery) ([]files.Record, int, error) {
	if err := l.reads("find"); err != nil {
		return nil, 0, err
	}
	return l.Ops.Find(ctx, q)
}

// Sizes is checked as a read.
func (l *limited) Sizes(ctx context.Context, prefix string, each func(name string, size int64)) error {
	if err := l.reads("tree"); err != nil {
		return err
	}
	return l.Ops.Sizes(ctx, prefix, each)
}

// Write is checked as a change.
func (l *limited) Write(ctx context.Context, name string, r io.Reader, opts files.WriteOptions) (files.Info, error) {
	if err := l.writes("write"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.Write(ctx, name, r, opts)
}

// WriteBytes is checked as a change.
func (l *limited) WriteBytes(ctx context.Context, name string, data []byte, opts files.WriteOptions) (files.Info, error) {
	if err := l.writes("write"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.WriteBytes(ctx, name, data, opts)
}

// WriteAt is checked as a change.
func (l *limited) WriteAt(ctx context.Context, name string, off int64, data []byte, opts files.WriteOptions) (files.Info, error) {
	if err := l.writes("write"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.WriteAt(ctx, name, off, data, opts)
}

// NewWriter is checked as a change.
func (l *limited) NewWriter(ctx context.Context, name string, opts files.WriteOptions, appendTo bool) (files.FileWriter, error) {
	if err := l.writes("write"); err != nil {
		return nil, err
	}
	return l.Ops.NewWriter(ctx, name, opts, appendTo)
}

// ReplaceLines is checked as a change.
func (l *limited) ReplaceLines(ctx context.Context, name string, start, end int, text string, opts files.WriteOptions) (int, error) {
	if err := l.writes("replace lines"); err != nil {
		return 0, err
	}
	return l.Ops.ReplaceLines(ctx, name, start, end, text, opts)
}

// Copy is checked as a change (and a read of the source).
func (l *limited) Copy(ctx context.Context, src, dst string, opts files.WriteOptions) (files.Info, error) {
	if err := l.may(auth.Read|auth.Write, "copy"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.Copy(ctx, src, dst, opts)
}

// Rename is checked as a change.
func (l *limited) Rename(ctx context.Context, from, to string) (files.Info, error) {
	if err := l.writes("rename"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.Rename(ctx, from, to)
}

// RenameNew is checked as a change.
func (l *limited) RenameNew(ctx context.Context, from, to string) (files.Info, error) {
	if err := l.writes("rename"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.RenameNew(ctx, from, to)
}

// Remove is checked as a change.
func (l *limited) Remove(ctx context.Context, name string) error {
	if err := l.writes("remove"); err != nil {
		return err
	}
	return l.Ops.Remove(ctx, name)
}

// Restore is checked as a change.
func (l *limited) Restore(ctx context.Context, id string, n int, opts files.WriteOptions) (files.Info, error) {
	if err := l.writes("restore"); err != nil {
		return files.Info{}, err
	}
	return l.Ops.Restore(ctx, id, n, opts)
}
