// Package formparts reads a multipart/form-data body as it streams in,
// scanning for the boundary in windows as large as its buffer. It reads
// what mime/multipart reads and refuses what it refuses (a fuzz test holds
// the two to the same answers); the difference is speed: mime/multipart
// looks at 4 KiB at a time, so a gigabyte costs a quarter of a million
// scans and copies, where this package costs a few thousand and copies a
// part's bytes straight from its buffer to their writer.
//
// It imports nothing of convfiles.
package formparts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/textproto"
	"strings"
)

// Limits on what a part's headers may hold: a browser sends two or three
// short lines.
const (
	maxHeaderBytes = 16 << 10
	maxHeaderLines = 100
)

// errCutInHeaders is a body that ends inside a part's headers.
var errCutInHeaders = fmt.Errorf("multipart: the body ended inside a part's headers: %w", io.ErrUnexpectedEOF)

// Reader reads the parts of one multipart body in order.
type Reader struct {
	br       *bufio.Reader
	dash     []byte // "--boundary"
	dashDash []byte // "--boundary--"
	nlDash   []byte // "\r\n--boundary", or "\n--boundary" once the body shows it ends lines with "\n"
	nl       []byte // "\r\n" or "\n"
	current  *Part
	parts    int
}

// NewReader reads the multipart body r, whose parts are separated by
// boundary, through a buffer of bufSize bytes (at least 4 KiB).
func NewReader(r io.Reader, boundary string, bufSize int) *Reader {
	b := []byte("\r\n--" + boundary + "--")
	return &Reader{
		br:       bufio.NewReaderSize(&stickyReader{r: r}, max(bufSize, 4<<10, 2*len(b))),
		nl:       b[:2],
		nlDash:   b[:len(b)-2],
		dash:     b[2 : len(b)-2],
		dashDash: b[2:],
	}
}

// NextPart skips what is left of the current part and returns the next
// one; io.EOF once the closing boundary is read.
func (r *Reader) NextPart() (*Part, error) {
	if r.current != nil {
		if _, err := r.current.copyRaw(io.Discard); err != nil {
			return nil, err
		}
		r.current = nil
	}
	if len(r.dash) == 2 {
		return nil, errors.New("multipart: boundary is empty")
	}
	expectNewPart := false
	for {
		line, err := r.br.ReadSlice('\n')
		if err == io.EOF && r.isClosing(line) {
			return nil, io.EOF
		}
		if err != nil {
			return nil, fmt.Errorf("multipart: NextPart: %w", err)
		}
		if r.isDelimiter(line) {
			r.parts++
			p, err := r.newPart()
			if err != nil {
				return nil, err
			}
			r.current = p
			return p, nil
		}
		if r.isClosing(line) {
			return nil, io.EOF
		}
		if expectNewPart {
			return nil, fmt.Errorf("multipart: expecting a new Part; got line %q", line)
		}
		if r.parts == 0 {
			continue // the preamble
		}
		if bytes.Equal(line, r.nl) {
			expectNewPart = true
			continue
		}
		return nil, fmt.Errorf("multipart: unexpected line in Next(): %q", line)
	}
}

// isDelimiter reports whether line is "--boundary", optional spaces or
// tabs, and the line's end. The first delimiter decides whether lines end
// with "\r\n" or, as some clients send, "\n".
func (r *Reader) isDelimiter(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, r.dash)
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	if r.parts == 0 && len(rest) == 1 && rest[0] == '\n' {
		r.nl = r.nl[1:]
		r.nlDash = r.nlDash[1:]
	}
	return bytes.Equal(rest, r.nl)
}

// isClosing reports whether line is "--boundary--", optional spaces or
// tabs, and the line's end or nothing.
func (r *Reader) isClosing(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, r.dashDash)
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) == 0 || bytes.Equal(rest, r.nl)
}

// newPart reads a part's headers, which end at an empty line.
func (r *Reader) newPart() (*Part, error) {
	var head []byte
	for lines := 0; ; lines++ {
		line, err := r.br.ReadSlice('\n')
		if err != nil && !(err == bufio.ErrBufferFull && len(head)+len(line) <= maxHeaderBytes) {
			if err == io.EOF {
				// (mime/multipart says io.EOF here, as if the body had
				// ended well: a cut-off upload would lose its last file.)
				return nil, errCutInHeaders
			}
			return nil, fmt.Errorf("multipart: NextPart: %w", err)
		}
		head = append(head, line...)
		if len(head) > maxHeaderBytes || lines > maxHeaderLines {
			return nil, errors.New("multipart: a part's headers are too large")
		}
		if err == nil && (len(line) == 1 || len(line) == 2 && line[0] == '\r') {
			break
		}
	}
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(head))).ReadMIMEHeader()
	if err != nil {
		return nil, fmt.Errorf("multipart: NextPart: %w", err)
	}
	p := &Part{Header: h, mr: r}
	p.body = bodyReader{p}
	const cte = "Content-Transfer-Encoding"
	if strings.EqualFold(h.Get(cte), "quoted-printable") {
		h.Del(cte)
		p.decoded = quotedprintable.NewReader(p.body)
	}
	return p, nil
}

// stickyReader gives back its first error on every later read: the
// buffer's reader hands an error out once, and a body read again after
// its end must not be asked again.
type stickyReader struct {
	r   io.Reader
	err error
}

// Read reads from r until r fails, and then fails the same way.
func (s *stickyReader) Read(b []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(b)
	s.err = err
	return n, err
}
