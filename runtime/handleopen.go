package runtime

import (
	"bufio"

	"convfiles/files"
)

// OpenHandle opens name on sp in an io mode: "r" reads the file as it is,
// "w" writes a new version that replaces it at close (or flush), "a"
// appends. A write is recorded in the run's touches when it commits, so a
// run that fails before its close reports nothing it did not do.
func (s *Run) OpenHandle(sp files.Ops, name, mode string, binary bool) (*Handle, error) {
	h := &Handle{Binary: binary}
	if mode == "r" {
		blob, info, err := sp.Open(s.Ctx, name)
		if err != nil {
			return nil, err
		}
		h.Blob, h.Name, h.Buffered = blob, info.Name, bufio.NewReaderSize(blob, 64<<10)
		return h, nil
	}
	w, err := sp.NewWriter(s.Ctx, name, s.WriteOpts(), mode == "a")
	if err != nil {
		return nil, err
	}
	h.Writer, h.Name = w, w.Name()
	op := files.Wrote
	if mode == "a" {
		op = files.Appended
	}
	h.committed = func() { s.Touches.Touch(h.Name, op) }
	h.reopen = func() (files.FileWriter, error) { return sp.NewWriter(s.Ctx, h.Name, s.WriteOpts(), true) }
	return h, nil
}

// Flush makes what a write handle has written so far the file's content,
// as toolscript's io writes through: the bytes are committed as a new
// version and the handle goes on writing after them. A read handle has
// nothing to flush.
func (h *Handle) Flush() error {
	if h.Closed || h.Reading() {
		return nil
	}
	if h.Failed != nil {
		return h.Failed
	}
	if _, err := h.Writer.Commit(); err != nil {
		h.Closed = true
		return err
	}
	h.committed()
	w, err := h.reopen()
	if err != nil {
		h.Closed = true
		return err
	}
	h.Writer = w
	return nil
}
