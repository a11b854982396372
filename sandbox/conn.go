package sandbox

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
)

// maxFDsPerMessage bounds the descriptors one message may carry.
const maxFDsPerMessage = 4

// maxMessage bounds one message, either way: a worker running hostile
// code must not make the server hold gigabytes to read what it sends.
// Larger writes cross in chunks (see client.WriteBytes).
const maxMessage = 128 << 20

// conn is one end of the socket between the server and a worker: gob
// messages in a stream, with file descriptors passed (SCM_RIGHTS) beside
// the bytes of the message that names them. Sends are serialized; one
// goroutine receives.
//
// The socket is used with blocking system calls, not Go's network
// poller: each side waits for the other in a thread parked in recvmsg,
// which the kernel wakes directly. Through the poller a helper call cost
// about 57 µs, most of it waking goroutines; blocking, about a third.
// Neither side ever waits on a socket whose peer is alive and idle:
// the server reads only while its worker runs a job, and killing a
// worker ends every read of its socket.
type conn struct {
	fd int

	wmu    sync.Mutex
	encBuf bytes.Buffer
	enc    *gob.Encoder
	broken error // set when a message was encoded but not sent

	in  *fdReader
	dec *gob.Decoder
}

func newConn(fd int) *conn {
	syscall.SetNonblock(fd, false)
	c := &conn{fd: fd, in: &fdReader{fd: fd, oob: make([]byte, syscall.CmsgSpace(maxFDsPerMessage*4))}}
	c.enc = gob.NewEncoder(&c.encBuf)
	c.dec = gob.NewDecoder(&frames{r: bufio.NewReaderSize(c.in, 64<<10)})
	return c
}

// bulk is the size of a message's large fields, known before encoding.
func bulk(m *message) int {
	n := len(m.Data) + len(m.Text)
	if m.Job != nil {
		n += len(m.Job.Source) + len(m.Job.Args)
	}
	if m.Result != nil {
		n += len(m.Result.Output)
		if m.Result.Report != nil {
			n += len(m.Result.Report.Result)
		}
	}
	return n
}

// frames reads the stream of length-prefixed messages as one stream for
// the gob decoder, refusing a message larger than maxMessage.
type frames struct {
	r    io.Reader
	left int
}

func (f *frames) Read(p []byte) (int, error) {
	for f.left == 0 {
		var hdr [4]byte
		if _, err := io.ReadFull(f.r, hdr[:]); err != nil {
			return 0, err
		}
		n := binary.BigEndian.Uint32(hdr[:])
		if n > maxMessage {
			return 0, fmt.Errorf("sandbox: a message of %d bytes, over the %d allowed", n, maxMessage)
		}
		f.left = int(n)
	}
	if len(p) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= n
	return n, err
}

// send writes m, passing files' descriptors with it. The files stay open
// here; the receiver gets its own descriptors.
func (c *conn) send(m *message, files ...*os.File) error {
	if len(files) > maxFDsPerMessage {
		return fmt.Errorf("sandbox: %d descriptors in one message", len(files))
	}
	m.FDs = len(files)
	if n := bulk(m); n > maxMessage {
		return fmt.Errorf("sandbox: a message of %d bytes, over the %d allowed", n, maxMessage)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.broken != nil {
		return c.broken
	}
	c.encBuf.Reset()
	c.encBuf.Write([]byte{0, 0, 0, 0}) // the length, set below
	if err := c.enc.Encode(m); err != nil {
		return err
	}
	b := c.encBuf.Bytes()
	if len(b)-4 > maxMessage {
		// The encoder has recorded types this message would have sent:
		// nothing more can be sent on this socket.
		c.broken = fmt.Errorf("sandbox: a message of %d bytes, over the %d allowed", len(b)-4, maxMessage)
		return c.broken
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = syscall.UnixRights(fds...)
	}
	for len(b) > 0 {
		n, err := syscall.SendmsgN(c.fd, b, oob, nil, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b, oob = b[n:], nil
	}
	return nil
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

func (c *conn) close() error { return syscall.Close(c.fd) }

// fdReader reads the stream and queues the descriptors that arrive with
// it, in order. A descriptor arrives with the first bytes of its message,
// so it is queued before the decoder has read that message whole.
type fdReader struct {
	fd  int
	oob []byte
	fds []int
}

func (r *fdReader) Read(p []byte) (int, error) {
	n, oobn, _, _, err := syscall.Recvmsg(r.fd, p, r.oob, syscall.MSG_CMSG_CLOEXEC)
	for err == syscall.EINTR {
		n, oobn, _, _, err = syscall.Recvmsg(r.fd, p, r.oob, syscall.MSG_CMSG_CLOEXEC)
	}
	if err != nil {
		return 0, err
	}
	if n == 0 && oobn == 0 {
		return 0, io.EOF
	}
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
			r.fds = append(r.fds, fds...)
		}
	}
	return n, err
}

// socketPair returns two connected Unix stream sockets: a descriptor
// for this process, and an *os.File to give a child.
func socketPair() (int, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, nil, err
	}
	return fds[0], os.NewFile(uintptr(fds[1]), "sandbox-worker"), nil
}
