package engine

import (
	"fmt"
	"sync"

	"convfiles/files"
)

// quota is what this process knows of a conversation's bytes: what it
// holds (as the index last said, or as counted on disk without one) and
// what this process's writes under way have reserved, chunk by chunk
// before writing it, so that a write fails as soon as it cannot fit. The
// final word is the index's, checked when a write commits (see txn).
type quota struct {
	mu        sync.Mutex
	loaded    bool   // committed is known
	committed int64  // bytes the conversation holds
	inflight  int64  // bytes reserved by this process's writes under way
	gen       uint64 // bumped when the conversation is deleted
}

// reserve reserves n more bytes, or fails when they would not fit. Before
// failing it asks refresh, when set, what the conversation holds now:
// another process may have freed space since this one last looked.
func (q *quota) reserve(op, name string, n, max int64, refresh func() (int64, error)) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if max > 0 && q.committed+q.inflight+n > max && refresh != nil {
		if used, err := refresh(); err == nil {
			q.committed = used
		}
	}
	if max > 0 && q.committed+q.inflight+n > max {
		return files.E(op, files.KindTooLarge, name, fmt.Sprintf(
			"the conversation may hold at most %s and holds %s (counting writes in progress); the write needs %s more",
			files.FormatBytes(max), files.FormatBytes(q.committed+q.inflight), files.FormatBytes(n)), nil)
	}
	q.inflight += n
	return nil
}

func (q *quota) release(n int64) {
	q.mu.Lock()
	q.inflight = max(q.inflight-n, 0)
	q.mu.Unlock()
}
