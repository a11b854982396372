package files

import (
	"io"
	"testing"
)

// TestSeekOffset: where a Seek lands from each origin, and the seeks
// refused without moving: before the start, or from no known origin.
func TestSeekOffset(t *testing.T) {
	for _, c := range []struct {
		offset int64
		whence int
		want   int64
		ok     bool
	}{
		{3, io.SeekStart, 3, true}, {2, io.SeekCurrent, 7, true}, {-4, io.SeekEnd, 6, true}, {20, io.SeekStart, 20, true},
		{-6, io.SeekCurrent, 5, false}, {0, 7, 5, false},
	} {
		got, err := SeekOffset(5, 10, c.offset, c.whence)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("seek %d from %d at 5 of 10: %d, %v; want %d (ok %v)", c.offset, c.whence, got, err, c.want, c.ok)
		}
	}
}
