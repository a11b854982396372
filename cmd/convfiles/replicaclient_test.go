package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"convfiles/internal/s3server"
)

// replicaClient changes its own files of one conversation through the
// replicas in turn, and keeps a model of what every acknowledged change
// left: the files must match it exactly at the end. A change whose
// answer was lost (its replica died) is resolved by reading the files it
// touched: they must hold the state before it or the state after it.
type replicaClient struct {
	t       *testing.T
	rs      *replicaSet
	conv    string
	id      int
	rnd     *rand.Rand
	model   map[string][]byte // name → bytes; absent: no file
	acked   int
	refused int // refused for the quota
	unknown int
	n       int
	shrink  bool // the quota was hit: the next change makes a file small
	// load, when set, drives the change through every door and through
	// clients that go away, and takes "unavailable" for an answer.
	load *loadDrive
}

var replicaHTTP = &http.Client{Timeout: 20 * time.Second}

func (c *replicaClient) name(i int) string { return fmt.Sprintf("w%d-%d.txt", c.id, i) }

// line is one line of new content, with its newline.
func (c *replicaClient) line() string {
	return fmt.Sprintf("client %d change %d %s\n", c.id, c.n, strings.Repeat("x", c.rnd.IntN(1500)))
}

func (c *replicaClient) run(deadline time.Time) {
	for time.Now().Before(deadline) {
		c.n++
		a := c.name(c.rnd.IntN(4))
		b := c.name(c.rnd.IntN(4))
		_, aExists := c.model[a]
		_, bExists := c.model[b]
		switch op := c.rnd.IntN(6); {
		case c.shrink && aExists:
			c.shrink = false
			body := []byte("small\n")
			c.change("write_text", map[string]any{"id": a, "content": string(body)}, map[string][]byte{a: body})
		case op == 0 || !aExists:
			body := []byte(c.line() + c.line())
			c.change("write_text", map[string]any{"id": a, "content": string(body)}, map[string][]byte{a: body})
		case op == 1 && len(c.model[a]) < 8<<10:
			add := []byte(c.line())
			c.change("append_bytes", map[string]any{"id": a, "data": base64.StdEncoding.EncodeToString(add)},
				map[string][]byte{a: append(bytes.Clone(c.model[a]), add...)})
		case op == 2:
			old := c.model[a]
			first := bytes.IndexByte(old, '\n')
			edit := strings.TrimSuffix(c.line(), "\n")
			c.change("replace_lines", map[string]any{"id": a, "start_line": 1, "end_line": 1, "content": edit},
				map[string][]byte{a: append([]byte(edit+"\n"), old[first+1:]...)})
		case op == 3 && !bExists:
			c.change("copy", map[string]any{"id": a, "new_name": b}, map[string][]byte{b: bytes.Clone(c.model[a])})
		case op == 4 && !bExists:
			c.change("rename", map[string]any{"id": a, "new_name": b}, map[string][]byte{a: nil, b: c.model[a]})
		case op == 5:
			c.change("delete", map[string]any{"id": a}, map[string][]byte{a: nil})
		}
	}
}

// change sends one operation to the next replica; after maps each name
// it touches to its content once the change is made (nil: no file).
func (c *replicaClient) change(op string, in map[string]any, after map[string][]byte) {
	body, _ := json.Marshal(in)
	base := c.rs.base(c.n + c.id)
	url := fmt.Sprintf("%s/api/conversations/%s/ops/%s", base, c.conv, op)
	var resp *http.Response
	var err error
	if c.load != nil {
		resp, err = c.load.send(c, base, op, in)
	} else {
		resp, err = replicaHTTP.Post(url, "application/json", bytes.NewReader(body))
	}
	if err != nil {
		c.unknown++
		time.Sleep(300 * time.Millisecond) // let the killed replica's transaction end
		c.resolve(after)
		return
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	switch {
	case c.load != nil && (resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusRequestTimeout):
		// An outage, or a script that ran out of time waiting for one:
		// the change was not made, or (a commit whose answer was lost)
		// it was; either way the files say which.
		c.unknown++
		time.Sleep(300 * time.Millisecond)
		c.resolve(after)
	case resp.StatusCode == 200:
		c.acked++
		c.adopt(after)
	case resp.StatusCode == 413:
		c.refused++
		c.shrink = true
		time.Sleep(10 * time.Millisecond)
	case c.load != nil && resp.StatusCode == http.StatusInsufficientStorage:
		// A full disk refuses the change, and nothing changed.
		c.refused++
		time.Sleep(100 * time.Millisecond)
	default:
		c.t.Errorf("%s %s: %d %s", op, body, resp.StatusCode, msg)
	}
}

func (c *replicaClient) adopt(after map[string][]byte) {
	for n, b := range after {
		if b == nil {
			delete(c.model, n)
		} else {
			c.model[n] = b
		}
	}
}

// resolve reads the names a change of unknown outcome touched: all must
// show the state before it, or all the state after it.
//
// A client that hung up leaves a request the server may still be carrying
// out: under load (see loadDrive) the files are read again until they show
// the state after it, or until loadSettle has passed.
func (c *replicaClient) resolve(after map[string][]byte) {
	before := map[string][]byte{}
	for n := range after {
		before[n] = c.model[n]
	}
	settled := time.Now()
	if c.load != nil {
		settled = settled.Add(loadSettle)
	}
	for {
		now := map[string][]byte{}
		for n := range after {
			now[n] = c.read(n)
		}
		switch {
		case same(now, after):
			c.adopt(after)
			return
		case time.Now().Before(settled):
			time.Sleep(250 * time.Millisecond)
		case !same(now, before):
			c.t.Errorf("after a change lost with its replica, %v is neither the state before it nor after it", keys(after))
			return
		default:
			return
		}
	}
}

func same(a, b map[string][]byte) bool {
	for n := range a {
		if (a[n] == nil) != (b[n] == nil) || !bytes.Equal(a[n], b[n]) {
			return false
		}
	}
	return true
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// read returns a file's bytes through a live replica's link, or nil.
func (c *replicaClient) read(name string) []byte {
	for attempt := 0; attempt < 150; attempt++ {
		resp, err := replicaHTTP.Get(fmt.Sprintf("%s/files/%s/%s", c.rs.base(c.id+attempt), c.conv, name))
		if err != nil {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode == 200:
			return b
		case resp.StatusCode == 404:
			return nil
		case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "":
			time.Sleep(200 * time.Millisecond) // an outage: as its answer says, retry
			continue
		}
		c.t.Fatalf("read %s: %d %s", name, resp.StatusCode, b)
	}
	c.t.Fatalf("read %s: no replica answered", name)
	return nil
}

// verify checks every file the client owns against its model.
func (c *replicaClient) verify() {
	for i := range 4 {
		n := c.name(i)
		got, want := c.read(n), c.model[n]
		if (got == nil) != (want == nil) || !bytes.Equal(got, want) {
			c.t.Errorf("%s/%s holds %d bytes (%.40q), the acknowledged changes left %d (%.40q)", c.conv, n, len(got), got, len(want), want)
		}
	}
}

// listBucket returns the keys under prefix, without it.
func listBucket(t *testing.T, s3 *s3server.Server, bucket, prefix string) map[string]bool {
	t.Helper()
	mc, err := s3.Client()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for oi := range mc.ListObjectsIter(context.Background(), bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if oi.Err != nil {
			t.Fatal(oi.Err)
		}
		out[strings.TrimPrefix(oi.Key, prefix)] = true
	}
	return out
}
