package sandbox

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// tempPrefix names the folder, under the system's temporary folder, that
// holds a pool's per-worker temporary folders.
const tempPrefix = "convfiles-workers-"

// tempLockName is the file in that folder its pool keeps locked while it
// lives: the kernel drops the lock when the process ends, however it
// ends, so a folder whose lock can be taken belongs to nobody.
const tempLockName = ".lock"

// unlockedGrace is how old a pool folder without a lock file must be
// before a sweep takes it for abandoned: a pool that just made its folder
// creates the lock file a moment later.
const unlockedGrace = time.Minute

// makeTempRoot makes a pool's temporary folder and locks it, after
// removing the folders of pools whose process died without removing
// theirs (killed, or out of memory).
func makeTempRoot(log *slog.Logger) (string, *os.File, error) {
	sweepTempRoots(os.TempDir(), log)
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		return "", nil, err
	}
	// The lock file is locked under another name and renamed into place,
	// so a sweep never finds it unlocked while this pool lives.
	pending := filepath.Join(dir, tempLockName+".new")
	lock, err := os.OpenFile(pending, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err == nil {
		err = os.Rename(pending, filepath.Join(dir, tempLockName))
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(dir)
		return "", nil, err
	}
	return dir, lock, nil
}

// sweepTempRoots removes every pool folder in top that no living pool
// holds. Failures are logged, never fatal: a leftover folder costs disk
// space, not correctness.
func sweepTempRoots(top string, log *slog.Logger) {
	entries, err := os.ReadDir(top)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		dir := filepath.Join(top, e.Name())
		if abandoned(dir) {
			if err := os.RemoveAll(dir); err != nil {
				log.Warn("sandbox: cannot remove a dead pool's temporary folder", "dir", dir, "err", err)
			} else {
				log.Info("sandbox: removed a dead pool's temporary folder", "dir", dir)
			}
		}
	}
}

// abandoned reports whether the pool folder dir belongs to no living
// process: its lock can be taken, or it has none and is old enough.
func abandoned(dir string) bool {
	lock, err := os.OpenFile(filepath.Join(dir, tempLockName), os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		fi, err := os.Lstat(dir)
		return err == nil && time.Since(fi.ModTime()) > unlockedGrace
	}
	if err != nil {
		return false
	}
	defer lock.Close()
	return syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
