package sandbox

import (
	"bytes"
	"io"
	"testing"

	"convfiles/files"
)

// memBlob is a Blob whose bytes are not in a local file, as an object
// store's are.
type memBlob struct {
	*bytes.Reader
	closed bool
}

func (m *memBlob) Close() error         { m.closed = true; return nil }
func (m *memBlob) Info() files.BlobInfo { return files.BlobInfo{Path: "mem.bin", Size: m.Size()} }

// TestBytesKeptElsewhereReachAWorkerThroughASpooledFile: a blob that is no
// local file is handed over as an unnamed temporary file holding its exact
// bytes, read from the start, and the blob is closed.
func TestBytesKeptElsewhereReachAWorkerThroughASpooledFile(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100_000)
	b := &memBlob{Reader: bytes.NewReader(data)}
	f, err := descriptorOf(b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the descriptor reads %d bytes (err %v), want the blob's %d", len(got), err, len(data))
	}
	if !b.closed {
		t.Fatal("the blob was left open")
	}
}
