package s3blobs_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"convfiles/content"
	"convfiles/engine"
	"convfiles/files"
	"convfiles/files/driver"
	"convfiles/internal/pgserver"
	"convfiles/postgres"
)

// lockedUp is how long the tests below wait before they call a run of
// writes locked up: far beyond what the writes need on any machine, so
// only writers that wait for each other for ever reach it.
const lockedUp = 3 * time.Minute

// TestWritersOutnumberingThePoolNeverLockUp is the lock-up of a replica
// with more concurrent writers than database connections: with a pool of
// 2, eight writers create new files (in folders, so each new name is
// checked against the folders) in one conversation and in one each. Every
// write must land, and every file must read back.
func TestWritersOutnumberingThePoolNeverLockUp(t *testing.T) {
	blobs, url := openBucket(t, "convfiles"), pgserver.Database(t)
	store := openReplica(t, blobs, url+"&pool_max_conns=2", engine.Options{Versions: 2})
	ctx, cancel := context.WithTimeout(context.Background(), lockedUp)
	defer cancel()

	const writers, each = 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				for _, conv := range []string{"shared", fmt.Sprintf("own-%d", w)} {
					sp, err := store.Space(conv)
					if err != nil {
						errs <- err
						return
					}
					name := fmt.Sprintf("w%d/d%d/f%d.txt", w, i%2, i)
					_, err = sp.WriteBytes(ctx, name, []byte(conv+" "+name), files.WriteOptions{})
					sp.Close()
					if err != nil {
						errs <- fmt.Errorf("%s %s: %w", conv, name, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if errors.Is(err, context.DeadlineExceeded) || files.KindOf(err) == files.KindUnavailable {
			t.Fatalf("the writers locked up: %v", err)
		}
		t.Errorf("write: %v", err)
	}
	for w := range writers {
		for i := range each {
			for _, conv := range []string{"shared", fmt.Sprintf("own-%d", w)} {
				name := fmt.Sprintf("w%d/d%d/f%d.txt", w, i%2, i)
				sp, _ := store.Space(conv)
				got, _, err := sp.ReadFile(ctx, name, 1<<20)
				sp.Close()
				if err != nil || string(got) != conv+" "+name {
					t.Errorf("%s %s reads %q, %v", conv, name, got, err)
				}
			}
		}
	}
}

// lostAnswer is an index whose commits happen but whose answers are lost
// on the way back, as when the connection drops (or the client cancels)
// just after the database committed: the caller cannot tell whether its
// change is recorded.
type lostAnswer struct {
	*postgres.Index
	mu   sync.Mutex
	lose bool
}

func (ix *lostAnswer) Update(ctx context.Context, fn func(driver.Tx) error) error {
	err := ix.Index.Update(ctx, fn)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err == nil && ix.lose {
		return files.Unavailable("index", "", "the connection was lost during the commit", context.Canceled)
	}
	return err
}

// TestACommitIsNeverUndone writes a file's second version through an
// index that commits it and then loses the answer, as a cancelled client
// did: the write may be reported as failed, but the row it committed must
// name bytes that are there, on this replica and on a fresh one.
func TestACommitIsNeverUndone(t *testing.T) {
	blobs, url := openBucket(t, "convfiles"), pgserver.Database(t)
	pg, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	ix := &lostAnswer{Index: pg}
	store, err := engine.OpenStore(filepath.Join(t.TempDir(), "files"),
		engine.Options{Index: ix, Objects: blobs, Sniff: content.SniffMIME, Versions: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { store.Close(); pg.Close() }()
	sp, _ := store.Space("c")
	defer sp.Close()
	ctx := context.Background()
	if _, err := sp.WriteBytes(ctx, "report.txt", []byte("version 1\n"), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	ix.lose = true
	ix.mu.Unlock()
	_, err = sp.WriteBytes(ctx, "report.txt", []byte("version 2\n"), files.WriteOptions{})
	if files.KindOf(err) != files.KindUnavailable || strings.Contains(err.Error(), files.ReservedPrefix) {
		t.Errorf("a write whose commit's answer was lost: %v, want an UnavailableError naming no internal key", err)
	}
	ix.mu.Lock()
	ix.lose = false
	ix.mu.Unlock()

	other := openReplica(t, blobs, url, engine.Options{Versions: 2})
	for what, s := range map[string]*engine.Store{"this replica": store, "another replica": other} {
		sp, _ := s.Space("c")
		rec, err := sp.Record(ctx, "report.txt")
		if err != nil || rec.Version != 2 {
			t.Fatalf("%s: the committed row: %+v %v", what, rec, err)
		}
		got, _, err := sp.ReadFile(ctx, "report.txt", 1<<20)
		if err != nil || string(got) != "version 2\n" {
			t.Errorf("%s: the committed version reads %q, %v; a row without its object", what, got, err)
		}
		sp.Close()
	}
}
