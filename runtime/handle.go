package runtime

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"convfiles/files"
)

// MaxOpenFiles is how many io handles one run may hold open (seed 001).
const MaxOpenFiles = 64

// Handle is one file opened with io.open. A read Handle reads the file as it
// was when opened; a write Handle writes a new version that replaces the
// file, atomically, when it is closed.
type Handle struct {
	Name     string
	Binary   bool
	Blob     files.Blob       // read handles
	Buffered *bufio.Reader    // read handles
	Writer   files.FileWriter // write handles
	Closed   bool
	Failed   error // a write failed: the new version is discarded

	committed func()                           // records a committed write (OpenHandle)
	reopen    func() (files.FileWriter, error) // goes on writing after a flush
}

func (h *Handle) Reading() bool { return h.Blob != nil }

// ReadAll returns what is left of the file.
func (h *Handle) ReadAll() ([]byte, error) { return io.ReadAll(h.Buffered) }

// ReadLine returns the next line, without its end unless keep; ok is false
// at the end of the file.
func (h *Handle) ReadLine(keep bool) (line []byte, ok bool, err error) {
	line, err = h.Buffered.ReadBytes('\n')
	if err == io.EOF {
		if len(line) == 0 {
			return nil, false, nil
		}
		return line, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !keep {
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	return line, true, nil
}

// ReadCount returns up to n bytes; ok is false at the end of the file.
func (h *Handle) ReadCount(n int64) ([]byte, bool, error) {
	if n == 0 {
		_, err := h.Buffered.Peek(1)
		return []byte{}, err == nil, nil
	}
	buf := make([]byte, min(n, 1<<20))
	var out []byte
	for int64(len(out)) < n {
		m, err := h.Buffered.Read(buf[:min(int64(len(buf)), n-int64(len(out)))])
		out = append(out, buf[:m]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	return out, len(out) > 0, nil
}

// ReadNumber reads a number the way Lua's "*n" does: leading space is
// skipped, then the longest prefix that reads as a number is taken.
func (h *Handle) ReadNumber() (float64, bool) {
	for {
		c, err := h.Buffered.ReadByte()
		if err != nil {
			return 0, false
		}
		if !strings.ContainsRune(" \t\r\n\v\f", rune(c)) {
			h.Buffered.UnreadByte()
			break
		}
	}
	var b strings.Builder
	for b.Len() < 200 {
		c, err := h.Buffered.ReadByte()
		if err != nil {
			break
		}
		if !strings.ContainsRune("0123456789+-.eExXabcdefABCDEFpP", rune(c)) {
			h.Buffered.UnreadByte()
			break
		}
		b.WriteByte(c)
	}
	s := b.String()
	for len(s) > 0 {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			return v, true
		}
		s = s[:len(s)-1]
	}
	return 0, false
}

// Seek moves a handle like Lua's file:Seek and returns the new position.
func (h *Handle) Seek(whence string, offset int64) (int64, error) {
	w := io.SeekCurrent
	switch whence {
	case "set":
		w = io.SeekStart
	case "end":
		w = io.SeekEnd
	}
	if !h.Reading() {
		return h.Writer.Seek(offset, w)
	}
	if w == io.SeekCurrent {
		offset -= int64(h.Buffered.Buffered()) // bytes read ahead are not yet consumed
	}
	pos, err := h.Blob.Seek(offset, w)
	if err != nil {
		return 0, err
	}
	h.Buffered.Reset(h.Blob)
	return pos, nil
}

// Close ends the handle. A write handle commits its new version unless a
// write failed (or abort is set), in which case the old file stays.
func (h *Handle) Close(abort bool) (committed bool, err error) {
	if h.Closed {
		return false, nil
	}
	h.Closed = true
	if h.Reading() {
		return false, h.Blob.Close()
	}
	if h.Failed != nil || abort {
		h.Writer.Abort()
		return false, nil
	}
	if _, err := h.Writer.Commit(); err != nil {
		return false, err
	}
	if h.committed != nil {
		h.committed()
	}
	return true, nil
}

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
