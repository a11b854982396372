package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one JSON-RPC message on stdio, like the SDK's transport.
const maxLine = sdk.DefaultMaxLineLength

// StdioTransport is newline-delimited JSON-RPC over a reader and a writer
// (stdin and stdout), as the SDK's IOTransport, but it decodes each
// message with encoding/json: the SDK's decoder allocates 32 KiB per value
// and tries every message as a batch first, which made garbage collection
// the largest cost of a small tool call. Batches (protocol versions before
// 2025-06-18) are decoded message by message and answered one by one.
type StdioTransport struct {
	Reader io.Reader
	Writer io.Writer
}

// Connect starts reading messages.
func (t *StdioTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &stdioConn{w: t.Writer, lines: make(chan lineOrErr), closed: make(chan struct{})}
	go c.readLines(t.Reader)
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

type stdioConn struct {
	w       io.Writer
	writeMu sync.Mutex
	lines   chan lineOrErr
	queue   []jsonrpc.Message // the rest of a batch
	closed  chan struct{}
	once    sync.Once
}

func (c *stdioConn) readLines(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		select {
		case c.lines <- lineOrErr{line, err}:
		case <-c.closed:
			return
		}
		if err != nil && err != errLineTooLong {
			return
		}
	}
}

// errLineTooLong is a line over maxLine bytes. It was read to its end and
// dropped, so the next line is read as usual.
var errLineTooLong = fmt.Errorf("the message is longer than %d bytes", maxLine)

// readLine reads one line of at most maxLine bytes, without its newline.
// A longer line is read to its end without being held, and reported as
// errLineTooLong.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		part, err := br.ReadSlice('\n')
		if !tooLong && len(buf)+len(part) > maxLine+1 {
			tooLong, buf = true, nil
		}
		if !tooLong {
			buf = append(buf, part...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && (err != io.EOF || tooLong || len(bytes.TrimSpace(buf)) == 0):
			return nil, err
		case tooLong:
			return nil, errLineTooLong
		}
		return bytes.TrimRight(buf, "\r\n"), nil
	}
}

// Read returns the next message. A line that is not a message (not JSON,
// not JSON-RPC 2.0, too long) is answered with a JSON-RPC error, as the
// protocol asks, and the session goes on.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for len(c.queue) == 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l := <-c.lines:
			switch {
			case l.err == errLineTooLong:
				c.refuse(jsonrpc.CodeInvalidRequest, l.err.Error())
			case l.err != nil:
				return nil, l.err
			default:
				c.queueLine(bytes.TrimSpace(l.line))
			}
		}
	}
	m := c.queue[0]
	c.queue = c.queue[1:]
	return m, nil
}

// queueLine decodes one line, a message or a batch of them (protocol
// versions before 2025-06-18), into the queue, answering what does not
// decode.
func (c *stdioConn) queueLine(line []byte) {
	if len(line) == 0 {
		return
	}
	raws := []json.RawMessage{line}
	if line[0] == '[' {
		if err := json.Unmarshal(line, &raws); err != nil || len(raws) == 0 {
			c.refuse(jsonrpc.CodeParseError, "a batch must be a non-empty JSON array of messages")
			return
		}
	}
	for _, raw := range raws {
		m, err := decodeMessage(raw)
		if err != nil {
			c.refuse(jsonrpc.CodeParseError, err.Error())
			continue
		}
		c.queue = append(c.queue, m)
	}
}

// refuse answers a line that is no message: its id cannot be known, so
// the answer's is null.
func (c *stdioConn) refuse(code int64, msg string) {
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.w.Write(append(data, '\n'))
}

// wireMessage is a JSON-RPC 2.0 request, notification or response.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id,omitempty"`
	Method  *string         `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc.Error  `json:"error,omitempty"`
}

func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var w wireMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if w.JSONRPC != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected \"2.0\"", w.JSONRPC)
	}
	if n, ok := w.ID.(json.Number); ok {
		i, err := n.Int64()
		if err != nil {
			return nil, fmt.Errorf("invalid request id %s", n)
		}
		w.ID = float64(i)
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return nil, err
	}
	if w.Method != nil {
		return &jsonrpc.Request{ID: id, Method: *w.Method, Params: w.Params}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("a response without an id")
	}
	resp := &jsonrpc.Response{ID: id, Result: w.Result}
	if w.Error != nil {
		resp.Error = w.Error
	}
	return resp, nil
}

// Write sends one message on its own line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// Close stops reading.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *stdioConn) SessionID() string { return "" }
