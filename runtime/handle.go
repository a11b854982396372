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

// handle is one file opened with io.open. A read handle reads the file as it
// was when opened; a write handle writes a new version that replaces the
// file, atomically, when it is closed.
type handle struct {
	name   string
	binary bool
	f      files.Blob       // read handles
	br     *bufio.Reader    // read handles
	w      files.FileWriter // write handles
	closed bool
	failed error // a write failed: the new version is discarded
}

func (h *handle) reading() bool { return h.f != nil }

// readAll returns what is left of the file.
func (h *handle) readAll() ([]byte, error) { return io.ReadAll(h.br) }

// readLine returns the next line, without its end unless keep; ok is false
// at the end of the file.
func (h *handle) readLine(keep bool) (line []byte, ok bool, err error) {
	line, err = h.br.ReadBytes('\n')
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

// readCount returns up to n bytes; ok is false at the end of the file.
func (h *handle) readCount(n int64) ([]byte, bool, error) {
	if n == 0 {
		_, err := h.br.Peek(1)
		return []byte{}, err == nil, nil
	}
	buf := make([]byte, min(n, 1<<20))
	var out []byte
	for int64(len(out)) < n {
		m, err := h.br.Read(buf[:min(int64(len(buf)), n-int64(len(out)))])
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

// readNumber reads a number the way Lua's "*n" does: leading space is
// skipped, then the longest prefix that reads as a number is taken.
func (h *handle) readNumber() (float64, bool) {
	for {
		c, err := h.br.ReadByte()
		if err != nil {
			return 0, false
		}
		if !strings.ContainsRune(" \t\r\n\v\f", rune(c)) {
			h.br.UnreadByte()
			break
		}
	}
	var b strings.Builder
	for b.Len() < 200 {
		c, err := h.br.ReadByte()
		if err != nil {
			break
		}
		if !strings.ContainsRune("0123456789+-.eExXabcdefABCDEFpP", rune(c)) {
			h.br.UnreadByte()
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

// seek moves a handle like Lua's file:seek and returns the new position.
func (h *handle) seek(whence string, offset int64) (int64, error) {
	w := io.SeekCurrent
	switch whence {
	case "set":
		w = io.SeekStart
	case "end":
		w = io.SeekEnd
	}
	if !h.reading() {
		return h.w.Seek(offset, w)
	}
	if w == io.SeekCurrent {
		offset -= int64(h.br.Buffered()) // bytes read ahead are not yet consumed
	}
	pos, err := h.f.Seek(offset, w)
	if err != nil {
		return 0, err
	}
	h.br.Reset(h.f)
	return pos, nil
}

// close ends the handle. A write handle commits its new version unless a
// write failed (or abort is set), in which case the old file stays.
func (h *handle) close(abort bool) (committed bool, err error) {
	if h.closed {
		return false, nil
	}
	h.closed = true
	if h.reading() {
		return false, h.f.Close()
	}
	if h.failed != nil || abort {
		h.w.Abort()
		return false, nil
	}
	if _, err := h.w.Commit(); err != nil {
		return false, err
	}
	return true, nil
}
