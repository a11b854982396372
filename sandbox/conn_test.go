package sandbox

import (
	"context"
	"encoding/binary"
	"strings"
	"syscall"
	"testing"
	"time"

	"convfiles/runtime"
)

// TestMessagesAreBounded: a message over maxMessage is refused by the
// sender, and a length prefix over it (what a worker running hostile
// code could send) is refused by the receiver before anything is read
// into memory.
func TestMessagesAreBounded(t *testing.T) {
	a, theirs, err := socketPair()
	if err != nil {
		t.Fatal(err)
	}
	b := int(theirs.Fd())
	defer theirs.Close()
	ca, cb := newConn(a), newConn(b)
	defer ca.close()
	if err := ca.send(&message{Kind: kindCall, Op: "WriteBytes", Args: []any{"a.txt", make([]byte, maxMessage+1)}}); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Fatalf("an oversized send: %v", err)
	}
	if err := ca.send(&message{Kind: kindCall, Op: "Stat", Args: []any{"a.txt"}}); err != nil {
		t.Fatal(err)
	}
	if m, _, err := cb.recv(); err != nil || m.Op != "Stat" || result[string](&message{Results: m.Args}, 0) != "a.txt" {
		t.Fatalf("a message after the refused one: %+v %v", m, err)
	}
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], 1<<31)
	syscall.Write(a, hdr[:])
	if _, _, err := cb.recv(); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Fatalf("a 2 GiB length prefix: %v", err)
	}
}

// TestLargeWritesCrossInChunks: a write larger than one message streams
// through a writer, and lands whole.
func TestLargeWritesCrossInChunks(t *testing.T) {
	p := newPool(t, Config{Warm: 1})
	_, sp := newSpace(t, "big")
	// The timeout out of reach: workers run at nice 10, and a busy
	// machine (the race detector's other packages) may give them little.
	rep, err := p.Run(context.Background(), runtime.Request{Space: sp, Timeout: 4 * time.Minute,
		Source: `write_file("big.bin", new Uint8Array(20 << 20).fill(7)); files.writeBytes("b64.bin", 0, "` + strings.Repeat("AAAA", 3<<20) + `"); 1`})
	if err != nil {
		t.Fatalf("%v %+v", err, rep)
	}
	for name, size := range map[string]int64{"big.bin": 20 << 20, "b64.bin": 9 << 20} {
		info, err := sp.Stat(context.Background(), name)
		if err != nil || info.Size != size {
			t.Fatalf("%s: %+v %v", name, info, err)
		}
	}
}
