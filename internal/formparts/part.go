package formparts

import (
	"bytes"
	"io"
	"mime"
	"net/textproto"
)

// Part is one part of a multipart body: its headers, then its bytes up to
// the next boundary.
type Part struct {
	// Header holds the part's headers, as mime/multipart gives them.
	Header textproto.MIMEHeader

	mr      *Reader
	body    bodyReader
	decoded io.Reader // the quoted-printable decoder, when the part says so
	read    int64     // bytes of the body read so far
	n       int       // bytes at the buffer's head known to be the body's
	err     error     // what follows those n bytes: nil, io.EOF at the boundary, or a read error
}

// ReadError is a failure to read the body itself (the client went away,
// or the body ended before its closing boundary), as opposed to a failure
// of the writer a part is copied to.
type ReadError struct{ Err error }

// Error says the body could not be read, and why.
func (e *ReadError) Error() string { return "multipart: reading the body: " + e.Err.Error() }

// Unwrap returns the read's own error.
func (e *ReadError) Unwrap() error { return e.Err }

// FormName returns the name parameter of the part's Content-Disposition
// if it is form-data, and "" otherwise.
func (p *Part) FormName() string {
	d, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	if err != nil || d != "form-data" {
		return ""
	}
	return params["name"]
}

// Read reads the part's bytes; io.EOF at the boundary that ends it.
func (p *Part) Read(b []byte) (int, error) {
	if p.decoded != nil {
		return p.decoded.Read(b)
	}
	return p.body.Read(b)
}

// WriteTo copies the rest of the part to w, a buffer's worth at a time,
// straight from the Reader's buffer. A failure to read is a *ReadError;
// a failure to write is w's own error.
func (p *Part) WriteTo(w io.Writer) (int64, error) {
	if p.decoded != nil {
		return io.Copy(w, p.decoded)
	}
	return p.copyRaw(w)
}

// copyRaw copies the rest of the part's raw bytes to w.
func (p *Part) copyRaw(w io.Writer) (int64, error) {
	var total int64
	for {
		if p.n == 0 && p.err == nil {
			p.scan(true)
		}
		if p.n > 0 {
			buf, _ := p.mr.br.Peek(p.n)
			written, err := w.Write(buf)
			p.mr.br.Discard(written)
			p.n -= written
			p.read += int64(written)
			total += int64(written)
			if err != nil {
				return total, err
			}
			continue
		}
		if p.err == io.EOF {
			return total, nil
		}
		return total, &ReadError{p.err}
	}
}

// bodyReader reads a part's raw bytes.
type bodyReader struct{ p *Part }

// Read reads the raw bytes of the part up to its boundary.
func (r bodyReader) Read(b []byte) (int, error) {
	p := r.p
	if p.n == 0 && p.err == nil {
		p.scan(false)
	}
	if p.n == 0 {
		if p.err == io.EOF {
			return 0, io.EOF
		}
		return 0, &ReadError{p.err}
	}
	n, _ := p.mr.br.Read(b[:min(len(b), p.n)])
	p.n -= n
	p.read += int64(n)
	return n, nil
}

// scan reads until it knows some bytes at the buffer's head are the
// part's, or why none are (the boundary, or a read error). full asks it to
// fill the buffer first, for copies of whole buffers.
func (p *Part) scan(full bool) {
	br := p.mr.br
	var readErr error
	if full {
		_, readErr = br.Peek(br.Size())
	}
	for p.n == 0 && p.err == nil {
		if readErr == io.EOF {
			readErr = io.ErrUnexpectedEOF // the closing boundary never came
		}
		buf, _ := br.Peek(br.Buffered())
		p.n, p.err = scanUntilBoundary(buf, p.mr.dash, p.mr.nlDash, p.read, readErr)
		if p.n == 0 && p.err == nil {
			_, readErr = br.Peek(len(buf) + 1)
		}
	}
}

// scanUntilBoundary returns how many bytes at buf's head are the body's,
// and io.EOF if the boundary follows them. read is how much of the body
// came before buf; readErr is why buf holds no more.
func scanUntilBoundary(buf, dash, nlDash []byte, read int64, readErr error) (int, error) {
	if read == 0 {
		// An empty body: the boundary comes at once, without a line end.
		if bytes.HasPrefix(buf, dash) {
			switch matchAfterPrefix(buf, dash, readErr) {
			case -1:
				return len(dash), nil
			case 0:
				return 0, nil
			case +1:
				return 0, io.EOF
			}
		}
		if bytes.HasPrefix(dash, buf) {
			return 0, readErr
		}
	}
	from := 0
	for {
		i := bytes.Index(buf[from:], nlDash)
		if i < 0 {
			break
		}
		i += from
		switch matchAfterPrefix(buf[i:], nlDash, readErr) {
		case 0:
			return i, nil
		case +1:
			return i, io.EOF
		}
		// "--boundary" followed by something else is the body's.
		from = i + len(nlDash)
	}
	if bytes.HasPrefix(nlDash, buf) {
		return 0, readErr
	}
	// Hold back a tail that could be the start of the boundary.
	for k := min(len(nlDash)-1, len(buf)); k > 0; k-- {
		if bytes.HasPrefix(nlDash, buf[len(buf)-k:]) {
			return len(buf) - k, nil
		}
	}
	return len(buf), readErr
}

// matchAfterPrefix says what follows a boundary at buf's head: +1 it ends
// the part (spaces, a line end, or "--"), -1 it does not, 0 more bytes are
// needed to tell.
func matchAfterPrefix(buf, prefix []byte, readErr error) int {
	if len(buf) == len(prefix) {
		if readErr != nil {
			return +1
		}
		return 0
	}
	switch c := buf[len(prefix)]; c {
	case ' ', '\t', '\r', '\n':
		return +1
	case '-':
		if len(buf) == len(prefix)+1 {
			if readErr != nil {
				return -1
			}
			return 0
		}
		if buf[len(prefix)+1] == '-' {
			return +1
		}
	}
	return -1
}
