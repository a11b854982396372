package engine

import (
	"io"

	"convfiles/files"
)

// rebaseSource is what a Writer's rebase rebuilds from: the bytes of its
// previous attempt, and the file as it is now.
type rebaseSource struct {
	prev       io.ReaderAt // the previous attempt's bytes
	prevSize   int64
	prevCopied int64      // how much of prev was copied from the old base
	cur        files.Blob // the file now; nil when there is none
	curSize    int64
}

// redo starts the Writer over in new bytes and has its rebase rebuild the
// change over the file as it is now, which becomes the new base. What
// rebase writes is reserved against the limits again but not charged to
// the budget a second time.
func (w *Writer) redo() error {
	cur, err := w.openCurrent()
	if err != nil {
		return err
	}
	base := stamp{}
	prev := w.bw
	src := rebaseSource{prev: prev, prevSize: w.size, prevCopied: w.copied}
	defer prev.Close()
	if cur != nil {
		defer cur.Close()
		src.cur = cur
		base, src.curSize = stampOf(cur.Info()), cur.Info().Size
	}
	bw, err := w.sp.blobs.Create(w.ctx, w.sp.key(w.name))
	if err != nil {
		return relabel("write", err)
	}
	w.sp.q.release(w.size)
	w.bw, w.size, w.copied, w.off = bw, 0, 0, 0
	w.lines = newLineIndexer()
	if w.sum != nil {
		w.sum.stop()
		w.sum = newSequentialHash()
	}
	w.redoing = true
	defer func() { w.redoing = false }()
	if err := w.rebase(w, src); err != nil {
		return err
	}
	w.base = &base
	return nil
}

// rebaseAppend rebuilds an append over the current file: its content,
// then what the Writer appended to the old one. An append that also wrote
// inside the old content (a seek back) cannot be moved, and fails.
func rebaseAppend(w *Writer, src rebaseSource) error {
	if w.lowest < src.prevCopied {
		return errChanged(w.name)
	}
	if src.cur != nil {
		if err := w.copyFrom(src.cur, src.curSize); err != nil {
			return err
		}
	}
	start := w.size
	tail := io.NewSectionReader(src.prev, src.prevCopied, src.prevSize-src.prevCopied)
	if _, err := io.Copy(w, tail); err != nil {
		return err
	}
	w.lowest = start
	return nil
}
