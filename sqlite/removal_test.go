package sqlite_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
)

// TestRemovingAConversationWhileItIsWritten removes a conversation again
// and again while 8 writers write into it: every call must return (a
// removal holds the conversation's lock and needs the index, a group
// commit holds the index and needs the conversation's lock), and once the
// writers stop, what the index lists is exactly what is on disk.
func TestRemovingAConversationWhileItIsWritten(t *testing.T) {
	e := newEnv(t, engine.Options{})
	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				sp, err := e.store.Space("c")
				if err != nil {
					t.Error(err)
					return
				}
				sp.WriteBytes(ctx, fmt.Sprintf("w%d-%d.txt", w, i%5), []byte("x"), files.WriteOptions{})
				sp.Close()
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			if err := e.store.RemoveConversation(ctx, "c"); err != nil && files.KindOf(err) != files.KindNotFound {
				t.Error(err)
			}
			time.Sleep(2 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("removal and writers still waiting after 60 s: they hold each other's lock")
	}
	sp, err := e.store.Space("c")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	listed, err := sp.List(ctx)
	if err != nil && files.KindOf(err) != files.KindNotFound {
		t.Fatal(err)
	}
	onDisk := 0
	e.store.Blobs().List(ctx, "c", "", func(files.BlobInfo) error { onDisk++; return nil })
	if len(listed) != onDisk {
		t.Fatalf("the index lists %d files, the disk holds %d", len(listed), onDisk)
	}
}
