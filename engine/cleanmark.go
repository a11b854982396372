package engine

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	"convfiles/files"
)

// CleanMarkName is the file, in the data folder, that the last Store to
// close it leaves: which conversations a start-up need not walk (see
// cleanMark). Removing it makes the next start-up walk every file.
const CleanMarkName = files.ReservedPrefix + "clean"

// cleanMark is what a Store that reconciled at start-up and closed last,
// alone, knew: when its start-up began, when every conversation was
// checked against the index (Verified), and the index's newest event when
// it closed. Everything convfiles changes in a conversation's folder it
// changes by creating, renaming or removing entries, which moves the
// times of the folder that holds them (see changedAt), and so does any
// other program that adds, removes or renames a file, or sets a folder's
// times. So at the next start-up a conversation none of whose folders
// changed since Verified is as the index says, and its files need not be
// walked. A newest event other
// than LastEvent means the index changed after the mark was written (by
// a Store that crashed later), and nothing is skipped.
//
// What no folder's time shows is a file rewritten in place by another
// program; convfiles itself never does that (every write is a new file
// renamed into place).
type cleanMark struct {
	Verified  int64 `json:"verified"` // Unix nanoseconds
	LastEvent int64 `json:"last_event"`
}

// MarkMargin is how much earlier than Verified a folder's time still
// counts as a change: the kernel stamps folders from a coarse clock that
// may lag the time convfiles reads by a tick.
const MarkMargin = time.Second

// markClean writes the clean mark when this Store reconciled at start-up
// and is the last one open on its folder; it runs when the Store closes,
// after its removals finished. Any failure leaves no mark, which costs the
// next start-up a full reconciliation and nothing else.
func (s *Store) markClean() {
	if s.verified == 0 || s.lock == nil {
		return
	}
	start, err := openLock(s.root, startLockName)
	if err != nil {
		return
	}
	defer start.Close()
	if syscall.Flock(int(start.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // another Store is starting
	}
	if syscall.Flock(int(s.lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // another Store is open and may still write
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, last, err := s.opts.Index.EventRange(ctx)
	if err != nil {
		return
	}
	b, _ := json.Marshal(cleanMark{Verified: s.verified, LastEvent: last})
	tmp := CleanMarkName + ".tmp"
	if err := writeSynced(s.root, tmp, b); err != nil {
		s.root.Remove(tmp)
		return
	}
	if s.root.Rename(tmp, CleanMarkName) == nil {
		syncDir(s.root, ".")
	}
}

func writeSynced(r *os.Root, name string, b []byte) error {
	f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// takeCleanMark reads and removes the clean mark. It reports whether the
// mark holds for this start-up: it exists, and the index's newest event
// is the one it names.
func (s *Store) takeCleanMark(ctx context.Context) (cleanMark, bool) {
	b, err := s.root.ReadFile(CleanMarkName)
	if err != nil {
		return cleanMark{}, false
	}
	s.root.Remove(CleanMarkName)
	var m cleanMark
	if json.Unmarshal(b, &m) != nil || m.Verified <= 0 {
		return cleanMark{}, false
	}
	_, last, err := s.opts.Index.EventRange(ctx)
	return m, err == nil && last == m.LastEvent
}

// changedSince reports whether any folder of conversation id, its kept
// versions' included, was modified at or after t (less MarkMargin): only
// folders are read, never a file's metadata, and the walk stops at the
// first.
func (s *Store) changedSince(id string, t int64) (bool, error) {
	return folderChangedSince(s.root, id, t-int64(MarkMargin))
}

// folderChangedSince reports whether dir or a folder below it changed (see
// changedAt) at or after t. It reads each folder's entries a few hundred at a time,
// unsorted, so that a folder of 100,000 files costs no more memory than
// one of a hundred.
func folderChangedSince(r *os.Root, dir string, t int64) (bool, error) {
	f, err := r.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || changedAt(fi) >= t {
		return err == nil, err
	}
	var sub []string
	for {
		entries, err := f.ReadDir(256)
		for _, e := range entries {
			if e.IsDir() {
				sub = append(sub, path.Join(dir, e.Name()))
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, err
		}
	}
	f.Close()
	for _, d := range sub {
		if changed, err := folderChangedSince(r, d, t); err != nil || changed {
			return changed, err
		}
	}
	return false, nil
}

// sweepTop removes the leftovers of interrupted work directly in the data
// folder (a conversation's folder being removed), leaving the locks.
func sweepTop(r *os.Root) error {
	entries, err := fs.ReadDir(r.FS(), ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case !files.IsReserved(name), name == openLockName, name == startLockName, name == CleanMarkName:
		default:
			if err := r.RemoveAll(path.Clean(name)); err != nil {
				return err
			}
		}
	}
	return nil
}
