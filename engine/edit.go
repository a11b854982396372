package engine

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"convfiles/files"
	"convfiles/files/driver"
)

// ReadAt returns up to n bytes of the file name from offset off.
func (sp *Space) ReadAt(ctx context.Context, name string, off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || n > files.MaxReadAt {
		return nil, files.E("read", files.KindInvalid, name, fmt.Sprintf("offset and length must be positive, and a read at most %s", files.FormatBytes(files.MaxReadAt)), nil)
	}
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if off >= info.Size {
		return []byte{}, nil
	}
	buf := make([]byte, min(n, info.Size-off))
	m, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, classify("read", info.Name, err)
	}
	return buf[:m], nil
}

// WriteAt writes data into the file name at offset off (past the end
// leaves zeros between), creating the file if needed, atomically.
func (sp *Space) WriteAt(ctx context.Context, name string, off int64, data []byte, opts files.WriteOptions) (files.Info, error) {
	if off < 0 {
		return files.Info{}, files.E("write", files.KindInvalid, name, "the offset must not be negative", nil)
	}
	w, err := sp.Append(ctx, name, opts)
	if err != nil {
		return files.Info{}, err
	}
	defer w.Abort()
	patch := func(w *Writer) error {
		if _, err := w.Seek(off, io.SeekStart); err != nil {
			return err
		}
		_, err := w.Write(data)
		return err
	}
	if opts.IfUnchanged == nil {
		// Another writer's change is kept: the bytes land at off in the
		// file as it is when this write commits.
		w.rebase = func(w *Writer, src rebaseSource) error {
			if src.cur != nil {
				if err := w.copyFrom(src.cur, src.curSize); err != nil {
					return err
				}
			}
			return patch(w)
		}
	}
	if err := patch(w); err != nil {
		return files.Info{}, err
	}
	return w.Commit()
}

// Copy copies the file src to dst, replacing dst atomically.
func (sp *Space) Copy(ctx context.Context, src, dst string, opts files.WriteOptions) (files.Info, error) {
	if sp.objects {
		name, err := files.ValidateName(src)
		if err != nil {
			return files.Info{}, err
		}
		rec, err := sp.objectRecord(ctx, "copy", name)
		if err != nil {
			return files.Info{}, err
		}
		if opts.DerivedFrom == "" {
			opts.DerivedFrom = rec.ID
		}
		sum, _ := hex.DecodeString(rec.SHA256)
		return sp.copyObject(ctx, sp.key(rec.Blob), rec.Size, sum, dst, opts)
	}
	f, _, err := sp.Open(ctx, src)
	if err != nil {
		return files.Info{}, err
	}
	defer f.Close()
	if rec, ok := sp.lookup(ctx, src); ok && opts.DerivedFrom == "" {
		opts.DerivedFrom = rec.ID
	}
	return sp.Write(ctx, dst, f, opts)
}

// Rename moves the file from to the name to, replacing a file there (but
// never a folder). Missing parent folders of to are created.
func (sp *Space) Rename(ctx context.Context, from, to string) (files.Info, error) {
	return sp.rename(ctx, from, to, false)
}

// RenameNew is Rename that refuses, with KindConflict, to replace a file
// at to: a door where a typo must not cost a file (an LLM's tool) uses it.
// Like a create with NoReplace, it is decided atomically on disk, even
// against other processes.
func (sp *Space) RenameNew(ctx context.Context, from, to string) (files.Info, error) {
	return sp.rename(ctx, from, to, true)
}

func (sp *Space) rename(ctx context.Context, from, to string, noReplace bool) (files.Info, error) {
	const op = "rename"
	from, err := files.ValidateName(from)
	if err != nil {
		return files.Info{}, err
	}
	if to, err = files.ValidateName(to); err != nil {
		return files.Info{}, err
	}
	if err := sp.checkAlive(op, to); err != nil {
		return files.Info{}, err
	}
	var info files.Info
	_, err = sp.update(ctx, op, to, func(t *txn) error {
		info, err = t.rename(from, to, noReplace)
		return err
	})
	if err != nil {
		return files.Info{}, err
	}
	return info, nil
}

// rename renames from to to; a file it replaces is kept as a version when
// the index knows it, or with noReplace the rename is refused. The ID of
// from survives.
func (t *txn) rename(from, to string, noReplace bool) (files.Info, error) {
	const op = "rename"
	sp, ctx := t.sp, t.ctx
	if sp.objects {
		return t.renameObject(from, to, noReplace)
	}
	fb, err := sp.blobs.Stat(ctx, sp.key(from))
	if err != nil {
		return files.Info{}, relabel(op, err)
	}
	replaced := int64(-1)
	switch old, err := sp.blobs.Stat(ctx, sp.key(to)); {
	case errors.Is(err, files.ErrIsFolder):
		return files.Info{}, files.E(op, files.KindConflict, to, "is a folder; choose another name", nil)
	case err == nil && noReplace && from != to:
		return files.Info{}, errExists(op, to)
	case err == nil:
		replaced = old.Size
	case files.KindOf(err) != files.KindNotFound && files.KindOf(err) != files.KindForbidden:
		return files.Info{}, relabel(op, err)
	}
	c := driver.Change{Type: files.FileModified, RenamedFrom: from}
	kept := false
	if dst, known := t.lookup(to); known && replaced >= 0 && from != to {
		c.Replaced = &dst
		if sp.keep() > 0 && sp.keepVersion(ctx, to, dst) {
			c.Kept, kept = sp.versionOf(dst, "overwrite"), true
			t.onUndo(func(ctx context.Context) error { return sp.blobs.Delete(ctx, sp.versionKey(*c.Kept)) })
		}
	}
	rec, known := t.lookup(from)
	if !known {
		rec = files.Record{Conversation: sp.id, Size: fb.Size, DiskTime: fb.ModTime.UnixNano()}
		c.Type, c.RenamedFrom = files.FileCreated, ""
	}
	rec.Name, rec.Modified = to, sp.opts.Now()
	c.Record = sp.stamp(rec)
	if err := t.change(op, c); err != nil {
		t.rollback()
		return files.Info{}, err
	}
	if replaced >= 0 && !kept && from != to && t.tx != nil { // moved back if the index fails
		if err := t.setAside(sp.key(to)); err != nil {
			return files.Info{}, relabel(op, err)
		}
	}
	if err := sp.blobs.Move(ctx, sp.key(from), sp.key(to), noReplace); err != nil {
		t.rollback()
		return files.Info{}, relabel(op, err)
	}
	t.applied = true
	// Undone newest first: to's old content (its version's link) goes
	// back to to only after the renamed file has left it.
	if kept {
		t.onUndo(func(ctx context.Context) error { return sp.blobs.Move(ctx, sp.versionKey(*c.Kept), sp.key(to), false) })
	}
	t.onUndo(func(ctx context.Context) error { return sp.blobs.Move(ctx, sp.key(to), sp.key(from), false) })
	if t.tx == nil {
		sp.q.committed -= max(replaced, 0)
	}
	return files.Info{ID: t.record.ID, Name: to, Size: fb.Size, ModTime: fb.ModTime, Replaced: replaced}, nil
}

// ReplaceLines replaces lines start to end (1-based, inclusive) of the file
// name with text, streaming the file through a new version. With end =
// start-1 nothing is removed: text is inserted before line start. It
// returns the new line count.
func (sp *Space) ReplaceLines(ctx context.Context, name string, start, end int, text string, opts files.WriteOptions) (int, error) {
	const op = "edit lines"
	if start < 1 || end < start-1 {
		return 0, files.E(op, files.KindInvalid, name, "lines are numbered from 1, and the end may not come before the start", nil)
	}
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w, err := sp.Create(ctx, info.Name, opts)
	if err != nil {
		return 0, err
	}
	defer w.Abort()
	if opts.IfUnchanged == nil {
		// The edit is made over the content read; if another writer
		// changes the file first, it is made again over theirs.
		st := stampOf(f.Info())
		w.base = &st
		w.rebase = func(w *Writer, src rebaseSource) error {
			if src.cur == nil {
				return files.E(op, files.KindNotFound, w.name, "the file was deleted while it was being edited", nil)
			}
			return spliceLines(src.cur, src.curSize, w, start, end, text)
		}
	}
	if err := spliceLines(f, info.Size, w, start, end, text); err != nil {
		return 0, err
	}
	if _, err := w.Commit(); err != nil {
		return 0, err
	}
	return w.lines.count(), nil // written in order, so the Writer indexed every line
}

// spliceLines writes the size bytes of src to w with lines start to end
// (1-based, inclusive) replaced by text; with end = start-1, text is
// inserted before line start, and past the last line it is appended.
func spliceLines(src io.ReaderAt, size int64, w io.Writer, start, end int, text string) error {
	r := lineReader(io.NewSectionReader(src, 0, size), size)
	bw := bufio.NewWriterSize(w, bufferFor(size+int64(len(text))))
	line, inserted := 1, false
	insert := func() {
		if !inserted && text != "" {
			bw.WriteString(text)
			if !strings.HasSuffix(text, "\n") {
				bw.WriteByte('\n')
			}
		}
		inserted = true
	}
	for {
		chunk, rerr := r.ReadSlice('\n') // a piece of a line longer than the buffer ends in ErrBufferFull
		if len(chunk) > 0 {
			if line == start {
				insert()
			}
			if line < start || line > end {
				bw.Write(chunk)
			}
			if rerr != bufio.ErrBufferFull {
				line++
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil && rerr != bufio.ErrBufferFull {
			return classify("edit lines", "", rerr)
		}
	}
	if start >= line { // at or past the end: append
		insert()
	}
	return bw.Flush()
}

// Search returns the lines of the file name that re matches, streaming the
// file. re is RE2 (Go's regexp), so no pattern can backtrack
// catastrophically. truncated says more lines matched than MaxMatches.
func (sp *Space) Search(ctx context.Context, name string, re *regexp.Regexp) (matches []files.Match, truncated bool, err error) {
	f, info, err := sp.Open(ctx, name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	matches = []files.Match{}
	for line := 1; sc.Scan(); line++ {
		if re.Match(sc.Bytes()) {
			if len(matches) == files.MaxMatches {
				return matches, true, nil
			}
			matches = append(matches, files.Match{Line: line, Content: strings.TrimSuffix(sc.Text(), "\r")})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, false, classify("search", info.Name, err)
	}
	return matches, false, nil
}
