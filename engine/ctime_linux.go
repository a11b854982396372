package engine

import (
	"io/fs"
	"syscall"
)

// changedAt is when fi's entry last changed, in Unix nanoseconds: the
// later of its modification time and its status change time (ctime),
// which no program can set back, so a folder whose times were set into
// the past still counts as changed.
func changedAt(fi fs.FileInfo) int64 {
	t := fi.ModTime().UnixNano()
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		t = max(t, st.Ctim.Nano())
	}
	return t
}
