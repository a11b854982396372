package files

import (
	"fmt"
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

// WithDefaults is l with every zero limit set to its default.
func (l Limits) WithDefaults() Limits {
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

// Reserve charges n bytes that op is about to write to name, or refuses
// them when they would pass the cap.
func (b *Budget) Reserve(op, name string, n int64) error {
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

// Release gives back n bytes reserved and not written.
func (b *Budget) Release(n int64) {
	if b != nil {
		b.used.Add(-n)
	}
}

// FormatBytes renders a byte count for people: "512 B", "4 KiB", "1.5 MiB".
func FormatBytes(n int64) string { return bytesize.Format(n) }
