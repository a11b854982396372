package postgres_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/internal/pgserver"
)

// TestAnOverwriteTakesThreeRoundTrips counts what a write costs in round
// trips to PostgreSQL, where each is a network latency a user waits for:
// the transaction's BEGIN, the lock and both reads a change begins with go
// in the first; the kept version, the live row, the pruning and the event
// in the second; the COMMIT is the third. A proxy between the Store and
// the server counts the requests the Store sends.
func TestAnOverwriteTakesThreeRoundTrips(t *testing.T) {
	proxy := countingProxy(t, pgserver.Database(t))
	s := openStore(t, t.TempDir(), proxy.url, engine.Options{Versions: 2})
	sp, err := s.Space("rt")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	ctx := context.Background()
	for i := range 5 { // every statement prepared, versions pruned from now on
		if _, err := sp.WriteBytes(ctx, "note.txt", []byte(strings.Repeat("x", i+1)), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	const writes = 20
	before := proxy.requests.Load()
	for i := range writes {
		if _, err := sp.WriteBytes(ctx, "note.txt", []byte(strings.Repeat("y", i+1)), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := proxy.requests.Load() - before; got > 3*writes {
		t.Errorf("%d overwrites sent %d requests to PostgreSQL (%.1f each), want at most 3 each", writes, got, float64(got)/writes)
	}
	if vs, err := sp.Versions(ctx, "note.txt"); err != nil || len(vs) != 2 {
		t.Fatalf("versions after the overwrites: %d (%v), want the 2 kept", len(vs), err)
	}
}

// proxy relays connections to a PostgreSQL server and counts the reads
// it makes from clients: each is a request a client sent and then waited
// on, since a client sends its next only after the answer. The pool's
// liveness pings (sent when a connection was idle a second, as on a slow
// disk between two writes) are not the writes' requests and are not
// counted.
type proxy struct {
	url      string
	requests atomic.Int64
}

func countingProxy(t *testing.T, dbURL string) *proxy {
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	target := u.Host
	u.Host = ln.Addr().String()
	p := &proxy{url: u.String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.relay(c, target)
			}()
		}
	}()
	return p
}

// relay copies c to and from a connection to target until either ends.
func (p *proxy) relay(c net.Conn, target string) {
	defer c.Close()
	s, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer s.Close()
	go func() {
		io.Copy(c, s)
		c.Close()
	}()
	buf := make([]byte, 1<<20)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if !bytes.Contains(buf[:n], []byte("-- ping")) {
				p.requests.Add(1)
			}
			if _, err := s.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
