package files

import (
	"io"
	"os"
	"path"

	"github.com/google/uuid"
)

// rebaseSource is what a Writer's rebase rebuilds from: the bytes of its
// previous attempt, and the file as it is now.
type rebaseSource struct {
	prev       *os.File // the previous attempt's temporary file
	prevSize   int64
	prevCopied int64    // how much of prev was copied from the old base
	cur        *os.File // the file now; nil when there is none
	curSize    int64
}

// redo starts the Writer over in a new temporary file and has its rebase
// rebuild the change over the file as it is now, which becomes the new
// base. What rebase writes is reserved against the limits again but not
// charged to the budget a second time.
func (w *Writer) redo() error {
	cur, fi, err := w.openCurrent()
	if err != nil {
		return err
	}
	base := stamp{}
	src := rebaseSource{prev: w.f, prevSize: w.size, prevCopied: w.copied, cur: cur}
	if cur != nil {
		defer cur.Close()
		base, src.curSize = stampOf(fi), fi.Size()
	}
	prevTmp := w.tmp
	defer func() {
		src.prev.Close()
		w.r.Remove(prevTmp)
	}()
	tmp := path.Join(path.Dir(w.name), ReservedPrefix+"tmp-"+uuid.NewString())
	f, err := w.r.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
	if err != nil {
		return classify("write", w.name, err)
	}
	lockTemp(f)
	w.sp.q.release(w.size)
	w.f, w.tmp, w.size, w.copied, w.off = f, tmp, 0, 0, 0
	w.lines = newLineIndexer()
	if w.sum != nil {
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
