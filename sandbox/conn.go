package sandbox

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
)

// maxFDsPerMessage bounds the descriptors one message may carry.
const maxFDsPerMessage = 4

// conn is one end of the socket between the server and a worker: gob
// messages in a stream, with file descriptors passed (SCM_RIGHTS) beside
// the bytes of the message that names them. Sends are serialized; one
// goroutine receives.
type conn struct {
	uc *net.UnixConn

	wmu    sync.Mutex
	encBuf bytes.Buffer
	enc    *gob.Encoder

	in  *fdReader
	dec *gob.Decoder
}

func newConn(uc *net.UnixConn) *conn {
	c := &conn{uc: uc, in: &fdReader{uc: uc, oob: make([]byte, syscall.CmsgSpace(maxFDsPerMessage*4))}}
	c.enc = gob.NewEncoder(&c.encBuf)
	c.dec = gob.NewDecoder(bufio.NewReaderSize(c.in, 64<<10))
	return c
}

// send writes m, passing files' descriptors with it. The files stay open
// here; the receiver gets its own descriptors.
func (c *conn) send(m *message, files ...*os.File) error {
	if len(files) > maxFDsPerMessage {
		return fmt.Errorf("sandbox: %d descriptors in one message", len(files))
	}
	m.FDs = len(files)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.encBuf.Reset()
	if err := c.enc.Encode(m); err != nil {
		return err
	}
	b := c.encBuf.Bytes()
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = syscall.UnixRights(fds...)
	}
	n, _, err := c.uc.WriteMsgUnix(b, oob, nil)
	if err == nil && n < len(b) {
		_, err = c.uc.Write(b[n:])
	}
	return err
}

// recv reads the next message and the files passed with it.
func (c *conn) recv() (*message, []*os.File, error) {
	m := new(message)
	if err := c.dec.Decode(m); err != nil {
		return nil, nil, err
	}
	if m.FDs == 0 {
		return m, nil, nil
	}
	if m.FDs > len(c.in.fds) || m.FDs > maxFDsPerMessage {
		return nil, nil, errors.New("sandbox: a message names descriptors that did not arrive")
	}
	files := make([]*os.File, m.FDs)
	for i, fd := range c.in.fds[:m.FDs] {
		files[i] = os.NewFile(uintptr(fd), "passed")
	}
	c.in.fds = c.in.fds[m.FDs:]
	return m, files, nil
}

func (c *conn) close() error { return c.uc.Close() }

// fdReader reads the stream and queues the descriptors that arrive with
// it, in order. A descriptor arrives with the first bytes of its message,
// so it is queued before the decoder has read that message whole.
type fdReader struct {
	uc  *net.UnixConn
	oob []byte
	fds []int
}

func (r *fdReader) Read(p []byte) (int, error) {
	n, oobn, _, _, err := r.uc.ReadMsgUnix(p, r.oob)
	n = max(n, 0)
	if oobn > 0 {
		msgs, perr := syscall.ParseSocketControlMessage(r.oob[:oobn])
		if perr != nil {
			return n, perr
		}
		for _, cm := range msgs {
			fds, perr := syscall.ParseUnixRights(&cm)
			if perr != nil {
				return n, perr
			}
			for _, fd := range fds {
				syscall.CloseOnExec(fd)
			}
			r.fds = append(r.fds, fds...)
		}
	}
	return n, err
}

// socketPair returns two connected Unix stream sockets: one for this
// process, one as an *os.File to give a child.
func socketPair() (*net.UnixConn, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	mine := os.NewFile(uintptr(fds[0]), "sandbox-server")
	defer mine.Close()
	fc, err := net.FileConn(mine)
	if err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	return fc.(*net.UnixConn), os.NewFile(uintptr(fds[1]), "sandbox-worker"), nil
}
