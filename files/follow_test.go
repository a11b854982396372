package files_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/sqlite"
)

// countingIndex counts the event queries followers make.
type countingIndex struct {
	files.Index
	queries atomic.Int64
}

func (c *countingIndex) Events(ctx context.Context, conv string, after int64, limit int) ([]files.Event, error) {
	c.queries.Add(1)
	return c.Index.Events(ctx, conv, after, limit)
}

// TestFollowersWakeOnlyForTheirConversation: 300 followers of one
// conversation cost no index query while another conversation changes 50
// times, and all of them see a change to their own.
func TestFollowersWakeOnlyForTheirConversation(t *testing.T) {
	ix, err := sqlite.Open(t.TempDir() + "/index.db")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	counting := &countingIndex{Index: ix}
	store, err := files.OpenStore(t.TempDir(), files.Options{Index: counting, Bus: files.NewBus()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const n = 300
	var ready, done sync.WaitGroup
	var got atomic.Int64
	for i := 0; i < n; i++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			f, err := store.Follow("quiet", 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			ready.Done()
			evs, err := f.Next(ctx, 0)
			if err == nil && len(evs) == 1 && evs[0].Conversation == "quiet" {
				got.Add(1)
			}
		}()
	}
	ready.Wait()
	for i := 0; counting.queries.Load() < n && i < 1000; i++ { // every follower has made its first query
		time.Sleep(10 * time.Millisecond)
	}
	before := counting.queries.Load()
	busy, _ := store.Space("busy")
	defer busy.Close()
	for i := 0; i < 50; i++ {
		if _, err := busy.WriteBytes(ctx, "f"+strconv.Itoa(i)+".txt", []byte("x"), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if q := counting.queries.Load() - before; q > n/10 {
		t.Fatalf("50 writes to another conversation cost %d queries", q)
	}
	quiet, _ := store.Space("quiet")
	defer quiet.Close()
	if _, err := quiet.WriteBytes(ctx, "mine.txt", []byte("x"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	done.Wait()
	if got.Load() != n {
		t.Fatalf("%d of %d followers saw their conversation's change", got.Load(), n)
	}
}
