package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"convfiles/files"
	"convfiles/files/driver"
)

// Writer is a file being written through a Space. Its bytes go to a
// temporary file under a reserved name and replace the file, atomically,
// only on Commit; Abort (or a failed Write) leaves the old file as it was.
// Every byte is reserved against the file limit, the conversation's quota
// and the budget before it is written. A Writer is not safe for concurrent
// use.
type Writer struct {
	sp      *Space
	ctx     context.Context
	opts    files.WriteOptions
	bw      driver.BlobWriter
	name    string // the validated target name
	size    int64  // bytes in the temporary file, all reserved
	copied  int64  // of which copied from the old file (Append)
	charged int64  // bytes charged to the budget
	done    bool
	off     int64        // where the next Write goes
	lines   *lineIndexer // fed while the file is written in order; nil after a seek back
	sum     *sequentialHash

	// base is the content this Writer's bytes were made from (Append, an
	// edit, IfUnchanged); nil for a write that replaces whatever is there.
	// The commit happens only over that content: else rebase rebuilds the
	// change over the current one, or without rebase the commit fails with
	// ErrChanged.
	base    *stamp
	rebase  func(w *Writer, src rebaseSource) error
	lowest  int64 // the lowest offset a Write wrote at
	redoing bool  // rebase is writing: nothing is charged to the budget
	// knownSum is the SHA-256 of bytes that were not written through
	// the Writer (a server-side copy).
	knownSum []byte
}

// Create starts a new version of the file name, empty (mode "w").
func (sp *Space) Create(ctx context.Context, name string, opts files.WriteOptions) (*Writer, error) {
	return sp.newWriter(ctx, name, opts, false)
}

// Append starts a new version of the file name that begins as a copy of the
// current one, if any, positioned at its end (mode "a"). The copy counts
// toward the quota, not toward the budget: the budget counts what a run
// writes.
func (sp *Space) Append(ctx context.Context, name string, opts files.WriteOptions) (*Writer, error) {
	return sp.newWriter(context.WithValue(ctx, appendingKey{}, true), name, opts, true)
}

func (sp *Space) newWriter(ctx context.Context, name string, opts files.WriteOptions, appendTo bool) (*Writer, error) {
	w, err := sp.newWriterWith(ctx, name, opts, nil)
	if err != nil || !appendTo {
		return w, err
	}
	if err := w.copyOld(); err != nil {
		w.Abort()
		return nil, err
	}
	w.rebase = rebaseAppend
	if opts.IfUnchanged != nil { // the caller's base, not the one copied
		st := stampOfInfo(*opts.IfUnchanged)
		w.base, w.rebase = &st, nil
	}
	return w, nil
}

// newWriterWith starts a Writer of name whose bytes go to bw, or to new
// bytes of the Space's blobs when bw is nil.
func (sp *Space) newWriterWith(ctx context.Context, name string, opts files.WriteOptions, bw driver.BlobWriter) (*Writer, error) {
	const op = "write"
	name, err := files.ValidateName(name)
	if err != nil {
		return nil, err
	}
	if err := sp.checkAlive(op, name); err != nil {
		return nil, err
	}
	if err := sp.loadUsage(ctx); err != nil {
		return nil, classify(op, name, err)
	}
	if bw == nil {
		if bw, err = sp.blobs.Create(ctx, sp.key(name)); err != nil {
			return nil, relabel(op, err)
		}
	}
	w := &Writer{sp: sp, ctx: ctx, opts: opts, bw: bw, name: name, lines: newLineIndexer(), lowest: math.MaxInt64}
	if sp.indexed() {
		w.sum = newSequentialHash()
	}
	if opts.IfUnchanged != nil {
		st := stampOfInfo(*opts.IfUnchanged)
		w.base = &st
	}
	return w, nil
}

// copyOld fills the temporary file with the current version of the file,
// and makes it the Writer's base.
func (w *Writer) copyOld() error {
	old, err := w.openCurrent()
	if err != nil {
		return err
	}
	if old == nil {
		w.base = &stamp{}
		return nil
	}
	defer old.Close()
	st := stampOf(old.Info())
	w.base = &st
	return w.copyFrom(old, old.Info().Size)
}

// openCurrent opens the file as it is now, or returns nil when there is
// none.
func (w *Writer) openCurrent() (files.Blob, error) {
	f, err := w.sp.openBlob(w.ctx, "append", w.name)
	if files.KindOf(err) == files.KindNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// copyFrom appends the n bytes of r as copied content: reserved against
// the limits, not charged to the budget (the budget counts what a run
// writes, not what it keeps).
func (w *Writer) copyFrom(r io.ReaderAt, n int64) error {
	if err := w.reserve(n, false); err != nil {
		return err
	}
	if _, err := w.bw.Seek(w.size, io.SeekStart); err != nil {
		return classify("append", w.name, err)
	}
	m, err := io.Copy(io.MultiWriter(w.bw, w.lines, w.sum), io.NewSectionReader(r, 0, n))
	if err == nil && m != n {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return classify("append", w.name, err)
	}
	w.size += n
	w.copied, w.off = w.size, w.size
	return nil
}

// Name returns the validated name the Writer will replace.
func (w *Writer) Name() string { return w.name }

// Size returns the bytes written so far.
func (w *Writer) Size() int64 { return w.size }

// reserve charges n more bytes; charge says whether the budget pays too.
func (w *Writer) reserve(n int64, charge bool) error {
	const op = "write"
	if max := w.sp.opts.Limits.MaxFileBytes; max > 0 && w.size+n > max {
		return files.E(op, files.KindTooLarge, w.name, fmt.Sprintf("a file may hold at most %s; this one would hold more", files.FormatBytes(max)), nil)
	}
	charge = charge && !w.redoing
	if charge {
		if err := w.opts.Budget.Reserve(op, w.name, n); err != nil {
			return err
		}
	}
	var refresh func() (int64, error)
	if w.sp.indexed() {
		refresh = func() (int64, error) { return w.sp.indexedUsage(w.ctx) }
	}
	if err := w.sp.q.reserve(op, w.name, n, w.sp.opts.Limits.MaxConversationBytes, refresh); err != nil {
		if charge {
			w.opts.Budget.Release(n)
		}
		return err
	}
	if charge {
		w.charged += n
	}
	return nil
}

// Write writes p at the current offset, reserving whatever makes the file
// grow. A failed Write aborts the Writer: the old file stays as it was.
func (w *Writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, files.E("write", files.KindConflict, w.name, "the file was already closed", nil)
	}
	if err := w.ctx.Err(); err != nil {
		w.Abort()
		return 0, classify("write", w.name, err)
	}
	off := w.off
	if grow := off + int64(len(p)) - w.size; grow > 0 {
		if err := w.reserve(grow, true); err != nil {
			w.Abort()
			return 0, err
		}
		w.size += grow
	}
	if w.lines != nil && off != w.lines.pos {
		w.lines = nil // written out of order: index on first read instead
	}
	if !w.redoing {
		w.lowest = min(w.lowest, off)
	}
	n, err := w.bw.Write(p)
	w.off += int64(n)
	if err != nil {
		w.Abort()
		return n, classify("write", w.name, err)
	}
	if w.lines != nil {
		w.lines.Write(p[:n])
	}
	w.sum.write(off, p[:n])
	return n, nil
}

// Seek moves the offset of the next Write, as io.Seeker. Seeking past the
// end is allowed; the gap is reserved when a Write fills it.
func (w *Writer) Seek(offset int64, whence int) (int64, error) {
	if w.done {
		return 0, files.E("seek", files.KindConflict, w.name, "the file was already closed", nil)
	}
	n, err := w.bw.Seek(offset, whence)
	if err != nil {
		return 0, files.E("seek", files.KindInvalid, w.name, "cannot seek there", err)
	}
	w.off = n
	return n, nil
}

// maxRebases bounds how often one commit rebuilds its change over a
// newer content before giving up with a ConflictError: only writers in
// other processes, which the in-process lock does not queue, can make it
// try more than once.
const maxRebases = 50

// Commit makes the written bytes the file's content, atomically and
// durably, and reports the new file. After Commit the Writer is done. A
// Writer with a base commits only over that content: when the file
// changed since, its change is rebuilt over the new content (an append
// lands after what others appended) or, where that is not possible, the
// commit fails with KindConflict and ErrChanged and nothing is written.
func (w *Writer) Commit() (files.Info, error) {
	if w.done {
		return files.Info{}, files.E("write", files.KindConflict, w.name, "the file was already closed", nil)
	}
	if w.base != nil {
		defer w.sp.names.lock(w.sp.hostDir + "\x00" + w.name)()
	}
	for attempt := 0; ; attempt++ {
		info, err := w.commitOnce()
		if err == nil {
			return info, nil
		}
		if !errors.Is(err, files.ErrChanged) || w.rebase == nil || attempt == maxRebases {
			w.Abort()
			return files.Info{}, err
		}
		if err := w.redo(); err != nil {
			w.Abort()
			return files.Info{}, err
		}
	}
}

func (w *Writer) commitOnce() (files.Info, error) {
	const op = "write"
	sealed, err := w.bw.Seal(w.ctx)
	if err != nil {
		return files.Info{}, relabel(op, err)
	}
	size, mtime := sealed.Size, sealed.ModTime
	rec := files.Record{Conversation: w.sp.id, Name: w.name, Size: size, DiskTime: mtime.UnixNano(),
		Source: w.opts.Source, Session: w.opts.Session, DerivedFrom: w.opts.DerivedFrom, ID: revivedID(w.ctx)}
	if w.sp.indexed() {
		sum := w.knownSum
		if sum == nil {
			sum = w.sum.sum(size)
		}
		if rec.MIME, rec.SHA256, err = w.sp.describe(w.bw, w.name, sum); err != nil {
			return files.Info{}, classify(op, w.name, err)
		}
	}
	rec, replaced, err := w.sp.commit(w.ctx, w.bw, rec, w.opts.NoReplace, w.base, w.size)
	if err != nil {
		return files.Info{}, classify(op, w.name, err)
	}
	w.done = true
	w.bw.Close()
	if w.lines != nil && w.lines.pos == size {
		w.sp.lineCache.put(w.sp.hostDir+"\x00"+w.name, w.lines.index(size, mtime))
	}
	return files.Info{ID: rec.ID, Name: w.name, Size: size, ModTime: mtime, Replaced: replaced}, nil
}

// Abort discards the written bytes and releases what they reserved. It is
// safe to call after Commit or more than once.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.sum.stop()
	w.bw.Close()
	w.sp.q.release(w.size)
	w.opts.Budget.Release(w.charged)
}

// reviveKey carries, in a write's context, the ID of a deleted file that
// a Restore brings back under its own ID.
type reviveKey struct{}

// revivedID is the ID a Restore revives, or "" for a write of its own.
func revivedID(ctx context.Context) string {
	id, _ := ctx.Value(reviveKey{}).(string)
	return id
}
