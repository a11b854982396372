package postgres_test

import (
	"context"
	"testing"
	"time"

	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/pgserver"
)

// TestCommitsAreHeardByAnotherReplica: a commit through one index (one
// replica's) is announced to a listener on another, with its event
// number (the delay is logged, not asserted: these machines are shared);
// the pool's own URL parameters do not upset the listening connection.
func TestCommitsAreHeardByAnotherReplica(t *testing.T) {
	url := pgserver.Database(t) + "&pool_max_conns=4"
	writer, listener := open(t, url), open(t, url)
	heard := make(chan int64, 16)
	stop := listener.NotifyChanges(func(seq int64) { heard <- seq })
	defer stop()
	// The first notice (0) says the listener is listening.
	select {
	case seq := <-heard:
		if seq != 0 {
			t.Fatalf("first notice %d, want 0 (now listening)", seq)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the listener never started")
	}
	var applied driver.Applied
	err := writer.Update(context.Background(), func(tx driver.Tx) error {
		var err error
		applied, err = tx.Apply(driver.Change{Type: files.FileCreated, Record: files.Record{Conversation: "c1", Name: "a.txt", Size: 1, Version: 1}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	select {
	case seq := <-heard:
		if seq != applied.Events[0].Seq {
			t.Fatalf("heard %d, committed %d", seq, applied.Events[0].Seq)
		}
		t.Logf("heard on the other index after %s", time.Since(start))
	case <-time.After(10 * time.Second):
		t.Fatal("no notice of the commit")
	}
}
