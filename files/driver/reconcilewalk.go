package driver

import (
	"context"
	"runtime"
	"sync"

	"convfiles/files"

	"golang.org/x/sync/errgroup"
)

// LiveState is what a reconciliation keeps of a live row to tell whether
// its file changed: a few dozen bytes, not a whole Record.
type LiveState struct {
	ID             string
	Size, DiskTime int64
}

// PendingFile is a stored file that an index does not know in this
// state, described (MIME, SHA256) or not (Err: it vanished or cannot be
// read, and the next reconciliation tries again).
type PendingFile struct {
	File  DiskFile
	Prev  LiveState
	Known bool // Prev is its live row
	MIME  string
	SHA   string
	Err   error
}

// walkChanged is the first half of an Index's Reconcile: it walks the
// stored files, takes each one it finds out of live (what is left are the
// rows whose files vanished), and hands the new and changed ones to
// commit in batches of at most size. Two stages overlap: one walks and
// describes a batch (on every core) while the other commits the one
// before, so at most three batches are held at once.
func walkChanged(ctx context.Context, walk func(func(DiskFile) error) error, live map[string]LiveState, size int,
	commit func(context.Context, []PendingFile) error) error {
	g, gctx := errgroup.WithContext(ctx)
	described := make(chan []PendingFile, 1)
	g.Go(func() error {
		for batch := range described {
			if err := commit(gctx, batch); err != nil {
				return err
			}
		}
		return nil
	})
	g.Go(func() error {
		defer close(described)
		batch := make([]PendingFile, 0, size)
		send := func() error {
			if len(batch) == 0 {
				return nil
			}
			describeAll(batch)
			select {
			case described <- batch:
			case <-gctx.Done():
				return gctx.Err()
			}
			batch = make([]PendingFile, 0, size)
			return nil
		}
		err := walk(func(d DiskFile) error {
			prev, known := live[d.Name]
			if !known && d.Shared {
				// A hard link convfiles did not make (its copies are
				// known): its bytes may be another conversation's.
				return nil
			}
			if known {
				delete(live, d.Name)
				if prev.Size == d.Size && prev.DiskTime == d.DiskTime {
					return nil
				}
			}
			batch = append(batch, PendingFile{File: d, Prev: prev, Known: known})
			if len(batch) == size {
				return send()
			}
			return nil
		})
		if err != nil {
			return err
		}
		return send()
	})
	return g.Wait()
}

// describeAll describes the files of batch on every core, before the
// transaction that commits them.
func describeAll(batch []PendingFile) {
	next := make(chan int, len(batch))
	for i := range batch {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := &batch[i]
				p.MIME, p.SHA, p.Err = p.File.Describe()
			}
		}()
	}
	wg.Wait()
}

// orphanVersions compares the versions an index keeps (kept) with the
// version bytes stored (stored, by file ID): it returns the stored bytes
// without a row, and the rows whose bytes are gone.
func orphanVersions(kept map[VersionKey]bool, stored map[string][]int) (orphans map[string][]int, gone []VersionKey) {
	orphans = map[string][]int{}
	have := map[VersionKey]bool{}
	for id, ns := range stored {
		for _, n := range ns {
			k := VersionKey{id, n}
			have[k] = true
			if !kept[k] {
				orphans[id] = append(orphans[id], n)
			}
		}
	}
	for k := range kept {
		if !have[k] {
			gone = append(gone, k)
		}
	}
	return orphans, gone
}

// VersionKey names one kept version.
type VersionKey struct {
	FileID  string
	Version int
}

// RowReconciler is the SQL of a reconciliation, which an index supplies
// to RunReconcile; the walk, the batching and the order are RunReconcile's.
type RowReconciler interface {
	// LiveStates returns every live row of the conversation by name.
	LiveStates(ctx context.Context, conversation string) (map[string]LiveState, error)
	// KeptVersions returns every kept version of the conversation.
	KeptVersions(ctx context.Context, conversation string) (map[VersionKey]bool, error)
	// CommitChanged records new and changed files in one transaction.
	CommitChanged(ctx context.Context, conversation string, batch []PendingFile) ([]files.Event, error)
	// DropVanished marks deleted, in one transaction, the live rows of
	// files that are gone.
	DropVanished(ctx context.Context, conversation string, gone map[string]LiveState) ([]files.Event, error)
	// DropVersions removes, in one transaction, the rows of versions
	// whose bytes are gone, and the rows of deleted files left with none.
	DropVersions(ctx context.Context, conversation string, gone []VersionKey) error
}

// RunReconcile is Index.Reconcile over an index's RowReconciler, in
// transactions of at most batch files.
func RunReconcile(ctx context.Context, conversation string, in Reconciliation, r RowReconciler, batch int) (map[string][]int, error) {
	live, err := r.LiveStates(ctx, conversation)
	if err != nil {
		return nil, err
	}
	kept, err := r.KeptVersions(ctx, conversation)
	if err != nil {
		return nil, err
	}
	publish := in.Publish
	if publish == nil {
		publish = func([]files.Event) {}
	}
	if in.Walk != nil {
		err := walkChanged(ctx, in.Walk, live, batch, func(ctx context.Context, b []PendingFile) error {
			evs, err := r.CommitChanged(ctx, conversation, b)
			if err == nil {
				publish(evs)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	for len(live) > 0 {
		chunk := map[string]LiveState{}
		for name, st := range live {
			if len(chunk) == batch {
				break
			}
			chunk[name] = st
		}
		evs, err := r.DropVanished(ctx, conversation, chunk)
		if err != nil {
			return nil, err
		}
		for name := range chunk {
			delete(live, name)
		}
		publish(evs)
	}
	orphans, gone := orphanVersions(kept, in.Versions)
	return orphans, r.DropVersions(ctx, conversation, gone)
}
