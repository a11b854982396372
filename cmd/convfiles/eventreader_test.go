package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// eventReader follows one conversation's event stream on one replica
// and, when that replica dies, resumes on the next with Last-Event-ID,
// as a browser's EventSource does.
type eventReader struct {
	t    *testing.T
	conv string
	mu   sync.Mutex
	seqs []int64
	done chan struct{}
}

func newEventReader(t *testing.T, ctx context.Context, rs *replicaSet, conv string, replica int) *eventReader {
	r := &eventReader{t: t, conv: conv, done: make(chan struct{})}
	connected := make(chan struct{}, 1)
	go func() {
		defer close(r.done)
		for i := replica; ctx.Err() == nil; i++ {
			r.follow(ctx, rs.base(i), connected)
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	select {
	case <-connected:
	case <-time.After(10 * time.Second):
		t.Fatalf("the event stream of %s did not connect", conv)
	}
	return r
}

// follow reads one connection until it ends.
func (r *eventReader) follow(ctx context.Context, base string, connected chan<- struct{}) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events?conversation="+r.conv, nil)
	req.Header.Set("Last-Event-ID", strconv.FormatInt(r.last(), 10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		r.t.Errorf("event stream on %s: %d", base, resp.StatusCode)
		return
	}
	select {
	case connected <- struct{}{}:
	default:
	}
	sc := bufio.NewScanner(resp.Body)
	var id int64
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: reset"):
			r.t.Errorf("%s: the stream was reset; the history must reach back to the start", r.conv)
		case line == "" && id > 0:
			r.mu.Lock()
			r.seqs = append(r.seqs, id)
			r.mu.Unlock()
			id = 0
		}
	}
}

func (r *eventReader) last() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seqs) == 0 {
		return 0
	}
	return r.seqs[len(r.seqs)-1]
}

// checkAgainst waits until the reader has caught up with the
// conversation's history in the database, then checks it saw every
// event once, in order.
func (r *eventReader) checkAgainst(db *pgx.Conn) {
	rows, _ := db.Query(context.Background(), `SELECT seq FROM events WHERE conversation = $1 ORDER BY seq`, r.conv)
	want, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(want) == 0 {
		r.t.Fatalf("%s: history %v, %v", r.conv, want, err)
	}
	for deadline := time.Now().Add(15 * time.Second); r.last() < want[len(want)-1] && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	r.mu.Lock()
	got := append([]int64(nil), r.seqs...)
	r.mu.Unlock()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		r.t.Errorf("%s: the stream saw %d events, the history holds %d; first difference at %d", r.conv, len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []int64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
