//go:build !linux

package engine

import "io/fs"

// changedAt is when fi's entry last changed, in Unix nanoseconds: its
// modification time (the status change time is read on Linux only).
func changedAt(fi fs.FileInfo) int64 { return fi.ModTime().UnixNano() }
