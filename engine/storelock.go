package engine

import (
	"os"
	"syscall"

	"convfiles/files"
)

// Every open Store of a folder (the server's, each CLI command's) holds a
// shared lock on openLockName. Reconciling the index with disk is safe only
// for a Store that is alone: with another one open, a file it has just
// renamed but not yet indexed, or a version it has just kept, would look
// like a change behind the index's back, and the version's bytes like an
// orphan to remove. So a Store reconciles only when it can take that lock
// exclusively; startLockName serializes start-ups, so no other Store can
// slip in while the winner turns its exclusive lock into a shared one.
const (
	openLockName  = files.ReservedPrefix + "open.lock"
	startLockName = files.ReservedPrefix + "start.lock"
)

// lockStore takes the open lock, exclusively when no other Store is open,
// and runs alone (reconciliation) while holding it so. It returns the file
// that keeps the shared lock for the Store's lifetime.
func lockStore(r *os.Root, alone func() error) (*os.File, error) {
	start, err := openLock(r, startLockName)
	if err != nil {
		return nil, err
	}
	defer start.Close() // closing releases the start lock
	if err := syscall.Flock(int(start.Fd()), syscall.LOCK_EX); err != nil {
		return nil, err
	}
	open, err := openLock(r, openLockName)
	if err != nil {
		return nil, err
	}
	fd := int(open.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		if err := alone(); err != nil {
			open.Close()
			return nil, err
		}
	}
	if err := syscall.Flock(fd, syscall.LOCK_SH); err != nil {
		open.Close()
		return nil, err
	}
	return open, nil
}

func openLock(r *os.Root, name string) (*os.File, error) {
	return r.OpenFile(name, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
}
