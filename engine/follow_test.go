package engine_test

import (
	"context"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/sqlite"
)

// countingIndex counts the event queries followers make.
type countingIndex struct {
	driver.Index
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
	store, err := engine.OpenStore(t.TempDir(), engine.Options{Index: counting, Bus: files.NewBus()})
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

// TestFollowerPassesOnPublishedEvents: a follower of a busy conversation
// gets every change, in order and exactly as the index records it,
// without a query per change; a change another process commits in between
// (a second Store on the same index) opens a gap that a query fills, so
// nothing is missed and nothing comes twice.
func TestFollowerPassesOnPublishedEvents(t *testing.T) {
	path := t.TempDir() + "/index.db"
	ix, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	counting := &countingIndex{Index: ix}
	dir := t.TempDir()
	store, err := engine.OpenStore(dir, engine.Options{Index: counting, Bus: files.NewBus()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ix2, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix2.Close()
	other, err := engine.OpenStore(dir, engine.Options{Index: ix2, Bus: files.NewBus()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f, err := store.Follow("busy", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if evs, err := f.Next(ctx, time.Millisecond); err != nil || len(evs) != 0 {
		t.Fatalf("an empty history gave %v, %v", evs, err)
	}
	here, _ := store.Space("busy")
	defer here.Close()
	there, _ := other.Space("busy")
	defer there.Close()
	write := func(sp *engine.Space, name string) {
		if _, err := sp.WriteBytes(ctx, name, []byte("x"), files.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var got []files.Event
	collect := func(n int) {
		for len(got) < n {
			evs, err := f.Next(ctx, 0)
			if err != nil {
				t.Fatalf("after %d events: %v", len(got), err)
			}
			got = append(got, evs...)
		}
	}
	before := counting.queries.Load()
	for i := 0; i < 50; i++ {
		write(here, "f"+strconv.Itoa(i)+".txt")
		collect(i + 1)
	}
	if q := counting.queries.Load() - before; q > 2 {
		t.Errorf("50 changes cost the follower %d queries", q)
	}
	write(here, "a.txt")
	write(there, "b.txt") // another process: not on this Store's Bus
	write(here, "c.txt")
	collect(53)
	want, err := ix.Events(ctx, "busy", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the follower got\n%+v\nthe index holds\n%+v", got, want)
	}
}
