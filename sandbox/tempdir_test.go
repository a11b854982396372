package sandbox

import (
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSweepRemovesOnlyDeadPoolsFolders: a pool folder whose lock nobody
// holds (its process died) and an old one without a lock go; a locked one
// (a living pool), a fresh one without a lock (a pool starting) and other
// folders stay.
func TestSweepRemovesOnlyDeadPoolsFolders(t *testing.T) {
	top := t.TempDir()
	mk := func(name string, lock bool, age time.Duration) string {
		dir := filepath.Join(top, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "w1-scratch"), []byte("x"), 0o600)
		if lock {
			os.WriteFile(filepath.Join(dir, tempLockName), nil, 0o600)
		}
		old := time.Now().Add(-age)
		os.Chtimes(dir, old, old)
		return dir
	}
	dead := mk(tempPrefix+"dead", true, 0)
	living := mk(tempPrefix+"living", true, 0)
	oldUnlocked := mk(tempPrefix+"old", false, 2*unlockedGrace)
	starting := mk(tempPrefix+"starting", false, 0)
	other := mk("someone-elses", true, 2*unlockedGrace)

	held, err := os.OpenFile(filepath.Join(living, tempLockName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}

	sweepTempRoots(top, slog.New(slog.DiscardHandler))
	for dir, want := range map[string]bool{dead: false, oldUnlocked: false, living: true, starting: true, other: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(dir), err == nil, want)
		}
	}
}

// TestTempRootIsHeldWhileItsPoolLives: the folder a pool makes is never
// found abandoned while its lock is held, and is once it is released.
func TestTempRootIsHeldWhileItsPoolLives(t *testing.T) {
	dir, lock, err := makeTempRoot(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if abandoned(dir) {
		t.Fatal("a living pool's folder was taken for abandoned")
	}
	if _, err := os.Stat(filepath.Join(dir, tempLockName+".new")); err == nil {
		t.Fatal("the lock file was left under its pending name")
	}
	lock.Close()
	if !abandoned(dir) {
		t.Fatal("a released folder was not taken for abandoned")
	}
}
