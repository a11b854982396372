package ops

import (
	"context"
	"sync"

	"convfiles/files"
)

// fileFeed hands a content search the files to read, a chunk at a time,
// while the index is still being read: the workers start on the first
// folder while the names of the last are on their way. The reading never
// waits for the search, so the index's connection is held no longer than
// the reading takes.
type fileFeed struct {
	mu     sync.Mutex
	ready  *sync.Cond
	files  []searchFile
	taken  int
	done   bool
	err    error
	cancel context.CancelFunc
	ended  chan struct{}
}

// feedFiles starts reading the names and sizes of the files below
// q.Prefix whose names match q.Pattern, in name order.
func feedFiles(ctx context.Context, sp files.Ops, q files.ListQuery) *fileFeed {
	ctx, cancel := context.WithCancel(ctx)
	f := &fileFeed{cancel: cancel, ended: make(chan struct{})}
	f.ready = sync.NewCond(&f.mu)
	go func() {
		defer close(f.ended)
		var batch []searchFile
		err := sp.Sizes(ctx, q.Prefix, func(name string, size int64) {
			if q.Pattern != "" && !files.MatchGlob(q.Pattern, name) {
				return
			}
			if batch = append(batch, searchFile{name, size}); len(batch) == searchChunk {
				f.add(batch, false, nil)
				batch = batch[:0]
			}
		})
		f.add(batch, true, err)
	}()
	return f
}

// add appends files read from the index, and with done how it ended.
func (f *fileFeed) add(batch []searchFile, done bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files = append(f.files, batch...)
	f.done, f.err = done, err
	f.ready.Broadcast()
}

// next returns up to n files not yet taken, waiting until there are n or
// the index is read; none once every file is taken.
func (f *fileFeed) next(n int) ([]searchFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for !f.done && len(f.files)-f.taken < n {
		f.ready.Wait()
	}
	if f.err != nil {
		return nil, f.err
	}
	out := f.files[f.taken:min(f.taken+n, len(f.files))]
	f.taken += len(out)
	return out, nil
}

// stop ends the reading, if it is still going, and waits for it.
func (f *fileFeed) stop() {
	f.cancel()
	<-f.ended
}
