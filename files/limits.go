package files

import (
	"fmt"
	"sync"
	"sync/atomic"

	"convfiles/internal/bytesize"
)

// Default limits, the numbers seed 004 and seed 000 promise their users.
const (
	DefaultMaxFileBytes         = 50 << 20 // one file
	DefaultMaxConversationBytes = 1 << 30  // all files of one conversation
	DefaultMaxExecutionBytes    = 50 << 20 // bytes one script execution may write
	// DefaultMaxConversationFiles bounds the files of one conversation:
	// empty files escape every byte quota (a 25 s script made 7,966).
	DefaultMaxConversationFiles = 100_000
)

// Limits bounds what the Store accepts. A zero field means the default; a
// negative one means no limit.
type Limits struct {
	MaxFileBytes         int64
	MaxConversationBytes int64
	// MaxConversationFiles is checked in the index, as the byte quota is.
	MaxConversationFiles int
}

func (l Limits) withDefaults() Limits {
	if l.MaxFileBytes == 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	if l.MaxConversationBytes == 0 {
		l.MaxConversationBytes = DefaultMaxConversationBytes
	}
	if l.MaxConversationFiles == 0 {
		l.MaxConversationFiles = DefaultMaxConversationFiles
	}
	return l
}

// Budget counts the bytes one execution writes, across every file and every
// call, so that a script cannot write more than its cap in total (seed 000's
// per-execution max_bytes). It is safe for concurrent use.
type Budget struct {
	max  int64
	used atomic.Int64
}

// NewBudget returns a Budget of max bytes; max ≤ 0 means unlimited.
func NewBudget(max int64) *Budget { return &Budget{max: max} }

// Used returns the bytes charged so far.
func (b *Budget) Used() int64 { return b.used.Load() }

// Max returns the cap, or 0 for unlimited.
func (b *Budget) Max() int64 {
	if b.max <= 0 {
		return 0
	}
	return b.max
}

func (b *Budget) reserve(op, name string, n int64) error {
	if b == nil {
		return nil
	}
	if b.max <= 0 {
		b.used.Add(n)
		return nil
	}
	for {
		used := b.used.Load()
		if used+n > b.max {
			return E(op, KindTooLarge, name, fmt.Sprintf(
				"this execution may write at most %s in all and has written %s; the write needs %s more",
				FormatBytes(b.max), FormatBytes(used), FormatBytes(n)), nil)
		}
		if b.used.CompareAndSwap(used, used+n) {
			return nil
		}
	}
}

func (b *Budget) release(n int64) {
	if b != nil {
		b.used.Add(-n)
	}
}

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
		return E(op, KindTooLarge, name, fmt.Sprintf(
			"the conversation may hold at most %s and holds %s (counting writes in progress); the write needs %s more",
			FormatBytes(max), FormatBytes(q.committed+q.inflight), FormatBytes(n)), nil)
	}
	q.inflight += n
	return nil
}

func (q *quota) release(n int64) {
	q.mu.Lock()
	q.inflight = max(q.inflight-n, 0)
	q.mu.Unlock()
}

// FormatBytes renders a byte count for people: "512 B", "4 KiB", "1.5 MiB".
func FormatBytes(n int64) string { return bytesize.Format(n) }
